package catalog

import (
	"sort"
	"strings"

	"github.com/shopspring/decimal"
)

// DiscoveredInstance is a machine as an imported price source describes
// it (a SkyPilot vms.csv row: GPU name, count, vCPUs, memory). Discover
// turns it into an InstanceType when the curated catalog lacks the type,
// so that new instance types are listed without a code release.
type DiscoveredInstance struct {
	Provider string
	Name     string
	// GPUName is the source's own name of the GPU (A100, H100, L4,
	// A100-80GB ...), resolved against the catalog's GPU names and aliases.
	GPUName  string
	GPUCount decimal.Decimal
	// GPUMemoryGiB is the memory of one GPU as the source gives it (zero
	// when unknown); it chooses between variants of one name (A100 40 or
	// 80 GB).
	GPUMemoryGiB decimal.Decimal
	VCPU         decimal.Decimal
	MemoryGiB    decimal.Decimal
	Source       Source
}

// ID is "provider/instance_type".
func (d *DiscoveredInstance) ID() string { return d.Provider + "/" + d.Name }

// Reasons a discovered GPU name is not resolved.
const (
	GPUUnknown   = "unknown"   // no GPU of the catalog has that name
	GPUAmbiguous = "ambiguous" // several do, and the memory does not tell them apart
)

// UnresolvedGPU is a GPU name of discovered instance types that matches no
// single GPU model of the catalog: their instance types are not added, and
// their offers stay outside the catalog's coverage.
type UnresolvedGPU struct {
	Provider   string
	GPUName    string
	Reason     string   // GPUUnknown or GPUAmbiguous
	Candidates []string // the GPU IDs the name matches, when ambiguous
	Instances  []string // the instance types (provider/name)
	Offers     int      // the imported offers of those instance types
}

// DiscoveryReport says what Discover did.
type DiscoveryReport struct {
	// Added are the instance types created (provider/name), sorted.
	Added []string
	// Unresolved are the GPU names that could not be resolved, most
	// offers first.
	Unresolved []UnresolvedGPU
	// Invalid are descriptions left out because a figure or the source is
	// unusable (a negative vCPU count, no source reference or date).
	Invalid []string
}

// gpuTolerance is how far (as a share) a discovered GPU's memory may be
// from a catalog GPU's to choose that variant: sources give GiB or MiB,
// the catalog the vendor's GB.
var gpuTolerance = decimal.RequireFromString("0.12")

// Discover adds to d an instance type for each discovered machine whose
// provider/name d lacks (curated data always wins), with the GPU model
// resolved by the catalog's names and aliases (the memory choosing among
// variants). A name that matches no GPU, or several that the memory does
// not tell apart, is reported with the number of offers it concerns, and
// its instance types are not added. offers are the imported offers, only
// counted.
func Discover(d *Data, found []*DiscoveredInstance, offers []*Offer) DiscoveryReport {
	d.validated = false // instance types may be added
	perInstance := map[string]int{}
	for _, o := range offers {
		perInstance[o.Provider+"/"+o.InstanceName]++
	}
	rep := discover(d, found)
	rep.CountOffers(perInstance)
	return rep
}

// CountOffers sets the number of imported offers of each unresolved GPU
// name from perInstance (offers per instance type, provider/name), most
// offers first. A reader that loads only some imported offers (see
// sqlite.DB.LatestImportsWhere) discovers with no offers and counts them
// with this.
func (rep *DiscoveryReport) CountOffers(perInstance map[string]int) {
	for i := range rep.Unresolved {
		u := &rep.Unresolved[i]
		u.Offers = 0
		for _, id := range u.Instances {
			u.Offers += perInstance[id]
		}
	}
	sort.Slice(rep.Unresolved, func(i, j int) bool {
		a, b := rep.Unresolved[i], rep.Unresolved[j]
		if a.Offers != b.Offers {
			return a.Offers > b.Offers
		}
		return a.Provider+"/"+a.GPUName < b.Provider+"/"+b.GPUName
	})
}

// resolutionKey is a provider, a GPU name and a memory size (by
// coefficient and exponent, or as text beyond 18 digits): what resolves
// to one GPU model.
type resolutionKey struct {
	provider, name, text string
	coef                 int64
	exp                  int32
}

