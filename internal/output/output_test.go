package output_test

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/output"
)

func grid() *output.Grid {
	g := &output.Grid{Headers: []string{"NAME", "PRICE"}, Align: []output.Align{output.Left, output.Right}}
	g.Add("腾讯云", "1.5")
	g.Add("aws", "21.958")
	g.Add("a|b, \"c\"", "3")
	return g
}

func TestTableAlignsWideCharacters(t *testing.T) {
	var b bytes.Buffer
	if err := output.WriteTable(&b, grid(), false); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	// 腾讯云 is three characters but six columns wide; right-aligned prices end in the same column.
	want := []string{
		"NAME       PRICE",
		"腾讯云       1.5",
		"aws       21.958",
		`a|b, "c"       3`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("table:\n%s\nwant:\n%s", b.String(), strings.Join(want, "\n"))
	}
}

func TestTTYHeaderIsBold(t *testing.T) {
	var b bytes.Buffer
	_ = output.WriteTable(&b, grid(), true)
	if !strings.HasPrefix(b.String(), "\x1b[1mNAME") {
		t.Errorf("no bold header on a terminal: %q", b.String())
	}
}

func TestCSVRoundTrips(t *testing.T) {
	var b bytes.Buffer
	if err := output.WriteCSV(&b, grid()); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil || len(recs) != 4 || recs[3][0] != `a|b, "c"` {
		t.Errorf("records %q, err %v", recs, err)
	}
}

func TestMarkdownEscapesPipes(t *testing.T) {
	var b bytes.Buffer
	_ = output.WriteMarkdown(&b, grid())
	if !strings.Contains(b.String(), `| a\|b, "c" | 3 |`) || !strings.Contains(b.String(), "|---|---:|") {
		t.Errorf("markdown:\n%s", b.String())
	}
}

func TestParseFormat(t *testing.T) {
	for _, s := range []string{"table", "json", "csv", "markdown", "md"} {
		if _, err := output.ParseFormat(s); err != nil {
			t.Errorf("ParseFormat(%q): %v", s, err)
		}
	}
	if _, err := output.ParseFormat("yaml"); err == nil {
		t.Error("yaml accepted")
	}
}

// TestSafeCell: cells a spreadsheet would run as formulas get a leading
// apostrophe (OWASP CSV injection); numbers, negative ones included, and
// ordinary text are left as they are.
func TestSafeCell(t *testing.T) {
	for in, want := range map[string]string{
		`=HYPERLINK("http://evil.example","x")`: `'=HYPERLINK("http://evil.example","x")`,
		"=1+1":                                  "'=1+1",
		"+cmd|' /C calc'!A0":                    "'+cmd|' /C calc'!A0",
		"-2+3":                                  "'-2+3",
		"@SUM(A1:A9)":                           "'@SUM(A1:A9)",
		"\t=1":                                  "'\t=1",
		"\r=1":                                  "'\r=1",
		"-":                                     "-",
		"+":                                     "+",
		"-12.5":                                 "-12.5",
		"-1,234":                                "-1,234",
		"-10.1%":                                "-10.1%",
		"+3%":                                   "+3%",
		"-1e-05":                                "-1e-05",
		"21.958":                                "21.958",
		"a=b":                                   "a=b",
		"":                                      "",
		"aws/p4d.24xlarge/us-east-1/x":          "aws/p4d.24xlarge/us-east-1/x",
		"-1-1":                                  "'-1-1",
		"- 1":                                   "'- 1",
	} {
		if got := output.SafeCell(in); got != want {
			t.Errorf("SafeCell(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCSVNeutralisesFormulas(t *testing.T) {
	g := &output.Grid{Headers: []string{"=NAME", "CHANGE"}}
	g.Add("@evil", "-10.1")
	g.Add("=1+1", "-1,234")
	var b bytes.Buffer
	if err := output.WriteCSV(&b, g); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"'=NAME", "CHANGE"}, {"'@evil", "-10.1"}, {"'=1+1", "-1,234"}}
	if fmt.Sprint(recs) != fmt.Sprint(want) {
		t.Errorf("CSV = %q, want %q", recs, want)
	}
}
