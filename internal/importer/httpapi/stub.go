package httpapi

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"sync"
)

// Stub is a transport for tests (after gh's httpmock Registry): each
// request takes the first unused reply registered for its method and path,
// the requests are recorded with their bodies, and Unused names the
// replies no request took, so a test checks that every stub was used.
type Stub struct {
	mu       sync.Mutex
	replies  []*StubReply
	Requests []StubRequest
}

// StubReply is one registered answer.
type StubReply struct {
	Method, Path string
	Status       int
	Header       http.Header
	Body         []byte
	// Err, when set, is returned instead of an answer (a network error).
	Err  error
	used bool
}

// StubRequest is a request the stub saw.
type StubRequest struct {
	*http.Request
	Body []byte
}

// Reply registers an answer to the next request of method and path.
func (s *Stub) Reply(method, path string, status int, body []byte) *StubReply {
	r := &StubReply{Method: method, Path: path, Status: status, Body: body, Header: http.Header{}}
	s.mu.Lock()
	s.replies = append(s.replies, r)
	s.mu.Unlock()
	return r
}

// Client is an *http.Client whose transport is s.
func (s *Stub) Client() *http.Client { return &http.Client{Transport: s} }

// RoundTrip implements http.RoundTripper.
func (s *Stub) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		req.Body.Close()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Requests = append(s.Requests, StubRequest{Request: req, Body: body})
	for _, r := range s.replies {
		if r.used || r.Method != req.Method || r.Path != req.URL.Path {
			continue
		}
		r.used = true
		if r.Err != nil {
			return nil, r.Err
		}
		return &http.Response{StatusCode: r.Status, Status: fmt.Sprintf("%d %s", r.Status, http.StatusText(r.Status)),
			Header: r.Header.Clone(), Body: io.NopCloser(bytes.NewReader(r.Body)), Request: req, ContentLength: int64(len(r.Body))}, nil
	}
	return nil, fmt.Errorf("no stub for %s %s", req.Method, req.URL.Path)
}

// Unused lists the replies no request took.
func (s *Stub) Unused() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, r := range s.replies {
		if !r.used {
			out = append(out, r.Method+" "+r.Path)
		}
	}
	return out
}