// discover is Discover without the offer counts.
func discover(d *Data, found []*DiscoveredInstance) DiscoveryReport {
	var rep DiscoveryReport
	if len(found) == 0 {
		return rep
	}
	// Keyed by their parts: no string built per instance type.
	have := make(map[[2]string]bool, len(d.Instances)+len(found))
	uses := map[[2]string]bool{} // provider and GPU ID of the curated types
	for _, it := range d.Instances {
		have[[2]string{it.Provider, it.Name}] = true
		uses[[2]string{it.Provider, it.GPUID}] = true
	}
	// The instance types added, in one array.
	added := make([]InstanceType, 0, len(found))
	providers := map[string]bool{}
	for _, p := range d.Providers {
		providers[p.ID] = true
	}
	names := map[string][]*GPU{}
	for _, g := range d.GPUs {
		added := map[string]bool{}
		for _, n := range append([]string{g.ID, g.Family}, g.Aliases...) {
			k := normalize(n)
			if k == "" || added[k] {
				continue
			}
			added[k] = true
			names[k] = append(names[k], g)
		}
	}
	unresolved := map[[2]string]*UnresolvedGPU{}
	// The GPU each provider, GPU name and memory resolve to, resolved once
	// (a big import describes thousands of machines with a few GPUs).
	type resolution struct {
		g          *GPU
		candidates []string
	}
	resolved := map[resolutionKey]resolution{}
	// The memory of count GPUs of a model, computed once per model and
	// count (a product is a new big integer each time).
	type memKey struct {
		g    *GPU
		coef int64
		exp  int32
	}
	memory := map[memKey]decimal.Decimal{}
	for _, f := range found {
		hk := [2]string{f.Provider, f.Name}
		if have[hk] || !providers[f.Provider] || f.Name == "" || !f.GPUCount.IsPositive() {
			continue
		}
		have[hk] = true
		id := f.ID()
		if !f.Source.Kind.Valid() || strings.TrimSpace(f.Source.Ref) == "" || f.Source.AsOf.IsZero() || f.VCPU.IsNegative() || f.MemoryGiB.IsNegative() {
			rep.Invalid = append(rep.Invalid, id)
			continue
		}
		rk := resolutionKey{provider: f.Provider, name: f.GPUName}
		if f.GPUMemoryGiB.NumDigits() <= 18 {
			rk.coef, rk.exp = f.GPUMemoryGiB.CoefficientInt64(), f.GPUMemoryGiB.Exponent()
		} else {
			rk.text = f.GPUMemoryGiB.String()
		}
		res, seen := resolved[rk]
		if !seen {
			res.g, res.candidates = resolveGPU(names, f, uses)
			resolved[rk] = res
		}
		g, candidates := res.g, res.candidates
		if g == nil {
			k := [2]string{f.Provider, f.GPUName}
			u := unresolved[k]
			if u == nil {
				u = &UnresolvedGPU{Provider: f.Provider, GPUName: f.GPUName, Reason: GPUUnknown}
				unresolved[k] = u
			}
			if len(candidates) > 0 {
				u.Reason, u.Candidates = GPUAmbiguous, candidates
			}
			u.Instances = append(u.Instances, id)
			continue
		}
		var mem decimal.Decimal
		if f.GPUCount.NumDigits() <= 18 {
			mk := memKey{g, f.GPUCount.CoefficientInt64(), f.GPUCount.Exponent()}
			var ok bool
			if mem, ok = memory[mk]; !ok {
				mem = f.GPUCount.Mul(g.MemoryGB)
				memory[mk] = mem
			}
		} else {
			mem = f.GPUCount.Mul(g.MemoryGB)
		}
		added = append(added, InstanceType{
			Provider:    f.Provider,
			Name:        f.Name,
			Family:      family(f.Name),
			GPUID:       g.ID,
			GPUCount:    f.GPUCount,
			GPUMemoryGB: mem,
			VCPU:        f.VCPU,
			MemoryGiB:   f.MemoryGiB,
			Status:      StatusCurrent,
			Source:      f.Source,
			Discovered:  true,
		})
		d.Instances = append(d.Instances, &added[len(added)-1])
		rep.Added = append(rep.Added, id)
	}
	sort.Strings(rep.Added)
	for _, u := range unresolved {
		sort.Strings(u.Instances)
		rep.Unresolved = append(rep.Unresolved, *u)
	}
	return rep
}

