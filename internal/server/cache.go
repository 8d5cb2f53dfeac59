package server

import (
	"bytes"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/gpuscout/gpuscout/internal/web"
)

// responseCache keeps whole responses of idempotent GETs. Every answer the
// server gives is a pure function of the request URL, the language, the
// date and the loaded data, so a response can be replayed until the data is
// reloaded (Reload clears the cache). Entries are evicted oldest first.
type responseCache struct {
	mu      sync.Mutex
	max     int
	maxBody int
	// maxBytes bounds the bodies held in all, so that distinct URLs cannot
	// pin memory without limit; bytes is what is held now.
	maxBytes int
	bytes    int
	entries  map[string]*cachedResponse
	order    []string // insertion order, for eviction
	hits     atomic.Uint64
	misses   atomic.Uint64
}

type cachedResponse struct {
	status int
	header http.Header
	body   []byte
	// gz is body gzipped, made at the first hit that asks for gzip (a miss
	// is compressed on the fly; compressing it twice would double its cost).
	compressible bool
	gzOnce       sync.Once
	gz           []byte
}

// gzipped is the body gzipped, or nil for a response not worth it.
func (e *cachedResponse) gzipped() []byte {
	if !e.compressible {
		return nil
	}
	e.gzOnce.Do(func() { e.gz = gzipBytes(e.body) })
	return e.gz
}

func newResponseCache(maxEntries, maxBody, maxBytes int) *responseCache {
	return &responseCache{max: maxEntries, maxBody: maxBody, maxBytes: maxBytes, entries: map[string]*cachedResponse{}}
}

func (c *responseCache) get(key string) (*cachedResponse, bool) {
	c.mu.Lock()
	e, ok := c.entries[key]
	c.mu.Unlock()
	if ok {
		c.hits.Add(1)
	} else {
		c.misses.Add(1)
	}
	return e, ok
}

func (c *responseCache) put(key string, e *cachedResponse) {
	if len(e.body) > c.maxBody {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[key]; ok {
		return
	}
	for len(c.order) > 0 && (len(c.order) >= c.max || c.bytes+len(e.body) > c.maxBytes) {
		c.bytes -= len(c.entries[c.order[0]].body)
		delete(c.entries, c.order[0])
		c.order = c.order[1:]
	}
	c.entries[key] = e
	c.order = append(c.order, key)
	c.bytes += len(e.body)
}

// clear drops every entry (after a reload).
func (c *responseCache) clear() {
	c.mu.Lock()
	c.entries = map[string]*cachedResponse{}
	c.order = nil
	c.bytes = 0
	c.mu.Unlock()
}

// recorder captures a response while passing it through. A page comes in
// one write; its copy is the cache entry's body as it is (no buffer to
// regrow, no second copy to keep).
type recorder struct {
	http.ResponseWriter
	status int
	header http.Header
	body   []byte
	// max is the largest body worth keeping (the cache's maxBody); over
	// it the copy is dropped and the response is not cached.
	max  int
	over bool
}

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
		r.header = r.ResponseWriter.Header().Clone()
	}
	r.ResponseWriter.WriteHeader(code)
}

// Keep writes b and keeps it as the body if it is the first write, without
// a copy: the caller gives b up (web.Keeper).
func (r *recorder) Keep(b []byte) (int, error) {
	if r.body == nil && !r.over && len(b) <= r.max {
		if r.status == 0 {
			r.WriteHeader(http.StatusOK)
		}
		r.body = b
		return r.ResponseWriter.Write(b)
	}
	return r.Write(b)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.WriteHeader(http.StatusOK)
	}
	switch {
	case r.over:
	case len(r.body)+len(b) > r.max:
		r.body, r.over = nil, true
	case r.body == nil:
		r.body = bytes.Clone(b)
	default:
		r.body = append(r.body, b...)
	}
	return r.ResponseWriter.Write(b)
}

// cached serves a GET handler through the response cache. The key holds
// the request URI, the language the request resolves to and the day (pages
// mark prices by age); only 200 responses are kept.
func (s *Server) cached(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		key := r.URL.RequestURI() + "\x00" + string(requestLang(r)) + "\x00" + s.cfg.Now().UTC().Format("2006-01-02")
		if e, ok := s.cache.get(key); ok {
			for k, v := range e.header {
				w.Header()[k] = v
			}
			w.Header().Set("X-Cache", "hit")
			if gz := e.gzipped(); gz != nil && web.AcceptsGzip(r) {
				w.Header().Set("Content-Encoding", "gzip")
				w.WriteHeader(e.status)
				w.Write(gz)
				return
			}
			w.WriteHeader(e.status)
			w.Write(e.body)
			return
		}
		rec := &recorder{ResponseWriter: w, max: s.cache.maxBody}
		h(rec, r)
		if rec.status == http.StatusOK && !rec.over {
			e := &cachedResponse{status: rec.status, header: rec.header, body: rec.body}
			e.compressible = e.header.Get("Content-Encoding") == "" && isCompressible(e.header.Get("Content-Type"))
			s.cache.put(key, e)
		}
	}
}
