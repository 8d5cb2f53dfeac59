package importer

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/shopspring/decimal"
)

// MaxPerGPUHourUSD is the largest price per GPU-hour an import may carry,
// in US dollars. The dearest GPU offers in any public price list are a few
// tens of dollars per GPU-hour; a figure above this is a broken file.
const MaxPerGPUHourUSD = 10000

// MinPerGPUHourUSD is the smallest price per GPU-hour an import may
// carry, in US dollars (per instance-hour when the GPU count is not
// known). The cheapest GPU offers in any public price list, fractional
// GPUs and spot included, cost several cents per GPU-hour; a figure below
// this is a broken or hostile file, and would become the cheapest offer.
const MinPerGPUHourUSD = 0.01

// minUSD is MinPerGPUHourUSD as a decimal.
var minUSD = decimal.NewFromFloat(MinPerGPUHourUSD)

// minPerHour is the floor in a currency the exchange-rate table cannot
// convert: about 0.01 USD.
var minPerHour = map[string]decimal.Decimal{
	"USD": decimal.RequireFromString("0.01"), "EUR": decimal.RequireFromString("0.01"), "GBP": decimal.RequireFromString("0.01"),
	"CNY": decimal.RequireFromString("0.07"), "JPY": decimal.RequireFromString("1"), "INR": decimal.RequireFromString("0.8"),
	"KRW": decimal.RequireFromString("10"),
}

// Skip reasons of Check, as they appear in the skipped lines.
const (
	SkipNoProvider    = "no provider"
	SkipNoInstance    = "no instance type"
	SkipNoRegion      = "no region"
	SkipBadBilling    = "unknown billing model"
	SkipNegative      = "negative price"
	SkipNoPrice       = "no positive price"
	SkipUpfrontNoTerm = "upfront payment without a term"
	SkipAbsurd        = "price above 10,000 USD per GPU-hour"
	SkipImplausible   = "price below 0.01 USD per GPU-hour"
	SkipDuplicate     = "duplicate offer (the first one was kept)"
	SkipBadIdentifier = "provider, instance type or region is not an identifier"
	SkipBadBand       = "interruption band outside 0-100%"
)

// CheckError is a figure that makes a whole import unusable: an offer
// priced in a currency the exchange-rate table does not know would make
// every later read fail, so the import is refused.
type CheckError struct {
	File   string // the imported file or URL
	Record string // the offer ID
	Field  string
	Value  string
	Known  []string // the currencies that are known
}

func (e *CheckError) Error() string {
	return fmt.Sprintf("%s: record %s: field %s: currency %q is not in the exchange-rate table (known: %v)", e.File, e.Record, e.Field, e.Value, e.Known)
}

// Checker validates an import's figures the way the catalog validator
// does, before anything is stored.
type Checker struct {
	// File names the imported file or URL in errors.
	File string
	// ToUSD converts an amount to US dollars; false when the currency is
	// not known.
	ToUSD func(amount decimal.Decimal, currency string) (decimal.Decimal, bool)
	// Currencies lists the known currencies (for the error message).
	Currencies []string
	// GPUs is the GPU count of an instance type, 0 when unknown (the
	// price is then checked per instance-hour, as if it had one GPU).
	GPUs func(provider, instance string) int
	// GPUOf is the GPU model and count of an instance type (ok false when
	// the catalog does not know it); with Reference it judges a price
	// against its GPU's usual price.
	GPUOf func(provider, instance string) (gpuID string, count decimal.Decimal, ok bool)
	// Reference holds each GPU model's median price per GPU-hour in the
	// loaded catalog; an offer priced below its GPU's Floor is skipped.
	Reference PriceReference
	// ResolveGPU gives the GPU model IDs a source's own GPU name may mean
	// (A100: the 40 and 80 GB models); with Described, the instance types
	// an import describes but the catalog does not know are judged against
	// the cheapest of those models' references.
	ResolveGPU func(name string) []string
	// Described, when not nil, is filled by Check with the GPU models and
	// counts of the instance types the import describes, for CheckOffer.
	Described map[[2]string]DescribedGPU
}

// DescribedGPU is the GPU an import says one of its instance types has.
type DescribedGPU struct {
	IDs   []string        // the GPU models the source's name may mean
	Count decimal.Decimal // GPUs per instance
}

