package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/importer"
)

const token = "sk-live-0123456789abcdef"

var epoch = time.Date(2026, 12, 6, 5, 0, 0, 0, time.UTC)

// newClient is a client on a stub, whose waits are recorded instead of
// slept.
func newClient(s *Stub, waits *[]time.Duration) *Client {
	return &Client{Source: "demo", HTTP: s.Client(), Base: "https://api.example.com/v1", Sign: Bearer{Token: token},
		Now: func() time.Time { return epoch },
		Retry: Retry{Attempts: 3, Wait: time.Second, Sleep: func(_ context.Context, d time.Duration) error {
			*waits = append(*waits, d)
			return nil
		}}}
}

func unused(t *testing.T, s *Stub) {
	t.Helper()
	if u := s.Unused(); len(u) > 0 {
		t.Errorf("stubs never used: %v", u)
	}
}

// A user's import gets the answer, signed with their token, and knows
// when it was fetched.
func TestDoSignsAndAnswers(t *testing.T) {
	s := &Stub{}
	s.Reply("GET", "/v1/instance-types", 200, []byte(`{"data":{}}`))
	var waits []time.Duration
	ans, err := newClient(s, &waits).Do(context.Background(), Call{Action: "instance-types", Path: "/instance-types"})
	if err != nil {
		t.Fatal(err)
	}
	if string(ans.Body) != `{"data":{}}` || !ans.Fetched.Equal(epoch) {
		t.Errorf("answer %q fetched %v", ans.Body, ans.Fetched)
	}
	if got := s.Requests[0].Header.Get("Authorization"); got != "Bearer "+token {
		t.Errorf("Authorization %q", got)
	}
	unused(t, s)
}

// Throttling is waited out as the server asks (seconds or an HTTP date),
// server faults with doubling waits; a refused key is not retried.
func TestDoRetries(t *testing.T) {
	s := &Stub{}
	s.Reply("GET", "/v1/x", 429, nil).Header.Set("Retry-After", "7")
	s.Reply("GET", "/v1/x", 503, nil).Header.Set("Retry-After", epoch.Add(12*time.Second).Format(http.TimeFormat))
	s.Reply("GET", "/v1/x", 200, []byte("ok"))
	var waits []time.Duration
	c := newClient(s, &waits)
	if _, err := c.Do(context.Background(), Call{Action: "x", Path: "/x"}); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(waits) != "[7s 12s]" {
		t.Errorf("waits %v, want [7s 12s]", waits)
	}
	unused(t, s)

	s = &Stub{}
	for i := 0; i < 3; i++ {
		s.Reply("GET", "/v1/x", 500, []byte("busy"))
	}
	waits = nil
	_, err := newClient(s, &waits).Do(context.Background(), Call{Action: "x", Path: "/x"})
	if err == nil || !strings.Contains(err.Error(), "after 3 attempts") || fmt.Sprint(waits) != "[1s 2s]" {
		t.Errorf("server faults: %v, waits %v", err, waits)
	}
	unused(t, s)

	s = &Stub{}
	s.Reply("GET", "/v1/x", 401, []byte(`{"error":"bad key `+token+`"}`))
	waits = nil
	_, err = newClient(s, &waits).Do(context.Background(), Call{Action: "x", Path: "/x"})
	var ae *importer.APIError
	if !errors.As(err, &ae) || !ae.Fatal() || len(waits) != 0 || len(s.Requests) != 1 {
		t.Fatalf("refused key: %v (%d requests)", err, len(s.Requests))
	}
	if strings.Contains(err.Error(), token) || !strings.Contains(err.Error(), "[redacted]") {
		t.Errorf("echoed token not redacted: %v", err)
	}
	// An echo past the 200 characters a message keeps is not left cut
	// to a prefix of the token.
	s = &Stub{}
	s.Reply("GET", "/v1/x", 403, []byte(strings.Repeat("x", 190)+" "+token))
	_, err = newClient(s, &waits).Do(context.Background(), Call{Action: "x", Path: "/x"})
	if err == nil || strings.Contains(err.Error(), token[:8]) {
		t.Errorf("a cut echo leaves part of the token: %v", err)
	}
}

func TestRetryAfter(t *testing.T) {
	for _, c := range []struct {
		v    string
		want time.Duration
		ok   bool
	}{
		{"", 0, false}, {"3", 3 * time.Second, true}, {"-1", 0, false}, {"86400", MaxRetryAfter, true},
		{epoch.Add(5 * time.Second).Format(http.TimeFormat), 5 * time.Second, true},
		{epoch.Add(-time.Hour).Format(http.TimeFormat), 0, true}, {"soon", 0, false},
	} {
		if d, ok := RetryAfter(c.v, epoch); d != c.want || ok != c.ok {
			t.Errorf("RetryAfter(%q) = %v %v, want %v %v", c.v, d, ok, c.want, c.ok)
		}
	}
}

