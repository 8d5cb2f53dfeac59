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

// RejectReason says why an imported record was left out of the catalog.
type RejectReason string

// Reasons an imported record is rejected.
const (
	// RejectCurrency: the offer's currency has no exchange rate, so it
	// could be neither converted nor compared.
	RejectCurrency RejectReason = "unknown-currency"
	// RejectInvalid: the record fails catalog validation (a spot price above
	// the on-demand price, a band whose high is below its low ...).
	RejectInvalid RejectReason = "invalid"
)

// Rejection is an imported record, within the catalog's coverage, whose
// data is unusable. It is left out, and every read warns about it (the
// CLI on stderr, the web UI as a notice, the API in a warnings field), so
// one bad stored figure never fails a whole read nor disappears silently.
type Rejection struct {
	Kind   string       // "offer" or "interruption-band"
	Record string       // the offer ID, or provider/instance_type/region of a band
	Reason RejectReason //
	// Detail is the currency code (RejectCurrency) or the validation
	// message (RejectInvalid, in English like every validation message).
	Detail string
}

// Record kinds of a Rejection.
const (
	KindOffer = "offer"
	KindBand  = "interruption-band"
)

// String renders the rejection in English, for logs.
func (r Rejection) String() string {
	if r.Reason == RejectCurrency {
		return fmt.Sprintf("%s %s: no exchange rate for currency %q", r.Kind, r.Record, r.Detail)
	}
	return fmt.Sprintf("%s %s: fails validation: %s", r.Kind, r.Record, r.Detail)
}

// OverlayReport says what an overlay of imported data did.
type OverlayReport struct {
	Replaced, Added, Unchanged int
	Bands                      int
	Conflicts                  []Conflict
	// Dropped are imported records outside the catalog's coverage (an
	// instance type or region the catalog does not know), with the reason.
	// They are expected (a provider's price file lists more than the
	// catalog curates) and are counted, not warned about on every read.
	Dropped []Problem
	// Rejected are imported records inside the coverage whose data is
	// unusable; readers warn about each one.
	Rejected []Rejection
}

// Overlay puts imported offers and interruption bands over curated data:
// an imported offer replaces the curated offer with the same ID (imported
// prices win; curated specs fill the gaps), or is added when its instance
// type and region are in the catalog; others are dropped with a reason.
func Overlay(d *Data, offers []*Offer, bands []*InterruptionBand) OverlayReport {
	d.validated = false
	instances, regions := coverage(d)
	rep, _, _ := overlay(d, offers, bands, instances, regions)
	return rep
}

