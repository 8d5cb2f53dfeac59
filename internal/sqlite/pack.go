package sqlite

import (
	"encoding/binary"
	"errors"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/shopspring/decimal"
)

// Pack formats. Reads decode the formats they know and read the offer
// rows of a snapshot whose pack has another format, or is damaged.
const (
	// packGob (written until 2026-12) was the offers in columns,
	// gob-encoded. Reads no longer decode it: a snapshot with such a pack
	// is read from its offer rows, which hold the same offers.
	packGob = 1
	// packParts is the offers grouped by instance type, each group
	// decodable on its own (see packParts below): a read decodes only the
	// instance types it keeps.
	packParts = 2
	// packPartsOS is packParts with each offer's operating system (a
	// string index after its as-of date): SaveImport writes it when an
	// import holds an offer that is not Linux, packParts otherwise.
	packPartsOS = 3
)

// The packParts format, every integer a varint (encoding/binary):
//
//	strings:  count, then each string as length and bytes
//	parts:    count, then per instance type: provider, instance type
//	          (string indexes), offers, body length in bytes
//	bodies:   the parts' bodies, in part order; a body holds its offers,
//	          each as region, billing, currency, source kind, source ref,
//	          as-of (string indexes), in packPartsOS the operating
//	          system (a string index), then hourly, upfront and monthly
//	          prices as coefficient and exponent (signed varints).
//
// A part's offers are the snapshot's offers of one instance type; each
// offer ID appears once in a pack (the last of an import's duplicates, as
// in the offer rows).

// pack encodes offers in format packParts, or packPartsOS when one of them
// is not a Linux offer; ok is false when a price does not fit the packed
// form (a coefficient beyond 64 bits), and the rows are then the only copy.
func pack(offers []*catalog.Offer) (blob []byte, format int, ok bool, err error) {
	// The last offer of each ID, grouped by instance type in order of
	// first appearance.
	last := make(map[string]int, len(offers))
	for i, o := range offers {
		last[o.ID()] = i
	}
	pk := newPacker()
	for i, o := range offers {
		if last[o.ID()] == i {
			pk.add(o)
		}
	}
	blob, format, ok = pk.bytes()
	return blob, format, ok, nil
}

// packer builds a pack one offer at a time (each offer ID at most once):
// an import's offers need not all be held to pack them.
type packer struct {
	strs   []string
	index  map[string]uint64
	groups []*packGroup
	byType map[[2]string]*packGroup
	// failed: a price did not fit (bytes reports !ok).
	failed bool
	// os: the bodies carry each offer's operating system (packPartsOS),
	// from the first offer that is not a Linux offer on.
	os bool
	// The last offer's field strings and their indexes + 1 (0: none),
	// and its as-of date.
	last     [6]string
	lastN    [6]uint64
	asOfTime time.Time
	lastAsOf string
}

// packGroup is one instance type's part of a pack being built.
type packGroup struct {
	provider, instance uint64
	n                  int
	body               []byte
}

func newPacker() *packer {
	return &packer{index: map[string]uint64{}, byType: map[[2]string]*packGroup{}}
}

func (pk *packer) str(s string) uint64 {
	i, seen := pk.index[s]
	if !seen {
		i = uint64(len(pk.strs))
		pk.index[s] = i
		pk.strs = append(pk.strs, s)
	}
	return i
}

