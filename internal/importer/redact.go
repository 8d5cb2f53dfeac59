package importer

import (
	"encoding/base64"
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

// RedactString replaces every occurrence of secret in s with [redacted]:
// the raw secret and the forms an endpoint may echo it back in (URL query
// and path encoding, standard and URL-safe base64, with and without
// padding).
func RedactString(s, secret string) string {
	if secret == "" {
		return s
	}
	for _, form := range secretForms(secret) {
		s = strings.ReplaceAll(s, form, "[redacted]")
	}
	return s
}

// secretForms is secret and its encoded forms, longest first.
func secretForms(secret string) []string {
	b := []byte(secret)
	forms := []string{secret, url.QueryEscape(secret), url.PathEscape(secret),
		base64.StdEncoding.EncodeToString(b), base64.URLEncoding.EncodeToString(b),
		base64.RawStdEncoding.EncodeToString(b), base64.RawURLEncoding.EncodeToString(b)}
	sort.Slice(forms, func(i, j int) bool { return len(forms[i]) > len(forms[j]) })
	return forms
}

// RedactError returns err, or an error with the same text minus every
// form of secret when the text contains one.
func RedactError(err error, secret string) error {
	if secret == "" {
		return err
	}
	if msg := RedactString(err.Error(), secret); msg != err.Error() {
		return errors.New(msg)
	}
	return err
}
