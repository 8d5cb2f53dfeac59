package server

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"strings"
	"sync"

	"github.com/gpuscout/gpuscout/internal/web"
)

var hdrVaryAE = []string{"Accept-Encoding"}

// compressible are the content types worth gzipping.
var compressible = []string{"text/html", "text/css", "text/csv", "text/plain", "application/json", "application/javascript", "text/javascript", "image/svg+xml"}

var gzipPool = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
	return w
}}

// gzipBytes compresses b (for the response cache, once per entry).
func gzipBytes(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzipPool.Get().(*gzip.Writer)
	zw.Reset(&buf)
	zw.Write(b)
	zw.Close()
	gzipPool.Put(zw)
	return buf.Bytes()
}

// compress gzips HTML, JSON, CSV, scripts and stylesheets for clients that
// accept it. Responses that already carry a Content-Encoding (precompressed
// assets, cached gzip bodies) pass through untouched.
func compress(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h := w.Header(); len(h["Vary"]) == 0 {
			h["Vary"] = hdrVaryAE // shared, as the security headers are
		} else if !strings.Contains(h.Get("Vary"), "Accept-Encoding") {
			h.Add("Vary", "Accept-Encoding")
		}
		if !web.AcceptsGzip(r) || r.Method == http.MethodHead {
			next.ServeHTTP(w, r)
			return
		}
		gw := &gzipWriter{ResponseWriter: w}
		next.ServeHTTP(gw, r)
		gw.close()
	})
}

type gzipWriter struct {
	http.ResponseWriter
	zw      *gzip.Writer
	decided bool
}

func (g *gzipWriter) WriteHeader(code int) {
	if !g.decided {
		g.decided = true
		h := g.Header()
		ct := h.Get("Content-Type")
		if h.Get("Content-Encoding") == "" && code != http.StatusNoContent && code != http.StatusNotModified && isCompressible(ct) {
			h.Del("Content-Length")
			h.Set("Content-Encoding", "gzip")
			g.zw = gzipPool.Get().(*gzip.Writer)
			g.zw.Reset(g.ResponseWriter)
		}
	}
	g.ResponseWriter.WriteHeader(code)
}

func (g *gzipWriter) Write(b []byte) (int, error) {
	if !g.decided {
		if g.Header().Get("Content-Type") == "" {
			g.Header().Set("Content-Type", http.DetectContentType(b))
		}
		g.WriteHeader(http.StatusOK)
	}
	if g.zw != nil {
		return g.zw.Write(b)
	}
	return g.ResponseWriter.Write(b)
}

func (g *gzipWriter) close() {
	if g.zw != nil {
		g.zw.Close()
		gzipPool.Put(g.zw)
		g.zw = nil
	}
}

// Flush sends what is compressed so far (streamed responses).
func (g *gzipWriter) Flush() {
	if g.zw != nil {
		g.zw.Flush()
	}
	http.NewResponseController(g.ResponseWriter).Flush()
}

// Unwrap returns the ResponseWriter it compresses into.
func (g *gzipWriter) Unwrap() http.ResponseWriter { return g.ResponseWriter }

func isCompressible(ct string) bool {
	ct = strings.ToLower(ct)
	for _, c := range compressible {
		if strings.HasPrefix(ct, c) {
			return true
		}
	}
	return false
}