// overlay is Overlay given the coverage of d. It also returns the IDs of
// d.Offers afterwards, in their order, and the offers by ID (New takes
// both instead of building them again).
func overlay(d *Data, offers []*Offer, bands []*InterruptionBand, instances, regions map[[2]string]bool) (OverlayReport, []string, map[string]*Offer) {
	var rep OverlayReport
	// IDs cut from one string per list (see offerIDs); the map is sized
	// for every offer, so a big import neither allocates a string per
	// offer nor grows the map step by step.
	nCurated := len(d.Offers)
	ids := append(make([]string, 0, len(d.Offers)+len(offers)), offerIDs(d.Offers)...)
	importedIDs := offerIDs(offers)
	byID := make(map[string]*Offer, len(d.Offers)+len(offers))
	curatedAt := make(map[string]int, len(d.Offers))
	d.Offers = append(make([]*Offer, 0, len(d.Offers)+len(offers)), d.Offers...)
	for i, id := range ids {
		byID[id] = d.Offers[i]
		curatedAt[id] = i
	}
	// addedAt is where each added import is, built on the first import
	// that repeats an earlier one (a read of the database never does).
	var addedAt map[string]int
	// Imported offers come grouped by instance type: its coverage is
	// looked up once per run of offers of one type.
	var lastProv, lastInst string
	lastIn := false
	for j, o := range offers {
		if o.Provider != lastProv || o.InstanceName != lastInst || lastProv == "" {
			lastProv, lastInst = o.Provider, o.InstanceName
			lastIn = instances[[2]string{o.Provider, o.InstanceName}]
		}
		id := importedIDs[j]
		switch {
		case !lastIn:
			rep.Dropped = append(rep.Dropped, Problem{Record: id, Field: "instance_type", Msg: "instance type not in the catalog"})
			continue
		case !regions[[2]string{o.Provider, o.RegionCode}]:
			rep.Dropped = append(rep.Dropped, Problem{Record: id, Field: "region", Msg: "region not in the catalog"})
			continue
		}
		if old, ok := byID[id]; ok {
			i, cur := curatedAt[id]
			if !cur {
				if addedAt == nil {
					addedAt = make(map[string]int, len(d.Offers)-nCurated)
					for k := nCurated; k < len(d.Offers); k++ {
						addedAt[ids[k]] = k
					}
				}
				i = addedAt[id]
			}
			if old.Price.Currency == o.Price.Currency && old.EffectiveHourly().Equal(o.EffectiveHourly()) {
				rep.Unchanged++
			} else {
				rep.Conflicts = append(rep.Conflicts, Conflict{OfferID: id, Curated: old.Price, Imported: o.Price})
			}
			d.Offers[i] = o
			byID[id] = o
			rep.Replaced++
			continue
		}
		byID[id] = o
		d.Offers = append(d.Offers, o)
		ids = append(ids, id)
		if addedAt != nil {
			addedAt[id] = len(d.Offers) - 1
		}
		rep.Added++
	}
	bandAt := map[string]int{}
	for i, b := range d.Interrupt {
		bandAt[b.key()] = i
	}
	for _, b := range bands {
		k := b.key()
		switch {
		case !instances[[2]string{b.Provider, b.InstanceName}]:
			rep.Dropped = append(rep.Dropped, Problem{Record: k, Field: "instance_type", Msg: "instance type not in the catalog"})
			continue
		case !regions[[2]string{b.Provider, b.Region}]:
			rep.Dropped = append(rep.Dropped, Problem{Record: k, Field: "region", Msg: "region not in the catalog"})
			continue
		}
		if i, ok := bandAt[k]; ok {
			d.Interrupt[i] = b
		} else {
			bandAt[k] = len(d.Interrupt)
			d.Interrupt = append(d.Interrupt, b)
		}
		rep.Bands++
	}
	return rep, ids, byID
}

// coverage returns the instance types ({provider, name}) and regions
// ({provider, code}) of d, keyed by their parts so that checking an
// offer builds no string.
func coverage(d *Data) (instances, regions map[[2]string]bool) {
	instances, regions = make(map[[2]string]bool, len(d.Instances)), make(map[[2]string]bool, len(d.Regions))
	for _, it := range d.Instances {
		instances[[2]string{it.Provider, it.Name}] = true
	}
	for _, r := range d.Regions {
		regions[[2]string{r.Provider, r.Code}] = true
	}
	return instances, regions
}

// key identifies a band: provider/instance_type/region.
func (b *InterruptionBand) key() string { return b.Provider + "/" + b.InstanceName + "/" + b.Region }

// CurrencyKnown reports whether prices in a currency can be converted
// (an FX table's lookup; see fx.Table.Known).
type CurrencyKnown func(code string) bool

