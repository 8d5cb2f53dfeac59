package alibaba

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
// echoes the request back (as SignatureDoesNotMatch quotes the string it
// signed), in a JSON error message or a plain error body, never gets the
// AccessKey ID or the request's signature into the error gpuscout prints,
// in any encoding.
func TestEchoedCredentialsAreRedacted(t *testing.T) {
	for _, mode := range []string{"json", "plain"} {
		var sig string
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			sig = r.URL.Query().Get("Signature")
			echo := "server string to sign is:GET&%2F&" + url.QueryEscape(r.URL.RawQuery) + " | query " + r.URL.RawQuery +
				" | b64 id " + base64.StdEncoding.EncodeToString([]byte(testKeyID)) + " | signature " + sig
			if mode == "json" {
				b, _ := json.Marshal(map[string]string{"Code": "SignatureDoesNotMatch", "Message": echo, "RequestId": "req-1"})
				w.WriteHeader(http.StatusBadRequest)
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
		for what, secret := range map[string]string{"key ID": testKeyID, "signature": sig, "escaped signature": url.QueryEscape(sig),
			"secret": testSecret, "key ID (base64)": base64.StdEncoding.EncodeToString([]byte(testKeyID))} {
			if secret != "" && strings.Contains(msg, secret) {
				t.Errorf("%s: the error shows the %s: %s", mode, what, msg)
			}
		}
		if !strings.Contains(msg, "[redacted]") {
			t.Errorf("%s: nothing marked redacted: %s", mode, msg)
		}
	}
}
