// Package zhcheck finds the English words a Chinese text should not show.
// The tests of the CLI's and the web's Chinese output share it; each keeps
// its own allowlist of names, units and terms.
package zhcheck

import (
	"regexp"
	"strings"

	"github.com/gpuscout/gpuscout/internal/catalog"
)

var (
	latinToken = regexp.MustCompile(`[A-Za-z][A-Za-z0-9._/\-+×]*`)
	urlText    = regexp.MustCompile(`https?://\S+`)
)

// Names is a set of lower-case Latin words a Chinese text may show.
type Names map[string]bool

// AddCatalog allows the catalog's own names that both the CLI and the web
// show in Chinese text: region codes, GPU IDs, vendors and architectures,
// the providers' Chinese names, and the Chinese gap reasons of their
// billing models (which quote the providers' API and field names).
func (n Names) AddCatalog(c *catalog.Catalog) {
	for _, r := range c.Regions() {
		n.Add(r.Code)
	}
	for _, g := range c.GPUs() {
		n.Add(g.ID)
		n.Add(g.Vendor)
		n.Add(g.Architecture)
	}
	for _, p := range c.Providers() {
		n.Add(p.NameZH)
		for _, bm := range c.BillingModels(p.ID) {
			n.Add(bm.GapReasonZH)
		}
	}
}

// Add allows every Latin word of s (a name, a code, a quoted reference).
func (n Names) Add(s string) {
	for _, w := range latinToken.FindAllString(s, -1) {
		n[strings.ToLower(strings.TrimRight(w, ".-/"))] = true
	}
}

// EnglishWords lists, once each and in order, the Latin words of text that
// no allowlist names. URLs, words with a digit, dot, underscore, slash,
// hyphen, plus or × (IDs, codes, models) and all-capital acronyms pass.
func EnglishWords(text string, allowed ...Names) []string {
	seen := map[string]bool{}
	var out []string
	for _, tok := range latinToken.FindAllString(urlText.ReplaceAllString(text, " "), -1) {
		tok = strings.TrimRight(tok, ".-/")
		if strings.ContainsAny(tok, "0123456789._/-+×") || tok == strings.ToUpper(tok) || seen[tok] {
			continue
		}
		ok := false
		for _, a := range allowed {
			if a[strings.ToLower(tok)] {
				ok = true
				break
			}
		}
		if !ok {
			seen[tok] = true
			out = append(out, tok)
		}
	}
	return out
}
