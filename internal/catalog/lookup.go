package catalog

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// NotFoundError says that a name matched nothing, with close matches.
type NotFoundError struct {
	What        string // "GPU model", "provider", "region", "offer"
	Name        string
	Suggestions []string
}

// Error renders `unknown GPU model "A1000" (did you mean A100, A10?)`.
func (e *NotFoundError) Error() string {
	msg := fmt.Sprintf("unknown %s %q", e.What, e.Name)
	if len(e.Suggestions) > 0 {
		msg += " (did you mean " + strings.Join(e.Suggestions, ", ") + "?)"
	}
	return msg
}

// LookupGPU resolves what a user typed to GPU models. A family ("A100")
// matches every variant; an ID or alias matches exactly; otherwise a unique
// prefix of canonical IDs ("A100-SXM4") matches. Case, spaces, dots and
// dashes are ignored. An unknown name returns a *NotFoundError with
// suggestions.
func (c *Catalog) LookupGPU(name string) ([]*GPU, error) {
	k := normalize(name)
	if k == "" {
		return nil, &NotFoundError{What: "GPU model", Name: name}
	}
	if gs, ok := c.gpuNames[k]; ok {
		return gs, nil
	}
	var out []*GPU
	for _, g := range c.gpus {
		if strings.HasPrefix(normalize(g.ID), k) {
			out = append(out, g)
		}
	}
	if len(out) > 0 {
		return out, nil
	}
	var names []string
	for _, g := range c.gpus {
		names = append(names, g.Family, g.ID)
	}
	return nil, &NotFoundError{What: "GPU model", Name: name, Suggestions: Suggest(name, names, 3)}
}

// LookupProvider resolves a provider ID, with suggestions when unknown.
func (c *Catalog) LookupProvider(id string) (*Provider, error) {
	if p, ok := c.providerByID[strings.ToLower(strings.TrimSpace(id))]; ok {
		return p, nil
	}
	var names []string
	for _, p := range c.providers {
		names = append(names, p.ID)
	}
	return nil, &NotFoundError{What: "provider", Name: id, Suggestions: Suggest(id, names, 3)}
}

// didYouMean renders " (did you mean X?)" for an unknown GPU ID in data.
func didYouMean(c *Catalog, id string) string {
	var names []string
	for n := range c.gpuByID {
		names = append(names, n)
	}
	if s := Suggest(id, names, 1); len(s) > 0 {
		return fmt.Sprintf(" (did you mean %s?)", s[0])
	}
	return ""
}

// Suggest returns up to n candidates close to name by edit distance on
// normalised names, closest first; nothing when none is close enough.
//
// It runs on every unknown name a caller sends (the server's "did you
// mean"), over as many candidates as the catalog has offers, so it keeps
// to one pass without allocating per candidate: the distance stops as
// soon as a candidate can no longer come within its limit.
func Suggest(name string, candidates []string, n int) []string {
	k := []rune(normalize(name))
	type scored struct {
		s string
		d int
	}
	var best []scored
	seen := make(map[string]bool, len(candidates))
	var ck []rune
	var rows [2][]int
	var hk, hc [128]int
	for _, r := range k {
		hk[r%128]++
	}
	for _, c := range candidates {
		if seen[c] {
			continue
		}
		seen[c] = true
		ck = appendNormalized(ck[:0], c)
		limit := max(2, len(ck)/3)
		prefix := len(k) >= 2 && hasPrefixRunes(ck, k)
		// The distance is at least the difference in length: a name far
		// longer or shorter than a candidate skips the distance altogether
		// (an unknown 256-byte ID against the whole catalog costs no time).
		if !prefix && abs(len(k)-len(ck)) > limit {
			continue
		}
		if !prefix {
			// Characters one has more of than the other each need an edit:
			// a lower bound on the distance that costs one pass.
			hc = hk
			for _, r := range ck {
				hc[r%128]--
			}
			more, fewer := 0, 0
			for _, v := range hc {
				if v > 0 {
					more += v
				} else {
					fewer -= v
				}
			}
			if max(more, fewer) > limit {
				continue
			}
		}
		bound := limit
		if prefix {
			bound = -1 // a prefix is kept whatever its distance
		}
		d := levenshteinWithin(k, ck, bound, &rows)
		if d <= limit || prefix {
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

// appendNormalized appends normalize(s) to dst as runes.
func appendNormalized(dst []rune, s string) []rune {
	for _, r := range s {
		switch r {
		case ' ', '-', '_', '.', '/':
			continue
		}
		if r < utf8.RuneSelf {
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			dst = append(dst, r)
			continue
		}
		for _, l := range strings.ToLower(string(r)) {
			dst = append(dst, l)
		}
	}
	return dst
}

func hasPrefixRunes(s, prefix []rune) bool {
	if len(prefix) > len(s) {
		return false
	}
	for i := range prefix {
		if s[i] != prefix[i] {
			return false
		}
	}
	return true
}

// levenshteinWithin is the edit distance between a and b, or any value
// above bound once every cell of a row exceeds it (the distance can only
// grow from there); a negative bound computes it in full. rows is scratch
// space reused between calls.
func levenshteinWithin(a, b []rune, bound int, rows *[2][]int) int {
	if cap(rows[0]) < len(b)+1 {
		rows[0] = make([]int, len(b)+1)
		rows[1] = make([]int, len(b)+1)
	}
	prev, cur := rows[0][:len(b)+1], rows[1][:len(b)+1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if bound >= 0 && rowMin > bound {
			return bound + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
