// Package importer is the import use case: it turns the providers' own
// published price sources into catalog values. One subpackage per source
// format does the parsing (Parse, from an io.Reader) and the fetching
// (Fetch, with a context and an *http.Client); this package holds what
// they share. Importers never touch storage: the sqlite package stores
// what they return.
package importer

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/gpuscout/gpuscout/internal/catalog"
)

// Result is what one import produced.
type Result struct {
	// Source names the importer: aws, aws-savings-plans, aws-spot-history,
	// aws-spot-advisor, azure, gcp, alibaba, tencent, skypilot.
	Source string
	// Offers carry Provider, InstanceName, RegionCode, Billing, Price and a
	// Source (kind official-api or third-party, the file or URL as Ref, the
	// source's own publication date as AsOf, and FetchedAt).
	Offers []*catalog.Offer
	// Bands are interruption-frequency bands (Spot Advisor).
	Bands []*catalog.InterruptionBand
	// Instances describe the machines the source prices, as the source
	// gives them (GPU name and count, vCPUs, memory), one per instance
	// type, with the same Source as the offers. Stored with the snapshot,
	// they let reads add instance types the curated catalog lacks
	// (catalog.Discover). Empty for sources that describe no machines.
	Instances []*catalog.DiscoveredInstance
	// Skipped counts what was left out, by reason, with a few examples.
	Skipped Skips
	// ListsCapacity: the source lists an offer only where it saw capacity
	// (a marketplace's offers, a cloud's regions with capacity now), so
	// how many offers it holds follows capacity, not completeness; the
	// store's shrink guard counts its instance types instead.
	ListsCapacity bool
}

// Skips counts skipped records by reason.
type Skips struct {
	counts   map[string]int
	examples map[string][]string
}

// maxSkipReasons bounds the distinct reasons a Skips keeps (reasons may
// quote the input); further ones are counted under OtherReasons.
const maxSkipReasons = 100

// maxExample bounds the length of a skip example.
const maxExample = 120

// OtherReasons counts skips beyond the first 100 distinct reasons.
const OtherReasons = "other reasons"

// Add records one skipped item.
func (s *Skips) Add(reason, example string) {
	if s.counts == nil {
		s.counts, s.examples = map[string]int{}, map[string][]string{}
	}
	if _, ok := s.counts[reason]; !ok && len(s.counts) >= maxSkipReasons {
		reason = OtherReasons
	}
	if len(reason) > maxExample {
		reason = reason[:maxExample] + "..."
	}
	if len(example) > maxExample {
		example = example[:maxExample] + "..."
	}
	reason, example = printable(reason), printable(example)
	s.counts[reason]++
	if len(s.examples[reason]) < 3 && example != "" {
		s.examples[reason] = append(s.examples[reason], example)
	}
}

// printable escapes control characters and invalid UTF-8 (terminal
// escapes in a hostile file) so that a skip line prints as it reads.
func printable(s string) string {
	for _, r := range s {
		if r == utf8.RuneError || unicode.IsControl(r) {
			q := strconv.QuoteToGraphic(s)
			return q[1 : len(q)-1]
		}
	}
	return s
}

// Total is the number of skipped items.
func (s Skips) Total() int {
	n := 0
	for _, c := range s.counts {
		n += c
	}
	return n
}

// Lines renders "N reason (e.g. a, b)" lines, most frequent first.
func (s Skips) Lines() []string { return s.LinesWith(nil) }

// LinesWith renders the lines as Lines does, passing each reason through
// name (to translate it) when name is not nil.
func (s Skips) LinesWith(name func(reason string) string) []string {
	type kv struct {
		k string
		n int
	}
	var all []kv
	for k, n := range s.counts {
		all = append(all, kv{k, n})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].n != all[j].n {
			return all[i].n > all[j].n
		}
		return all[i].k < all[j].k
	})
	var out []string
	for _, x := range all {
		reason := x.k
		if name != nil {
			reason = name(reason)
		}
		line := fmt.Sprintf("%d %s", x.n, reason)
		if ex := s.examples[x.k]; len(ex) > 0 {
			line += " (e.g. " + strings.Join(ex, ", ") + ")"
		}
		out = append(out, line)
	}
	return out
}

// ParseError locates a problem in a source: the source, the byte offset
// or line, and the field.
type ParseError struct {
	Source string
	// File is the file (or URL) read, when Source does not name it; the
	// import command sets it.
	File   string
	Record string // the record (an item index, an offer), when known
	Offset int64  // byte offset, when known
	Line   int    // line, when known (CSV)
	Field  string
	Err    error
}

