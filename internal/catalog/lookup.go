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
func Suggest(name string, candidates []string, n int) []string {
	k := normalize(name)
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
		ck := normalize(c)
		limit := max(2, len(ck)/3)
		prefix := len(k) >= 2 && strings.HasPrefix(ck, k)
		// The distance is at least the difference in length: a name far
		// longer or shorter than a candidate skips the quadratic distance
		// (an unknown 256-byte ID against the whole catalog costs no time).
		if !prefix && abs(utf8.RuneCountInString(k)-utf8.RuneCountInString(ck)) > limit {
			continue
		}
		d := levenshtein(k, ck)
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

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// levenshtein is the edit distance between a and b (in runes).
func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