// add packs an offer (it keeps no reference to o).
func (pk *packer) add(o *catalog.Offer) {
	if pk.failed {
		return
	}
	if o.Stock != nil {
		// The packed forms carry no stock reading: a snapshot with one
		// (a live API's, a few thousand offers at most) is read from its
		// rows, which hold it.
		pk.failed = true
		return
	}
	if o.OS != catalog.OSLinux && !pk.os {
		pk.upgradeOS()
	}
	k := [2]string{o.Provider, o.InstanceName}
	g := pk.byType[k]
	if g == nil {
		g = &packGroup{provider: pk.str(o.Provider), instance: pk.str(o.InstanceName)}
		pk.byType[k] = g
		pk.groups = append(pk.groups, g)
	}
	b := g.body
	asOf := pk.lastAsOf
	if !o.Source.AsOf.Equal(pk.asOfTime) || asOf == "" {
		asOf = o.Source.AsOfString()
		pk.asOfTime, pk.lastAsOf = o.Source.AsOf, asOf
	}
	for k, s := range [...]string{o.RegionCode, string(o.Billing), o.Price.Currency, string(o.Source.Kind), o.Source.Ref, asOf} {
		// Consecutive offers mostly repeat a field: no lookup then.
		if s != pk.last[k] || pk.lastN[k] == 0 {
			pk.last[k], pk.lastN[k] = s, pk.str(s)+1
		}
		b = binary.AppendUvarint(b, pk.lastN[k]-1)
	}
	if pk.os {
		b = binary.AppendUvarint(b, pk.str(o.OS))
	}
	for _, d := range [...]decimal.Decimal{o.Price.Hourly, o.Price.Upfront, o.Price.Monthly} {
		var c int64
		if d.NumDigits() <= 18 { // no copy of the coefficient
			c = d.CoefficientInt64()
		} else if co := d.Coefficient(); co.IsInt64() {
			c = co.Int64()
		} else {
			pk.failed = true
			return
		}
		b = binary.AppendVarint(binary.AppendVarint(b, c), int64(d.Exponent()))
	}
	g.body = b
	g.n++
}

// upgradeOS switches the pack being built to packPartsOS: every offer
// packed so far gets the Linux operating system after its six strings.
// It runs at most once per pack, when its first non-Linux offer comes.
func (pk *packer) upgradeOS() {
	pk.os = true
	linux := pk.str(catalog.OSLinux)
	for _, g := range pk.groups {
		out := make([]byte, 0, len(g.body)+g.n)
		b := g.body
		for range g.n {
			start := len(b)
			for range 6 {
				_, w := binary.Uvarint(b)
				b = b[w:]
			}
			out = append(out, g.body[len(g.body)-start:len(g.body)-len(b)]...)
			out = binary.AppendUvarint(out, linux)
			start = len(b)
			for range 6 {
				_, w := binary.Varint(b)
				b = b[w:]
			}
			out = append(out, g.body[len(g.body)-start:len(g.body)-len(b)]...)
		}
		g.body = out
	}
}

// bytes is the pack of the offers added and its format (packPartsOS when
// one of them is not a Linux offer, else packParts); ok is false when one
// of them did not fit.
func (pk *packer) bytes() (blob []byte, format int, ok bool) {
	if pk.failed {
		return nil, 0, false
	}
	format = packParts
	if pk.os {
		format = packPartsOS
	}
	size := 16
	for _, s := range pk.strs {
		size += len(s) + 2
	}
	for _, g := range pk.groups {
		size += len(g.body) + 16
	}
	out := make([]byte, 0, size)
	out = binary.AppendUvarint(out, uint64(len(pk.strs)))
	for _, s := range pk.strs {
		out = append(binary.AppendUvarint(out, uint64(len(s))), s...)
	}
	out = binary.AppendUvarint(out, uint64(len(pk.groups)))
	for _, g := range pk.groups {
		for _, v := range []uint64{g.provider, g.instance, uint64(g.n), uint64(len(g.body))} {
			out = binary.AppendUvarint(out, v)
		}
	}
	for _, g := range pk.groups {
		out = append(out, g.body...)
	}
	return out, format, true
}

// errPack is a damaged pack: reads fall back to the offer rows.
var errPack = errors.New("damaged packed offers")

// packReader reads varints from a pack (b from position i),
// remembering the first error.
type packReader struct {
	b   []byte
	i   int
	err error
}

