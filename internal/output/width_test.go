package output_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/output"
	"github.com/mattn/go-runewidth"
)

// reference is the width library tables used before output.Width, with
// ambiguous characters one column wide (a terminal not set up for CJK).
func reference() *runewidth.Condition {
	c := runewidth.NewCondition()
	c.EastAsianWidth = false
	return c
}

// Width agrees with the reference on every character of the scripts and
// symbols gpuscout's output uses: Latin, Greek, Cyrillic, punctuation,
// arrows, box drawing, CJK, kana, hangul and full-width forms.
func TestWidthMatchesReferenceOnTextRanges(t *testing.T) {
	ref := reference()
	for _, rg := range [][2]rune{{0x20, 0x24f}, {0x370, 0x52f}, {0x2000, 0x2027}, {0x2030, 0x22ff}, {0x2500, 0x25ff},
		{0x3000, 0x30ff}, {0x3400, 0x4dbf}, {0x4e00, 0x9fff}, {0xac00, 0xd7a3}, {0xf900, 0xfaff}, {0xfe30, 0xfe4f}, {0xff00, 0xffef}} {
		for r := rg[0]; r <= rg[1]; r++ {
			if !utf8.ValidRune(r) {
				continue
			}
			s := string(r)
			if got, want := output.Width(s), ref.StringWidth(s); got != want {
				t.Errorf("Width(%U %q) = %d, want %d", r, s, got, want)
			}
		}
	}
}

// Every message gpuscout prints, in English and Chinese, measures as the
// reference measures it.
func TestWidthMatchesReferenceOnMessages(t *testing.T) {
	ref := reference()
	n := 0
	for _, l := range []i18n.Lang{i18n.EN, i18n.ZH} {
		p := i18n.NewPrinter(l)
		for _, k := range i18n.Keys(l) {
			s := p.T(k)
			n++
			if got, want := output.Width(s), ref.StringWidth(s); got != want {
				t.Errorf("%s %s: Width(%q) = %d, want %d", l, k, s, got, want)
			}
		}
	}
	if n < 1000 {
		t.Errorf("only %d messages", n)
	}
}

func TestWidthCounts(t *testing.T) {
	for s, want := range map[string]int{"": 0, "aws": 3, "腾讯云": 6, "按量计费 on-demand": 8 + 10, "（包年包月）": 12, "8× H100": 7,
		"e\u0301": 1, "a\tb\x1b": 2, "soft\u00adhyphen": 10, "zero\u200bwidth": 9} {
		if got := output.Width(s); got != want {
			t.Errorf("Width(%q) = %d, want %d", s, got, want)
		}
	}
}

// A Chinese table lines up: every row's second column starts at the same
// terminal column.
func TestTableAlignsChineseColumns(t *testing.T) {
	g := &output.Grid{Headers: []string{"云厂商", "计费方式", "价格"}, Align: []output.Align{output.Left, output.Left, output.Right}}
	g.Add("阿里云", "包年包月", "1.5")
	g.Add("aws", "按量计费 on-demand", "21.958")
	g.Add("腾讯云", "竞价实例（spot）", "3")
	var b strings.Builder
	if err := output.WriteTable(&b, g, false); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	col := -1
	for _, l := range lines {
		prefix := l[:strings.IndexAny(l, "包按竞计")]
		if c := output.Width(prefix); col == -1 {
			col = c
		} else if c != col {
			t.Errorf("second column of %q starts at %d, want %d:\n%s", l, c, col, b.String())
		}
	}
	if col != output.Width("云厂商")+2 {
		t.Errorf("second column at %d", col)
	}
}

func BenchmarkWidth(b *testing.B) {
	cells := []string{"aws", "p5.48xlarge", "us-east-1", "腾讯云", "按量计费 on-demand", "8× H100-SXM-80GB"}
	for b.Loop() {
		for _, c := range cells {
			output.Width(c)
		}
	}
}
