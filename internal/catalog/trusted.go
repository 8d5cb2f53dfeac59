package catalog

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// NewOverlaid builds the catalog of d with imported offers that were
// validated before, without checking them again: d is valid data (the
// compiled catalog, possibly with instance types discovered by import
// added), replaced names the IDs of d's offers that imports replace (left
// out here whether or not their replacement is among imported), and
// imported are offers that NewWithImports accepted unchanged, rejecting
// nothing, over the same data and imports. A read that keeps a validated
// form of its imports (internal/sqlite's overlay cache) builds the
// catalog of only the offers it may show this way: a subset of a valid
// catalog's offers by price is not itself a catalog New would accept (a
// spot offer may lack its on-demand sibling), so it is indexed and linked
// as New would, not checked. It fails when an offer's instance type or
// region is missing, or an offer ID is held twice: then the form does not
// belong to d.
func NewOverlaid(d Data, replaced map[string]bool, imported []*Offer) (*Catalog, error) {
	offers := make([]*Offer, 0, len(d.Offers)+len(imported))
	for _, o := range d.Offers {
		if len(replaced) > 0 && replaced[o.ID()] {
			continue
		}
		offers = append(offers, o)
	}
	offers = append(offers, imported...)
	d.Offers = offers
	c := newCatalog(d)
	if err := c.linkOffers(c.offers, c.indexRecords(), true); err != nil {
		return nil, err
	}
	c.sortRecords()
	if err := c.orderOffers(c.offers); err != nil {
		return nil, err
	}
	return c, nil
}

// WithOffers is c (built by NewOverlaid) with more imported offers of
// the same validated set: the same records and indexes, the offers
// joined, linked and in ID order. It fails as NewOverlaid does.
func (c *Catalog) WithOffers(imported []*Offer) (*Catalog, error) {
	if len(imported) == 0 {
		return c, nil
	}
	n := *c
	offers := make([]*Offer, 0, len(c.offers)+len(c.windows)+len(imported))
	offers = append(append(append(offers, c.offers...), c.windows...), imported...)
	if err := c.linkOffers(imported, nil, true); err != nil {
		return nil, err
	}
	if err := n.orderOffers(offers); err != nil {
		return nil, err
	}
	return &n, nil
}

// orderOffers makes offers (linked) the catalog's, Linux and Windows
// apart, each in ID order; an ID held twice is an error.
func (c *Catalog) orderOffers(offers []*Offer) error {
	ids := offerIDs(offers)
	var windowsIDs []string
	c.offers, c.windows, ids, windowsIDs = splitOS(offers, ids)
	sortOffers(c.offers, ids)
	sortOffers(c.windows, windowsIDs)
	// sortOffers sorted the IDs with their offers.
	for _, list := range [][]string{ids, windowsIDs} {
		for i := 1; i < len(list); i++ {
			if list[i-1] == list[i] {
				return fmt.Errorf("offer %s: held twice", list[i])
			}
		}
	}
	return nil
}

