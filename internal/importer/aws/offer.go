// Package aws imports AWS's published price sources: the EC2 Price List
// bulk offer files (JSON, streamed with bounded memory, or CSV), the
// Savings Plans rate files, EC2 spot price history (DescribeSpotPriceHistory
// JSON) and the Spot Instance Advisor feed (interruption-frequency bands).
package aws

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/shopspring/decimal"
)

// gpuFamily matches AWS GPU instance families (p2 … p6, g2 … g6e, gr6).
var gpuFamily = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(p\d|g\d|gr\d)[a-z0-9-]*\.`) })

// IsGPUType reports whether an EC2 instance type is a GPU instance.
func IsGPUType(t string) bool { return gpuFamily().MatchString(t) }

// Offers imports an EC2 bulk offer file (one region, or all), JSON or CSV
// (detected from the first byte). It keeps GPU instances running Linux
// (operation RunInstances) or Windows with the licence included (operation
// RunInstances:0002, licence model "No License required"; their offers
// carry catalog.OSWindows) on shared tenancy with no pre-installed
// software (capacitystatus Used), and
// their on-demand and standard reserved prices (1 and 3 years; no, partial
// and all upfront: the upfront part from the Quantity dimension, the
// recurring part from Hrs). Capacity Block SKUs are listed at 0 USD in the
// files; they are skipped and counted.
type Offers struct {
	// URL is the offer file to fetch (a region's current index.json from
	// the region index). Ref names the file in the source of each offer.
	URL string
	Ref string
	Now func() time.Time
}

// Name implements importer.Importer.
func (o *Offers) Name() string { return "aws" }

func (o *Offers) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

type product struct {
	SKU           string `json:"sku"`
	ProductFamily string `json:"productFamily"`
	Attributes    struct {
		InstanceType   string `json:"instanceType"`
		InstanceFamily string `json:"instanceFamily"`
		RegionCode     string `json:"regionCode"`
		Tenancy        string `json:"tenancy"`
		OS             string `json:"operatingSystem"`
		LicenseModel   string `json:"licenseModel"`
		PreInstalled   string `json:"preInstalledSw"`
		CapacityStatus string `json:"capacitystatus"`
		Operation      string `json:"operation"`
		UsageType      string `json:"usagetype"`
	} `json:"attributes"`
}

type priceDimension struct {
	Unit         string            `json:"unit"`
	PricePerUnit map[string]string `json:"pricePerUnit"`
	Description  string            `json:"description"`
}

type term struct {
	EffectiveDate   string                    `json:"effectiveDate"`
	PriceDimensions map[string]priceDimension `json:"priceDimensions"`
	TermAttributes  struct {
		LeaseContractLength string `json:"LeaseContractLength"`
		OfferingClass       string `json:"OfferingClass"`
		PurchaseOption      string `json:"PurchaseOption"`
	} `json:"termAttributes"`
}

// Bounds on what an offer file may make the parser hold. The largest
// real file (all regions) has a few thousand GPU SKUs that pass the
// filter; a file far beyond these bounds is not an offer file.
const (
	maxKeptSKUs = 100000
	maxOffers   = 100000
)

type kept struct {
	instance, region string
	os               string // catalog.OSLinux or catalog.OSWindows
}

// Parse implements importer.Importer.
func (o *Offers) Parse(ctx context.Context, r io.Reader, p importer.Progress) (*importer.Result, error) {
	res := &importer.Result{Source: "aws"}
	cr := &importer.CountingReader{R: importer.SkipBOM(r), Progress: p, Records: func() int { return len(res.Offers) }}
	br := peekReader{r: cr}
	first, err := br.first()
	if err != nil {
		return nil, &importer.ParseError{Source: o.ref(), Err: fmt.Errorf("empty or unreadable file: %w", err)}
	}
	if first == '{' {
		err = o.parseJSON(ctx, &br, res)
	} else {
		err = o.parseCSV(ctx, &br, res)
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

func (o *Offers) ref() string {
	if o.Ref != "" {
		return o.Ref
	}
	if o.URL != "" {
		return o.URL
	}
	return "AWS EC2 offer file"
}

// Operations of the EC2 offer file's plain Linux and licence-included
// Windows SKUs; Windows bring-your-own-licence SKUs have their own.
const (
	opLinux       = "RunInstances"
	opWindows     = "RunInstances:0002"
	opWindowsBYOL = "RunInstances:0800"
)

// filter decides whether a product's SKU is kept, and why not.
func filter(a *product) string {
	at := a.Attributes
	switch {
	case at.InstanceType != "" && catalog.CheckIdentifier(at.InstanceType) != "":
		// A NUL, markup or an escape in the name: counted, never a silent drop.
		return importer.SkipBadIdentifier
	case !IsGPUType(at.InstanceType):
		return "not a GPU instance"
	case at.OS != "Linux" && at.OS != "Windows":
		return "not Linux or Windows"
	case at.Tenancy != "Shared":
		return "not shared tenancy"
	case at.PreInstalled != "" && at.PreInstalled != "NA":
		return "pre-installed software"
	case at.CapacityStatus != "" && at.CapacityStatus != "Used":
		return "capacity status " + at.CapacityStatus
	case strings.HasSuffix(at.Operation, ":CB") || strings.Contains(at.UsageType, "CapacityBlock"):
		return "Capacity Block SKU (listed at 0 USD in offer files)"
	case at.OS == "Windows" && (at.Operation == opWindowsBYOL || strings.EqualFold(at.LicenseModel, "Bring your own license")):
		return "Windows, bring your own licence"
	case at.OS == "Windows" && at.Operation != "" && at.Operation != opWindows:
		return "operation " + at.Operation + " (not plain Windows)"
	case at.OS == "Linux" && at.Operation != "" && at.Operation != opLinux:
		return "operation " + at.Operation + " (not plain Linux)"
	case at.RegionCode == "":
		return "no regionCode"
	}
	return ""
}

func (o *Offers) parseJSON(ctx context.Context, r io.Reader, res *importer.Result) error {
	s := newScanner(r)
	skus := map[string]kept{}
	var published time.Time
	var raw []byte
	fail := func(field string, err error) error {
		return &importer.ParseError{Source: o.ref(), Offset: s.offset(), Field: field, Err: err}
	}
	n := 0
	// Reserved offers accumulate upfront and hourly parts per SKU and term.
	byKey := map[string]*catalog.Offer{}
	termOf := map[string]*madeBy{} // offer ID → the term that made it
	err := s.object(func(key string) error {
		switch key {
		case "publicationDate":
			v, err := s.str()
			if err != nil {
				return fail(key, err)
			}
			published, _ = time.Parse(time.RFC3339, v)
			return nil
		case "products":
			return s.object(func(sku string) error {
				var err error
				raw, err = s.value(raw[:0], true)
				if err != nil {
					return fail("products."+sku, err)
				}
				if n++; n%4096 == 0 && ctx.Err() != nil {
					return ctx.Err()
				}
				// Most products are not GPU instances: check cheaply first.
				if !contains(raw, "GPU instance") && !gpuFamily().Match(instanceTypeOf(raw)) {
					return nil
				}
				var pr product
				if err := importer.UnmarshalStrict(raw, &pr); err != nil {
					return fail("products."+sku, err)
				}
				if why := filter(&pr); why != "" {
					if IsGPUType(pr.Attributes.InstanceType) || why == importer.SkipBadIdentifier {
						res.Skipped.Add(why, pr.Attributes.InstanceType)
					}
					return nil
				}
				if len(skus) >= maxKeptSKUs {
					return fail("products."+sku, fmt.Errorf("more than %d GPU instance SKUs: not an EC2 offer file", maxKeptSKUs))
				}
				skus[sku] = keptOf(&pr)
				return nil
			})
		case "terms":
			return s.object(func(termType string) error {
				if termType != "OnDemand" && termType != "Reserved" {
					_, err := s.value(nil, false)
					return err
				}
				return s.object(func(sku string) error {
					k, ok := skus[sku]
					if !ok {
						_, err := s.value(nil, false)
						return err
					}
					var err error
					raw, err = s.value(raw[:0], true)
					if err != nil {
						return fail("terms."+termType+"."+sku, err)
					}
					var terms map[string]term
					if err := importer.UnmarshalStrict(raw, &terms); err != nil {
						return fail("terms."+termType+"."+sku, err)
					}
					codes := make([]string, 0, len(terms))
					for code := range terms {
						codes = append(codes, code)
					}
					sort.Strings(codes) // the first of several terms for one offer is the same on every run
					for _, code := range codes {
						t := terms[code]
						if err := o.addTerm(res, byKey, termOf, k, termType, sku+"."+code, t, published); err != nil {
							return fail("terms."+termType+"."+sku+"."+code, err)
						}
					}
					return nil
				})
			})
		default:
			_, err := s.value(nil, false)
			return err
		}
	})
	if err == nil {
		err = s.atEnd()
	}
	if err != nil {
		var pe *importer.ParseError
		if asParseError(err, &pe) {
			return pe
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &importer.ParseError{Source: o.ref(), Offset: s.offset(), Err: err}
	}
	if len(skus) == 0 {
		res.Skipped.Add("no GPU instance SKUs in the file", "")
	}
	return nil
}

// keptOf is what a kept product's offers are for.
func keptOf(pr *product) kept {
	k := kept{instance: pr.Attributes.InstanceType, region: pr.Attributes.RegionCode}
	if pr.Attributes.OS == "Windows" {
		k.os = catalog.OSWindows
	}
	return k
}

// instanceTypeOf finds the instanceType attribute in a raw product.
func instanceTypeOf(raw []byte) []byte {
	i := bytes.Index(raw, []byte(`"instanceType"`))
	if i < 0 {
		return nil
	}
	rest := raw[i+len(`"instanceType"`):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 {
		return nil
	}
	rest = rest[j+1:]
	k := bytes.IndexByte(rest, '"')
	if k < 0 {
		return nil
	}
	return append(rest[:k:k], '.')[:k+1]
}

// priceIn is a price dimension's currency and amount: USD when the
// dimension has it, else its only currency (the China offer files price in
// CNY); the import's checker refuses a currency the exchange-rate table
// does not know, with the file, offer and field.
func priceIn(perUnit map[string]string) (cur, v string, err error) {
	if v, ok := perUnit["USD"]; ok {
		return "USD", v, nil
	}
	if len(perUnit) != 1 {
		return "", "", fmt.Errorf("no USD price")
	}
	for cur, v = range perUnit {
	}
	return cur, v, nil
}

// madeBy records the term that made an offer and which of its price
// dimensions were read.
type madeBy struct {
	code            string // SKU.OfferTermCode
	hourly, upfront bool   // an "Hrs" and a "Quantity" dimension were read
}

// addTerm turns one term of a kept SKU into (part of) an offer: the price
// dimensions of one term (code, SKU.OfferTermCode; a CSV file has a row per
// dimension) make one offer, and termOf records which term made each. A
// later term for an offer already made is a duplicate (skipped and
// counted).
func (o *Offers) addTerm(res *importer.Result, byKey map[string]*catalog.Offer, termOf map[string]*madeBy, k kept, termType, code string, t term, published time.Time) error {
	var billing catalog.Billing
	switch termType {
	case "OnDemand":
		billing = catalog.OnDemand
	default:
		a := t.TermAttributes
		if !strings.EqualFold(a.OfferingClass, "standard") {
			res.Skipped.Add("convertible reservation", k.instance)
			return nil
		}
		years := map[string]string{"1yr": "1y", "3yr": "3y"}[a.LeaseContractLength]
		opt := map[string]string{"No Upfront": "no", "Partial Upfront": "partial", "All Upfront": "all"}[a.PurchaseOption]
		if years == "" || opt == "" {
			res.Skipped.Add("unknown reservation term "+a.LeaseContractLength+" "+a.PurchaseOption, k.instance)
			return nil
		}
		billing = catalog.Billing("reserved-" + years + "-" + opt + "-upfront")
	}
	id := k.instance + "/" + k.region + "/" + string(billing)
	if k.os != catalog.OSLinux {
		id += "/" + k.os
	}
	off := byKey[id]
	created := off == nil
	if !created && termOf[id].code != code {
		// A second term for the same offer (another SKU or offer term):
		// the one duplicate rule, the first is kept, the rest counted.
		res.Skipped.Add(importer.SkipDuplicate, id)
		return nil
	}
	if created {
		termOf[id] = &madeBy{code: code}
		if len(res.Offers) >= maxOffers {
			return fmt.Errorf("more than %d offers: not an EC2 offer file", maxOffers)
		}
		asOf := published
		if ed, err := time.Parse(time.RFC3339, t.EffectiveDate); err == nil && ed.After(asOf) {
			asOf = ed
		}
		off = &catalog.Offer{Provider: "aws", InstanceName: k.instance, RegionCode: k.region, Billing: billing, OS: k.os,
			Price:  catalog.Price{Currency: "USD"},
			Source: importer.Source(catalog.SourceOfficialAPI, o.ref(), asOf, o.now())}
		byKey[id] = off
		res.Offers = append(res.Offers, off)
	}
	for _, d := range t.PriceDimensions {
		cur, v, err := priceIn(d.PricePerUnit)
		if err != nil {
			return err
		}
		if by := termOf[id]; !by.hourly && !by.upfront {
			off.Price.Currency = cur // the checker refuses a currency the exchange-rate table lacks
		} else if off.Price.Currency != cur {
			return fmt.Errorf("price dimensions in %s and %s", off.Price.Currency, cur)
		}
		price, err := decimal.NewFromString(v)
		if err != nil {
			return fmt.Errorf("price %q is not a number", v)
		}
		by := termOf[id]
		switch d.Unit {
		case "Hrs", "Quantity":
			set := &by.hourly
			if d.Unit == "Quantity" {
				set = &by.upfront
			}
			if *set {
				// The same price dimension twice (a repeated CSV row):
				// the one duplicate rule, the first is kept.
				res.Skipped.Add(importer.SkipDuplicate, id+" "+d.Unit)
				continue
			}
			*set = true
			if d.Unit == "Hrs" {
				off.Price.Hourly = price
			} else {
				off.Price.Upfront = price
			}
		default:
			res.Skipped.Add("price unit "+d.Unit, k.instance)
		}
	}
	if off.Price.Hourly.IsNegative() || off.Price.Upfront.IsNegative() {
		res.Skipped.Add(importer.SkipNegative, k.instance+" "+k.region+" "+string(billing))
		delete(byKey, id)
		for i := len(res.Offers) - 1; i >= 0; i-- {
			if res.Offers[i] == off {
				res.Offers = append(res.Offers[:i], res.Offers[i+1:]...)
				break
			}
		}
		return nil
	}
	if created && billing == catalog.OnDemand && off.Price.Hourly.IsZero() {
		// A zero on-demand price is not a price (AWS lists some placeholders at 0).
		res.Skipped.Add("zero on-demand price", k.instance)
		delete(byKey, id)
		res.Offers = res.Offers[:len(res.Offers)-1]
	}
	return nil
}

// Fetch implements importer.Fetcher: it downloads o.URL.
func (o *Offers) Fetch(ctx context.Context, c *http.Client, p importer.Progress) (*importer.Result, error) {
	if o.URL == "" {
		return nil, fmt.Errorf("aws: no offer file URL (see the region index at https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/AmazonEC2/current/region_index.json)")
	}
	resp, err := importer.GetWithRetry(ctx, c, o.URL, nil, 3)
	if err != nil {
		return nil, fmt.Errorf("aws: %w", err)
	}
	defer resp.Body.Close()
	return o.Parse(ctx, resp.Body, p)
}

// peekReader lets the parser look at the first non-space byte.
type peekReader struct {
	r   io.Reader
	buf []byte
}

func (p *peekReader) first() (byte, error) {
	b := make([]byte, 512)
	for {
		n, err := p.r.Read(b)
		p.buf = append(p.buf, b[:n]...)
		for _, c := range p.buf {
			switch c {
			case ' ', '\n', '\r', '\t', 0xEF, 0xBB, 0xBF:
				continue
			}
			return c, nil
		}
		if err != nil {
			return 0, err
		}
	}
}

func (p *peekReader) Read(b []byte) (int, error) {
	if len(p.buf) > 0 {
		n := copy(b, p.buf)
		p.buf = p.buf[n:]
		return n, nil
	}
	return p.r.Read(b)
}
