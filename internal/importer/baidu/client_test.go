package baidu

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gpuscout/gpuscout/internal/importer/httpapi"
	"github.com/gpuscout/gpuscout/internal/importer/importertest"
)

// TestAnswerOverTheLimitIsRefusedOnce: a flavor list far larger than any
// real answer (a proxy, a wrong endpoint) is refused by name through the
// one API client, after a single request: asking again would only read
// another 16 MiB.
func TestAnswerOverTheLimitIsRefusedOnce(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		_, _ = io.Copy(w, &importertest.Endless{Prefix: `{"zoneResources":[],"pad":"`, Fill: 'x', N: httpapi.DefaultMaxBody, Suffix: `"}`})
	}))
	defer srv.Close()
	_, err := fetchImporter(srv.URL, "bj").Fetch(context.Background(), srv.Client(), nil)
	var le *httpapi.BodyLimitError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "baidu ListFlavorSpec") || strings.Contains(err.Error(), "JSON") {
		t.Fatalf("err = %v, want a *httpapi.BodyLimitError naming the request", err)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}
