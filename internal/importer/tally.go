package importer

import "fmt"

// MaxFailureShare is the share of a live fetch's requests that may fail
// (server errors, throttling that outlasts the retries, answers that are
// not the API's) before the whole fetch is an error: above it the result
// would be a partial snapshot that silently hides prices.
const MaxFailureShare = 0.05

// earlyFailures is how many failed requests end a fetch at once when
// they are the majority: a server that refuses everything should not be
// asked thousands of times.
const earlyFailures = 10

// FailureError is a live fetch that failed too often. First is the first
// failure, with the provider's own message (credentials redacted by the
// fetcher).
type FailureError struct {
	Source           string
	Failed, Requests int
	First            error
}

func (e *FailureError) Error() string {
	return fmt.Sprintf("%s: %d of %d requests failed; nothing was stored. First failure: %v", e.Source, e.Failed, e.Requests, e.First)
}

func (e *FailureError) Unwrap() error { return e.First }

// Tally counts a live fetch's requests, the ones answered, and the ones
// that failed for a reason other than "this item is not sold here", so
// that a fetch whose requests fail is an error instead of an empty or
// partial result.
type Tally struct {
	Source             string
	requests, answered int
	failed             int
	first              error
}

// Answered records a request that got a usable answer.
func (t *Tally) Answered() { t.requests++; t.answered++ }

// Declined records a request the API answered with its own error code for
// the item (not sold in the region, say): an expected, counted skip.
func (t *Tally) Declined(err error) {
	t.requests++
	if t.first == nil {
		t.first = err
	}
}

// Failed records a failed request. It returns an error when the fetch
// should stop now: at least 10 failures, and more than half the requests.
func (t *Tally) Failed(err error) error {
	t.requests++
	t.failed++
	if t.first == nil || t.failed == 1 {
		t.first = err
	}
	if t.failed >= earlyFailures && 2*t.failed > t.requests {
		return t.err()
	}
	return nil
}

// Err is the fetch's verdict at its end: an error when more than
// MaxFailureShare of the requests failed, or when requests were made and
// none was answered.
func (t *Tally) Err() error {
	if t.requests == 0 {
		return nil
	}
	if float64(t.failed) > MaxFailureShare*float64(t.requests) || t.answered == 0 {
		return t.err()
	}
	return nil
}

func (t *Tally) err() error {
	failed := t.failed
	if t.answered == 0 {
		failed = t.requests // nothing usable came back at all
	}
	return &FailureError{Source: t.Source, Failed: failed, Requests: t.requests, First: t.first}
}

// CallError is a provider API's error as the failure tally needs it.
type CallError interface {
	error
	// Fatal: the credentials or permissions were refused; stop at once.
	Fatal() bool
	// Declined: the API answered with its own error code for the item
	// asked about (say, a type not sold in the region), an expected skip.
	Declined() bool
	// ErrorCode is the API's error code (or "HTTP 503" and the like).
	ErrorCode() string
}

// Record counts a failed call: a declined one as a skip, any other as a
// failure, and returns an error when the fetch must stop (a fatal error,
// an error that is not a CallError, or a tally past its limit).
func (t *Tally) Record(skipped *Skips, err error, example string, ce CallError) error {
	if ce == nil || ce.Fatal() {
		return err
	}
	if ce.Declined() {
		t.Declined(err)
		skipped.Add("API error "+ce.ErrorCode(), example)
		return nil
	}
	skipped.Add("request failed: "+ce.ErrorCode(), example)
	return t.Failed(err)
}
