package catalog

import (
	"errors"
	"fmt"
)

// Conflict is an imported price that differs from the curated one.
type Conflict struct {
	OfferID           string
	Curated, Imported Price
}

// OverlayReport says what an overlay of imported data did.
type OverlayReport struct {
	Replaced, Added, Unchanged int
	Bands                      int
	Conflicts                  []Conflict
	// Dropped are imported offers that could not be used (unknown instance
	// type or region, or failing validation), with the reason.
	Dropped []Problem
}

// Overlay puts imported offers and interruption bands over curated data:
// an imported offer replaces the curated offer with the same ID (imported
// prices win; curated specs fill the gaps), or is added when its instance
// type and region are in the catalog; others are dropped with a reason.
func Overlay(d *Data, offers []*Offer, bands []*InterruptionBand) OverlayReport {
	var rep OverlayReport
	instances := map[string]bool{}
	for _, it := range d.Instances {
		instances[it.ID()] = true
	}
	regions := map[string]bool{}
	for _, r := range d.Regions {
		regions[r.Key()] = true
	}
	byID := map[string]int{}
	for i, o := range d.Offers {
		byID[o.ID()] = i
	}
	for _, o := range offers {
		id := o.ID()
		switch {
		case !instances[o.Provider+"/"+o.InstanceName]:
			rep.Dropped = append(rep.Dropped, Problem{Record: id, Field: "instance_type", Msg: "instance type not in the catalog"})
			continue
		case !regions[o.Provider+"/"+o.RegionCode]:
			rep.Dropped = append(rep.Dropped, Problem{Record: id, Field: "region", Msg: "region not in the catalog"})
			continue
		}
		if i, ok := byID[id]; ok {
			old := d.Offers[i]
			if old.Price.Currency == o.Price.Currency && old.EffectiveHourly().Equal(o.EffectiveHourly()) {
				rep.Unchanged++
			} else {
				rep.Conflicts = append(rep.Conflicts, Conflict{OfferID: id, Curated: old.Price, Imported: o.Price})
			}
			d.Offers[i] = o
			rep.Replaced++
			continue
		}
		byID[id] = len(d.Offers)
		d.Offers = append(d.Offers, o)
		rep.Added++
	}
	bandAt := map[string]int{}
	for i, b := range d.Interrupt {
		bandAt[b.Provider+"/"+b.InstanceName+"/"+b.Region] = i
	}
	for _, b := range bands {
		if !instances[b.Provider+"/"+b.InstanceName] || !regions[b.Provider+"/"+b.Region] {
			continue
		}
		k := b.Provider + "/" + b.InstanceName + "/" + b.Region
		if i, ok := bandAt[k]; ok {
			d.Interrupt[i] = b
		} else {
			bandAt[k] = len(d.Interrupt)
			d.Interrupt = append(d.Interrupt, b)
		}
		rep.Bands++
	}
	return rep
}

// NewWithImports builds a catalog from curated data overlaid with imports.
// Imported offers that make validation fail (for example a spot price
// above a newer on-demand price) are dropped and reported, so one bad
// imported figure never makes the catalog unusable.
func NewWithImports(d Data, offers []*Offer, bands []*InterruptionBand) (*Catalog, OverlayReport, error) {
	imported := map[*Offer]bool{}
	for _, o := range offers {
		imported[o] = true
	}
	rep := Overlay(&d, offers, bands)
	for attempt := 0; attempt < 3; attempt++ {
		c, err := New(d)
		if err == nil {
			return c, rep, nil
		}
		var ve *ValidationError
		if !errors.As(err, &ve) {
			return nil, rep, err
		}
		bad := map[string]string{}
		for _, p := range ve.Problems {
			bad[p.Record] = p.Error()
		}
		kept := d.Offers[:0:0]
		removed := 0
		for _, o := range d.Offers {
			if msg, ok := bad[o.ID()]; ok && imported[o] {
				rep.Dropped = append(rep.Dropped, Problem{Record: o.ID(), Msg: "fails validation: " + msg})
				removed++
				continue
			}
			kept = append(kept, o)
		}
		if removed == 0 {
			return nil, rep, fmt.Errorf("catalog with imports: %w", err)
		}
		d.Offers = kept
	}
	c, err := New(d)
	return c, rep, err
}