// rest is what is left to read.
func (r *packReader) rest() []byte { return r.b[r.i:] }

// skip passes n bytes (n <= len(r.rest())).
func (r *packReader) skip(n uint64) { r.i += int(n) }

func (r *packReader) uvarint() uint64 {
	// One byte (most string indexes) on a short path; after an error nothing is
	// left, so every read takes the slow path and returns 0.
	if r.i < len(r.b) && r.b[r.i] < 0x80 {
		r.i++
		return uint64(r.b[r.i-1])
	}
	return r.uvarintSlow()
}

func (r *packReader) uvarintSlow() uint64 {
	v, n := binary.Uvarint(r.b[r.i:])
	if n <= 0 {
		r.fail()
		return 0
	}
	r.i += n
	return v
}

func (r *packReader) varint() int64 {
	if r.i < len(r.b) && r.b[r.i] < 0x80 { // one byte: exponents, zeros
		r.i++
		u := uint64(r.b[r.i-1])
		return int64(u>>1) ^ -int64(u&1)
	}
	return r.varintSlow()
}

func (r *packReader) varintSlow() int64 {
	v, n := binary.Varint(r.b[r.i:])
	if n <= 0 {
		r.fail()
		return 0
	}
	r.i += n
	return v
}

// fail records a damaged pack and stops reading.
func (r *packReader) fail() {
	r.err, r.b, r.i = errPack, nil, 0
}

// partsPack is a decoded packParts header: the instance types of a
// snapshot, each with its undecoded body.
type partsPack struct {
	strs    []string
	parts   []packPart
	fetched time.Time
	// dates are the strings parsed as as-of dates, by string index
	// (dated says which are), each parsed once per pack.
	dates []time.Time
	dated []bool
	// os: each offer carries its operating system (packPartsOS).
	os bool
}

// packPart is one instance type's offers in a pack.
type packPart struct {
	provider, instance string
	n                  int
	body               []byte
}

// readParts decodes the header of a packParts or packPartsOS pack and
// checks that the bodies fit.
func readParts(blob []byte, fetched time.Time, format int64) (*partsPack, error) {
	r := &packReader{b: blob}
	ns := r.uvarint()
	if ns > uint64(len(blob)) {
		return nil, errPack
	}
	p := &partsPack{strs: make([]string, 0, ns), fetched: fetched, os: format == packPartsOS}
	minOffer := uint64(12) // an offer takes at least 12 bytes (12 varints), 13 with its OS
	if p.os {
		minOffer = 13
	}
	for i := uint64(0); i < ns && r.err == nil; i++ {
		l := r.uvarint()
		if l > uint64(len(r.rest())) {
			return nil, errPack
		}
		p.strs = append(p.strs, string(r.rest()[:l]))
		r.skip(l)
	}
	np := r.uvarint()
	if np > uint64(len(r.rest())) {
		return nil, errPack
	}
	type head struct{ prov, inst, n, size uint64 }
	heads := make([]head, 0, np)
	total := uint64(0)
	for i := uint64(0); i < np && r.err == nil; i++ {
		h := head{r.uvarint(), r.uvarint(), r.uvarint(), r.uvarint()}
		if h.prov >= ns || h.inst >= ns || h.size > uint64(len(blob)) || h.n > h.size/minOffer {
			return nil, errPack
		}
		total += h.size
		heads = append(heads, h)
	}
	if r.err != nil || total != uint64(len(r.rest())) {
		return nil, errPack
	}
	p.parts = make([]packPart, len(heads))
	for i, h := range heads {
		p.parts[i] = packPart{provider: p.strs[h.prov], instance: p.strs[h.inst], n: int(h.n), body: r.rest()[:h.size]}
		r.skip(h.size)
	}
	return p, nil
}

// str is a string of the pack by index.
func (p *partsPack) str(r *packReader) string {
	i := r.uvarint()
	if i >= uint64(len(p.strs)) {
		r.fail()
		return ""
	}
	return p.strs[i]
}

