package server_test

import (
	"context"
	"strings"
	"testing"
)

// TestClaimsPage lists every seed-article claim with its verdict in both
// languages, filters by ?verdict=, and answers an unknown verdict with a
// 400 page that says so in the page's language.
func TestClaimsPage(t *testing.T) {
	srv := newServer(t)
	d, err := loadEmbedded(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	all := d.Catalog.Claims()
	wrong := 0
	for _, c := range all {
		if c.Verdict == "wrong" {
			wrong++
		}
	}
	if len(all) == 0 || wrong == 0 {
		t.Fatalf("the catalog has %d claims, %d wrong: the test needs both", len(all), wrong)
	}
	for _, tc := range []struct{ lang, title, verdict string }{
		{"en", "The seed articles&#39; claims, checked", "Partly correct"},
		{"zh", "种子文章中的说法及核查结论", "部分正确"},
	} {
		rec := get(t, srv, "/claims?lang="+tc.lang)
		body := rec.Body.String()
		if rec.Code != 200 {
			t.Fatalf("%s: status %d: %s", tc.lang, rec.Code, trim(rec.Body.Bytes()))
		}
		for _, want := range []string{tc.title, tc.verdict, `href="/claims"`, all[0].ID} {
			if !strings.Contains(body, want) {
				t.Errorf("%s: the page lacks %q", tc.lang, want)
			}
		}
		if n := strings.Count(body, "data-claim="); n != len(all) {
			t.Errorf("%s: %d claims shown, the catalog has %d", tc.lang, n, len(all))
		}
		rec = get(t, srv, "/claims?verdict=wrong&lang="+tc.lang)
		body = rec.Body.String()
		if n := strings.Count(body, "data-claim="); n != wrong || strings.Count(body, `data-verdict="wrong"`) != wrong {
			t.Errorf("%s: ?verdict=wrong shows %d claims, want the %d wrong ones", tc.lang, n, wrong)
		}
	}
	for lang, msg := range map[string]string{"en": "Unknown verdict", "zh": "未知的结论"} {
		rec := get(t, srv, "/claims?verdict=maybe&lang="+lang)
		if rec.Code != 400 {
			t.Errorf("%s: ?verdict=maybe: status %d, want 400", lang, rec.Code)
		}
		if body := rec.Body.String(); !strings.Contains(body, msg) || !strings.Contains(body, `data-error-field="verdict"`) {
			t.Errorf("%s: ?verdict=maybe: the page does not say %q", lang, msg)
		}
	}
}
