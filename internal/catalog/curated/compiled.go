package curated

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"strings"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/fx"
	"github.com/shopspring/decimal"
)

// The compiled catalog: the embedded CSV files parsed, validated and put in
// catalog order (GPU models excepted, see Compile) when gpuscout is built (`make catalog`, or
// `go generate ./internal/catalog/curated`), written in a compact binary
// form that a command decodes in a fraction of the time parsing takes.
// The CSV files stay the edited source of truth: TestCompiledIsCurrent
// requires compiled.bin to equal a fresh compilation of them.
//
// Layout: the magic line, the files compiled, the price dates, then two
// tables and the records, all varints (unsigned; signed ones zig-zag
// encoded):
//
//	files:    the section's length in bytes; the CSV files compiled (count,
//	          then each path's length and bytes, and the file's size): a
//	          catalog whose files differ in name or size from these is
//	          stale, and its CSV files are parsed instead
//	dates:    the section's length in bytes; the providers (count, then
//	          each name's length and bytes); the offers (count, then each
//	          offer's provider index, as-of and read-on days since
//	          1970-01-01 plus one, 0: none), for `version`, which reads
//	          only this
//	strings:  count, then each string's length and bytes
//	decimals: count, then each coefficient (signed) and exponent (signed)
//	records:  per kind, in a fixed order, a count and the records' fields,
//	          a string or a decimal as its index in its table, a date as
//	          its Unix seconds plus one (0: no date), a float64 as its bits
//
// Decoding copies no string: each is a slice of the embedded bytes.
const compiledMagic = "gpuscout compiled catalog v4\n"

// CompiledFile is the name of the compiled catalog in this package's directory.
const CompiledFile = "compiled.bin"

// Compile parses and validates the catalog CSV files of fsys and returns
// their compiled form.
func Compile(fsys fs.FS) ([]byte, error) {
	d, rates, _, err := loadCSV(fsys, nil)
	if err != nil {
		return nil, err
	}
	files, err := csvSizes(fsys)
	if err != nil {
		return nil, err
	}
	// The GPU models keep their file order: New indexes their names in it
	// (the first of several models a name matches is the first listed),
	// and so does the compiled catalog before it sorts them.
	gpus := append([]*catalog.GPU(nil), d.GPUs...)
	if _, err := catalog.New(d); err != nil { // validates and sorts d's records
		return nil, err
	}
	d.GPUs = gpus
	return encodeCompiled(files, d, rates)
}

// encodeCompiled writes d and rates, compiled from files (from csvSizes),
// in the compiled form.
func encodeCompiled(files []byte, d catalog.Data, rates []fx.Rate) ([]byte, error) {
	c := &codec{enc: true, strAt: map[string]int{}, decAt: map[[2]int64]int{}}
	c.data(&d, &rates)
	if c.err != nil {
		return nil, c.err
	}
	out := append([]byte(nil), compiledMagic...)
	out = binary.AppendUvarint(out, uint64(len(files)))
	out = append(out, files...)
	dates := encodeDates(d.Offers)
	out = binary.AppendUvarint(out, uint64(len(dates)))
	out = append(out, dates...)
	out = binary.AppendUvarint(out, uint64(len(c.strs)))
	for _, s := range c.strs {
		out = binary.AppendUvarint(out, uint64(len(s)))
		out = append(out, s...)
	}
	out = binary.AppendUvarint(out, uint64(len(c.decKeys)))
	for _, k := range c.decKeys {
		out = binary.AppendVarint(out, k[0])
		out = binary.AppendVarint(out, k[1])
	}
	return append(out, c.buf...), nil
}

// decodeCompiled reads the compiled form: the data, marked validated, and
// its exchange-rate table.
func decodeCompiled(src string) (catalog.Data, *fx.Table, error) {
	d, t, _, err := decodeCompiledNarrow(src, nil)
	return d, t, err
}