// NewWithImports builds a catalog from curated data overlaid with imports.
// Imported records whose data is unusable are left out and reported in
// OverlayReport.Rejected, so one bad stored figure never makes the catalog
// unusable: an offer whose currency known rejects (when known is not nil),
// and offers or bands that make validation fail (for example a spot price
// above a newer on-demand price). Where a rejected offer replaced a
// curated one, the curated offer stays. It fails only when the curated
// data itself is invalid.
func NewWithImports(d Data, offers []*Offer, bands []*InterruptionBand, known CurrencyKnown) (*Catalog, OverlayReport, error) {
	var rejected []Rejection
	instances, regions := coverage(&d)
	if known != nil {
		usable := make([]*Offer, 0, len(offers))
		knownCur := map[string]bool{}
		for _, o := range offers {
			ok, seen := knownCur[o.Price.Currency]
			if !seen {
				ok = known(o.Price.Currency)
				knownCur[o.Price.Currency] = ok
			}
			if ok {
				usable = append(usable, o)
				continue
			}
			// Offers outside the coverage are dropped by Overlay, quietly,
			// whatever their currency.
			if instances[[2]string{o.Provider, o.InstanceName}] && regions[[2]string{o.Provider, o.RegionCode}] {
				rejected = append(rejected, Rejection{Kind: KindOffer, Record: o.ID(), Reason: RejectCurrency, Detail: o.Price.Currency})
				continue
			}
			usable = append(usable, o)
		}
		offers = usable
	}
	// imported tells imported records from curated ones; built only when
	// validation fails and records must be left out.
	var importedSet map[any]bool
	imported := func(x any) bool {
		if importedSet == nil {
			importedSet = make(map[any]bool, len(offers)+len(bands))
			for _, o := range offers {
				importedSet[o] = true
			}
			for _, b := range bands {
				importedSet[b] = true
			}
		}
		return importedSet[x]
	}
	curated := d
	// The curated records by ID, to restore where an import is rejected;
	// built only when validation fails.
	var curatedOffers map[string]*Offer
	var curatedBands map[string]*InterruptionBand
	curatedByID := func() {
		if curatedOffers != nil {
			return
		}
		curatedOffers = make(map[string]*Offer, len(curated.Offers))
		for _, o := range curated.Offers {
			curatedOffers[o.ID()] = o
		}
		curatedBands = make(map[string]*InterruptionBand, len(curated.Interrupt))
		for _, b := range curated.Interrupt {
			curatedBands[b.key()] = b
		}
	}
	// curatedValid says, once, whether the curated data alone is valid:
	// then every problem of the combined data comes from the imports, and
	// a curated record that an import contradicts (a curated spot price
	// above a newer imported on-demand price) is the one to leave out.
	var curatedOK *bool
	curatedValid := func() bool {
		if curatedOK == nil {
			_, err := New(curated)
			ok := err == nil
			curatedOK = &ok
		}
		return *curatedOK
	}
	// build validates the combined data.
	d.validated = false
	d.Offers = append([]*Offer(nil), d.Offers...) // Overlay writes into these
	d.Interrupt = append([]*InterruptionBand(nil), d.Interrupt...)
	rep, ids, byID := overlay(&d, offers, bands, instances, regions)
	rep.Rejected = rejected
	for attempt := 0; attempt < 5; attempt++ {
		c, err := build(d, ids, byID)
		if err == nil {
			return c, rep, nil
		}
		var ve *ValidationError
		if !errors.As(err, &ve) {
			return nil, rep, err
		}
		curatedByID()
		bad := map[string]string{}
		for _, p := range ve.Problems {
			if _, seen := bad[p.Record]; !seen {
				bad[p.Record] = fieldMsg(p)
			}
		}
		removed := 0
		keptOffers := d.Offers[:0:0]
		for _, o := range d.Offers {
			msg, flagged := bad[o.ID()]
			switch {
			case flagged && imported(o):
				rep.Rejected = append(rep.Rejected, Rejection{Kind: KindOffer, Record: o.ID(), Reason: RejectInvalid, Detail: msg})
				removed++
				if cur := curatedOffers[o.ID()]; cur != nil {
					keptOffers = append(keptOffers, cur) // the curated price stands
				}
			case flagged && curatedValid():
				rep.Rejected = append(rep.Rejected, Rejection{Kind: KindOffer, Record: o.ID(), Reason: RejectInvalid,
					Detail: msg + " (curated figure contradicted by imported prices)"})
				removed++
			default:
				keptOffers = append(keptOffers, o)
			}
		}
		keptBands := d.Interrupt[:0:0]
		for _, b := range d.Interrupt {
			msg, flagged := bad[b.key()]
			switch {
			case flagged && imported(b):
				rep.Rejected = append(rep.Rejected, Rejection{Kind: KindBand, Record: b.key(), Reason: RejectInvalid, Detail: msg})
				removed++
				if cur := curatedBands[b.key()]; cur != nil {
					keptBands = append(keptBands, cur)
				}
			default:
				keptBands = append(keptBands, b)
			}
		}
		if removed == 0 {
			return nil, rep, fmt.Errorf("catalog with imports: %w", err)
		}
		d.Offers, d.Interrupt = keptOffers, keptBands
		ids, byID = nil, nil // built again for the offers kept
	}
	c, err := New(d)
	if err != nil {
		return nil, rep, fmt.Errorf("catalog with imports: %w", err)
	}
	return c, rep, nil
}

// fieldMsg renders a problem without its position and record.
func fieldMsg(p Problem) string {
	if p.Field == "" {
		return p.Msg
	}
	return "field " + p.Field + ": " + p.Msg
}