// A transport error names method, host and path but neither the query
// (which may hold a key) nor the token.
func TestTransportErrorsCarryNoURLOrSecret(t *testing.T) {
	s := &Stub{}
	for i := 0; i < 3; i++ {
		s.Reply("GET", "/v1/search", 0, nil).Err = errors.New("dial tcp: refused while sending " + token)
	}
	var waits []time.Duration
	_, err := newClient(s, &waits).Do(context.Background(), Call{Action: "search", Path: "/search",
		Query: map[string][]string{"api_key": {"query-key-0123456789"}}})
	var te *TransportError
	if !errors.As(err, &te) {
		t.Fatalf("err %T %v", err, err)
	}
	msg := err.Error()
	for _, bad := range []string{token, "query-key-0123456789", "api_key", "https://"} {
		if strings.Contains(msg, bad) {
			t.Errorf("error shows %q: %s", bad, msg)
		}
	}
	if !strings.Contains(msg, "GET api.example.com/v1/search") {
		t.Errorf("error does not say where: %s", msg)
	}
	unused(t, s)
}

// An answer past the cap is a named error, not memory.
func TestBodyCap(t *testing.T) {
	s := &Stub{}
	s.Reply("GET", "/v1/big", 200, []byte(strings.Repeat("x", 1025)))
	var waits []time.Duration
	c := newClient(s, &waits)
	c.MaxBody = 1024
	_, err := c.Do(context.Background(), Call{Action: "big", Path: "/big"})
	var be *BodyLimitError
	if !errors.As(err, &be) || be.Max != 1024 {
		t.Errorf("err %v, want a BodyLimitError", err)
	}
}

// Classify reads an error sent with HTTP 200 (GraphQL's errors array).
func TestClassifyReadsErrorsInOKAnswers(t *testing.T) {
	s := &Stub{}
	s.Reply("POST", "/v1/graphql", 200, []byte(`{"errors":[{"message":"bad `+token+`"}]}`))
	var waits []time.Duration
	c := newClient(s, &waits)
	c.Classify = func(status int, _ http.Header, body []byte) *importer.APIError {
		var v struct{ Errors []struct{ Message string } }
		if json.Unmarshal(body, &v) == nil && len(v.Errors) > 0 {
			return &importer.APIError{Code: "GRAPHQL", Message: v.Errors[0].Message}
		}
		return nil
	}
	_, err := c.Do(context.Background(), Call{Action: "gpuTypes", Method: "POST", Path: "/graphql", Body: []byte(`{}`)})
	var ae *importer.APIError
	if !errors.As(err, &ae) || ae.Code != "GRAPHQL" || ae.Action != "gpuTypes" || strings.Contains(err.Error(), token) {
		t.Errorf("err %v", err)
	}
}

// Pages follows cursors and stops on a repeated one or at the cap.
func TestPages(t *testing.T) {
	next := func(a Answer) (Call, bool, error) {
		var v struct{ Next string }
		if err := json.Unmarshal(a.Body, &v); err != nil {
			return Call{}, false, err
		}
		return Call{Action: "list", Path: "/list", Query: map[string][]string{"page": {v.Next}}}, v.Next != "", nil
	}
	run := func(bodies []string, max int) (int, error) {
		s := &Stub{}
		for _, b := range bodies {
			s.Reply("GET", "/v1/list", 200, []byte(b))
		}
		var waits []time.Duration
		n := 0
		for _, err := range Pages(context.Background(), newClient(s, &waits), Call{Action: "list", Path: "/list"}, max, next) {
			if err != nil {
				return n, err
			}
			n++
		}
		return n, nil
	}
	if n, err := run([]string{`{"Next":"a"}`, `{"Next":"b"}`, `{"Next":""}`}, 0); n != 3 || err != nil {
		t.Errorf("three pages: %d, %v", n, err)
	}
	var loop *PageLoopError
	if n, err := run([]string{`{"Next":"a"}`, `{"Next":"a"}`}, 0); n != 2 || !errors.As(err, &loop) {
		t.Errorf("repeated cursor: %d, %v", n, err)
	}
	var capped *PageCapError
	if n, err := run([]string{`{"Next":"a"}`, `{"Next":"b"}`}, 2); n != 2 || !errors.As(err, &capped) {
		t.Errorf("cap: %d, %v", n, err)
	}
}