// decodeCompiledNarrow is decodeCompiled keeping only the offers narrow
// keeps (all when narrow is nil); left says what the offers left out.
func decodeCompiledNarrow(src string, narrow Narrow) (_ catalog.Data, _ *fx.Table, left LeftOut, _ error) {
	if len(src) < len(compiledMagic) || src[:len(compiledMagic)] != compiledMagic {
		return catalog.Data{}, nil, left, errors.New("compiled catalog: not in the expected format")
	}
	c := &codec{src: src, pos: len(compiledMagic), narrow: narrow}
	c.pos += c.count() // the files
	c.pos += c.count() // the price dates
	if len(src) > math.MaxUint32 {
		return catalog.Data{}, nil, left, errors.New("compiled catalog: larger than 4 GB")
	}
	// The tables keep where each string and decimal is, not the values: a
	// string is sliced from the bytes when a record takes it, a decimal
	// built the first time one does. A command that decodes some offers
	// (LoadDataNarrow) builds only the decimals they and the other
	// records use.
	n := c.count()
	c.strPos = make([]uint32, n)
	for i := range c.strPos {
		at := c.pos
		l := c.count()
		if c.err != nil || l > len(c.src)-c.pos {
			c.fail("string %d out of bounds", i)
			break
		}
		c.strPos[i] = uint32(at)
		c.pos += l
	}
	n = c.count()
	c.decPos = make([]uint32, n)
	c.decTab = make([]decimal.Decimal, n)
	for i := range c.decPos {
		c.decPos[i] = uint32(c.pos)
		_, e := c.varint(), c.varint()
		if e < math.MinInt32 || e > math.MaxInt32 {
			c.fail("decimal %d: exponent out of range", i)
		}
		if c.err != nil {
			break
		}
	}
	var d catalog.Data
	var rates []fx.Rate
	if c.err == nil {
		c.data(&d, &rates)
	}
	if c.err == nil && c.pos != len(c.src) {
		c.fail("%d bytes left over", len(c.src)-c.pos)
	}
	if c.err != nil {
		return catalog.Data{}, nil, left, fmt.Errorf("compiled catalog: %w", c.err)
	}
	t, err := fx.New(rates)
	if err != nil {
		return catalog.Data{}, nil, left, fmt.Errorf("compiled catalog: %w", err)
	}
	d.MarkValidated()
	return d, t, LeftOut{Any: c.narrowed, NewestAsOf: c.leftNewest}, nil
}

// codec encodes (enc) or decodes the records: one description of each
// record's fields serves both ways, so the two cannot drift apart
// (TestCompiledCoversEveryField fails when a field is added to a record
// and not here).
type codec struct {
	enc bool
	err error

	// encoding
	buf     []byte
	strs    []string
	strAt   map[string]int
	decKeys [][2]int64
	decAt   map[[2]int64]int

	// decoding
	src    string
	pos    int
	strPos []uint32          // where each string's length is
	decPos []uint32          // where each decimal is
	decTab []decimal.Decimal // the decimals built so far (zero: not yet)

	// narrowing (LoadDataNarrow): the test of the offers to decode, given
	// the records decoded before them; whether it left any out, and the
	// newest as-of date of those it left out.
	narrow     Narrow
	narrowed   bool
	leftNewest time.Time
}

func (c *codec) fail(format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf(format, args...)
	}
}

func (c *codec) uvarint() uint64 {
	if c.err != nil {
		return 0
	}
	// One-byte values, most of them, on a short path.
	if c.pos < len(c.src) && c.src[c.pos] < 0x80 {
		c.pos++
		return uint64(c.src[c.pos-1])
	}
	var x uint64
	var s uint
	for i := 0; i < binary.MaxVarintLen64; i++ {
		if c.pos >= len(c.src) {
			c.fail("truncated at byte %d", c.pos)
			return 0
		}
		b := c.src[c.pos]
		c.pos++
		if b < 0x80 {
			return x | uint64(b)<<s
		}
		x |= uint64(b&0x7f) << s
		s += 7
	}
	c.fail("bad varint at byte %d", c.pos)
	return 0
}

