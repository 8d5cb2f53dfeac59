package importer

import (
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net/url"
	"sort"
	"strings"
)

// Snippet is the start of a non-JSON error body, on one line, for error
// messages.
func Snippet(b []byte) string {
	s := strings.Join(strings.Fields(string(b)), " ")
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

// RedactString replaces every occurrence of each secret in s with
// [redacted]: the raw secret and the forms an endpoint may echo it back in
// (in lower and upper case, as hex in lower and upper case, URL query
// and path encoding, standard and URL-safe base64, with and without
// padding). Secrets are the credentials of a request: the secret
// key, the key ID and the request's signature or Authorization header.
func RedactString(s string, secrets ...string) string {
	for _, form := range secretForms(secrets) {
		s = strings.ReplaceAll(s, form, "[redacted]")
	}
	return s
}

// secretForms is every secret and its encoded forms, longest first (so a
// whole Authorization header goes before the signature inside it).
func secretForms(secrets []string) []string {
	var forms []string
	for _, secret := range secrets {
		if secret == "" {
			continue
		}
		b := []byte(secret)
		hexed := hex.EncodeToString(b)
		forms = append(forms, secret, strings.ToLower(secret), strings.ToUpper(secret), hexed, strings.ToUpper(hexed),
			url.QueryEscape(secret), url.PathEscape(secret),
			base64.StdEncoding.EncodeToString(b), base64.URLEncoding.EncodeToString(b),
			base64.RawStdEncoding.EncodeToString(b), base64.RawURLEncoding.EncodeToString(b))
	}
	sort.SliceStable(forms, func(i, j int) bool { return len(forms[i]) > len(forms[j]) })
	return forms
}

// RedactError returns err, or an error with the same text minus every
// form of every secret when the text contains one.
func RedactError(err error, secrets ...string) error {
	if err == nil {
		return nil
	}
	if msg := RedactString(err.Error(), secrets...); msg != err.Error() {
		return errors.New(msg)
	}
	return err
}
