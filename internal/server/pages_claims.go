package server

import (
	"net/http"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/document"
)

// claimVerdicts are the verdicts in the order the page offers them.
var claimVerdicts = []string{"wrong", "partly-correct", "correct", "unverifiable", "outdated"}

// verdictLink is one entry of the verdict filter.
type verdictLink struct {
	Verdict, Label, URL string
	Count               int
	Current             bool
}

// claimRow is a claim of the document with its badge's style.
type claimRow struct {
	document.Claim
	Class string
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
		page.Claims = append(page.Claims, claimRow{Claim: c, Class: verdictBadge[c.Verdict]})
	}
	n := doc.ByVerdict
	page.Summary = p.T("web.claims.summary", len(list), n["wrong"], n["partly-correct"], n["correct"], len(list)-n["wrong"]-n["partly-correct"]-n["correct"])
	s.render(w, r, http.StatusOK, "claims", v)
}
