package importer

import (
	"errors"
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

// RedactString replaces every occurrence of secret in s with [redacted].
func RedactString(s, secret string) string {
	if secret != "" {
		s = strings.ReplaceAll(s, secret, "[redacted]")
	}
	return s
}

// RedactError returns err, or an error with the same text minus secret when
// the text contains it.
func RedactError(err error, secret string) error {
	if secret == "" || !strings.Contains(err.Error(), secret) {
		return err
	}
	return errors.New(RedactString(err.Error(), secret))
}
