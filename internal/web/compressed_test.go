package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// maxExplorerJS is the most gzipped script the explorer may load before
// its chart comes near the viewport: app.js alone (issue 27, item 10).
const maxExplorerJS = 60 << 10

// TestBundleSplit: the page script is small and holds no chart library
// (ECharts lives in charts.js, loaded only by pages with charts), and
// every bundled file has its brotli copy, smaller than its gzip.
func TestBundleSplit(t *testing.T) {
	app, err := fs.ReadFile(staticFS, "static/app.js")
	if err != nil {
		t.Skip("no bundle built (make assets)")
	}
	if n := len(gzipped(t, app)); n > maxExplorerJS {
		t.Errorf("app.js is %d bytes gzipped, more than %d", n, maxExplorerJS)
	} else {
		t.Logf("app.js: %d bytes, %d gzipped", len(app), n)
	}
	for _, marker := range []string{"echarts", "zrender", "ECharts"} {
		if bytes.Contains(app, []byte(marker)) {
			t.Errorf("app.js contains %q: the chart library belongs in charts.js", marker)
		}
	}
	charts, err := fs.ReadFile(staticFS, "static/charts.js")
	if err != nil {
		t.Fatal("charts.js is missing from the bundle")
	}
	if !bytes.Contains(charts, []byte("gpuscoutCharts")) {
		t.Error("charts.js does not register window.gpuscoutCharts")
	}
	for _, name := range []string{"app.js", "charts.js", "app.css"} {
		plain, _ := fs.ReadFile(staticFS, "static/"+name)
		br, err := fs.ReadFile(staticFS, "static/"+name+".br")
		if err != nil || len(br) == 0 {
			t.Errorf("%s has no brotli copy (%s.br): run make assets", name, name)
			continue
		}
		if gz := gzipped(t, plain); len(br) >= len(gz) {
			t.Errorf("%s.br is %d bytes, no smaller than gzip's %d", name, len(br), len(gz))
		}
	}
}

// TestBrotliCopiesMatch decompresses each .br with Node's zlib (the
// build's own) and compares it with the file: a stale copy would serve
// an old script to every browser that accepts br. Skipped without node.
func TestBrotliCopiesMatch(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("CI=true but no node on PATH")
		}
		t.Skip("no node to decompress brotli")
	}
	dir := t.TempDir()
	for _, name := range []string{"app.js", "charts.js", "app.css"} {
		plain, err := fs.ReadFile(staticFS, "static/"+name)
		if err != nil {
			t.Skip("no bundle built (make assets)")
		}
		br, _ := fs.ReadFile(staticFS, "static/"+name+".br")
		in := filepath.Join(dir, name+".br")
		if err := os.WriteFile(in, br, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(node, "-e", `process.stdout.write(require("zlib").brotliDecompressSync(require("fs").readFileSync(process.argv[1])))`, in).Output()
		if err != nil {
			t.Fatalf("%s.br does not decompress: %v", name, err)
		}
		if !bytes.Equal(out, plain) {
			t.Errorf("%s.br decompresses to %d bytes that differ from %s (%d bytes): run make assets", name, len(out), name, len(plain))
		}
	}
}

// TestPrecompressedEncodings: br where accepted (the build's copy), gzip
// otherwise, plain without either; q=0 refuses; each encoding has its own
// ETag and a matching If-None-Match gets 304; .br files are not served
// as files of their own.
func TestPrecompressedEncodings(t *testing.T) {
	if !HasAssets() {
		t.Skip("no bundle built (make assets)")
	}
	h := Precompressed(Static())
	br, _ := fs.ReadFile(staticFS, "static/app.js.br")
	plain, _ := fs.ReadFile(staticFS, "static/app.js")
	get := func(path, accept, inm string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodGet, path, nil)
		if accept != "" {
			r.Header.Set("Accept-Encoding", accept)
		}
		if inm != "" {
			r.Header.Set("If-None-Match", inm)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	etags := map[string]bool{}
	for _, c := range []struct{ accept, enc string }{
		{"gzip, deflate, br, zstd", "br"}, {"br;q=1.0, gzip;q=0.5", "br"}, {"gzip, br;q=0", "gzip"}, {"gzip", "gzip"}, {"", ""}, {"identity", ""},
	} {
		w := get("/app.js", c.accept, "")
		if got := w.Header().Get("Content-Encoding"); got != c.enc {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, want %q", c.accept, got, c.enc)
		}
		body := w.Body.Bytes()
		switch c.enc {
		case "br":
			if !bytes.Equal(body, br) {
				t.Errorf("Accept-Encoding %q: the body is not app.js.br", c.accept)
			}
		case "gzip":
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			body, _ = io.ReadAll(zr)
			fallthrough
		default:
			if !bytes.Equal(body, plain) {
				t.Errorf("Accept-Encoding %q: the body is not app.js", c.accept)
			}
		}
		etag := w.Header().Get("ETag")
		etags[c.enc+" "+etag] = true
		if w := get("/app.js", c.accept, etag); w.Code != http.StatusNotModified {
			t.Errorf("Accept-Encoding %q, If-None-Match %s: status %d, want 304", c.accept, etag, w.Code)
		}
	}
	if len(etags) != 3 {
		t.Errorf("want one ETag per encoding, got %v", etags)
	}
	if w := get("/app.js.br", "br", ""); w.Code != http.StatusNotFound {
		t.Errorf("/app.js.br: status %d, want 404", w.Code)
	}
}

func gzipped(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}
