package catalog

import (
	"sort"
	"strings"
)

// Data is the raw content of a catalog, before validation and indexing.
type Data struct {
	Providers []*Provider
	Regions   []*Region
	GPUs      []*GPU
	Instances []*InstanceType
	Offers    []*Offer
	Claims    []*Claim
	Ancillary []*AncillaryPrice
	Support   []*SupportTier
	OnPrem    []*OnPremFigure
	Spot      []*SpotFacts
	Interrupt []*InterruptionBand
	Ecosystem []*EcosystemFact
	// Billing declares the billing models each provider sells (billing_models.csv).
	Billing []*BillingModel
	// Positions maps records to where they were defined, for error messages.
	// Keys are the records' pointers; it may be nil.
	Positions map[any]Position
	// Locate, when set, returns the positions of records Positions lacks.
	// Validation calls it once, at its first problem: a loader of a
	// million offers keeps their positions in a list and builds no map of
	// them unless one is wrong.
	Locate func() map[any]Position

	// validated: d passed New unchanged before (see MarkValidated).
	validated bool
}

// MarkValidated records that d is data that passed New, unchanged and in
// the order New left it (GPU models excepted: they may come in any order):
// the compiled form of the embedded catalog, which
// was validated when it was generated (a test holds it equal to a fresh
// parse of the CSV files). New then indexes d without checking it again.
// Discover and the overlay of imports clear the mark.
func (d *Data) MarkValidated() { d.validated = true }

// Validated reports whether d carries MarkValidated's mark.
func (d *Data) Validated() bool { return d.validated }

// Catalog is a validated, indexed, read-only set of catalog records. It is
// safe for concurrent use once built.
type Catalog struct {
	providers     []*Provider
	regions       []*Region
	gpus          []*GPU
	instances     []*InstanceType
	offers        []*Offer // Linux (the default operating system)
	windows       []*Offer // Windows, licence included
	claims        []*Claim
	ancillary     []*AncillaryPrice
	support       []*SupportTier
	onprem        []*OnPremFigure
	spot          []*SpotFacts
	interruptions []*InterruptionBand
	ecosystem     []*EcosystemFact
	billingModels []*BillingModel

	providerByID map[string]*Provider
	regionByKey  map[string]*Region // provider/code
	gpuByID      map[string]*GPU
	instanceByID map[string]*InstanceType
	// Offers are found by ID by binary search over offers, which are in
	// ID order (sortAll): no map of a million IDs (and their strings) is
	// kept for a big overlay.
	// gpuNames maps every normalised id, family and alias to its GPUs.
	gpuNames map[string][]*GPU
}

// New validates d and builds the catalog. On any problem it returns a
// *ValidationError listing all of them, each with its file, line and field.
func New(d Data) (*Catalog, error) {
	if d.validated {
		return indexValidated(d), nil
	}
	return build(d, nil, nil)
}

// build is New given the IDs of d.Offers in their order and the offers by
// ID (nil: computed). The map is used as the catalog's index when it holds
// as many IDs as there are offers (no duplicate).
func build(d Data, offerIDs []string, byID map[string]*Offer) (*Catalog, error) {
	c := newCatalog(d)
	v := validator{pos: d.Positions, locate: d.Locate, offerIDs: offerIDs}
	if byID != nil && len(byID) == len(d.Offers) {
		v.offersIndexed = true // every offer's ID is distinct
	}
	v.index(c)
	if len(v.problems) > 0 {
		return nil, &ValidationError{Problems: v.problems}
	}
	c.sortAll(v.offerIDs, v.windowsIDs, v.sorted)
	return c, nil
}

// indexValidated builds the catalog of data that passed New before, in the
// order New left it but for the GPU models: the indexes and links New
// fills, without the checks and without sorting again.
func indexValidated(d Data) *Catalog {
	c := newCatalog(d)
	regions := c.indexRecords()
	// Names index the models in the order given, as in New, which sorts
	// them afterwards (a name matching several lists them in that order).
	sort.SliceStable(c.gpus, func(i, j int) bool { return c.gpus[i].ID < c.gpus[j].ID })
	c.linkOffers(c.offers, regions, false) // valid data: every offer links
	c.offers, c.windows, _, _ = splitOS(c.offers, nil)
	return c
}