func (c *codec) varint() int64 {
	u := c.uvarint()
	x := int64(u >> 1)
	if u&1 != 0 {
		x = ^x
	}
	return x
}

// count reads a length, bounded by the bytes left (each element takes one
// at least).
func (c *codec) count() int {
	n := c.uvarint()
	if n > uint64(len(c.src)-c.pos) {
		c.fail("count %d at byte %d exceeds the data", n, c.pos)
		return 0
	}
	return int(n)
}

func (c *codec) putU(x uint64) { c.buf = binary.AppendUvarint(c.buf, x) }

// n encodes or decodes a record count.
func (c *codec) n(length int) int {
	if c.enc {
		c.putU(uint64(length))
		return length
	}
	return c.count()
}

func (c *codec) str(p *string) {
	if c.enc {
		i, ok := c.strAt[*p]
		if !ok {
			i = len(c.strs)
			c.strs = append(c.strs, *p)
			c.strAt[*p] = i
		}
		c.putU(uint64(i))
		return
	}
	i := c.uvarint()
	if i >= uint64(len(c.strPos)) {
		c.fail("string index %d out of range", i)
		return
	}
	// The table's pass checked that the string lies within the bytes.
	at := int(c.strPos[i])
	l, n := binary.Uvarint([]byte(c.src[at:min(at+binary.MaxVarintLen64, len(c.src))]))
	*p = c.src[at+n : at+n+int(l)]
}

// strType is str for the catalog's string types (billing codes, source kinds).
func strType[T ~string](c *codec, p *T) {
	s := string(*p)
	c.str(&s)
	*p = T(s)
}

func (c *codec) dec(p *decimal.Decimal) {
	if c.enc {
		coef := p.Coefficient()
		if !coef.IsInt64() {
			c.fail("%s: coefficient too large for the compiled form", p)
			return
		}
		k := [2]int64{coef.Int64(), int64(p.Exponent())}
		i, ok := c.decAt[k]
		if !ok {
			i = len(c.decKeys)
			c.decKeys = append(c.decKeys, k)
			c.decAt[k] = i
		}
		c.putU(uint64(i))
		return
	}
	i := c.uvarint()
	if i >= uint64(len(c.decTab)) {
		c.fail("decimal index %d out of range", i)
		return
	}
	if c.decTab[i] == (decimal.Decimal{}) { // not built yet: every built one has a coefficient
		at := c.pos
		c.pos = int(c.decPos[i])
		v, e := c.varint(), c.varint() // the table's pass checked both
		c.pos = at
		c.decTab[i] = decimal.New(v, int32(e))
	}
	*p = c.decTab[i]
}

func (c *codec) integer(p *int) {
	if c.enc {
		c.buf = binary.AppendVarint(c.buf, int64(*p))
		return
	}
	*p = int(c.varint())
}

func (c *codec) boolean(p *bool) {
	if c.enc {
		v := uint64(0)
		if *p {
			v = 1
		}
		c.putU(v)
		return
	}
	*p = c.uvarint() != 0
}

func (c *codec) float(p *float64) {
	if c.enc {
		c.putU(math.Float64bits(*p))
		return
	}
	*p = math.Float64frombits(c.uvarint())
}

// date encodes a date at midnight UTC (or none) as its Unix seconds plus one.
func (c *codec) date(p *time.Time) {
	if c.enc {
		switch t := *p; {
		case t.IsZero():
			c.putU(0)
		case t.Location() != time.UTC || t.Unix() < 0 || t.Nanosecond() != 0:
			c.fail("%v: not a UTC date after 1970", t)
		default:
			c.putU(uint64(t.Unix()) + 1)
		}
		return
	}
	if s := c.uvarint(); s != 0 {
		*p = time.Unix(int64(s-1), 0).UTC()
	}
}

func (c *codec) strList(p *[]string) {
	n := c.n(len(*p))
	if !c.enc && n > 0 {
		*p = make([]string, n)
	}
	for i := 0; i < n && c.err == nil; i++ {
		c.str(&(*p)[i])
	}
}

