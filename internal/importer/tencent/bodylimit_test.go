package tencent

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/importer/httpapi"
)

// TestAnswerOverTheLimitIsNamed: an answer larger than 16 MiB is refused
// as too large, not cut short and then reported as broken JSON.
func TestAnswerOverTheLimitIsNamed(t *testing.T) {
	big := `{"Response":{"RequestId":"r","Pad":"` + strings.Repeat("x", maxBody) + `"}}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(big))
	}))
	defer srv.Close()
	imp := fetchImporter(srv.URL)
	imp.Attempts = 1
	_, err := imp.Fetch(context.Background(), srv.Client(), nil)
	var le *httpapi.BodyLimitError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "longer than 16 MiB") || strings.Contains(err.Error(), "JSON") {
		t.Fatalf("err = %v, want a *BodyLimitError", err)
	}
}
