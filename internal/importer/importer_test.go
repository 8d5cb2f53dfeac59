package importer

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

func TestGetWithRetryGivesTheProvidersMessage(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.WriteHeader(http.StatusForbidden)
		w.Write([]byte("{\"error\": {\"code\": 403,\n \"message\": \"API key not valid.\"}}"))
	}))
	defer srv.Close()
	_, err := GetWithRetry(context.Background(), srv.Client(), srv.URL+"/skus", nil, 3)
	if err == nil || !strings.Contains(err.Error(), "403 Forbidden") || !strings.Contains(err.Error(), `"message": "API key not valid."`) {
		t.Errorf("error %v", err)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("%d calls: a 403 is not retried", n)
	}
}