func (c *codec) source(s *catalog.Source) {
	strType(c, &s.Kind)
	c.str(&s.Ref)
	c.date(&s.AsOf)
	c.date(&s.FetchedAt)
	c.date(&s.ReadOn)
}

// list encodes or decodes a list of records, each by field.
func list[T any](c *codec, p *[]*T, field func(*T)) {
	n := c.n(len(*p))
	if !c.enc {
		// One array for the records: one allocation per kind.
		all := make([]T, n)
		*p = make([]*T, n)
		for i := range all {
			(*p)[i] = &all[i]
		}
	}
	for i := 0; i < n && c.err == nil; i++ {
		field((*p)[i])
	}
}

// data describes every record of the catalog and the exchange rates.
func (c *codec) data(d *catalog.Data, rates *[]fx.Rate) {
	list(c, &d.Providers, func(v *catalog.Provider) {
		c.str(&v.ID)
		c.str(&v.NameEN)
		c.str(&v.NameZH)
		c.str(&v.Website)
		c.str(&v.PricingPage)
		c.source(&v.Source)
	})
	list(c, &d.Regions, func(v *catalog.Region) {
		c.str(&v.Provider)
		c.str(&v.Code)
		c.str(&v.NameEN)
		c.str(&v.NameZH)
		c.str(&v.Country)
		c.str(&v.City)
		c.float(&v.Lat)
		c.float(&v.Lon)
		c.boolean(&v.HasCoords)
		c.str(&v.Residency)
		c.source(&v.Source)
	})
	list(c, &d.GPUs, func(v *catalog.GPU) {
		c.str(&v.ID)
		c.str(&v.Vendor)
		c.str(&v.Family)
		c.str(&v.Variant)
		c.str(&v.Architecture)
		c.dec(&v.MemoryGB)
		c.str(&v.MemoryType)
		c.dec(&v.BandwidthGBs)
		c.dec(&v.FP32TFLOPS)
		c.dec(&v.TF32TFLOPS)
		c.dec(&v.FP16TFLOPS)
		c.dec(&v.FP8TFLOPS)
		c.dec(&v.INT8TOPS)
		c.dec(&v.FP64TFLOPS)
		c.dec(&v.FP64TensorTFLOPS)
		c.str(&v.FP64Source)
		c.str(&v.Interconnect)
		c.dec(&v.InterconnectGBs)
		c.dec(&v.TDPW)
		c.integer(&v.LaunchYear)
		c.strList(&v.Aliases)
		c.str(&v.Notes)
		c.source(&v.Source)
		c.str(&v.MLStack)
		c.str(&v.MLStackDetail)
		c.str(&v.MLSource)
		c.str(&v.MLReadOn)
	})
	list(c, &d.Instances, func(v *catalog.InstanceType) {
		c.str(&v.Provider)
		c.str(&v.Name)
		c.str(&v.Family)
		c.str(&v.GPUID)
		c.dec(&v.GPUCount)
		c.dec(&v.GPUMemoryGB)
		c.dec(&v.VCPU)
		c.dec(&v.MemoryGiB)
		c.str(&v.GPUInterconnect)
		c.dec(&v.GPUInterconnectGBs)
		c.dec(&v.NetworkGbps)
		c.str(&v.RDMA)
		c.str(&v.LocalStorage)
		c.str(&v.Status)
		c.str(&v.Notes)
		c.source(&v.Source)
		c.boolean(&v.Discovered)
	})
	if c.narrow != nil && !c.enc {
		c.narrowOffers(d)
	} else {
		list(c, &d.Offers, c.offer)
	}
	list(c, &d.Claims, func(v *catalog.Claim) {
		c.str(&v.ID)
		c.str(&v.Seed)
		c.str(&v.Quote)
		c.str(&v.Subject)
		c.str(&v.Field)
		c.str(&v.Claimed)
		c.str(&v.Verdict)
		c.str(&v.Actual)
		c.str(&v.Evidence)
		c.str(&v.AsOf)
		c.str(&v.ClaimedZH)
		c.str(&v.ActualZH)
		c.str(&v.EvidenceZH)
	})
	list(c, &d.Ancillary, func(v *catalog.AncillaryPrice) {
		c.str(&v.Provider)
		c.str(&v.Region)
		c.str(&v.Item)
		c.dec(&v.TierStart)
		c.dec(&v.TierEnd)
		c.str(&v.Unit)
		c.dec(&v.Price.Amount)
		c.str(&v.Price.Currency)
		c.str(&v.Notes)
		c.source(&v.Source)
	})
	list(c, &d.Support, func(v *catalog.SupportTier) {
		c.str(&v.Provider)
		c.str(&v.Plan)
		c.dec(&v.TierStart)
		c.dec(&v.TierEnd)
		c.dec(&v.Percent)
		c.dec(&v.MinimumMonthly)
		c.str(&v.Currency)
		c.str(&v.Notes)
		c.source(&v.Source)
	})
	list(c, &d.OnPrem, func(v *catalog.OnPremFigure) {
		c.str(&v.Item)
		c.str(&v.GPU)
		c.dec(&v.Value)
		c.str(&v.Unit)
		c.str(&v.Currency)
		c.str(&v.Notes)
		c.source(&v.Source)
	})
	list(c, &d.Spot, func(v *catalog.SpotFacts) {
		c.str(&v.Provider)
		c.integer(&v.NoticeSeconds)
		c.boolean(&v.NoticeKnown)
		c.dec(&v.ProtectionHrs)
		c.str(&v.Granularity)
		c.str(&v.PriceBehaviour)
		c.str(&v.Interruptions)
		c.str(&v.Notes)
		c.source(&v.Source)
	})
	list(c, &d.Interrupt, func(v *catalog.InterruptionBand) {
		c.str(&v.Provider)
		c.str(&v.InstanceName)
		c.str(&v.Region)
		c.str(&v.Band)
		c.str(&v.BandZH)
		c.dec(&v.LowPct)
		c.dec(&v.HighPct)
		c.dec(&v.SavingsPct)
		c.str(&v.Period)
		c.dec(&v.MTBIHours)
		c.str(&v.Notes)
		c.source(&v.Source)
	})
	list(c, &d.Ecosystem, func(v *catalog.EcosystemFact) {
		c.str(&v.Provider)
		c.str(&v.Category)
		c.str(&v.Key)
		c.str(&v.ValueEN)
		c.str(&v.ValueZH)
		c.str(&v.Notes)
		c.source(&v.Source)
	})
	list(c, &d.Billing, func(v *catalog.BillingModel) {
		c.str(&v.Provider)
		strType(c, &v.Billing)
		c.boolean(&v.Sold)
		c.str(&v.GapReason)
		c.str(&v.GapReasonZH)
		c.str(&v.Notes)
		c.source(&v.Source)
	})
	n := c.n(len(*rates))
	if !c.enc {
		*rates = make([]fx.Rate, n)
	}
	for i := 0; i < n && c.err == nil; i++ {
		r := &(*rates)[i]
		c.str(&r.Currency)
		c.dec(&r.PerUSD)
		c.date(&r.AsOf)
		c.str(&r.Source)
	}
}

