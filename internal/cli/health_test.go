package cli_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestHealth is the container's health check: exit 0 with the server's
// answer when /healthz says ok, non-zero otherwise.
func TestHealth(t *testing.T) {
	ok := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/healthz" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(`{"status":"ok"}`))
	}))
	defer ok.Close()
	out, errOut, code := exec(t, false, nil, "health", "--addr", ok.URL)
	if code != 0 || !strings.Contains(out, `"status":"ok"`) {
		t.Errorf("healthy server: %d %s %s", code, out, errOut)
	}
	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "loading", http.StatusServiceUnavailable)
	}))
	defer bad.Close()
	if _, errOut, code := exec(t, false, nil, "health", "--addr", strings.TrimPrefix(bad.URL, "http://")); code == 0 || !strings.Contains(errOut, "503") {
		t.Errorf("unhealthy server: %d %s", code, errOut)
	}
}
