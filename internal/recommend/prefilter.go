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
	"status": true, "provider": true, "gpu": true, "ml": true, "precision": true, "vram": true,
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
	// loaded are the IDs of the offers of the catalog the prefilter was
	// built on (curated offers, loaded whatever the filter), by instance type.
	loaded map[string]map[string]bool
	groups map[string][]leftGroup // stage → left-out offers, by instance type
	left   map[string][]Rejection // stage → left-out offers, sorted (built on first use)
	n      int
}

// leftGroup is the left-out offers of one instance type.
type leftGroup struct {
	key  string // provider/name
	rejs []Rejection
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
	pf := &Prefilter{verdict: map[string]preVerdict{}, loaded: map[string]map[string]bool{}, groups: map[string][]leftGroup{}}
	for _, o := range e.Catalog.Offers() {
		k := o.Provider + "/" + o.InstanceName
		if pf.loaded[k] == nil {
			pf.loaded[k] = map[string]bool{}
		}
		pf.loaded[k][o.ID()] = true
	}
	var stages []stage
	for _, st := range x.filters(gpuSet) {
		if st.name == "os" {
			// A Windows rate among the imports (not loaded yet) makes a
			// type pass: the stage runs after loading.
			continue
		}
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

// LeaveOut records the offers of an instance type (by ID,
// provider/instance_type/region/billing) that were not loaded because
// Keep rejected the type; it ignores the offers of kept types and those
// of the catalog the prefilter was built on (loaded anyway).
func (pf *Prefilter) LeaveOut(provider, instanceType string, ids []string) {
	k := provider + "/" + instanceType
	v, ok := pf.verdict[k]
	if !ok || len(ids) == 0 {
		return
	}
	g := leftGroup{key: k, rejs: make([]Rejection, 0, len(ids))}
	for _, id := range ids {
		if !pf.loaded[k][id] {
			g.rejs = append(g.rejs, Rejection{id: id, Stage: v.stage, Reason: v.reason})
		}
	}
	pf.groups[v.stage] = append(pf.groups[v.stage], g)
	pf.n += len(g.rejs)
	pf.left = nil
}

func byOffer(a, b Rejection) int { return strings.Compare(a.OfferID(), b.OfferID()) }

// LeftOut is the number of offers recorded by LeaveOut.
func (pf *Prefilter) LeftOut() int {
	if pf == nil {
		return 0
	}
	return pf.n
}

// rejections are the left-out offers a stage rejects, sorted by offer ID.
func (pf *Prefilter) rejections(stage string) []Rejection {
	if pf == nil {
		return nil
	}
	if pf.left == nil {
		pf.left = map[string][]Rejection{}
		for st, gs := range pf.groups {
			// Sorted by instance type then offer: the IDs' order, as an
			// ID is the type, "/" and the rest (checked below).
			slices.SortFunc(gs, func(a, b leftGroup) int { return strings.Compare(a.key+"/", b.key+"/") })
			var all []Rejection
			for _, g := range gs {
				if !slices.IsSortedFunc(g.rejs, byOffer) {
					slices.SortFunc(g.rejs, byOffer)
				}
				all = append(all, g.rejs...)
			}
			if !slices.IsSortedFunc(all, byOffer) {
				slices.SortFunc(all, byOffer)
			}
			pf.left[st] = all
		}
	}
	return pf.left[stage]
}

// mergeRejections merges two lists sorted by offer ID.
func mergeRejections(a, b []Rejection) []Rejection {
	if len(b) == 0 {
		return a
	}
	out := make([]Rejection, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if b[0].OfferID() < a[0].OfferID() {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
}