// splitOS puts the Windows offers of offers (whose IDs are ids) after the
// Linux ones, in place, each part in its order, and returns both parts
// and their IDs (ids may be nil: no IDs). With no Windows offer (the
// common case) nothing moves.
func splitOS(offers []*Offer, ids []string) (linux, windows []*Offer, linuxIDs, windowsIDs []string) {
	first := -1
	for i, o := range offers {
		if o.OS != OSLinux {
			first = i
			break
		}
	}
	if first < 0 {
		return offers, nil, ids, nil
	}
	var wo []*Offer
	var wi []string
	n := first
	for i := first; i < len(offers); i++ {
		if offers[i].OS != OSLinux {
			wo = append(wo, offers[i])
			if ids != nil {
				wi = append(wi, ids[i])
			}
			continue
		}
		offers[n] = offers[i]
		if ids != nil {
			ids[n] = ids[i]
		}
		n++
	}
	copy(offers[n:], wo)
	if ids == nil {
		return offers[:n:n], offers[n:], nil, nil
	}
	copy(ids[n:], wi)
	return offers[:n:n], offers[n:], ids[:n:n], ids[n:]
}

// newCatalog is a catalog of d's records with empty indexes.
func newCatalog(d Data) *Catalog {
	return &Catalog{
		providers:     d.Providers,
		regions:       d.Regions,
		gpus:          d.GPUs,
		instances:     d.Instances,
		offers:        d.Offers,
		claims:        d.Claims,
		ancillary:     d.Ancillary,
		support:       d.Support,
		onprem:        d.OnPrem,
		spot:          d.Spot,
		interruptions: d.Interrupt,
		ecosystem:     d.Ecosystem,
		billingModels: d.Billing,
		providerByID:  make(map[string]*Provider, len(d.Providers)),
		regionByKey:   make(map[string]*Region, len(d.Regions)),
		gpuByID:       make(map[string]*GPU, len(d.GPUs)),
		instanceByID:  make(map[string]*InstanceType, len(d.Instances)),
		gpuNames:      make(map[string][]*GPU),
	}
}

// sortAll sorts the catalog's records; offerIDs and windowsIDs are the
// IDs of the Linux and Windows offers, in their order, and sorted, when
// not nil, every offer in ID order already.
func (c *Catalog) sortAll(offerIDs, windowsIDs []string, sorted []*Offer) {
	sort.SliceStable(c.providers, func(i, j int) bool { return c.providers[i].ID < c.providers[j].ID })
	sort.SliceStable(c.regions, func(i, j int) bool { return c.regions[i].Key() < c.regions[j].Key() })
	sort.SliceStable(c.gpus, func(i, j int) bool { return c.gpus[i].ID < c.gpus[j].ID })
	// Instance IDs computed once, not in every comparison (a big import
	// discovers thousands of instance types).
	type keyed struct {
		id string
		it *InstanceType
	}
	its := make([]keyed, len(c.instances))
	for i, it := range c.instances {
		its[i] = keyed{it.ID(), it}
	}
	sort.SliceStable(its, func(i, j int) bool { return its[i].id < its[j].id })
	for i := range its {
		c.instances[i] = its[i].it
	}
	sortOffers(c.windows, windowsIDs)
	if sorted != nil && len(sorted) == len(c.offers) {
		copy(c.offers, sorted) // sorted by the duplicate check already
		return
	}
	sortOffers(c.offers, offerIDs)
}

// sortOffers sorts offers, whose IDs are ids, by ID. A valid catalog holds
// each offer ID once, so an unstable sort gives the one order. An offer's
// ID is its instance type's ID, a slash, then region and billing; where
// no instance type ID holds a second slash, no such prefix of one ID is a
// prefix of another's, so the IDs sort as their instance types'
// prefixes, then within one type: the offers are grouped by instance type
// (one short sort of the types) and each group is sorted on its own,
// which compares and moves far less than one sort of every offer.
func sortOffers(offers []*Offer, ids []string) {
	type group struct {
		prefix     string
		start, end int // the group's range once grouped
	}
	var groups []group
	at := map[string]int32{}
	of := make([]int32, len(offers))
	last, lastGroup := "", int32(-1)
	for i, o := range offers {
		prefix := ids[i][:len(o.Provider)+len(o.InstanceName)+2]
		if prefix != last || lastGroup < 0 {
			g, ok := at[prefix]
			if !ok {
				// Any split of a prefix into provider and name with a
				// slash in either shows on the first offer of its group.
				if strings.Contains(o.Provider, "/") || strings.Contains(o.InstanceName, "/") {
					sort.Sort(byID{offers, ids})
					return
				}
				g = int32(len(groups))
				at[prefix] = g
				groups = append(groups, group{prefix: prefix})
			}
			last, lastGroup = prefix, g
		}
		of[i] = lastGroup
		groups[lastGroup].end++ // the count, for now
	}
	order := make([]int32, len(groups))
	for i := range order {
		order[i] = int32(i)
	}
	sort.Slice(order, func(a, b int) bool { return groups[order[a]].prefix < groups[order[b]].prefix })
	start := 0
	for _, g := range order {
		n := groups[g].end
		groups[g].start, groups[g].end = start, start
		start += n
	}
	// Where each offer goes (of is reused), then the moves done in place
	// along the permutation's cycles.
	for i := range offers {
		g := &groups[of[i]]
		of[i] = int32(g.end)
		g.end++
	}
	for i := range offers {
		for j := int(of[i]); j != i; j = int(of[i]) {
			offers[i], offers[j] = offers[j], offers[i]
			ids[i], ids[j] = ids[j], ids[i]
			of[i], of[j] = of[j], of[i]
		}
	}
	for _, g := range groups {
		sort.Sort(byID{offers[g.start:g.end], ids[g.start:g.end]})
	}
}

