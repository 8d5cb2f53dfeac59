package catalog

import (
	"fmt"
	"strings"
)

// MaxIdentifierLen is the longest identifier (provider, instance type,
// region, GPU ID) the catalog accepts, in bytes.
const MaxIdentifierLen = 128

// IsIdentifier reports whether v is a letter or digit followed by letters,
// digits and . _ + : - only (ASCII): the identifier rule of catalog files,
// which keeps markup, path segments, terminal escapes and spreadsheet
// formulas out of every face.
func IsIdentifier(v string) bool {
	if v == "" || !isAlnum(v[0]) {
		return false
	}
	for i := 1; i < len(v); i++ {
		if c := v[i]; !isAlnum(c) && c != '.' && c != '_' && c != '+' && c != ':' && c != '-' {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// CheckIdentifier returns why v is not a valid identifier (too long, a
// character outside IsIdentifier's set, or ".."), or "" when it is.
func CheckIdentifier(v string) string {
	switch {
	case len(v) > MaxIdentifierLen:
		return fmt.Sprintf("identifier is %d bytes long; at most %d", len(v), MaxIdentifierLen)
	case strings.Contains(v, ".."), !IsIdentifier(v):
		return fmt.Sprintf("identifier %q may hold only letters, digits and . _ - + : (no \"..\", slashes or spaces)", v)
	}
	return ""
}
