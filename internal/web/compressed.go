package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"sync"
)

// gzAsset is one static file compressed once.
type gzAsset struct {
	gz, plain []byte
	ctype     string
	etag      string
}

// Precompressed serves the bundled script, stylesheet and icon gzipped
// (compressed once, at first use, at the best level) to clients that accept
// gzip, with an ETag; every other request goes to next.
func Precompressed(next http.Handler) http.Handler {
	var once sync.Once
	assets := map[string]*gzAsset{}
	load := func() {
		sub, err := fs.Sub(staticFS, "static")
		if err != nil {
			return
		}
		for _, name := range []string{"app.js", "app.css", "favicon.svg"} {
			b, err := fs.ReadFile(sub, name)
			if err != nil {
				continue
			}
			var buf bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
			zw.Write(b)
			zw.Close()
			sum := sha256.Sum256(b)
			assets[name] = &gzAsset{gz: buf.Bytes(), plain: b, ctype: mime.TypeByExtension(path.Ext(name)), etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		once.Do(load)
		a, ok := assets[strings.TrimPrefix(r.URL.Path, "/")]
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		h := w.Header()
		h.Set("Cache-Control", "public, max-age=3600")
		h.Set("ETag", a.etag)
		h.Set("Vary", "Accept-Encoding")
		h.Set("Content-Type", a.ctype)
		if r.Header.Get("If-None-Match") == a.etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		body := a.plain
		if AcceptsGzip(r) {
			h.Set("Content-Encoding", "gzip")
			body = a.gz
		}
		w.Write(body)
	})
}

// AcceptsGzip reports whether the request's Accept-Encoding allows gzip.
func AcceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		f := strings.Fields(strings.ReplaceAll(part, ";", " "))
		if len(f) > 0 && strings.EqualFold(f[0], "gzip") {
			return len(f) < 2 || (f[1] != "q=0" && f[1] != "q=0.0")
		}
	}
	return false
}