func (e *ParseError) Error() string {
	var where []string
	if e.Record != "" {
		where = append(where, "record "+e.Record)
	}
	if e.Line > 0 {
		where = append(where, fmt.Sprintf("line %d", e.Line))
	}
	if e.Offset > 0 {
		where = append(where, fmt.Sprintf("byte %d", e.Offset))
	}
	msg := e.Source
	if e.File != "" && !strings.Contains(e.Source, e.File) {
		msg = e.File
		if e.Source != "" {
			msg += " (" + e.Source + ")"
		}
	}
	if len(where) > 0 {
		msg += " (" + strings.Join(where, ", ") + ")"
	}
	if e.Field != "" {
		msg += ": field " + e.Field
	}
	return msg + ": " + e.Err.Error()
}

func (e *ParseError) Unwrap() error { return e.Err }

// Progress receives progress of long imports: bytes read and records kept
// so far. It may be nil.
type Progress func(bytes int64, records int)

// Importer is one source format.
type Importer interface {
	// Name is the source name (aws, azure ...).
	Name() string
	// Parse reads a file or recorded response in the source's format.
	Parse(ctx context.Context, r io.Reader, p Progress) (*Result, error)
}

// Sink receives an import handed over one offer at a time (a Streamer's).
type Sink struct {
	// Read, when set, is called once the input is read, before the first
	// offer, with the result so far: the instances, bands and skipped
	// records (no offers). An error stops the import and is returned.
	Read func(res *Result) error
	// Offer is called with each offer, each offer ID once. It must not
	// keep o after it returns (the importer may reuse it); an error stops
	// the import and is returned.
	Offer func(o *catalog.Offer) error
}

// Streamer is an importer whose offers need not all be held in memory:
// Stream reads as Parse does but hands the offers to a Sink instead of
// returning them (the result's Offers stay empty).
type Streamer interface {
	Stream(ctx context.Context, r io.Reader, p Progress, sink Sink) (*Result, error)
}

// Fetcher fetches a live source.
type Fetcher interface {
	Fetch(ctx context.Context, c *http.Client, p Progress) (*Result, error)
}

// CountingReader counts bytes read and reports progress.
type CountingReader struct {
	R        io.Reader
	N        int64
	Progress Progress
	Records  func() int
	last     int64
}

// Read implements io.Reader.
func (c *CountingReader) Read(p []byte) (int, error) {
	n, err := c.R.Read(p)
	c.N += int64(n)
	if c.Progress != nil && c.N-c.last >= 1<<20 {
		c.last = c.N
		recs := 0
		if c.Records != nil {
			recs = c.Records()
		}
		c.Progress(c.N, recs)
	}
	return n, err
}

// Source builds the provenance of an imported figure.
func Source(kind catalog.SourceKind, ref string, asOf, fetched time.Time) catalog.Source {
	if asOf.IsZero() {
		asOf = fetched
	}
	return catalog.Source{Kind: kind, Ref: ref, AsOf: asOf.UTC().Truncate(24 * time.Hour), FetchedAt: fetched.UTC()}
}

// GetWithRetry performs a GET with retries and exponential backoff on
// network errors, 429 and 5xx responses, honouring ctx. The caller closes
// the body of the returned response.
func GetWithRetry(ctx context.Context, c *http.Client, url string, header http.Header, attempts int) (*http.Response, error) {
	if attempts < 1 {
		attempts = 1
	}
	backoff := 500 * time.Millisecond
	var last error
	for i := 0; i < attempts; i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		for k, v := range header {
			req.Header[k] = v
		}
		resp, err := c.Do(req)
		switch {
		case err != nil:
			last = err
		case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
			last = fmt.Errorf("GET %s: %s%s", url, resp.Status, bodyMessage(resp))
			if ra := resp.Header.Get("Retry-After"); ra != "" {
				if d, err := time.ParseDuration(ra + "s"); err == nil && d < 30*time.Second {
					backoff = d
				}
			}
			resp.Body.Close()
		case resp.StatusCode >= 400:
			msg := bodyMessage(resp)
			resp.Body.Close()
			return nil, fmt.Errorf("GET %s: %s%s", url, resp.Status, msg)
		default:
			return resp, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if i < attempts-1 {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(backoff):
			}
			backoff *= 2
		}
	}
	return nil, fmt.Errorf("after %d attempts: %w", attempts, last)
}

// bodyMessage is the start of an error response's body (the provider's
// own message), on one line, prefixed with ": "; empty when there is none.
func bodyMessage(resp *http.Response) string {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	if m := Snippet(b); m != "" {
		return ": " + m
	}
	return ""
}