// A next-page link an API hands back is followed as written: its query
// is sent byte for byte (not re-encoded or reordered), and a link that
// repeats is a paging loop.
func TestRawQuerySentAsWritten(t *testing.T) {
	const raw = "api-version=2023-01-01-preview&$filter=serviceName%20eq%20%27Virtual%20Machines%27&$skip=100"
	s := &Stub{}
	s.Reply("GET", "/v1/prices", 200, []byte(`{}`))
	s.Reply("GET", "/v1/prices", 200, []byte(`{}`))
	var waits []time.Duration
	c := newClient(s, &waits)
	if _, err := c.Do(context.Background(), Call{Action: "prices", Path: "/prices", RawQuery: raw}); err != nil {
		t.Fatal(err)
	}
	if got := s.Requests[0].URL.RawQuery; got != raw {
		t.Errorf("query sent %q, want %q", got, raw)
	}
	if _, err := c.Do(context.Background(), Call{Action: "prices", Path: "/prices", RawQuery: "b=2&a=1", Query: map[string][]string{"z": {"x y"}}}); err != nil {
		t.Fatal(err)
	}
	if got := s.Requests[1].URL.RawQuery; got != "b=2&a=1&z=x+y" {
		t.Errorf("query sent %q", got)
	}
	if callKey(Call{RawQuery: "$skip=100"}) == callKey(Call{RawQuery: "$skip=200"}) {
		t.Error("two raw queries read as one page")
	}
}

// A query that names what was asked (a region, an instance type) keeps
// those names readable in an error when the client says its query holds
// no credential; by default a long query value is taken for a key and
// redacted.
func TestPublicQueryKeepsNamesInErrors(t *testing.T) {
	const it = "ecs.gn7i-c8g1.2xlarge"
	for _, public := range []bool{false, true} {
		s := &Stub{}
		s.Reply("GET", "/v1/price", 400, []byte(`the instance type `+it+` is not sold here`))
		var waits []time.Duration
		c := newClient(s, &waits)
		c.PublicQuery = public
		_, err := c.Do(context.Background(), Call{Action: "price", Path: "/price", Query: map[string][]string{"InstanceType": {it}}})
		if err == nil {
			t.Fatal("no error")
		}
		if got := strings.Contains(err.Error(), it); got != public {
			t.Errorf("PublicQuery %v: error %q names the instance type: %v", public, err, got)
		}
		unused(t, s)
	}
}

// A refused key reads as refused even when the key ID is a short word
// that occurs inside the provider's code ("id" in "Forbidden"): the code
// is kept whole, so the error names it and still classifies; a real key
// echoed in the code is still redacted.
func TestShortSecretKeepsTheCode(t *testing.T) {
	for _, tc := range []struct{ keyID, code, want string }{
		{"id", "Forbidden.RAM", "Forbidden.RAM"},
		{"LTAI5tTestKeyId", "Bad.LTAI5tTestKeyId", "Bad.[redacted]"},
	} {
		s := &Stub{}
		s.Reply("GET", "/v1/price", 400, []byte(tc.code))
		var waits []time.Duration
		c := newClient(s, &waits)
		c.Sign = signerFunc(func(*http.Request, []byte) ([]string, error) { return []string{tc.keyID}, nil })
		c.Codes = &importer.APICodes{Source: "demo", Fatal: func(code string) bool { return strings.HasPrefix(code, "Forbidden") }}
		c.Classify = func(_ int, _ http.Header, body []byte) *importer.APIError {
			return &importer.APIError{Code: string(body)}
		}
		_, err := c.Do(context.Background(), Call{Action: "price", Path: "/price"})
		var ae *importer.APIError
		if !errors.As(err, &ae) || ae.Code != tc.want || (tc.keyID == "id") != ae.Fatal() {
			t.Errorf("key ID %q: error %v, want code %q", tc.keyID, err, tc.want)
		}
		unused(t, s)
	}
}

type signerFunc func(*http.Request, []byte) ([]string, error)

func (f signerFunc) Sign(r *http.Request, b []byte) ([]string, error) { return f(r, b) }

// A recorded answer longer than the cap is a ParseError naming the
// source; one within it is read whole; its time is the one the user gave,
// else the clock's.
func TestReadRecorded(t *testing.T) {
	b, err := ReadRecorded("example", strings.NewReader(`{"a":1}`))
	if err != nil || string(b) != `{"a":1}` {
		t.Fatalf("%q %v", b, err)
	}
	_, err = ReadRecorded("example", io.LimitReader(zeros{}, DefaultMaxBody+1))
	var pe *importer.ParseError
	if !errors.As(err, &pe) || pe.Source != "example" {
		t.Fatalf("over the cap: %v", err)
	}
	seen := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	now := time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC)
	if got := RecordedAt(seen, func() time.Time { return now }); !got.Equal(seen) {
		t.Errorf("with seen: %v", got)
	}
	if got := RecordedAt(time.Time{}, func() time.Time { return now }); !got.Equal(now) {
		t.Errorf("without seen: %v", got)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}