// Check removes from res the offers and bands that fail validation,
// counting each in res.Skipped with its reason: a missing provider,
// instance type or region, an unknown billing model, a negative price, no
// positive price, an identifier that breaks the catalog's identifier
// rule, an upfront payment without a term, a price above
// MaxPerGPUHourUSD or below MinPerGPUHourUSD per GPU-hour, a duplicate
// offer ID (the first is kept, the rest counted), a price below its GPU's
// reference (PriceReference.Floor), a band outside 0-100%. An offer in a
// currency ToUSD does not know is an error, and so is an answer of which
// more than MaxBelowReferenceShare of the offers are priced below their
// GPU's reference (a *BelowReferenceError): nothing of the import may be
// stored.
func (c Checker) Check(res *Result) error {
	if c.Described != nil && c.ResolveGPU != nil {
		for _, in := range res.Instances {
			if in.GPUName == "" || !in.GPUCount.IsPositive() {
				continue
			}
			if ids := c.ResolveGPU(in.GPUName); len(ids) > 0 {
				c.Described[[2]string{in.Provider, in.Name}] = DescribedGPU{IDs: ids, Count: in.GPUCount}
			}
		}
	}
	seen := make(map[string]bool, len(res.Offers))
	checked := len(res.Offers)
	kept := res.Offers[:0]
	for _, o := range res.Offers {
		reason, id, err := c.CheckOffer(o)
		if err != nil {
			return err
		}
		if reason == "" && seen[id] {
			reason = SkipDuplicate
		}
		seen[id] = true
		if reason != "" {
			res.Skipped.Add(reason, id)
			continue
		}
		kept = append(kept, o)
	}
	for i := len(kept); i < len(res.Offers); i++ {
		res.Offers[i] = nil
	}
	res.Offers = kept
	if err := TooManyBelowReference(c.File, res.Skipped, checked); err != nil {
		return err
	}
	hundred := decimal.NewFromInt(100)
	bands := res.Bands[:0]
	for _, b := range res.Bands {
		if b.InstanceName != "" && b.Region != "" && !validIDs(b.Provider, b.InstanceName, b.Region) {
			res.Skipped.Add(SkipBadIdentifier, quoteID(b.Provider+"/"+b.InstanceName+"/"+b.Region))
			continue
		}
		bad := b.LowPct.IsNegative() || b.HighPct.IsNegative() || b.LowPct.GreaterThan(hundred) || b.HighPct.GreaterThan(hundred) ||
			(b.HighPct.IsPositive() && b.HighPct.LessThan(b.LowPct)) || b.InstanceName == "" || b.Region == ""
		if bad {
			res.Skipped.Add(SkipBadBand, b.Provider+"/"+b.InstanceName+"/"+b.Region)
			continue
		}
		bands = append(bands, b)
	}
	res.Bands = bands
	instances := res.Instances[:0]
	for _, in := range res.Instances {
		if !validIDs(in.Provider, in.Name) || !safeText(in.GPUName) {
			res.Skipped.Add(SkipBadIdentifier, quoteID(in.Provider+"/"+in.Name))
			continue
		}
		instances = append(instances, in)
	}
	res.Instances = instances
	return nil
}

// CheckOffer checks one offer as Check does, except for duplicates (an
// import that hands its offers over one at a time finds those itself):
// reason is the skip reason ("" when the offer is kept) and id the offer
// ID to count it under (quoted when it is not an identifier). An offer in
// a currency ToUSD does not know is an error.
func (c Checker) CheckOffer(o *catalog.Offer) (reason, id string, err error) {
	id = o.ID()
	p := o.Price
	if c.ToUSD != nil && o.Provider != "" {
		// Codes are ISO 4217, upper case, as the exchange-rate table and
		// every read compare them: "usd" is refused like an unknown code.
		if _, ok := c.ToUSD(decimal.Zero, p.Currency); !ok || p.Currency != strings.ToUpper(p.Currency) {
			return "", id, &CheckError{File: c.File, Record: id, Field: "currency", Value: p.Currency, Known: c.Currencies}
		}
	}
	switch {
	case o.Provider == "":
		reason = SkipNoProvider
	case o.InstanceName == "":
		reason = SkipNoInstance
	case o.RegionCode == "":
		reason = SkipNoRegion
	case !validIDs(o.Provider, o.InstanceName, o.RegionCode):
		reason, id = SkipBadIdentifier, quoteID(id)
	case !o.Billing.Valid():
		reason = SkipBadBilling
	case p.Hourly.IsNegative() || p.Upfront.IsNegative() || p.Monthly.IsNegative():
		reason = SkipNegative
	case !p.Hourly.IsPositive() && !p.Upfront.IsPositive() && !p.Monthly.IsPositive():
		reason = SkipNoPrice
	case o.Billing.TermHours() == 0 && p.Upfront.IsPositive():
		reason = SkipUpfrontNoTerm
	case c.absurd(o):
		reason = SkipAbsurd
	case c.implausible(o):
		reason = SkipImplausible
	case c.belowReference(o):
		reason = SkipBelowReference
	}
	return reason, id, nil
}

