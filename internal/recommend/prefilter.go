package recommend

import (
	"slices"
	"strings"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/i18n"
)

// instanceStages are the hard filters whose verdict depends on the
// instance type (and its provider) alone, not on the region, billing
// model or price of an offer.
var instanceStages = map[string]bool{
	"status": true, "provider": true, "gpu": true, "precision": true, "vram": true,
	"interconnect": true, "fabric": true, "os": true, "ecosystem": true,
}

// Prefilter applies, before imported offers are loaded, the hard filters
// that depend on the instance type alone (the leading stages of the
// advisor's filters up to the first that depends on the offer: status,
// provider, GPU, precision, memory, interconnect, fabric, operating system
// and, without a location constraint, ecosystem). A reader loads only the
// offers of the instance types it keeps (Keep) and reports the IDs of the
// others (LeaveOut); Recommend then counts and lists those offers among
// its rejections, at the stage and with the reason it would have given
// them, so the answer is the one a full load gives. A nil *Prefilter
// keeps everything.
type Prefilter struct {
	verdict map[string]preVerdict // provider/name → the first stage that rejects it
	left    map[string][]Rejection
	n       int
}

type preVerdict struct{ stage, reason string }

// NewPrefilter decides, for every instance type of e.Catalog (which needs
// no imported offers, only the instance types), whether the requirements'
// instance-level hard filters reject it, and why.
func (e *Engine) NewPrefilter(r Requirements, p *i18n.Printer) (*Prefilter, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	gpuSet, err := e.gpuSet(r)
	if err != nil {
		return nil, err
	}
	x := &run{e: e, r: r, p: p, res: &Result{}}
	pf := &Prefilter{verdict: map[string]preVerdict{}, left: map[string][]Rejection{}}
	var stages []stage
	for _, st := range x.filters(gpuSet) {
		if !instanceStages[st.name] {
			break
		}
		stages = append(stages, st)
	}
	for _, it := range e.Catalog.Instances() {
		o := &catalog.Offer{Provider: it.Provider, InstanceName: it.Name, Instance: it}
		for _, st := range stages {
			if why := st.reject(o); why != "" {
				pf.verdict[it.ID()] = preVerdict{stage: st.name, reason: why}
				break
			}
		}
	}
	return pf, nil
}

// Keep says whether the offers of an instance type are to be loaded.
func (pf *Prefilter) Keep(provider, instanceType string) bool {
	if pf == nil {
		return true
	}
	_, rejected := pf.verdict[provider+"/"+instanceType]
	return !rejected
}

// LeaveOut records offers (by ID, provider/instance_type/region/billing)
// that were not loaded because Keep rejected their instance type; IDs of
// kept types are ignored.
func (pf *Prefilter) LeaveOut(ids []string) {
	for _, id := range ids {
		prov, rest, _ := strings.Cut(id, "/")
		inst, _, _ := strings.Cut(rest, "/")
		v, ok := pf.verdict[prov+"/"+inst]
		if !ok {
			continue
		}
		pf.left[v.stage] = append(pf.left[v.stage], Rejection{Offer: id, Stage: v.stage, Reason: v.reason})
		pf.n++
	}
	for _, rs := range pf.left {
		if !slices.IsSortedFunc(rs, byOffer) {
			slices.SortFunc(rs, byOffer)
		}
	}
}

func byOffer(a, b Rejection) int { return strings.Compare(a.Offer, b.Offer) }

// LeftOut is the number of offers recorded by LeaveOut.
func (pf *Prefilter) LeftOut() int {
	if pf == nil {
		return 0
	}
	return pf.n
}

// rejections are the left-out offers a stage rejects, sorted by offer ID,
// less those the catalog holds (a curated offer with the same ID is
// rejected like any loaded offer).
func (pf *Prefilter) rejections(stage string, c *catalog.Catalog) []Rejection {
	if pf == nil || len(pf.left[stage]) == 0 {
		return nil
	}
	priced := map[string]bool{} // instance types with offers in the catalog
	for _, o := range c.Offers() {
		priced[o.Provider+"/"+o.InstanceName] = true
	}
	var out []Rejection
	for _, rj := range pf.left[stage] {
		prov, rest, _ := strings.Cut(rj.Offer, "/")
		inst, _, _ := strings.Cut(rest, "/")
		if priced[prov+"/"+inst] {
			if _, loaded := c.Offer(rj.Offer); loaded {
				continue
			}
		}
		out = append(out, rj)
	}
	return out
}

// mergeRejections merges two lists sorted by offer ID.
func mergeRejections(a, b []Rejection) []Rejection {
	if len(b) == 0 {
		return a
	}
	out := make([]Rejection, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if b[0].Offer < a[0].Offer {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
}
