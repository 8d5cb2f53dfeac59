package server

import (
	"net/http/httptest"
	"testing"
)

// TestCacheBoundedByBytes (issue 25 item 2): the response cache holds at
// most its byte budget, however many distinct URLs fill it.
func TestCacheBoundedByBytes(t *testing.T) {
	c := newResponseCache(2048, 4<<20, 64<<20)
	for i := range 300 {
		c.put(string(rune('a'+i%26))+string(rune(i)), &cachedResponse{status: 200, body: make([]byte, 4<<20)})
		if c.bytes > 64<<20 {
			t.Fatalf("after %d puts the cache holds %d bytes", i+1, c.bytes)
		}
	}
	if len(c.entries) != 16 || c.bytes != 64<<20 {
		t.Errorf("entries %d, bytes %d; want 16 and 64 MiB", len(c.entries), c.bytes)
	}
	c.clear()
	if c.bytes != 0 {
		t.Errorf("bytes after clear: %d", c.bytes)
	}
}

// TestRecorderDropsOversizeBodies: a response larger than the cache keeps
// is passed through without a copy growing beside it.
func TestRecorderDropsOversizeBodies(t *testing.T) {
	rec := &recorder{ResponseWriter: httptest.NewRecorder(), max: 1 << 10}
	chunk := make([]byte, 300)
	for range 10 {
		rec.Write(chunk)
	}
	if !rec.over || rec.body != nil {
		t.Errorf("over %v, %d bytes kept", rec.over, len(rec.body))
	}
	small := &recorder{ResponseWriter: httptest.NewRecorder(), max: 1 << 10}
	small.Write(chunk)
	small.Write(chunk)
	if small.over || len(small.body) != 600 {
		t.Errorf("small: over %v, %d bytes", small.over, len(small.body))
	}
}