// offer describes an offer's fields.
func (c *codec) offer(v *catalog.Offer) {
	c.str(&v.Provider)
	c.str(&v.InstanceName)
	c.str(&v.RegionCode)
	strType(c, &v.Billing)
	c.dec(&v.Price.Hourly)
	c.dec(&v.Price.Upfront)
	c.dec(&v.Price.Monthly)
	c.str(&v.Price.Currency)
	c.str(&v.Notes)
	c.str(&v.OS)
	c.source(&v.Source)
}

// narrowOffers decodes the offers that c.narrow keeps: it reads every
// offer into one scratch record, notes where each kept one starts and the
// newest as-of date of the others, then decodes the kept ones into one
// array of exactly their number. The offers left out cost reading their
// bytes, not the 280 bytes of memory each record takes.
func (c *codec) narrowOffers(d *catalog.Data) {
	keep := c.narrow(d)
	if keep == nil {
		list(c, &d.Offers, c.offer)
		return
	}
	c.narrowed = true
	n := c.count()
	var at []int
	var o catalog.Offer
	for i := 0; i < n && c.err == nil; i++ {
		start := c.pos
		c.offer(&o)
		if keep(o.Provider, o.InstanceName) {
			at = append(at, start)
		} else if o.Source.AsOf.After(c.leftNewest) {
			c.leftNewest = o.Source.AsOf
		}
	}
	if c.err != nil {
		return
	}
	end := c.pos
	all := make([]catalog.Offer, len(at))
	d.Offers = make([]*catalog.Offer, len(at))
	for i, start := range at {
		c.pos = start
		c.offer(&all[i])
		d.Offers[i] = &all[i]
	}
	c.pos = end
}

