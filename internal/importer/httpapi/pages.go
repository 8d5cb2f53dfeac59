package httpapi

import (
	"context"
	"fmt"
	"iter"
	"net/url"
)

// DefaultMaxPages bounds a paged fetch (Pages): no price API of this kind
// answers in more pages; a server that keeps handing out cursors is
// stopped there.
const DefaultMaxPages = 1000

// PageLoopError is a paged API that handed back a cursor it had already
// given: following it would loop forever.
type PageLoopError struct {
	Source, Action string
	Page           int
}

func (e *PageLoopError) Error() string {
	return fmt.Sprintf("%s %s: page %d points back to a page already read: the API's paging loops", e.Source, e.Action, e.Page)
}

// PageCapError is a paged fetch that went past its page cap.
type PageCapError struct {
	Source, Action string
	Max            int
}

func (e *PageCapError) Error() string {
	return fmt.Sprintf("%s %s: more than %d pages, far beyond any real answer: stopped", e.Source, e.Action, e.Max)
}

// Pages sends first and then, while next returns another call, that call,
// yielding each answer. It stops at the first error (yielded once), when
// next returns false, when a call repeats one already made (a repeated
// cursor: *PageLoopError) and after maxPages pages (DefaultMaxPages when
// 0: *PageCapError).
func Pages(ctx context.Context, c *Client, first Call, maxPages int, next func(Answer) (Call, bool, error)) iter.Seq2[Answer, error] {
	if maxPages <= 0 {
		maxPages = DefaultMaxPages
	}
	return func(yield func(Answer, error) bool) {
		seen := map[string]bool{}
		call := first
		for page := 1; ; page++ {
			key := callKey(call)
			if seen[key] {
				yield(Answer{}, &PageLoopError{Source: c.Source, Action: call.Action, Page: page})
				return
			}
			if page > maxPages {
				yield(Answer{}, &PageCapError{Source: c.Source, Action: call.Action, Max: maxPages})
				return
			}
			seen[key] = true
			ans, err := c.Do(ctx, call)
			if err != nil {
				yield(Answer{}, err)
				return
			}
			if !yield(ans, nil) {
				return
			}
			nc, more, err := next(ans)
			if err != nil {
				yield(Answer{}, err)
				return
			}
			if !more {
				return
			}
			call = nc
		}
	}
}

// callKey identifies a call's request: method, path, query and body.
func callKey(c Call) string {
	q := url.Values(c.Query).Encode()
	return c.Method + " " + c.Path + "?" + c.RawQuery + "&" + q + "\x00" + string(c.Body)
}