// sortRecords puts the records other than offers in the order sortAll
// gives them, sorting only the lists not in it already (valid data is,
// but for the instance types discovered by import).
func (c *Catalog) sortRecords() {
	if !sort.SliceIsSorted(c.providers, func(i, j int) bool { return c.providers[i].ID < c.providers[j].ID }) {
		sort.SliceStable(c.providers, func(i, j int) bool { return c.providers[i].ID < c.providers[j].ID })
	}
	if !sort.SliceIsSorted(c.regions, func(i, j int) bool {
		a, b := c.regions[i], c.regions[j]
		return cmpJoined(a.Provider, a.Code, b.Provider, b.Code) < 0
	}) {
		sort.SliceStable(c.regions, func(i, j int) bool { return c.regions[i].Key() < c.regions[j].Key() })
	}
	if !sort.SliceIsSorted(c.gpus, func(i, j int) bool { return c.gpus[i].ID < c.gpus[j].ID }) {
		sort.SliceStable(c.gpus, func(i, j int) bool { return c.gpus[i].ID < c.gpus[j].ID })
	}
	// The instance types are sorted but for those discovered, appended:
	// the tail from the first out of order is sorted and merged in, as a
	// stable sort of the whole would place it.
	its := c.instances
	p := 1
	for p < len(its) && cmpJoined(its[p-1].Provider, its[p-1].Name, its[p].Provider, its[p].Name) <= 0 {
		p++
	}
	if p >= len(its) {
		return
	}
	tail := append([]*InstanceType(nil), its[p:]...)
	sorted := true
	for i := 1; i < len(tail) && sorted; i++ {
		sorted = cmpJoined(tail[i-1].Provider, tail[i-1].Name, tail[i].Provider, tail[i].Name) <= 0
	}
	if !sorted {
		type keyed struct {
			id string
			it *InstanceType
		}
		keys := make([]keyed, len(tail))
		for i, it := range tail {
			keys[i] = keyed{it.ID(), it}
		}
		slices.SortStableFunc(keys, func(a, b keyed) int { return strings.Compare(a.id, b.id) })
		for i := range keys {
			tail[i] = keys[i].it
		}
	}
	head := append([]*InstanceType(nil), its[:p]...)
	out := its[:0]
	i, j := 0, 0
	for i < len(head) && j < len(tail) {
		if h := head[i]; cmpJoined(h.Provider, h.Name, tail[j].Provider, tail[j].Name) <= 0 {
			out = append(out, h)
			i++
		} else {
			out = append(out, tail[j])
			j++
		}
	}
	out = append(append(out, head[i:]...), tail[j:]...)
}

// CompareInstanceIDs compares the instance type IDs p1/n1 and p2/n2
// (provider and name) as strings.Compare compares the IDs, without
// building them: the catalog's order of instance types.
func CompareInstanceIDs(p1, n1, p2, n2 string) int { return cmpJoined(p1, n1, p2, n2) }

// cmpJoined compares a1+"/"+a2 with b1+"/"+b2 as strings.Compare would,
// without joining them.
func cmpJoined(a1, a2, b1, b2 string) int {
	at := func(s1, s2 string, i int) (byte, bool) {
		switch {
		case i < len(s1):
			return s1[i], true
		case i == len(s1):
			return '/', true
		case i-len(s1)-1 < len(s2):
			return s2[i-len(s1)-1], true
		}
		return 0, false
	}
	for i := 0; ; i++ {
		x, okA := at(a1, a2, i)
		y, okB := at(b1, b2, i)
		switch {
		case !okA && !okB:
			return 0
		case !okA:
			return -1
		case !okB:
			return 1
		case x != y:
			if x < y {
				return -1
			}
			return 1
		}
	}
}

// indexRecords fills c's indexes of its providers, regions, GPU models
// (with their names, in the order the models are listed) and instance
// types, links each instance type to its GPU model, and returns the
// regions by provider and code.
func (c *Catalog) indexRecords() map[[2]string]*Region {
	for _, p := range c.providers {
		c.providerByID[p.ID] = p
	}
	regions := make(map[[2]string]*Region, len(c.regions))
	for _, r := range c.regions {
		c.regionByKey[r.Key()] = r
		regions[[2]string{r.Provider, r.Code}] = r
	}
	for _, g := range c.gpus {
		c.gpuByID[g.ID] = g
		c.addGPUNames(g)
	}
	for _, it := range c.instances {
		c.instanceByID[it.ID()] = it
		it.GPU = c.gpuByID[it.GPUID]
	}
	return regions
}

// linkOffers links each offer (offers come grouped by instance type) to
// its instance type and region: regions by provider and code, or c's
// index when nil. With strict, an offer whose instance type or region c
// lacks is an error; otherwise it keeps a nil link.
func (c *Catalog) linkOffers(offers []*Offer, regions map[[2]string]*Region, strict bool) error {
	var last *InstanceType
	for _, o := range offers {
		if last == nil || last.Provider != o.Provider || last.Name != o.InstanceName {
			last = c.instanceByID[o.Provider+"/"+o.InstanceName]
		}
		if last == nil && strict {
			return fmt.Errorf("offer %s: unknown instance type", o.ID())
		}
		o.Instance = last
		if regions != nil {
			o.Region = regions[[2]string{o.Provider, o.RegionCode}]
		} else {
			o.Region = c.regionByKey[o.Provider+"/"+o.RegionCode]
		}
		if o.Region == nil && strict {
			return fmt.Errorf("offer %s: unknown region", o.ID())
		}
	}
	return nil
}