// date reads a string index and returns that string as a date (zero
// when it is not one, as catalog.ParseDate leaves it).
func (p *partsPack) date(r *packReader) time.Time {
	i := r.uvarint()
	if i >= uint64(len(p.strs)) {
		r.fail()
		return time.Time{}
	}
	if p.dates == nil {
		p.dates, p.dated = make([]time.Time, len(p.strs)), make([]bool, len(p.strs))
	}
	if !p.dated[i] {
		p.dates[i], _ = catalog.ParseDate(p.strs[i])
		p.dated[i] = true
	}
	return p.dates[i]
}

// keys yields the region, billing code, currency and operating system of
// each offer of a part, without building the offers.
func (p *partsPack) keys(pt *packPart, yield func(region, billing, currency, os string)) error {
	r := &packReader{b: pt.body}
	for k := 0; k < pt.n; k++ {
		region, billing, currency := p.str(r), p.str(r), p.str(r)
		for j := 0; j < 3; j++ {
			p.str(r)
		}
		os := catalog.OSLinux
		if p.os {
			os = p.str(r)
		}
		for j := 0; j < 3; j++ {
			r.varint()
			if e := r.varint(); e < -1<<31 || e >= 1<<31 {
				return errPack
			}
		}
		if r.err != nil {
			return r.err
		}
		yield(region, billing, currency, os)
	}
	if len(r.rest()) != 0 {
		return errPack
	}
	return nil
}

// decodeCache holds prices already decoded by a read, shared by the
// offers that repeat them (decimals are immutable values): a
// direct-mapped table by coefficient and exponent, which costs less than
// a map lookup per price; a price whose slot holds another is built anew.
type decodeCache struct {
	prices [1 << priceBits]cachedPrice
}

const priceBits = 12

type cachedPrice struct {
	c, e int64
	v    decimal.Decimal
	set  bool
}

func newDecodeCache() *decodeCache { return &decodeCache{} }

// price is the decimal c × 10^e.
func (dc *decodeCache) price(c, e int64) decimal.Decimal {
	slot := &dc.prices[(uint64(c)*0x9E3779B97F4A7C15^uint64(e))>>(64-priceBits)]
	if slot.set && slot.c == c && slot.e == e {
		return slot.v
	}
	*slot = cachedPrice{c: c, e: e, v: decimal.New(c, int32(e)), set: true}
	return slot.v
}

// offers builds a part's offers in store, which holds pt.n offers (nil:
// allocated).
func (p *partsPack) offers(pt *packPart, store []catalog.Offer, cache *decodeCache) ([]*catalog.Offer, error) {
	r := &packReader{b: pt.body}
	offers := store
	if offers == nil {
		offers = make([]catalog.Offer, pt.n)
	}
	out := make([]*catalog.Offer, pt.n)
	for k := range offers {
		o := &offers[k]
		o.Provider, o.InstanceName = pt.provider, pt.instance
		o.RegionCode = p.str(r)
		o.Billing = catalog.Billing(p.str(r))
		o.Price.Currency = p.str(r)
		o.Source.Kind = catalog.SourceKind(p.str(r))
		o.Source.Ref = p.str(r)
		o.Source.AsOf, o.Source.FetchedAt = p.date(r), p.fetched
		if p.os {
			o.OS = p.str(r)
		}
		for _, f := range []*decimal.Decimal{&o.Price.Hourly, &o.Price.Upfront, &o.Price.Monthly} {
			c, e := r.varint(), r.varint()
			if e < -1<<31 || e >= 1<<31 {
				return nil, errPack
			}
			if c == 0 {
				*f = decimal.Zero
				continue
			}
			*f = cache.price(c, e)
		}
		if r.err != nil {
			return nil, r.err
		}
		out[k] = o
	}
	if len(r.rest()) != 0 {
		return nil, errPack
	}
	return out, nil
}

