package output

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// Width is the number of terminal columns s takes: two for each East Asian
// wide or full-width character (Chinese, Japanese and Korean characters,
// full-width punctuation such as ，and （), none for control characters,
// combining marks and format characters, one for any other. East Asian
// ambiguous characters (×, —, °) count one, as terminals show them unless
// set up for a CJK legacy encoding.
func Width(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		b := s[i]
		if b >= utf8.RuneSelf {
			return n + runesWidth(s[i:])
		}
		if b >= 0x20 && b != 0x7f {
			n++
		}
	}
	return n
}

func runesWidth(s string) int {
	n := 0
	for _, r := range s {
		n += runeWidth(r)
	}
	return n
}

func runeWidth(r rune) int {
	switch {
	case r < 0x20 || (r >= 0x7f && r < 0xa0):
		return 0
	case r < 0x300 && r != 0xad: // Latin (the soft hyphen is a format character)
		return 1
	case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
		return 0
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}
