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
	"strconv"
	"strings"
	"sync"
)

// Bundled are the static files served precompressed: the page script, the
// chart chunk (loaded only by pages with charts), the stylesheet and the
// icon.
var Bundled = []string{"app.js", "charts.js", "app.css", "favicon.svg"}

// packedAsset is one static file with its compressed forms.
type packedAsset struct {
	// br is the brotli copy written at build time (NAME.br beside the
	// file; nil when absent), gz the gzip copy made at first use.
	br, gz, plain []byte
	ctype         string
	etag          string
}

// Precompressed serves the bundled files compressed: brotli (the NAME.br
// the build wrote, best quality) to clients that accept br, else gzip
// (compressed once, at first use, at the best level) to clients that
// accept gzip, with an ETag per encoding; every other request goes to
// next.
func Precompressed(next http.Handler) http.Handler {
	var once sync.Once
	assets := map[string]*packedAsset{}
	load := func() {
		sub, err := fs.Sub(staticFS, "static")
		if err != nil {
			return
		}
		for _, name := range Bundled {
			b, err := fs.ReadFile(sub, name)
			if err != nil {
				continue
			}
			var buf bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
			zw.Write(b)
			zw.Close()
			sum := sha256.Sum256(b)
			a := &packedAsset{gz: buf.Bytes(), plain: b, ctype: mime.TypeByExtension(path.Ext(name)), etag: hex.EncodeToString(sum[:8])}
			if br, err := fs.ReadFile(sub, name+".br"); err == nil && len(br) > 0 {
				a.br = br
			}
			assets[name] = a
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		once.Do(load)
		a, ok := assets[strings.TrimPrefix(r.URL.Path, "/")]
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		body, enc := a.plain, ""
		switch {
		case a.br != nil && AcceptsEncoding(r, "br"):
			body, enc = a.br, "br"
		case AcceptsGzip(r):
			body, enc = a.gz, "gzip"
		}
		// Each encoding is a different representation: its own ETag.
		etag := `"` + a.etag + map[string]string{"": "", "br": "-br", "gzip": "-gz"}[enc] + `"`
		h := w.Header()
		h.Set("Cache-Control", "public, max-age=3600")
		h.Set("ETag", etag)
		h.Set("Vary", "Accept-Encoding")
		h.Set("Content-Type", a.ctype)
		if inm := r.Header.Get("If-None-Match"); inm != "" && (inm == etag || inm == `"`+a.etag+`"`) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		if enc != "" {
			h.Set("Content-Encoding", enc)
		}
		h.Set("Content-Length", strconv.Itoa(len(body)))
		if r.Method == http.MethodHead {
			return
		}
		w.Write(body)
	})
}

// AcceptsGzip reports whether the request's Accept-Encoding allows gzip.
func AcceptsGzip(r *http.Request) bool { return AcceptsEncoding(r, "gzip") }

// AcceptsEncoding reports whether the request's Accept-Encoding allows the
// content coding name (listed, and not with q=0).
func AcceptsEncoding(r *http.Request, name string) bool {
	ae := r.Header.Get("Accept-Encoding")
	if ae == "" {
		return false
	}
	for _, part := range strings.Split(ae, ",") {
		f := strings.Fields(strings.ReplaceAll(part, ";", " "))
		if len(f) > 0 && strings.EqualFold(f[0], name) {
			return len(f) < 2 || !isZeroQ(f[1])
		}
	}
	return false
}

// isZeroQ reports whether a q parameter ("q=0", "q=0.000") refuses.
func isZeroQ(p string) bool {
	v, ok := strings.CutPrefix(strings.ToLower(p), "q=")
	if !ok {
		return false
	}
	q, err := strconv.ParseFloat(v, 64)
	return err == nil && q == 0
}