// byID sorts offers by their IDs, computed once (ID concatenates four
// strings; computing it in every comparison dominated loads with 100,000
// imported offers).
type byID struct {
	offers []*Offer
	ids    []string
}

func (b byID) Len() int           { return len(b.offers) }
func (b byID) Less(i, j int) bool { return b.ids[i] < b.ids[j] }
func (b byID) Swap(i, j int) {
	b.offers[i], b.offers[j] = b.offers[j], b.offers[i]
	b.ids[i], b.ids[j] = b.ids[j], b.ids[i]
}

// Providers returns every provider, sorted by ID.
func (c *Catalog) Providers() []*Provider { return c.providers }

// Provider returns the provider with the given ID.
func (c *Catalog) Provider(id string) (*Provider, bool) {
	p, ok := c.providerByID[id]
	return p, ok
}

// Regions returns every region, sorted by provider and code.
func (c *Catalog) Regions() []*Region { return c.regions }

// Region returns a provider's region by code.
func (c *Catalog) Region(provider, code string) (*Region, bool) {
	r, ok := c.regionByKey[provider+"/"+code]
	return r, ok
}

// GPUs returns every GPU model, sorted by ID.
func (c *Catalog) GPUs() []*GPU { return c.gpus }

// GPU returns a GPU model by canonical ID.
func (c *Catalog) GPU(id string) (*GPU, bool) {
	g, ok := c.gpuByID[id]
	return g, ok
}

// Instances returns every instance type, sorted by ID.
func (c *Catalog) Instances() []*InstanceType { return c.instances }

// Instance returns an instance type by "provider/instance_type".
func (c *Catalog) Instance(id string) (*InstanceType, bool) {
	it, ok := c.instanceByID[id]
	return it, ok
}

// Offers returns every Linux offer (the default operating system), sorted
// by ID: what every view lists unless asked for another operating system.
func (c *Catalog) Offers() []*Offer { return c.offers }

// OffersOS returns the offers of one operating system (OSLinux or
// OSWindows), sorted by ID; nil for any other.
func (c *Catalog) OffersOS(os string) []*Offer {
	switch os {
	case OSLinux:
		return c.offers
	case OSWindows:
		return c.windows
	}
	return nil
}

// WindowsOffer returns the Windows offer (licence included) of a Linux
// offer's instance type, region and billing model, when the catalog has one.
func (c *Catalog) WindowsOffer(o *Offer) (*Offer, bool) {
	if len(c.windows) == 0 {
		return nil, false
	}
	return searchID(c.windows, o.Provider+"/"+o.InstanceName+"/"+o.RegionCode+"/"+string(o.Billing))
}

// Offer returns an offer by its ID, "provider/instance_type/region/billing"
// (with "/windows" for a Windows offer).
func (c *Catalog) Offer(id string) (*Offer, bool) {
	if base, ok := strings.CutSuffix(id, "/"+OSWindows); ok && len(c.windows) > 0 {
		return searchID(c.windows, base)
	}
	return searchID(c.offers, id)
}

// searchID finds the offer of offers (sorted by ID, all of one operating
// system) whose ID, without its operating system, is id.
func searchID(offers []*Offer, id string) (*Offer, bool) {
	i := sort.Search(len(offers), func(i int) bool { return compareID(offers[i], id) >= 0 })
	if i < len(offers) && compareID(offers[i], id) == 0 {
		return offers[i], true
	}
	return nil, false
}

// compareID compares o's ID, without its operating system, with id as
// strings.Compare does, without building o's ID.
func compareID(o *Offer, id string) int {
	for k, part := range [4]string{o.Provider, o.InstanceName, o.RegionCode, string(o.Billing)} {
		if k > 0 {
			switch {
			case id == "":
				return 1
			case id[0] != '/':
				if '/' < id[0] {
					return -1
				}
				return 1
			}
			id = id[1:]
		}
		n := min(len(part), len(id))
		if c := strings.Compare(part[:n], id[:n]); c != 0 {
			return c
		}
		if len(part) > n {
			return 1
		}
		id = id[n:]
	}
	if id != "" {
		return -1
	}
	return 0
}

// Claims returns the seed-article claims in file order.
func (c *Catalog) Claims() []*Claim { return c.claims }