const secondsPerDay = 24 * 60 * 60

// encodeDates writes the price dates section (without its length).
func encodeDates(offers []*catalog.Offer) []byte {
	var providers []string
	at := map[string]int{}
	for _, o := range offers {
		if _, ok := at[o.Provider]; !ok {
			at[o.Provider] = len(providers)
			providers = append(providers, o.Provider)
		}
	}
	b := binary.AppendUvarint(nil, uint64(len(providers)))
	for _, p := range providers {
		b = binary.AppendUvarint(b, uint64(len(p)))
		b = append(b, p...)
	}
	day := func(t time.Time) uint64 {
		if t.IsZero() {
			return 0
		}
		return uint64(t.Unix()/secondsPerDay) + 1
	}
	b = binary.AppendUvarint(b, uint64(len(offers)))
	for _, o := range offers {
		b = binary.AppendUvarint(b, uint64(at[o.Provider]))
		b = binary.AppendUvarint(b, day(o.Source.AsOf))
		b = binary.AppendUvarint(b, day(o.Source.ReadOn))
	}
	return b
}

// OfferDates returns the as-of and read-on dates of every offer of the
// embedded catalog (the other fields of each Source are empty), all of
// them and by provider, read from the compiled form without decoding its
// records. The lists by provider share the list of all. ok is false when
// fsys is not Embedded() or the compiled form cannot be read or is stale.
func OfferDates(fsys fs.FS) (all []catalog.Source, byProvider map[string][]catalog.Source, ok bool) {
	days, runs, ok := offerDays(fsys)
	if !ok {
		return nil, nil, false
	}
	all = make([]catalog.Source, len(days))
	for i, d := range days {
		all[i].AsOf, all[i].ReadOn = dayTime(d.asOf), dayTime(d.readOn)
	}
	byProvider = make(map[string][]catalog.Source, len(runs))
	for _, r := range runs {
		byProvider[r.provider] = all[r.start:r.end:r.end]
	}
	return all, byProvider, true
}

// OfferFreshness is what catalog.MeasureSourceFreshness gives on the lists
// of OfferDates, all of them and by provider, and the number of offers:
// what `version` reports on. It measures the compiled form's day numbers
// without building a Source per offer (TestOfferFreshnessIsMeasure holds
// the two equal). ok is false as for OfferDates.
func OfferFreshness(fsys fs.FS, now time.Time) (all catalog.Freshness, byProvider map[string]catalog.Freshness, offers int, ok bool) {
	days, runs, ok := offerDays(fsys)
	if !ok {
		return all, nil, 0, false
	}
	ages := make([]float64, 0, len(days))
	byProvider = make(map[string]catalog.Freshness, len(runs))
	for _, r := range runs {
		byProvider[r.provider] = measureDays(days[r.start:r.end], now, ages)
	}
	return measureDays(days, now, ages), byProvider, len(days), true
}

// measureDays is catalog.MeasureSourceFreshness on day numbers; ages is a
// buffer for the ages (its contents are overwritten).
func measureDays(days []offerDay, now time.Time, ages []float64) catalog.Freshness {
	t := catalog.NewFreshnessTally(now, ages)
	for _, dd := range days {
		switch {
		case dd.asOf != 0:
			t.AddDate(dayTime(dd.asOf))
		case dd.readOn != 0: // undated
			t.AddUndated()
		}
	}
	return t.Result()
}

