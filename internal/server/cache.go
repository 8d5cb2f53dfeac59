package server

import (
	"bytes"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

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
	// bodyLen is body's Content-Length value, made once: a hit with a
	// length is sent in one piece, not chunked.
	bodyLen []string
	// gz is body gzipped, made at the first hit that asks for gzip (a miss
	// is compressed on the fly; compressing it twice would double its cost).
	compressible bool
	gzOnce       sync.Once
	gz           []byte
	gzLen        []string
}

// gzipped is the body gzipped, or nil for a response not worth it.
func (e *cachedResponse) gzipped() []byte {
	if !e.compressible {
		return nil
	}
	e.gzOnce.Do(func() {
		e.gz = gzipBytes(e.body)
		e.gzLen = []string{strconv.Itoa(len(e.gz))}
	})
	return e.gz
}

func newResponseCache(maxEntries, maxBody, maxBytes int) *responseCache {
	return &responseCache{max: maxEntries, maxBody: maxBody, maxBytes: maxBytes, entries: map[string]*cachedResponse{}}
}

// get looks key up (a byte slice, so that a hit builds no string).
func (c *responseCache) get(key []byte) (*cachedResponse, bool) {
	c.mu.Lock()
	e, ok := c.entries[string(key)]
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

// hdrHit marks a response replayed from the cache.
var (
	hdrHit  = []string{"hit"}
	hdrGzip = []string{"gzip"}
)

// appendCacheKey appends the cache key of r: its request URI, the language
// it resolves to and the day (pages mark prices by age), without
// allocating for an ordinary URL.
func appendCacheKey(b []byte, r *http.Request, now time.Time) []byte {
	if u := r.URL; u.Opaque == "" && !u.ForceQuery {
		if p := u.EscapedPath(); p != "" {
			b = append(b, p...)
		} else {
			b = append(b, '/')
		}
		if u.RawQuery != "" {
			b = append(b, '?')
			b = append(b, u.RawQuery...)
		}
	} else {
		b = append(b, u.RequestURI()...)
	}
	b = append(b, 0)
	b = append(b, requestLang(r)...)
	b = append(b, 0)
	return now.UTC().AppendFormat(b, "2006-01-02")
}

// cached serves a GET handler through the response cache (see
// appendCacheKey); only 200 responses are kept. A hit copies no header
// value and builds no string: it is what the cached API's throughput
// against a static file server depends on (docs/benchmarks.md).
func (s *Server) cached(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var buf [256]byte
		key := appendCacheKey(buf[:0], r, s.cfg.Now())
		if e, ok := s.cache.get(key); ok {
			hd := w.Header()
			for k, v := range e.header {
				hd[k] = v
			}
			hd["X-Cache"] = hdrHit
			if gz := e.gzipped(); gz != nil && web.AcceptsGzip(r) {
				hd["Content-Encoding"] = hdrGzip
				hd["Content-Length"] = e.gzLen
				if c := oneWriteConnOf(r); c != nil {
					sendHeld(c, w, e.status, gz)
					return
				}
				w.WriteHeader(e.status)
				w.Write(gz)
				return
			}
			hd["Content-Length"] = e.bodyLen
			if c := oneWriteConnOf(r); c != nil {
				sendHeld(c, w, e.status, e.body)
				return
			}
			w.WriteHeader(e.status)
			w.Write(e.body)
			return
		}
		rec := &recorder{ResponseWriter: w, max: s.cache.maxBody}
		h(rec, r)
		if rec.status == http.StatusOK && !rec.over {
			e := &cachedResponse{status: rec.status, header: rec.header, body: rec.body, bodyLen: []string{strconv.Itoa(len(rec.body))}}
			e.compressible = e.header.Get("Content-Encoding") == "" && isCompressible(e.header.Get("Content-Type"))
			s.cache.put(string(key), e)
		}
	}
}
