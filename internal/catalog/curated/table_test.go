package curated

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// referenceCheck is checkField as it was written first, with a regular
// expression and rune loops: the byte-level checks must answer as it does.
func referenceCheck(col, v string) string {
	if !utf8.ValidString(v) {
		return "not valid UTF-8"
	}
	for _, r := range v {
		if r != '\t' && unicode.IsControl(r) {
			return fmt.Sprintf("contains the control character %U", r)
		}
	}
	if !idColumns[col] {
		if n := utf8.RuneCountInString(v); n > maxTextLen {
			return fmt.Sprintf("is %d characters long; at most %d", n, maxTextLen)
		}
		return ""
	}
	switch {
	case v == "" || (v == "*" && (col == "region" || col == "instance_type")):
		return ""
	case len(v) > maxIDLen:
		return fmt.Sprintf("identifier is %d bytes long; at most %d", len(v), maxIDLen)
	case strings.Contains(v, ".."), !regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+:-]*$`).MatchString(v):
		return fmt.Sprintf("identifier %q may hold only letters, digits and . _ - + : (no \"..\", slashes or spaces)", v)
	}
	return ""
}

// FuzzCheckField holds checkField to referenceCheck for identifier and
// text columns, on any bytes.
func FuzzCheckField(f *testing.F) {
	for _, v := range []string{"", "*", "p5.48xlarge", "us-east-1", "a..b", "-x", "Standard_NC24ads_A100_v4",
		"包年包月", "tab\there", "bell\a", "del\x7f", "c1\u0085", "\xff\xfe", "a/b", "a b", "x:y+z", strings.Repeat("é", maxTextLen+1),
		strings.Repeat("a", maxIDLen+1)} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		for _, col := range []string{"region", "instance_type", "provider", "notes"} {
			if got, want := checkField(col, v), referenceCheck(col, v); got != want {
				t.Errorf("checkField(%q, %q) = %q, want %q", col, v, got, want)
			}
		}
	})
}