// offerDay is an offer's as-of and read-on dates as the price-dates
// section holds them: days since 1970-01-01 plus one, 0 for none.
type offerDay struct{ asOf, readOn uint32 }

// dayTime is the date of a day number (zero for 0).
func dayTime(d uint32) time.Time {
	if d == 0 {
		return time.Time{}
	}
	return time.Unix(int64(d-1)*secondsPerDay, 0).UTC()
}

// providerRun is a provider's offers in the price-dates section: the
// offers come sorted by ID, so grouped by provider.
type providerRun struct {
	provider   string
	start, end int
}

// offerDays reads the price-dates section of the embedded catalog's
// compiled form.
func offerDays(fsys fs.FS) (days []offerDay, runs []providerRun, ok bool) {
	if _, embedded := fsys.(embeddedFS); !embedded || !current(fsys) {
		return nil, nil, false
	}
	c := &codec{src: compiled, pos: len(compiledMagic)}
	c.pos += c.count() // the files
	end := c.count() + c.pos
	np := c.count()
	providers := make([]string, np)
	for i := range providers {
		l := c.count()
		if c.err != nil || l > len(c.src)-c.pos {
			return nil, nil, false
		}
		providers[i] = c.src[c.pos : c.pos+l]
		c.pos += l
	}
	n := c.count()
	if c.err != nil || n > len(c.src)-c.pos {
		return nil, nil, false
	}
	days = make([]offerDay, n)
	seen := make([]bool, np)
	runs = make([]providerRun, 0, np)
	last := uint64(0)
	for i := range days {
		p := c.uvarint()
		if p >= uint64(np) {
			return nil, nil, false
		}
		if i == 0 || p != last {
			if seen[p] {
				return nil, nil, false // not grouped: not a compiled catalog
			}
			seen[p] = true
			if len(runs) > 0 {
				runs[len(runs)-1].end = i
			}
			runs = append(runs, providerRun{provider: providers[p], start: i})
		}
		last = p
		asOf, readOn := c.uvarint(), c.uvarint()
		if asOf > math.MaxUint32 || readOn > math.MaxUint32 {
			return nil, nil, false
		}
		days[i] = offerDay{uint32(asOf), uint32(readOn)}
	}
	if len(runs) > 0 {
		runs[len(runs)-1].end = n
	}
	if c.err != nil || c.pos != end {
		return nil, nil, false
	}
	return days, runs, true
}

// csvSizes lists the CSV files of fsys with their sizes, as the files
// section holds them (without its length).
func csvSizes(fsys fs.FS) ([]byte, error) {
	var b []byte
	n := 0
	err := fs.WalkDir(fsys, ".", func(p string, de fs.DirEntry, err error) error {
		if err != nil || de.IsDir() || !strings.HasSuffix(p, ".csv") {
			return err
		}
		info, err := de.Info()
		if err != nil {
			return err
		}
		b = binary.AppendUvarint(b, uint64(len(p)))
		b = append(b, p...)
		b = binary.AppendUvarint(b, uint64(info.Size()))
		n++
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("listing the catalog files: %w", err)
	}
	return append(binary.AppendUvarint(nil, uint64(n)), b...), nil
}

// current reports whether the compiled catalog was compiled from files of
// the names and sizes of fsys's: a CSV file edited without `make catalog`
// (which TestCompiledIsCurrent refuses) is read from the CSV files, not
// from a stale compiled form. An edit that keeps every size is caught by
// the test only.
func current(fsys fs.FS) bool {
	if len(compiled) < len(compiledMagic) || compiled[:len(compiledMagic)] != compiledMagic {
		return false
	}
	c := &codec{src: compiled, pos: len(compiledMagic)}
	n := c.count()
	if c.err != nil {
		return false
	}
	want := compiled[c.pos : c.pos+n]
	got, err := csvSizes(fsys)
	return err == nil && string(got) == want
}