// validIDs reports whether every identifier follows the catalog's
// identifier rule (catalog.CheckIdentifier): imported names reach
// terminals, web pages, CSV exports and file paths, so markup, "../",
// terminal escapes and formulas are skipped, never stored.
func validIDs(ids ...string) bool {
	for _, v := range ids {
		if catalog.CheckIdentifier(v) != "" {
			return false
		}
	}
	return true
}

// safeText reports whether a free-text name (a GPU name as the source
// spells it) holds no control character and no markup.
func safeText(v string) bool {
	if len(v) > catalog.MaxIdentifierLen || !utf8.ValidString(v) || strings.ContainsAny(v, "<>\"'`|=") {
		return false
	}
	for _, r := range v {
		if unicode.IsControl(r) {
			return false
		}
	}
	return true
}

// quoteID makes a rejected identifier safe to print in a skip example.
func quoteID(v string) string {
	q := strconv.QuoteToASCII(v)
	return q[1 : len(q)-1]
}

// gpus is the GPU count Check divides by: 1 when unknown.
func (c Checker) gpus(o *catalog.Offer) int64 {
	if c.GPUs != nil {
		if n := c.GPUs(o.Provider, o.InstanceName); n > 0 {
			return int64(n)
		}
	}
	return 1
}

// implausible reports whether an offer costs less than MinPerGPUHourUSD
// per GPU-hour (converted to US dollars, or against the floor of its own
// currency when it cannot be converted; no floor for a currency neither
// knows).
func (c Checker) implausible(o *catalog.Offer) bool {
	eff := o.EffectiveHourly()
	// Division rounds to 16 places: one GPU divides only a figure with more.
	if g := c.gpus(o); g != 1 || eff.Exponent() < -16 {
		eff = eff.Div(decimal.NewFromInt(g))
	}
	if c.ToUSD != nil {
		if usd, ok := c.ToUSD(eff, o.Price.Currency); ok {
			return usd.LessThan(minUSD)
		}
	}
	floor, ok := minPerHour[o.Price.Currency]
	return ok && eff.LessThan(floor)
}

// belowReference reports whether an offer costs less per GPU-hour, in US
// dollars, than its GPU's Floor in the Reference (false when the GPU, its
// count or its reference is not known, or the currency cannot be
// converted).
func (c Checker) belowReference(o *catalog.Offer) bool {
	if c.ToUSD == nil {
		return false
	}
	floor, n, ok := c.floor(o)
	if !ok {
		return false
	}
	usd, ok := c.ToUSD(o.EffectiveHourly(), o.Price.Currency)
	return ok && usd.Div(n).LessThan(floor)
}

// floor is the reference floor per GPU-hour of an offer's GPU and the
// offer's GPU count: from the catalog's instance type, or else from the
// instance type the import describes (the lowest floor of the models its
// GPU name may mean).
func (c Checker) floor(o *catalog.Offer) (floor, count decimal.Decimal, ok bool) {
	if c.GPUOf != nil {
		if id, n, known := c.GPUOf(o.Provider, o.InstanceName); known {
			f, ok := c.Reference.Floor(id)
			return f, n, ok && n.IsPositive()
		}
	}
	d, known := c.Described[[2]string{o.Provider, o.InstanceName}]
	if !known {
		return decimal.Zero, decimal.Zero, false
	}
	for _, id := range d.IDs {
		if f, has := c.Reference.Floor(id); has && (!ok || f.LessThan(floor)) {
			floor, ok = f, true
		}
	}
	return floor, d.Count, ok
}

// absurd reports whether an offer costs more than MaxPerGPUHourUSD per
// GPU-hour.
func (c Checker) absurd(o *catalog.Offer) bool {
	eff := o.EffectiveHourly()
	if c.ToUSD != nil {
		usd, ok := c.ToUSD(eff, o.Price.Currency)
		if !ok {
			return false
		}
		eff = usd
	}
	gpus := 1
	if c.GPUs != nil {
		if n := c.GPUs(o.Provider, o.InstanceName); n > 0 {
			gpus = n
		}
	}
	return eff.GreaterThan(decimal.NewFromInt(int64(MaxPerGPUHourUSD * gpus)))
}