// packInstances encodes the machines an import describes, in the varint
// form of packParts: the strings (count, then length and bytes of each),
// the instance count, then per instance provider, name, GPU name, source
// kind, source ref and as-of (string indexes) and GPU count, GPU memory,
// vCPUs and memory as coefficient and exponent. ok is false when a figure
// does not fit (the rows are then the only copy).
func packInstances(instances []*catalog.DiscoveredInstance) (blob []byte, ok bool) {
	var strs []string
	index := map[string]uint64{}
	var body []byte
	for _, it := range instances {
		for _, s := range []string{it.Provider, it.Name, it.GPUName, string(it.Source.Kind), it.Source.Ref, it.Source.AsOfString()} {
			i, seen := index[s]
			if !seen {
				i = uint64(len(strs))
				index[s] = i
				strs = append(strs, s)
			}
			body = binary.AppendUvarint(body, i)
		}
		for _, d := range []decimal.Decimal{it.GPUCount, it.GPUMemoryGiB, it.VCPU, it.MemoryGiB} {
			co := d.Coefficient()
			if !co.IsInt64() {
				return nil, false
			}
			body = binary.AppendVarint(binary.AppendVarint(body, co.Int64()), int64(d.Exponent()))
		}
	}
	out := binary.AppendUvarint(nil, uint64(len(strs)))
	for _, s := range strs {
		out = append(binary.AppendUvarint(out, uint64(len(s))), s...)
	}
	out = binary.AppendUvarint(out, uint64(len(instances)))
	return append(out, body...), true
}

// unpackInstances decodes packInstances' form, the instances fetched at
// fetched.
func unpackInstances(blob []byte, fetched time.Time) ([]*catalog.DiscoveredInstance, error) {
	r := &packReader{b: blob}
	ns := r.uvarint()
	if ns > uint64(len(blob)) {
		return nil, errPack
	}
	p := &partsPack{strs: make([]string, 0, ns)}
	for i := uint64(0); i < ns && r.err == nil; i++ {
		l := r.uvarint()
		if l > uint64(len(r.rest())) {
			return nil, errPack
		}
		p.strs = append(p.strs, string(r.rest()[:l]))
		r.skip(l)
	}
	n := r.uvarint()
	if r.err != nil || n > uint64(len(r.rest()))/14 { // an instance takes at least 14 bytes
		return nil, errPack
	}
	all := make([]catalog.DiscoveredInstance, n)
	out := make([]*catalog.DiscoveredInstance, n)
	dates := map[string]time.Time{}
	// Figures repeat (GPU counts, memory sizes): each distinct one is
	// built once and shared (decimals are immutable values).
	figures := map[[2]int64]decimal.Decimal{}
	for k := range all {
		d := &all[k]
		d.Provider, d.Name, d.GPUName = p.str(r), p.str(r), p.str(r)
		d.Source.Kind, d.Source.Ref = catalog.SourceKind(p.str(r)), p.str(r)
		asOf := p.str(r)
		at, ok := dates[asOf]
		if !ok {
			at, _ = catalog.ParseDate(asOf)
			dates[asOf] = at
		}
		d.Source.AsOf, d.Source.FetchedAt = at, fetched
		for _, f := range []*decimal.Decimal{&d.GPUCount, &d.GPUMemoryGiB, &d.VCPU, &d.MemoryGiB} {
			c, e := r.varint(), r.varint()
			if e < -1<<31 || e >= 1<<31 {
				return nil, errPack
			}
			fk := [2]int64{c, e}
			v, ok := figures[fk]
			if !ok {
				v = decimal.New(c, int32(e))
				figures[fk] = v
			}
			*f = v
		}
		if r.err != nil {
			return nil, r.err
		}
		out[k] = d
	}
	if len(r.rest()) != 0 {
		return nil, errPack
	}
	return out, nil
}
