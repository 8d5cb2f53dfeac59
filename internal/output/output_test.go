package output_test

import (
	"bytes"
	"encoding/csv"
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
