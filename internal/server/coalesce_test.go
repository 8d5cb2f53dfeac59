package server_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/server"
)

// serveTCP serves a server of its own on a loopback port through
// ListenAndServe (the path `gpuscout serve` takes) and returns its
// address; the server stops when the test ends. Not the shared test
// server: stopping a server leaves it draining (/readyz answers 503).
func serveTCP(t *testing.T) string {
	t.Helper()
	srv, err := server.New(context.Background(), server.Config{Load: loadEmbedded, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() { done <- srv.ListenAndServe(ctx, "127.0.0.1:0", func(a net.Addr) { addrc <- a }) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			t.Error("server did not stop")
		}
	})
	return (<-addrc).String()
}

// readResponses reads n responses from br, each a request of method to
// the same target, and returns their bodies.
func readResponses(t *testing.T, br *bufio.Reader, method string, n int) [][]byte {
	t.Helper()
	var bodies [][]byte
	for i := 0; i < n; i++ {
		resp, err := http.ReadResponse(br, &http.Request{Method: method})
		if err != nil {
			t.Fatalf("response %d: %v", i+1, err)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatalf("response %d body: %v", i+1, err)
		}
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("response %d: HTTP %d", i+1, resp.StatusCode)
		}
		if method == "GET" && resp.Header.Get("X-Cache") == "hit" && resp.ContentLength != int64(len(b)) {
			t.Fatalf("response %d: Content-Length %d, body %d bytes", i+1, resp.ContentLength, len(b))
		}
		bodies = append(bodies, b)
	}
	return bodies
}

// TestCachedAnswersOverOneConnection: are cached answers sent in one
// write still whole, in order and on a connection that stays usable, when
// a client pipelines requests, mixes HEAD, gzip and uncached requests on
// one keep-alive connection?
func TestCachedAnswersOverOneConnection(t *testing.T) {
	addr := serveTCP(t)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(60 * time.Second))
	br := bufio.NewReader(c)
	req := func(method, target, extra string) string {
		return method + " " + target + " HTTP/1.1\r\nHost: " + addr + "\r\n" + extra + "\r\n"
	}
	// The first answer fills the cache; the next ones are hits.
	io.WriteString(c, req("GET", cachedAPITarget, ""))
	want := readResponses(t, br, "GET", 1)[0]
	if len(want) < 8<<10 {
		t.Fatalf("the cached answer is %d bytes; the test needs one larger than net/http's 4 KiB buffer", len(want))
	}
	// Five requests in one write: hits, a HEAD, a gzip hit, a miss.
	io.WriteString(c, req("GET", cachedAPITarget, "")+req("HEAD", cachedAPITarget, "")+
		req("GET", cachedAPITarget, "Accept-Encoding: gzip\r\n")+req("GET", "/api/v1/gpus?gpu=L4", "")+
		req("GET", cachedAPITarget, ""))
	got := readResponses(t, br, "GET", 1)
	got = append(got, readResponses(t, br, "HEAD", 1)...)
	resp, err := http.ReadResponse(br, &http.Request{Method: "GET"})
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(resp.Body)
	if err != nil {
		t.Fatalf("gzip answer: %v", err)
	}
	unzipped, err := io.ReadAll(zr)
	resp.Body.Close()
	if err != nil {
		t.Fatalf("gzip answer: %v", err)
	}
	other := readResponses(t, br, "GET", 2)
	if !bytes.Equal(got[0], want) || !bytes.Equal(other[1], want) {
		t.Error("a cached answer differs from the first")
	}
	if len(got[1]) != 0 {
		t.Errorf("HEAD answered %d body bytes", len(got[1]))
	}
	if !bytes.Equal(unzipped, want) {
		t.Error("the gzip answer does not unpack to the same JSON")
	}
	if !strings.Contains(string(other[0]), `"L4"`) {
		t.Errorf("the uncached request in between got %.80q", other[0])
	}
}

// TestCachedAnswerIsOneWrite: does a cached answer larger than net/http's
// 4 KiB write buffer leave the server in one system call? net/http alone
// sends the header and first 4 KiB in one write(2) and the rest in a
// second. Counted from /proc/self/io's write calls (writev included) of
// this process, whose client side sends each request in one write.
func TestCachedAnswerIsOneWrite(t *testing.T) {
	if _, err := os.ReadFile("/proc/self/io"); err != nil {
		t.Skip("needs /proc/self/io (Linux):", err)
	}
	addr := serveTCP(t)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(60 * time.Second))
	br := bufio.NewReader(c)
	request := "GET " + cachedAPITarget + " HTTP/1.1\r\nHost: " + addr + "\r\n\r\n"
	io.WriteString(c, request)
	readResponses(t, br, "GET", 1) // fills the cache
	const n = 200
	before := writeCalls(t)
	for i := 0; i < n; i++ {
		io.WriteString(c, request)
		readResponses(t, br, "GET", 1)
	}
	calls := writeCalls(t) - before
	// n for the client's requests and n for the answers, with room for
	// another goroutine's few writes (the test log).
	t.Logf("%d write calls for %d cached answers (client's requests included)", calls, n)
	if calls > 2*n+n/10 {
		t.Errorf("%d write calls for %d requests and answers: the server writes a cached answer in %.1f calls, want 1",
			calls, n, float64(calls-n)/n)
	}
}

// writeCalls is this process's count of write system calls so far.
func writeCalls(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "syscw: "); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				t.Fatalf("/proc/self/io: %q: %v", line, err)
			}
			return n
		}
	}
	t.Fatalf("/proc/self/io has no syscw line:\n%s", b)
	return 0
}
