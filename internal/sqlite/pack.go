package sqlite

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/shopspring/decimal"
)

// packFormat is the version of packedOffers; a pack of another format is
// ignored (the rows are read instead).
const packFormat = 1

// packedOffers is a snapshot's offers in columns: strings as indexes into
// Strings, money as integer coefficients with exponents.
type packedOffers struct {
	Strings                                   []string
	Provider, Instance, Region, Billing, Curr []uint32
	Kind, Ref, AsOf                           []uint32
	HourlyC, UpfrontC, MonthlyC               []int64
	HourlyE, UpfrontE, MonthlyE               []int32
}

// pack encodes offers; ok is false when a price does not fit the packed
// form (a coefficient beyond 64 bits), and the rows are then the only copy.
func pack(offers []*catalog.Offer) (blob []byte, ok bool, err error) {
	p := &packedOffers{}
	index := map[string]uint32{}
	str := func(s string) uint32 {
		i, seen := index[s]
		if !seen {
			i = uint32(len(p.Strings))
			index[s] = i
			p.Strings = append(p.Strings, s)
		}
		return i
	}
	dec := func(d decimal.Decimal, c *[]int64, e *[]int32) bool {
		co := d.Coefficient()
		if !co.IsInt64() {
			return false
		}
		*c, *e = append(*c, co.Int64()), append(*e, d.Exponent())
		return true
	}
	for _, o := range offers {
		p.Provider = append(p.Provider, str(o.Provider))
		p.Instance = append(p.Instance, str(o.InstanceName))
		p.Region = append(p.Region, str(o.RegionCode))
		p.Billing = append(p.Billing, str(string(o.Billing)))
		p.Curr = append(p.Curr, str(o.Price.Currency))
		p.Kind = append(p.Kind, str(string(o.Source.Kind)))
		p.Ref = append(p.Ref, str(o.Source.Ref))
		p.AsOf = append(p.AsOf, str(o.Source.AsOfString()))
		if !dec(o.Price.Hourly, &p.HourlyC, &p.HourlyE) || !dec(o.Price.Upfront, &p.UpfrontC, &p.UpfrontE) ||
			!dec(o.Price.Monthly, &p.MonthlyC, &p.MonthlyE) {
			return nil, false, nil
		}
	}
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(p); err != nil {
		return nil, false, err
	}
	return b.Bytes(), true, nil
}

// unpack decodes a pack into offers fetched at fetched: those keep keeps
// (all where keep is nil), each counted in counts (when not nil).
func unpack(blob []byte, fetched time.Time, keep OfferFilter, counts *offerCounter) ([]*catalog.Offer, error) {
	var p packedOffers
	if err := gob.NewDecoder(bytes.NewReader(blob)).Decode(&p); err != nil {
		return nil, err
	}
	n := len(p.Provider)
	for _, col := range [][]uint32{p.Instance, p.Region, p.Billing, p.Curr, p.Kind, p.Ref, p.AsOf} {
		if len(col) != n {
			return nil, fmt.Errorf("packed offers: columns of different lengths")
		}
	}
	if len(p.HourlyC) != n || len(p.HourlyE) != n || len(p.UpfrontC) != n || len(p.UpfrontE) != n || len(p.MonthlyC) != n || len(p.MonthlyE) != n {
		return nil, fmt.Errorf("packed offers: columns of different lengths")
	}
	s := func(i uint32) (string, error) {
		if int(i) >= len(p.Strings) {
			return "", fmt.Errorf("packed offers: string %d out of range", i)
		}
		return p.Strings[i], nil
	}
	for _, col := range [][]uint32{p.Provider, p.Instance, p.Region, p.Billing, p.Curr, p.Kind, p.Ref, p.AsOf} {
		for _, i := range col {
			if int(i) >= len(p.Strings) {
				return nil, fmt.Errorf("packed offers: string %d out of range", i)
			}
		}
	}
	// Whether to keep the offers of each provider/instance pair of string
	// indexes, decided once per pair.
	kept := map[[2]uint32]bool{}
	type pair = [2]uint32
	wanted := make([]bool, n)
	count := 0
	for k := 0; k < n; k++ {
		key := pair{p.Provider[k], p.Instance[k]}
		w, seen := kept[key]
		if !seen {
			w = keep == nil || keep(p.Strings[key[0]], p.Strings[key[1]])
			kept[key] = w
		}
		if counts != nil {
			counts.add(p.Strings[key[0]], p.Strings[key[1]], func() string {
				return p.Strings[key[0]] + "/" + p.Strings[key[1]] + "/" + p.Strings[p.Region[k]] + "/" + p.Strings[p.Billing[k]]
			})
		}
		if w {
			wanted[k] = true
			count++
		}
	}
	dates := map[uint32]time.Time{}
	zero := decimal.Zero
	offers := make([]catalog.Offer, count)
	out := make([]*catalog.Offer, 0, count)
	for k := 0; k < n; k++ {
		if !wanted[k] {
			continue
		}
		o := &offers[len(out)]
		var err error
		var billing, kind, asOf string
		for _, f := range []struct {
			i   uint32
			dst *string
		}{{p.Provider[k], &o.Provider}, {p.Instance[k], &o.InstanceName}, {p.Region[k], &o.RegionCode}, {p.Billing[k], &billing},
			{p.Curr[k], &o.Price.Currency}, {p.Kind[k], &kind}, {p.Ref[k], &o.Source.Ref}, {p.AsOf[k], &asOf}} {
			if *f.dst, err = s(f.i); err != nil {
				return nil, err
			}
		}
		o.Billing, o.Source.Kind = catalog.Billing(billing), catalog.SourceKind(kind)
		d, ok := dates[p.AsOf[k]]
		if !ok {
			d, _ = catalog.ParseDate(asOf)
			dates[p.AsOf[k]] = d
		}
		o.Source.AsOf, o.Source.FetchedAt = d, fetched
		o.Price.Hourly = decimal.New(p.HourlyC[k], p.HourlyE[k])
		o.Price.Upfront, o.Price.Monthly = zero, zero
		if p.UpfrontC[k] != 0 {
			o.Price.Upfront = decimal.New(p.UpfrontC[k], p.UpfrontE[k])
		}
		if p.MonthlyC[k] != 0 {
			o.Price.Monthly = decimal.New(p.MonthlyC[k], p.MonthlyE[k])
		}
		out = append(out, o)
	}
	return out, nil
}
