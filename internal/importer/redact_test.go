package importer

import (
	"encoding/base64"
	"errors"
	"net/url"
	"strings"
	"testing"
)

// An endpoint that echoes the secret back, raw or encoded, never gets it
// printed.
func TestRedactEveryForm(t *testing.T) {
	secret := "s3cr+t/Key=="
	msg := "raw " + secret + " query " + url.QueryEscape(secret) + " path " + url.PathEscape(secret) +
		" b64 " + base64.StdEncoding.EncodeToString([]byte(secret)) + " b64url " + base64.RawURLEncoding.EncodeToString([]byte(secret))
	got := RedactError(errors.New(msg), secret).Error()
	if strings.Contains(got, "s3cr") || strings.Contains(got, base64.RawStdEncoding.EncodeToString([]byte(secret))[:8]) || strings.Count(got, "[redacted]") != 5 {
		t.Errorf("redacted: %s", got)
	}
}
