package server

import (
	"html/template"
	"net/http"
	"strings"
	"unicode"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/document"
	"github.com/gpuscout/gpuscout/internal/i18n"
)

// claimVerdicts are the verdicts in the order the page offers them.
var claimVerdicts = []string{"wrong", "partly-correct", "correct", "unverifiable", "outdated"}

// verdictLink is one entry of the verdict filter.
type verdictLink struct {
	Verdict, Label, URL string
	Count               int
	Current             bool
}

// claimRow is a claim of the document with its badge's style, its texts
// in the page's language where the data has them.
type claimRow struct {
	document.Claim
	Class string
	// Claimed, Actual and Evidence in the page's language; TextLang is "en"
	// when a Chinese page falls back to the English text.
	Claimed, Actual, Evidence, TextLang string
	// EvidenceHTML is Evidence with its verbatim parts marked (built from
	// escaped text only).
	EvidenceHTML template.HTML
}

// evidencePart is a run of a claim's evidence: prose in the page's
// language, or a verbatim reference (Ref: a repository path, file, section
// or API name as published) or quotation (Quote: the source's own words),
// which stay as written.
type evidencePart struct {
	Text       string
	Ref, Quote bool
}

// evidenceParts cuts a translated evidence text into its Chinese prose and
// the Latin-script runs it cites verbatim (references and quotations), so a
// page shows the citations as written and the reader's language around
// them. An English text is one prose part.
// evidenceHTML renders evidence parts: prose as text, a reference in a
// span and a quotation in <q>, both kept out of translation. Every piece
// of text is escaped.
func evidenceHTML(parts []evidencePart) template.HTML {
	var b strings.Builder
	for _, p := range parts {
		switch {
		case p.Quote:
			b.WriteString(`<q translate="no">`)
			b.WriteString(template.HTMLEscapeString(p.Text))
			b.WriteString(`</q>`)
		case p.Ref:
			b.WriteString(`<span class="ref" translate="no">`)
			b.WriteString(template.HTMLEscapeString(p.Text))
			b.WriteString(`</span>`)
		default:
			b.WriteString(template.HTMLEscapeString(p.Text))
		}
	}
	return template.HTML(b.String()) //nolint:gosec // built from escaped text and fixed tags only
}

func evidenceParts(s string, translated bool) []evidencePart {
	if !translated {
		return []evidencePart{{Text: s}}
	}
	// Parts are substrings of s (no copies): a run starts at start and is
	// Latin (a reference or quotation) when ref is set.
	out := make([]evidencePart, 0, 16)
	proseEnd := -1 // where the last part, when prose, ends in s (to extend it)
	start, ref, inQuote := 0, false, false
	flush := func(end int) {
		if end <= start {
			return
		}
		t := s[start:end]
		trimmed := strings.TrimSpace(t)
		switch {
		case ref && len(trimmed) > 1 && trimmed[0] == '"' && trimmed[len(trimmed)-1] == '"':
			out = append(out, evidencePart{Text: trimmed[1 : len(trimmed)-1], Quote: true}) // <q> draws the marks
		case ref && strings.IndexFunc(t, unicode.IsLetter) >= 0:
			out = append(out, evidencePart{Text: t, Ref: true})
		case proseEnd == start:
			last := &out[len(out)-1]
			last.Text = s[start-len(last.Text) : end] // prose runs (with figures, §) stay one part
		default:
			out = append(out, evidencePart{Text: t})
		}
		if last := out[len(out)-1]; !last.Ref && !last.Quote {
			proseEnd = end
		}
		start = end
	}
	for i, r := range s {
		latin := r < 0x2000 && r != '§' // ASCII and Latin punctuation; CJK and full-width marks are prose
		if r == '"' {
			inQuote = !inQuote
		}
		if inQuote || r == '"' {
			latin = true
		}
		if latin != ref && !(r == ' ' && ref) {
			flush(i)
			ref = latin
		}
	}
	flush(len(s))
	return out
}

type claimsPage struct {
	Verdict string
	Links   []verdictLink
	Summary string
	Claims  []claimRow
}

// verdictBadge is a verdict's badge style: red for wrong, amber for partly
// correct, green for correct, plain for the rest.
var verdictBadge = map[string]string{"wrong": "stale", "partly-correct": "aging", "correct": "fresh"}

// pageClaims lists the seed articles' claims with their verdicts and
// evidence — the content of gpuscout catalog claims — optionally only those
// with ?verdict=.
func (s *Server) pageClaims(w http.ResponseWriter, r *http.Request) {
	d := s.Data()
	v := s.view(r, d, "claims")
	p := v.P
	verdict := params{r.URL.Query()}.str("verdict")
	page := &claimsPage{Verdict: verdict}
	v.Page = page
	all := d.Catalog.Claims()
	counts := map[string]int{}
	for _, c := range all {
		counts[c.Verdict]++
	}
	page.Links = append(page.Links, verdictLink{Label: p.T("web.claims.all"), URL: "/claims", Count: len(all), Current: verdict == ""})
	for _, vd := range claimVerdicts {
		page.Links = append(page.Links, verdictLink{Verdict: vd, Label: p.T("web.verdict." + vd), URL: "/claims?verdict=" + vd,
			Count: counts[vd], Current: verdict == vd})
	}
	if verdict != "" && !catalog.ValidVerdict(verdict) {
		v.Error = badRequest("verdict", p.T("web.claims.bad_verdict_hint"), "%s", p.T("web.claims.bad_verdict", verdict))
		v.Error.Local = true
		s.render(w, r, http.StatusBadRequest, "claims", v)
		return
	}
	var list []*catalog.Claim
	for _, c := range all {
		if verdict == "" || c.Verdict == verdict {
			list = append(list, c)
		}
	}
	doc := document.BuildClaims(list)
	for _, c := range doc.Claims {
		row := claimRow{Claim: c, Class: verdictBadge[c.Verdict], Claimed: c.Claimed, Actual: c.Actual, Evidence: c.Evidence}
		zh := p.Lang() == i18n.ZH && c.ClaimedZH != "" && c.ActualZH != "" && c.EvidenceZH != ""
		switch {
		case zh:
			row.Claimed, row.Actual, row.Evidence = c.ClaimedZH, c.ActualZH, c.EvidenceZH
		case p.Lang() == i18n.ZH:
			row.TextLang = "en" // no translation recorded: the English text, marked as such
		}
		row.EvidenceHTML = evidenceHTML(evidenceParts(row.Evidence, zh))
		page.Claims = append(page.Claims, row)
	}
	n := doc.ByVerdict
	page.Summary = p.T("web.claims.summary", len(list), n["wrong"], n["partly-correct"], n["correct"], len(list)-n["wrong"]-n["partly-correct"]-n["correct"])
	s.render(w, r, http.StatusOK, "claims", v)
}
