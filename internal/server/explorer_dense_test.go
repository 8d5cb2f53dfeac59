package server_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// explorerData is the explorer's JSON rows as maps by column name.
func explorerData(t *testing.T, body string) []map[string]string {
	t.Helper()
	const open = `<script type="application/json" id="offers-data">`
	i := strings.Index(body, open)
	if i < 0 {
		t.Fatal("no offers data")
	}
	blob := body[i+len(open):]
	blob = blob[:strings.Index(blob, "</script>")]
	var d struct {
		Cols []string   `json:"cols"`
		Rows [][]string `json:"rows"`
	}
	if err := json.Unmarshal([]byte(blob), &d); err != nil {
		t.Fatalf("offers data: %v", err)
	}
	out := make([]map[string]string, len(d.Rows))
	for i, r := range d.Rows {
		m := map[string]string{}
		for j, c := range d.Cols {
			if j < len(r) {
				m[c] = r[j]
			}
		}
		out[i] = m
	}
	return out
}

var isoDate = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// TestExplorerLeadsWithDatedPrices: a user opening the explorer for the
// first time sees prices they can quote first: of the first 50 rows none
// is undated or dated more than 12 months ago; the undated rows come after
// every dated one, and the page says how many there are, in English and
// Chinese. The table's first rows are the JSON's first rows.
func TestExplorerLeadsWithDatedPrices(t *testing.T) {
	srv := newServer(t)
	cutoff := now.AddDate(0, -12, 0).Format("2006-01-02")
	for _, lang := range []string{"en", "zh"} {
		body := get(t, srv, "/offers?lang="+lang).Body.String()
		rows := explorerData(t, body)
		dated, undated := 0, 0
		for i, r := range rows {
			if !isoDate.MatchString(r["as_of"]) {
				undated++
				continue
			}
			dated++
			if undated > 0 {
				t.Fatalf("%s: row %d (%s, %s) is dated but comes after %d undated rows", lang, i+1, r["id"], r["as_of"], undated)
			}
		}
		if undated == 0 {
			t.Fatalf("%s: the embedded catalog should hold undated prices for this test", lang)
		}
		if dated >= 50 {
			for i, r := range rows[:50] {
				if !isoDate.MatchString(r["as_of"]) || r["as_of"] < cutoff {
					t.Errorf("%s: row %d of a first visit is %s, priced %q (want dated on or after %s)", lang, i+1, r["id"], r["as_of"], cutoff)
				}
			}
		}
		note := map[string]string{"en": " undated prices listed after the dated ones.", "zh": " 条无日期的价格排在有日期的价格之后。"}[lang]
		if want := itoa(undated) + note; !strings.Contains(body, want) {
			t.Errorf("%s: the page does not say %q", lang, want)
		}
		trs := regexp.MustCompile(`<tr data-offer="([^"]+)"`).FindAllStringSubmatch(body, 50)
		for i, m := range trs {
			if m[1] != rows[i]["id"] {
				t.Fatalf("%s: table row %d is %s, JSON row %s", lang, i+1, m[1], rows[i]["id"])
			}
		}
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