// resolveGPU finds the one GPU model a discovered name means: the only
// GPU of that name; or the only one whose memory matches; or, among those,
// the only one the provider's curated instance types use (AWS's 40 GB
// A100s are SXM4, in p4d). It returns nil and the candidates when the name
// is ambiguous, nil and none when it is unknown.
func resolveGPU(names map[string][]*GPU, f *DiscoveredInstance, uses map[[2]string]bool) (*GPU, []string) {
	gs := names[normalize(f.GPUName)]
	if len(gs) == 1 {
		return gs[0], nil
	}
	if len(gs) == 0 {
		return nil, nil
	}
	var ids []string
	for _, g := range gs {
		ids = append(ids, g.ID)
	}
	sort.Strings(ids)
	if !f.GPUMemoryGiB.IsPositive() {
		return nil, ids
	}
	// GiB → GB for the comparison with the vendor's figure.
	gb := f.GPUMemoryGiB.Mul(decimal.RequireFromString("1.073741824"))
	var match []*GPU
	for _, g := range gs {
		if !g.MemoryGB.IsPositive() {
			continue
		}
		if gb.Sub(g.MemoryGB).Abs().Div(g.MemoryGB).LessThanOrEqual(gpuTolerance) {
			match = append(match, g)
		}
	}
	if len(match) == 1 {
		return match[0], nil
	}
	var used []*GPU
	for _, g := range match {
		if uses[[2]string{f.Provider, g.ID}] {
			used = append(used, g)
		}
	}
	if len(used) == 1 {
		return used[0], nil
	}
	return nil, ids
}

// family is the instance family a provider's type name implies: the part
// before the first dot (p5.48xlarge → p5, ecs.gn7i-c8g1.2xlarge → gn7i
// after the ecs. prefix) or underscore-separated size (gpu_1x_a10 →
// gpu_1x_a10 stays whole).
func family(name string) string {
	n := strings.TrimPrefix(name, "ecs.")
	if i := strings.IndexByte(n, '.'); i > 0 {
		n = n[:i]
	}
	if i := strings.IndexByte(n, '-'); i > 0 && strings.HasPrefix(name, "ecs.") {
		n = n[:i]
	}
	return n
}

// OffersForGPUs keeps, of imported offers, those whose instance type in d
// has one of the GPU models the names mean (as LookupGPU resolves a name:
// a family, an ID or alias, or a prefix of IDs), so that a query about a
// few GPU models does not validate and overlay every imported offer. It
// returns offers unchanged when names is empty or a name means no GPU of d
// (the query then reports the unknown name itself).
func OffersForGPUs(d *Data, offers []*Offer, names []string) []*Offer {
	keep := InstancesForGPUs(d, names)
	if keep == nil {
		return offers
	}
	out := make([]*Offer, 0, len(offers)/4)
	for _, o := range offers {
		if keep[o.Provider+"/"+o.InstanceName] {
			out = append(out, o)
		}
	}
	return out
}

// InstancesForGPUs returns the instance types (provider/name) of d whose
// GPU model any of names means (as OffersForGPUs matches them), or nil
// when names is empty or one of them matches no GPU model: then nothing
// may be left out, and the command reports the unknown name itself.
func InstancesForGPUs(d *Data, names []string) map[string]bool {
	want := GPUsForNames(d, names)
	if want == nil {
		return nil
	}
	keep := map[string]bool{}
	for _, it := range d.Instances {
		if want[it.GPUID] {
			keep[it.ID()] = true
		}
	}
	return keep
}

// GPUsForNames is the set of GPU model IDs whose instance types
// InstancesForGPUs keeps for names: nil when names is empty or one of them
// matches no model.
func GPUsForNames(d *Data, names []string) map[string]bool {
	if len(names) == 0 {
		return nil
	}
	want := map[string]bool{}
	for _, name := range names {
		k := normalize(name)
		found := false
		for _, g := range d.GPUs {
			match := strings.HasPrefix(normalize(g.ID), k)
			for _, n := range append([]string{g.Family}, g.Aliases...) {
				match = match || normalize(n) == k
			}
			if k != "" && match {
				want[g.ID], found = true, true
			}
		}
		if !found {
			return nil
		}
	}
	return want
}
