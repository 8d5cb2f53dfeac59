package curated_test

import (
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/gpuscout/gpuscout/internal/catalog/curated"
)

// TestClaimsHaveChineseTexts: every seed-article claim carries Chinese
// claimed, actual and evidence texts, and the Chinese evidence keeps every
// URL and every commit-pinned file reference of the English one.
func TestClaimsHaveChineseTexts(t *testing.T) {
	ds, err := curated.LoadEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	han := func(s string) bool {
		return strings.IndexFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) }) >= 0
	}
	cite := regexp.MustCompile(`https?://\S+|[\w./-]+@[0-9a-f]{7,}`)
	claims := ds.Catalog.Claims()
	if len(claims) == 0 {
		t.Fatal("no claims")
	}
	for _, c := range claims {
		// claimed_zh may be figures only and evidence_zh references only
		// (they stay as written); actual_zh is always a sentence.
		if c.ClaimedZH == "" || c.EvidenceZH == "" || !han(c.ActualZH) {
			t.Errorf("claim %s: Chinese texts missing: claimed_zh %q, actual_zh %q, evidence_zh %q", c.ID, c.ClaimedZH, c.ActualZH, c.EvidenceZH)
		}
		for _, ref := range cite.FindAllString(c.Evidence, -1) {
			ref = strings.TrimRight(ref, ".,;)")
			if !strings.Contains(c.EvidenceZH, ref) {
				t.Errorf("claim %s: evidence_zh drops %q", c.ID, ref)
			}
		}
	}
}
