package catalog

import (
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
)

// refSuggest is the plain definition Suggest must agree with: full edit
// distance on normalised names, kept within a third of the candidate's
// length (at least 2) or when the name is a prefix of it.
func refSuggest(name string, candidates []string, n int) []string {
	dist := func(a, b []rune) int {
		prev := make([]int, len(b)+1)
		for j := range prev {
			prev[j] = j
		}
		for i := 1; i <= len(a); i++ {
			cur := make([]int, len(b)+1)
			cur[0] = i
			for j := 1; j <= len(b); j++ {
				c := 1
				if a[i-1] == b[j-1] {
					c = 0
				}
				cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
			}
			prev = cur
		}
		return prev[len(b)]
	}
	k := []rune(normalize(name))
	type scored struct {
		s string
		d int
	}
	var best []scored
	seen := map[string]bool{}
	for _, c := range candidates {
		if seen[c] {
			continue
		}
		seen[c] = true
		ck := []rune(normalize(c))
		prefix := len(k) >= 2 && strings.HasPrefix(string(ck), string(k))
		d := dist(k, ck)
		if d <= max(2, len(ck)/3) || prefix {
			best = append(best, scored{c, d})
		}
	}
	sort.SliceStable(best, func(i, j int) bool {
		if best[i].d != best[j].d {
			return best[i].d < best[j].d
		}
		return best[i].s < best[j].s
	})
	var out []string
	for i := 0; i < len(best) && i < n; i++ {
		out = append(out, best[i].s)
	}
	return out
}

// TestSuggestAgreesWithTheDefinition: the fast Suggest (length and
// character-count bounds, early stop) names the same candidates in the
// same order as the plain edit-distance definition, on names typed with
// every kind of typo.
func TestSuggestAgreesWithTheDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []rune("abcdefgh0123456789-./_ABXé中")
	word := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteRune(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	mutate := func(s string) string {
		r := []rune(s)
		for range rng.IntN(5) {
			switch i := rng.IntN(len(r) + 1); rng.IntN(3) {
			case 0:
				r = append(r[:i], append([]rune{alphabet[rng.IntN(len(alphabet))]}, r[i:]...)...)
			case 1:
				if i < len(r) {
					r = append(r[:i], r[i+1:]...)
				}
			default:
				if i < len(r) {
					r[i] = alphabet[rng.IntN(len(alphabet))]
				}
			}
		}
		return string(r)
	}
	for trial := 0; trial < 300; trial++ {
		var cands []string
		for range 40 {
			cands = append(cands, word(2+rng.IntN(20)))
		}
		name := mutate(cands[rng.IntN(len(cands))])
		if rng.IntN(4) == 0 {
			name = word(1 + rng.IntN(8))
		}
		got, want := Suggest(name, cands, 5), refSuggest(name, cands, 5)
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Fatalf("Suggest(%q) = %q, want %q (candidates %q)", name, got, want, cands)
		}
	}
}
