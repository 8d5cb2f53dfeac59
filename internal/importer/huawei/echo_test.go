package huawei

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestEchoedCredentialsAreRedacted: an endpoint that echoes the request's
// signature, a request ID carrying the key ID, and the secret in lower
// case, upper case and hex never gets them into the error gpuscout prints.
func TestEchoedCredentialsAreRedacted(t *testing.T) {
	for _, mode := range []string{"json", "plain"} {
		var auth string
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			auth = r.Header.Get("Authorization")
			sig := auth[strings.LastIndex(auth, "Signature=")+len("Signature="):]
			echo := "signature " + sig + " | lower " + strings.ToLower(testSK) + " | upper " + strings.ToUpper(testSK) +
				" | hex " + hex.EncodeToString([]byte(testSK)) + " | HEX " + strings.ToUpper(hex.EncodeToString([]byte(testSK))) + " | id " + strings.ToUpper(testAK)
			w.Header().Set("X-Request-Id", "req-"+testAK)
			if mode == "json" {
				b, _ := json.Marshal(map[string]any{"error_code": "APIG.0301", "error_msg": echo})
				w.WriteHeader(http.StatusUnauthorized)
				w.Write(b)
				return
			}
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprint(w, echo)
		}))
		imp := fetchImporter(srv.URL, "r1")
		imp.Attempts = 1
		_, err := imp.Fetch(context.Background(), srv.Client(), nil)
		srv.Close()
		if err == nil {
			t.Fatalf("%s: no error", mode)
		}
		msg := err.Error()
		sig := auth[strings.LastIndex(auth, "Signature=")+len("Signature="):]
		for what, secret := range map[string]string{"key ID": testAK, "signature": sig, "key": testSK, "key (lower)": strings.ToLower(testSK),
			"key (upper)": strings.ToUpper(testSK), "key (hex)": hex.EncodeToString([]byte(testSK)), "key ID (upper)": strings.ToUpper(testAK)} {
			if strings.Contains(msg, secret) {
				t.Errorf("%s: the error shows the %s: %s", mode, what, msg)
			}
		}
		if !strings.Contains(msg, "[redacted]") {
			t.Errorf("%s: nothing marked redacted: %s", mode, msg)
		}
	}
}
