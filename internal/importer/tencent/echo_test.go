package tencent

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// TestEchoedCredentialsAreRedacted (issue 25 item 13): an endpoint that
// echoes the request's headers back, in a JSON error message or a plain
// error body, never gets the key ID, the signature or the Authorization
// header into the error gpuscout prints, in any encoding.
func TestEchoedCredentialsAreRedacted(t *testing.T) {
	for _, mode := range []string{"json", "plain"} {
		var auth string
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			auth = r.Header.Get("Authorization")
			echo := "Authorization: " + auth + " | escaped " + url.QueryEscape(auth) + " | b64 " + base64.StdEncoding.EncodeToString([]byte(auth)) +
				" | id " + base64.StdEncoding.EncodeToString([]byte(testSecretID))
			if mode == "json" {
				b, _ := json.Marshal(map[string]any{"Response": map[string]any{"Error": map[string]string{"Code": "AuthFailure.SignatureFailure", "Message": echo}, "RequestId": "req-1"}})
				w.Write(b)
				return
			}
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprint(w, echo)
		}))
		imp := fetchImporter(srv.URL)
		imp.Attempts = 1
		_, err := imp.Fetch(context.Background(), srv.Client(), nil)
		srv.Close()
		if err == nil {
			t.Fatalf("%s: no error", mode)
		}
		msg := err.Error()
		sig := auth[strings.LastIndex(auth, "Signature=")+len("Signature="):]
		for what, secret := range map[string]string{"key ID": testSecretID, "signature": sig, "key": testSecretKey,
			"key ID (base64)": base64.StdEncoding.EncodeToString([]byte(testSecretID))} {
			if strings.Contains(msg, secret) {
				t.Errorf("%s: the error shows the %s: %s", mode, what, msg)
			}
		}
		if !strings.Contains(msg, "[redacted]") {
			t.Errorf("%s: nothing marked redacted: %s", mode, msg)
		}
	}
}
