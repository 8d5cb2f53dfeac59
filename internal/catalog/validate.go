package catalog

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/shopspring/decimal"
)

// The patterns are compiled on first use: a command that validates nothing
// (the compiled embedded catalog is validated when it is built) compiles none.
var (
	reProviderID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9-]*$`) })
	reCountry    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Z]{2}$`) })
	reCurrency   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Z]{3}$`) })
	reResidency  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z-]*$`) })
	// reRepoRef matches a public repository file at a commit:
	// "owner/repo path@commit" or "owner/repo:path@commit" (7-40 hex digits).
	reRepoRef = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:^|[\s(])[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9_.-]+[ :][^@]*[^@\s]@[0-9a-fA-F]{7,40}(?:$|[^0-9A-Za-z])`)
	})
)

// internalRefs are phrases that name gpuscout's own working notes, which a
// reader cannot open.
var internalRefs = []string{"gpuscout research", "gpuscout 调研", "shared/research/", "shared/data/", "gpuscout catalog:", "seed research"}

// citesInternal reports whether a source reference cites gpuscout's own
// research notes instead of the public document they summarise.
func citesInternal(ref string) bool {
	for _, s := range internalRefs {
		if strings.Contains(ref, s) {
			return true
		}
	}
	return false
}

// Openable reports whether a source reference names something a reader can
// open: a URL, or a file of a public repository at a commit.
func Openable(ref string) bool {
	if strings.Contains(ref, "https://") || strings.Contains(ref, "http://") {
		return true
	}
	return reRepoRef().MatchString(ref)
}

// memoryTolerance is how far an instance's stated GPU memory may be from
// count × the GPU model's memory, in GB (vGPU slices are rounded by providers).
var memoryTolerance = decimal.NewFromInt(1)

// validator collects problems while it indexes a catalog.
type validator struct {
	pos map[any]Position
	// locate returns the positions pos lacks (Data.Locate); located is
	// its answer, once asked.
	locate   func() map[any]Position
	located  map[any]Position
	problems []Problem
	// offerIDs are the IDs of the catalog's offers, in their order
	// (computed once: sorting uses them too); windowsIDs those of its
	// Windows offers once index has put them apart.
	offerIDs, windowsIDs []string
	// onDemand returns the on-demand offer of an offer's instance type and
	// region, when there is one, or (checkPricesSorted) a non-nil offer
	// standing for it: offerPrices sets it, spotSiblings asks only whether
	// it is nil.
	onDemand func(o *Offer) *Offer
	// regions indexes the catalog's regions by provider and code, and
	// lastInst remembers the instance type of the previous offer (offers
	// come grouped by instance type): offers are checked without building
	// a string per lookup.
	regions  map[[2]string]*Region
	lastInst *InstanceType
	// offersIndexed: every offer's ID is distinct, already checked (see
	// build).
	offersIndexed bool
	// sorted are the offers in ID order and dup the IDs held more than
	// once (nil when none), from the duplicate check (duplicates); seen
	// marks the duplicated IDs met so far.
	sorted []*Offer
	dup    map[string]*Offer
	// mapPrices makes offerPrices take its map (tests compare the paths).
	mapPrices bool
	// lastRef is the last source reference checked, and the checks'
	// results (source).
	lastRef                                        string
	lastRefSet                                     bool
	lastRefBlank, lastRefInternal, lastRefOpenable bool
}

func (v *validator) add(rec any, id, field, format string, args ...any) {
	pos, ok := v.pos[rec]
	if !ok && v.locate != nil {
		if v.located == nil {
			v.located = v.locate()
		}
		pos = v.located[rec]
	}
	v.problems = append(v.problems, Problem{Pos: pos, Record: id, Field: field, Msg: fmt.Sprintf(format, args...)})
}

// source checks a record's provenance. A curated figure (FetchedAt zero)
// must cite something a reader can open; an estimate or a user's own figure
// says what it rests on instead, and an import names the file it read.
func (v *validator) source(rec any, id string, s Source) {
	if !s.Kind.Valid() {
		v.add(rec, id, "source_kind", "%q is not one of %s", s.Kind, joinKinds())
	}
	// Most records repeat the previous record's reference: its checks
	// are made once per run of it.
	if !v.lastRefSet || s.Ref != v.lastRef {
		v.lastRef, v.lastRefSet = s.Ref, true
		v.lastRefBlank, v.lastRefInternal = strings.TrimSpace(s.Ref) == "", citesInternal(s.Ref)
		v.lastRefOpenable = Openable(s.Ref)
	}
	if v.lastRefBlank {
		v.add(rec, id, "source_ref", "every figure needs a source")
	} else if v.lastRefInternal {
		v.add(rec, id, "source_ref", "%q cites gpuscout's internal research notes: cite the original public document", s.Ref)
	} else if s.FetchedAt.IsZero() && s.Kind != SourceEstimate && s.Kind != SourceUser && !v.lastRefOpenable {
		v.add(rec, id, "source_ref", "%q is not something a reader can open: cite a URL (https://...) or a public repository file at a commit (owner/repo path@commit)", s.Ref)
	}
	switch {
	case !s.AsOf.IsZero() && !s.ReadOn.IsZero():
		v.add(rec, id, "read_on", "set only for an undated source: a figure with an as-of date (%s) has no read_on (%s)", s.AsOfString(), s.ReadOnString())
	case s.AsOf.IsZero() && s.ReadOn.IsZero():
		v.add(rec, id, "as_of", "every figure needs an as-of date, or read_on for an undated source (YYYY-MM-DD)")
	}
}

func joinKinds() string {
	var s []string
	for _, k := range sourceKinds {
		s = append(s, string(k))
	}
	return strings.Join(s, ", ")
}

func (v *validator) nonNegative(rec any, id, field string, d decimal.Decimal) {
	if d.IsNegative() {
		v.add(rec, id, field, "must not be negative (got %s)", d)
	}
}

// index validates every record and fills the catalog's indexes.
func (v *validator) index(c *Catalog) {
	for _, p := range c.providers {
		switch {
		case !reProviderID().MatchString(p.ID):
			v.add(p, p.ID, "id", "provider id %q must be lower-case letters, digits and dashes", p.ID)
		case c.providerByID[p.ID] != nil:
			v.add(p, p.ID, "id", "duplicate provider")
		default:
			c.providerByID[p.ID] = p
		}
		if p.NameEN == "" {
			v.add(p, p.ID, "name_en", "required")
		}
		if p.NameZH == "" {
			v.add(p, p.ID, "name_zh", "required")
		}
		v.source(p, p.ID, p.Source)
	}
	for _, r := range c.regions {
		id := r.Key()
		if c.providerByID[r.Provider] == nil {
			v.add(r, id, "provider", "unknown provider %q", r.Provider)
		}
		if r.Code == "" {
			v.add(r, id, "code", "required")
		} else if c.regionByKey[id] != nil {
			v.add(r, id, "code", "duplicate region")
		} else {
			c.regionByKey[id] = r
		}
		if r.NameEN == "" {
			v.add(r, id, "name_en", "required")
		}
		if !reCountry().MatchString(r.Country) {
			v.add(r, id, "country", "%q is not an ISO 3166-1 alpha-2 code such as US or CN", r.Country)
		}
		if !reResidency().MatchString(r.Residency) {
			v.add(r, id, "residency", "%q is not a residency zone such as cn-mainland, eu or us", r.Residency)
		}
		if (r.Country == "CN") != (r.Residency == "cn-mainland") {
			v.add(r, id, "residency", "country %s and residency %q disagree (mainland China is cn-mainland)", r.Country, r.Residency)
		}
		v.source(r, id, r.Source)
	}
	for _, g := range c.gpus {
		v.gpu(c, g)
	}
	for _, it := range c.instances {
		v.instance(c, it)
	}
	if v.offerIDs == nil {
		v.offerIDs = offerIDs(c.offers)
	}
	v.regions = make(map[[2]string]*Region, len(c.regionByKey))
	for _, r := range c.regionByKey {
		v.regions[[2]string{r.Provider, r.Code}] = r
	}
	if !v.offersIndexed {
		v.duplicates(c)
	}
	for i, o := range c.offers {
		v.offer(c, o, v.offerIDs[i])
	}
	c.offers, c.windows, v.offerIDs, v.windowsIDs = splitOS(c.offers, v.offerIDs)
	v.offerPrices(c)
	v.spotSiblings(c)
	v.billingModels(c)
	v.costs(c)
	v.spot(c)
	v.ecosystem(c)
	seen := map[string]bool{}
	for _, cl := range c.claims {
		if cl.ID == "" {
			v.add(cl, "", "id", "required")
		} else if seen[cl.ID] {
			v.add(cl, cl.ID, "id", "duplicate claim")
		}
		seen[cl.ID] = true
		if !ValidVerdict(cl.Verdict) {
			v.add(cl, cl.ID, "verdict", "%q is not one of %s", cl.Verdict, strings.Join(claimVerdicts, ", "))
		}
		if cl.Quote == "" {
			v.add(cl, cl.ID, "quote", "required")
		}
		switch {
		case cl.Evidence == "":
			v.add(cl, cl.ID, "evidence", "a verdict needs evidence")
		case citesInternal(cl.Evidence) || citesInternal(cl.EvidenceZH):
			v.add(cl, cl.ID, "evidence", "cites gpuscout's internal research notes: cite the original public document")
		case !Openable(cl.Evidence):
			v.add(cl, cl.ID, "evidence", "names nothing a reader can open: cite a URL or a public repository file at a commit")
		}
	}
}

func (v *validator) gpu(c *Catalog, g *GPU) {
	switch {
	case g.ID == "":
		v.add(g, "", "id", "required")
		return
	case c.gpuByID[g.ID] != nil:
		v.add(g, g.ID, "id", "duplicate GPU model")
		return
	}
	c.gpuByID[g.ID] = g
	if g.Family == "" {
		v.add(g, g.ID, "family", "required")
	}
	if g.Vendor == "" {
		v.add(g, g.ID, "vendor", "required")
	}
	if !g.MemoryGB.IsPositive() {
		v.add(g, g.ID, "memory_gb", "must be positive")
	}
	for field, d := range map[string]decimal.Decimal{
		"memory_bandwidth_gbs": g.BandwidthGBs, "fp32_tflops": g.FP32TFLOPS, "tf32_tflops": g.TF32TFLOPS,
		"fp16_tflops": g.FP16TFLOPS, "fp8_tflops": g.FP8TFLOPS, "int8_tops": g.INT8TOPS,
		"interconnect_gbs": g.InterconnectGBs, "tdp_w": g.TDPW,
	} {
		v.nonNegative(g, g.ID, field, d)
	}
	switch g.MLStack {
	case "", MLStackCUDA, MLStackROCm, MLStackNone:
	default:
		v.add(g, g.ID, "ml_stack", "%q: use cuda, rocm or none", g.MLStack)
	}
	if g.MLStack != "" && g.MLSource == "" {
		v.add(g, g.ID, "ml_source", "required with ml_stack: the vendor's support list")
	}
	v.source(g, g.ID, g.Source)
	if g.FP64Source != "" && citesInternal(g.FP64Source) {
		v.add(g, g.ID, "fp64_source", "%q cites gpuscout's internal research notes: cite the original public document", g.FP64Source)
	}
	c.addGPUNames(g)
}

// addGPUNames indexes g under its normalised ID, family and aliases.
func (c *Catalog) addGPUNames(g *GPU) {
	names := append([]string{g.ID, g.Family}, g.Aliases...)
	added := map[string]bool{}
	for _, n := range names {
		k := normalize(n)
		if k == "" || added[k] {
			continue
		}
		added[k] = true
		c.gpuNames[k] = append(c.gpuNames[k], g)
	}
}

func (v *validator) instance(c *Catalog, it *InstanceType) {
	id := it.ID()
	if c.providerByID[it.Provider] == nil {
		v.add(it, id, "provider", "unknown provider %q", it.Provider)
	}
	switch {
	case it.Name == "":
		v.add(it, id, "instance_type", "required")
	case c.instanceByID[id] != nil:
		v.add(it, id, "instance_type", "duplicate instance type")
	default:
		c.instanceByID[id] = it
	}
	g := c.gpuByID[it.GPUID]
	if g == nil {
		v.add(it, id, "gpu", "unknown GPU model %q%s", it.GPUID, didYouMean(c, it.GPUID))
	}
	it.GPU = g
	if !it.GPUCount.IsPositive() {
		v.add(it, id, "gpu_count", "must be positive")
	}
	if g != nil && it.GPUCount.IsPositive() {
		want := it.GPUCount.Mul(g.MemoryGB)
		if it.GPUMemoryGB.IsZero() {
			v.add(it, id, "gpu_memory_gb", "required (expected %s = %s × %s GB)", want.Round(2), it.GPUCount, g.MemoryGB)
		} else if it.GPUMemoryGB.Sub(want).Abs().GreaterThan(memoryTolerance) {
			v.add(it, id, "gpu_memory_gb", "%s GB does not match %s × %s (%s GB each) = %s GB",
				it.GPUMemoryGB, it.GPUCount, g.ID, g.MemoryGB, want.Round(2))
		}
	}
	v.nonNegative(it, id, "vcpu", it.VCPU)
	v.nonNegative(it, id, "memory_gib", it.MemoryGiB)
	v.nonNegative(it, id, "network_gbps", it.NetworkGbps)
	v.nonNegative(it, id, "gpu_interconnect_gbs", it.GPUInterconnectGBs)
	switch it.GPUInterconnect {
	case "", LinkNVSwitch, LinkNVLink, LinkXGMI, LinkPCIe, LinkNone:
	default:
		v.add(it, id, "gpu_interconnect", "%q is not one of nvswitch, nvlink, xgmi, pcie, none (or empty when unknown)", it.GPUInterconnect)
	}
	switch it.RDMA {
	case "", RDMAEFA, RDMAInfiniBand, RDMAERDMA, RDMARoCE, RDMANone:
	default:
		v.add(it, id, "rdma", "%q is not one of efa, infiniband, erdma, roce, none (or empty when unknown)", it.RDMA)
	}
	switch it.Status {
	case StatusCurrent, StatusPrevious, StatusRetired:
	default:
		v.add(it, id, "status", "%q is not one of current, previous, retired", it.Status)
	}
	v.source(it, id, it.Source)
}

// offerIDs returns the IDs of offers, in their order, all cut from one
// string: one allocation, which the garbage collector need not scan,
// instead of one per offer.
func offerIDs(offers []*Offer) []string {
	n := 0
	for _, o := range offers {
		n += len(o.Provider) + len(o.InstanceName) + len(o.RegionCode) + len(o.Billing) + 3
		if o.OS != OSLinux {
			n += len(o.OS) + 1
		}
	}
	var b strings.Builder
	b.Grow(n)
	ends := make([]int, len(offers))
	for i, o := range offers {
		b.WriteString(o.Provider)
		b.WriteByte('/')
		b.WriteString(o.InstanceName)
		b.WriteByte('/')
		b.WriteString(o.RegionCode)
		b.WriteByte('/')
		b.WriteString(string(o.Billing))
		if o.OS != OSLinux {
			b.WriteByte('/')
			b.WriteString(o.OS)
		}
		ends[i] = b.Len()
	}
	all := b.String()
	ids := make([]string, len(offers))
	start := 0
	for i, end := range ends {
		ids[i] = all[start:end]
		start = end
	}
	return ids
}

// duplicates finds the offer IDs held more than once: the offers sorted
// by ID (kept for sortAll) hold them side by side. No map of every ID is
// built.
func (v *validator) duplicates(c *Catalog) {
	v.sorted = append([]*Offer(nil), c.offers...)
	ids := append([]string(nil), v.offerIDs...)
	sortOffers(v.sorted, ids)
	for i := 1; i < len(ids); i++ {
		if ids[i] == ids[i-1] {
			if v.dup == nil {
				v.dup = map[string]*Offer{}
			}
			v.dup[ids[i]] = nil
		}
	}
}

// offer validates and indexes an offer whose ID is id.
func (v *validator) offer(c *Catalog, o *Offer, id string) {
	if c.providerByID[o.Provider] == nil {
		v.add(o, id, "provider", "unknown provider %q", o.Provider)
	}
	it := v.lastInst
	if it == nil || it.Provider != o.Provider || it.Name != o.InstanceName {
		it = c.instanceByID[o.Provider+"/"+o.InstanceName]
		v.lastInst = it
	}
	if it == nil {
		v.add(o, id, "instance_type", "unknown instance type %s/%s", o.Provider, o.InstanceName)
	}
	o.Instance = it
	r := v.regions[[2]string{o.Provider, o.RegionCode}]
	if r == nil {
		v.add(o, id, "region", "unknown region %q for provider %s", o.RegionCode, o.Provider)
	}
	o.Region = r
	if !o.Billing.Valid() {
		v.add(o, id, "billing", "%q is not a canonical billing code", o.Billing)
	}
	if o.OS != OSLinux && o.OS != OSWindows {
		v.add(o, id, "os", "%q is not an operating system gpuscout prices (empty for Linux, or windows)", o.OS)
	}
	if s := o.Stock; s != nil {
		if _, err := ParseStockState(string(s.State)); err != nil || s.State == "" {
			v.add(o, id, "stock", "%q is not a stock state (available, low or none)", s.State)
		} else if s.Seen.IsZero() {
			v.add(o, id, "stock", "a stock reading without the time it was seen")
		}
	}
	// Every offer after the first with its ID is a duplicate; when the two
	// give different prices, the problem names both sources.
	if first, ok := v.dup[id]; ok {
		if first != nil {
			v.add(o, id, "", "%s", duplicateMsg(first, o))
		} else {
			v.dup[id] = o
		}
	}
	p := o.Price
	v.nonNegative(o, id, "hourly", p.Hourly)
	v.nonNegative(o, id, "upfront", p.Upfront)
	v.nonNegative(o, id, "monthly", p.Monthly)
	if !p.Hourly.IsPositive() && !p.Upfront.IsPositive() && !p.Monthly.IsPositive() {
		v.add(o, id, "hourly", "an offer needs a positive hourly, upfront or monthly price")
	}
	if !isCurrencyCode(p.Currency) {
		v.add(o, id, "currency", "%q is not an ISO 4217 code such as USD or CNY", p.Currency)
	}
	if o.Billing.TermHours() == 0 && p.Upfront.IsPositive() {
		v.add(o, id, "upfront", "billing %s has no term to spread an upfront payment over", o.Billing)
	}
	v.source(o, id, o.Source)
}

// duplicateMsg says what is wrong with a second offer with the ID of
// first: two sources disagreeing on its price, each with its citation and
// date, or the same offer twice.
func duplicateMsg(first, o *Offer) string {
	a, b := first.Price, o.Price
	if a.Hourly.Equal(b.Hourly) && a.Upfront.Equal(b.Upfront) && a.Monthly.Equal(b.Monthly) && a.Currency == b.Currency {
		return "duplicate offer (the same price from " + citation(first.Source) + ")"
	}
	return fmt.Sprintf("duplicate offer: two sources disagree: %s from %s, and %s from %s",
		priceText(a), citation(first.Source), priceText(b), citation(o.Source))
}

func priceText(p Price) string {
	var parts []string
	if !p.Hourly.IsZero() {
		parts = append(parts, p.Hourly.String()+" "+p.Currency+"/h")
	}
	if !p.Upfront.IsZero() {
		parts = append(parts, p.Upfront.String()+" "+p.Currency+" upfront")
	}
	if !p.Monthly.IsZero() {
		parts = append(parts, p.Monthly.String()+" "+p.Currency+"/month")
	}
	if len(parts) == 0 {
		return "no price"
	}
	return strings.Join(parts, " + ")
}

func citation(s Source) string {
	date := "undated"
	if !s.AsOf.IsZero() {
		date = "as of " + s.AsOf.Format("2006-01-02")
	}
	return fmt.Sprintf("%s %q (%s)", s.Kind, s.Ref, date)
}

// offerPrices checks that spot and commitment prices are not above the
// on-demand price of the same instance, region, currency and operating
// system. Capacity blocks are reserved ahead for a fixed window and are
// not bound by it.
func (v *validator) offerPrices(c *Catalog) {
	v.onDemand = v.osPrices(c, c.offers)
	if len(c.windows) > 0 {
		linux, windows := v.onDemand, v.osPrices(c, c.windows)
		v.onDemand = func(o *Offer) *Offer {
			if o.OS == OSWindows {
				return windows(o)
			}
			return linux(o)
		}
	}
}

// osPrices is offerPrices for the offers of one operating system; it
// returns their lookup of on-demand offers.
func (v *validator) osPrices(c *Catalog, offers []*Offer) func(*Offer) *Offer {
	// Where every offer is linked to its instance type and region (valid
	// data), those pointers key the index: smaller and faster to hash than
	// the names, which key it otherwise.
	linked := true
	for _, o := range offers {
		if o.Instance == nil || o.Region == nil || o.Instance.Provider != o.Provider || o.Instance.Name != o.InstanceName {
			linked = false
			break
		}
	}
	if linked && len(c.windows) == 0 && v.sorted != nil && v.dup == nil && !v.mapPrices && !slashedSites(c) {
		// Linux alone: the ID order keeps each site's offers together.
		return v.checkPricesSorted(c)
	}
	if linked {
		return checkPrices(v, offers, func(o *Offer) site { return site{o.Instance, o.Region} })
	}
	return checkPrices(v, offers, func(o *Offer) [3]string { return [3]string{o.Provider, o.InstanceName, o.RegionCode} })
}

// slashedSites reports whether an instance type or region identifier
// holds a slash: then the offers of one instance type and region need not
// stand together in ID order.
func slashedSites(c *Catalog) bool {
	for _, it := range c.instances {
		if strings.Contains(it.Provider, "/") || strings.Contains(it.Name, "/") {
			return true
		}
	}
	for _, r := range c.regions {
		if strings.Contains(r.Provider, "/") || strings.Contains(r.Code, "/") {
			return true
		}
	}
	return false
}

// checkPricesSorted is checkPrices over the offers in ID order (v.sorted,
// from the duplicate check), where each instance type and region's offers
// stand together: one pass, no map of a million sites. It applies where
// every offer is linked to its instance type and region, each offer ID is
// held once (so a site has at most one on-demand offer) and no identifier
// holds a slash. Problems are reported in the catalog's order, as
// checkPrices reports them; the lookup it returns answers spotSiblings.
func (v *validator) checkPricesSorted(c *Catalog) func(*Offer) *Offer {
	var flagged map[*Offer]string // the problem of each offer priced above on demand
	var lonely map[*Offer]bool    // spot offers without an on-demand offer
	s := v.sorted
	for lo := 0; lo < len(s); {
		hi := lo + 1
		for hi < len(s) && s[hi].Instance == s[lo].Instance && s[hi].Region == s[lo].Region {
			hi++
		}
		var od *Offer
		for _, o := range s[lo:hi] {
			if o.Billing == OnDemand {
				od = o
			}
		}
		for _, o := range s[lo:hi] {
			if o.Billing == Spot && od == nil {
				if lonely == nil {
					lonely = map[*Offer]bool{}
				}
				lonely[o] = true
			}
			if o.Billing == OnDemand || o.Billing == CapacityBlock || od == nil || od.Price.Currency != o.Price.Currency || !o.Billing.Valid() {
				continue
			}
			if eff, odEff := o.EffectiveHourly(), od.EffectiveHourly(); eff.GreaterThan(odEff) {
				if flagged == nil {
					flagged = map[*Offer]string{}
				}
				flagged[o] = fmt.Sprintf("effective %s %s/h is above the on-demand %s %s/h",
					eff.Round(4), o.Price.Currency, odEff.Round(4), od.Price.Currency)
			}
		}
		lo = hi
	}
	if flagged != nil {
		for _, o := range c.offers {
			if msg, ok := flagged[o]; ok {
				v.add(o, o.ID(), "price", "%s", msg)
			}
		}
	}
	return func(o *Offer) *Offer {
		if lonely[o] {
			return nil
		}
		return o // not the on-demand offer itself: spotSiblings asks only whether there is one
	}
}

// site is an instance type in a region.
type site struct {
	it *InstanceType
	r  *Region
}

// checkPrices is offerPrices with the instance type and region of an
// offer keyed by key; it returns the lookup of on-demand offers.
func checkPrices[K comparable](v *validator, offers []*Offer, key func(*Offer) K) func(*Offer) *Offer {
	// The last on-demand offer of each instance type and region; by
	// currency too only where one instance type and region has on-demand
	// prices in several currencies.
	n := 0
	for _, o := range offers {
		if o.Billing == OnDemand {
			n++
		}
	}
	onDemand := make(map[K]*Offer, n)
	var byCurrency map[[4]string]*Offer
	for _, o := range offers {
		if o.Billing != OnDemand {
			continue
		}
		k := key(o)
		if prev := onDemand[k]; prev != nil && prev.Price.Currency != o.Price.Currency && byCurrency == nil {
			byCurrency = map[[4]string]*Offer{}
			for _, od := range offers {
				if od.Billing == OnDemand {
					byCurrency[[4]string{od.Provider, od.InstanceName, od.RegionCode, od.Price.Currency}] = od
				}
			}
		}
		onDemand[k] = o
	}
	for _, o := range offers {
		if o.Billing == OnDemand || o.Billing == CapacityBlock {
			continue
		}
		od := onDemand[key(o)]
		if byCurrency != nil {
			od = byCurrency[[4]string{o.Provider, o.InstanceName, o.RegionCode, o.Price.Currency}]
		}
		if od == nil || od.Price.Currency != o.Price.Currency || !o.Billing.Valid() {
			continue
		}
		eff, odEff := o.EffectiveHourly(), od.EffectiveHourly()
		if eff.GreaterThan(odEff) {
			v.add(o, o.ID(), "price", "effective %s %s/h is above the on-demand %s %s/h",
				eff.Round(4), o.Price.Currency, odEff.Round(4), od.Price.Currency)
		}
	}
	return func(o *Offer) *Offer { return onDemand[key(o)] }
}

// costs validates ancillary prices, support tiers and on-premises figures.
func (v *validator) costs(c *Catalog) {
	for _, a := range c.ancillary {
		id := a.Provider + "/" + a.Region + "/" + a.Item
		if c.providerByID[a.Provider] == nil {
			v.add(a, id, "provider", "unknown provider %q", a.Provider)
		}
		if a.Region != "*" && c.regionByKey[a.Provider+"/"+a.Region] == nil {
			v.add(a, id, "region", "unknown region %q for provider %s (use * for every region)", a.Region, a.Provider)
		}
		if !inList(ancillaryItems, a.Item) {
			v.add(a, id, "item", "%q is not one of %s", a.Item, strings.Join(ancillaryItems, ", "))
		}
		want := map[string]string{ItemEgressInternet: "GB", ItemTransferInterRegion: "GB", ItemBlockStorage: "GB-month",
			ItemObjectStorage: "GB-month", ItemLoadBalancer: "hour"}[a.Item]
		if want != "" && a.Unit != want {
			v.add(a, id, "unit", "%s is priced per %s, not %q", a.Item, want, a.Unit)
		}
		v.nonNegative(a, id, "price", a.Price.Amount)
		v.nonNegative(a, id, "tier_start", a.TierStart)
		if a.TierEnd.IsPositive() && !a.TierEnd.GreaterThan(a.TierStart) {
			v.add(a, id, "tier_end", "must be above tier_start")
		}
		if !reCurrency().MatchString(a.Price.Currency) {
			v.add(a, id, "currency", "%q is not an ISO 4217 code", a.Price.Currency)
		}
		v.source(a, id, a.Source)
	}
	for _, s := range c.support {
		id := s.Provider + "/" + s.Plan
		if c.providerByID[s.Provider] == nil {
			v.add(s, id, "provider", "unknown provider %q", s.Provider)
		}
		if s.Plan == "" {
			v.add(s, id, "plan", "required")
		}
		v.nonNegative(s, id, "percent", s.Percent)
		v.nonNegative(s, id, "minimum_monthly", s.MinimumMonthly)
		if s.Percent.GreaterThan(decimal.NewFromInt(100)) {
			v.add(s, id, "percent", "a percentage of spend cannot exceed 100")
		}
		if !reCurrency().MatchString(s.Currency) {
			v.add(s, id, "currency", "%q is not an ISO 4217 code", s.Currency)
		}
		v.source(s, id, s.Source)
	}
	for _, f := range c.onprem {
		id := f.Item
		if f.GPU != "" {
			id += "/" + f.GPU
			if c.gpuByID[f.GPU] == nil {
				v.add(f, id, "gpu", "unknown GPU model %q%s", f.GPU, didYouMean(c, f.GPU))
			}
		}
		if !inList(onPremItems, f.Item) {
			v.add(f, id, "item", "%q is not one of %s", f.Item, strings.Join(onPremItems, ", "))
		}
		v.nonNegative(f, id, "value", f.Value)
		v.source(f, id, f.Source)
	}
}

// isCurrencyCode reports whether s is three upper-case ASCII letters (the
// form of an ISO 4217 code), as reCurrency matches, without a regexp.
func isCurrencyCode(s string) bool {
	if len(s) != 3 {
		return false
	}
	for i := 0; i < 3; i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

func inList(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
