package server

import "testing"

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
