// Package gcp imports GPU virtual-machine prices from the Google Cloud
// Billing Catalog API (https://cloud.google.com/billing/docs/how-to/get-pricing-information-api):
// the SKUs of service 6F81-5844-456A (Compute Engine).
//
// A response page is a JSON object
//
//	{"skus":[{"name","skuId","description":"Nvidia Tesla A100 GPU running in Americas",
//	  "category":{"serviceDisplayName","resourceFamily":"Compute","resourceGroup":"GPU",
//	   "usageType":"OnDemand"|"Preemptible"|"Commit1Yr"|"Commit3Yr"},
//	  "serviceRegions":["us-central1",...],
//	  "pricingInfo":[{"pricingExpression":{"usageUnit":"h","tieredRates":[
//	   {"startUsageAmount":0,"unitPrice":{"currencyCode":"USD","units":"2","nanos":933908000}}]},
//	   "effectiveTime":"2023-03-24T10:52:50.681Z"}]}],
//	 "nextPageToken":""}
//
// GCP prices resources, not machine types: a VM's hourly price is
//
//	core SKU × vCPUs + RAM SKU × GiB + GPU SKU × GPUs
//
// for its series in its region ("A2 Instance Core running in Americas",
// "A2 Instance Ram running in Americas", "Nvidia Tesla A100 GPU running in
// Americas"). The importer reads the SKUs into unit prices per region and
// usage type, then assembles offers for the machine types of a table
// (Importer.Machines, DefaultMachines).
package gcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/gpuscout/gpuscout/internal/importer/httpapi"
	"github.com/shopspring/decimal"
)

// SourceName is the importer's name.
const SourceName = "gcp"

// ComputeServiceID is the Cloud Billing service ID of Compute Engine.
const ComputeServiceID = "6F81-5844-456A"

// DefaultBaseURL is the Cloud Billing API host.
const DefaultBaseURL = "https://cloudbilling.googleapis.com"

// APIKeyEnv is the environment variable the caller reads the API key from.
const APIKeyEnv = "GOOGLE_API_KEY"

const maxPages = 1000

// Importer imports the Cloud Billing Catalog SKUs of Compute Engine.
type Importer struct {
	// BaseURL is the API host; empty means DefaultBaseURL.
	BaseURL string
	// APIKey is the Cloud Billing API key Fetch sends; the caller reads it
	// from GOOGLE_API_KEY. Fetch fails without one.
	APIKey string
	// Currency is the currencyCode Fetch requests; empty leaves the API's
	// default (USD).
	Currency string
	// Machines are the machine types to price; nil means
	// DefaultMachines().
	Machines []Machine
	// Regions, when not empty, restricts the offers to these regions.
	Regions []string
	// Now is the clock for FetchedAt; nil means time.Now.
	Now func() time.Time
	// AsOf overrides the offers' AsOf date; zero means the latest
	// effectiveTime of the SKUs that make up each offer.
	AsOf time.Time
	// Ref names the parsed file in the offers' Source; empty means the API
	// URL (without the key).
	Ref string
}

// Name returns "gcp".
func (i *Importer) Name() string { return SourceName }

func (i *Importer) now() time.Time {
	if i.Now != nil {
		return i.Now()
	}
	return time.Now()
}

func (i *Importer) baseURL() string {
	if i.BaseURL == "" {
		return DefaultBaseURL
	}
	return strings.TrimRight(i.BaseURL, "/")
}

func (i *Importer) skusURL() string {
	return i.baseURL() + "/v1/services/" + ComputeServiceID + "/skus"
}

type sku struct {
	Name        string `json:"name"`
	SkuID       string `json:"skuId"`
	Description string `json:"description"`
	Category    struct {
		ServiceDisplayName string `json:"serviceDisplayName"`
		ResourceFamily     string `json:"resourceFamily"`
		ResourceGroup      string `json:"resourceGroup"`
		UsageType          string `json:"usageType"`
	} `json:"category"`
	ServiceRegions []string      `json:"serviceRegions"`
	PricingInfo    []pricingInfo `json:"pricingInfo"`
}

type pricingInfo struct {
	PricingExpression struct {
		UsageUnit   string `json:"usageUnit"`
		TieredRates []struct {
			StartUsageAmount json.Number `json:"startUsageAmount"`
			UnitPrice        struct {
				CurrencyCode string      `json:"currencyCode"`
				Units        json.Number `json:"units"` // int64, a JSON string in proto3 JSON
				Nanos        int64       `json:"nanos"`
			} `json:"unitPrice"`
		} `json:"tieredRates"`
	} `json:"pricingExpression"`
	EffectiveTime string `json:"effectiveTime"`
}

// usageOrder is the order of usage types in the offers.
var usageOrder = []string{"OnDemand", "Preemptible", "Commit1Yr", "Commit3Yr"}

// usageBilling maps category.usageType to a billing code.
func usageBilling(u string) (catalog.Billing, bool) {
	switch u {
	case "OnDemand":
		return catalog.OnDemand, true
	case "Preemptible":
		return catalog.Spot, true
	case "Commit1Yr":
		return catalog.Committed1y, true
	case "Commit3Yr":
		return catalog.Committed3y, true
	}
	return "", false
}

// rateKey identifies a unit price: region, usage type and component
// ("core:a2", "ram:a2", "gpu:a10080gb").
type rateKey struct {
	region, usage, comp string
}

type rate struct {
	price     decimal.Decimal
	currency  string
	sku       string
	nRegions  int
	effective time.Time
}

// collector holds the unit prices read so far, across pages.
type collector struct {
	win     *importer.Window // bounds one record of the stream being read
	imp     *Importer
	source  string
	res     *importer.Result
	regions map[string]bool
	rates   map[rateKey]*rate
}

func (i *Importer) newCollector() *collector {
	c := &collector{imp: i, source: SourceName, res: &importer.Result{Source: SourceName}, rates: map[rateKey]*rate{}}
	if len(i.Regions) > 0 {
		c.regions = map[string]bool{}
		for _, r := range i.Regions {
			c.regions[strings.ToLower(r)] = true
		}
	}
	return c
}

func (c *collector) count() int { return len(c.rates) }

// Parse reads one or more SKU list responses (a recorded response, or
// pages written one after another) and assembles offers for the machine
// table.
func (i *Importer) Parse(ctx context.Context, r io.Reader, p importer.Progress) (*importer.Result, error) {
	col := i.newCollector()
	cr := &importer.CountingReader{R: importer.SkipBOM(r), Progress: p, Records: col.count}
	if _, err := col.readPages(ctx, cr, true); err != nil {
		return nil, err
	}
	ref := i.Ref
	if ref == "" {
		ref = i.skusURL()
	}
	res, err := col.assemble(ctx, ref, i.now())
	if err != nil {
		return nil, err
	}
	if p != nil {
		p(cr.N, len(res.Offers))
	}
	return res, nil
}

// Fetch lists the Compute Engine SKUs page by page (pageSize 5000,
// following nextPageToken through httpapi.Pages: a repeated token or more
// than maxPages pages stops it) and assembles offers. Each page is decoded
// one SKU at a time. It needs APIKey. Any failure fails the whole fetch.
func (i *Importer) Fetch(ctx context.Context, c *http.Client, p importer.Progress) (*importer.Result, error) {
	if i.APIKey == "" {
		return nil, fmt.Errorf("gcp: the Cloud Billing Catalog API needs an API key; set %s", APIKeyEnv)
	}
	col := i.newCollector()
	var total int64
	page := 0
	token := "" // the nextPageToken of the page last read
	call := func() httpapi.Call {
		q := "pageSize=5000" // the key goes first, added by the signer
		if i.Currency != "" {
			q += "&currencyCode=" + url.QueryEscape(strings.ToUpper(i.Currency))
		}
		if token != "" {
			q += "&pageToken=" + url.QueryEscape(token)
		}
		return httpapi.Call{Action: "skus", Path: "/v1/services/" + ComputeServiceID + "/skus", RawQuery: q,
			Header: http.Header{"Accept": {"application/json"}}}
	}
	next := func(httpapi.Answer) (httpapi.Call, bool, error) { return call(), token != "", nil }
	for ans, err := range httpapi.Pages(ctx, i.client(c), call(), maxPages, next) {
		if err != nil {
			var loop *httpapi.PageLoopError
			var capped *httpapi.PageCapError
			if errors.As(err, &loop) || errors.As(err, &capped) {
				return nil, err
			}
			return nil, fmt.Errorf("gcp: page %d: %w", page+1, err)
		}
		page++
		col.source = fmt.Sprintf("gcp page %d", page)
		cr := &importer.CountingReader{R: bytes.NewReader(ans.Body), Progress: p, Records: col.count}
		if token, err = col.readPages(ctx, cr, false); err != nil {
			return nil, err
		}
		total += cr.N
		if p != nil {
			p(total, col.count())
		}
	}
	return col.assemble(ctx, i.skusURL(), i.now())
}

// readPages decodes SKU list pages and returns the last nextPageToken.
func (c *collector) readPages(ctx context.Context, r io.Reader, many bool) (string, error) {
	c.win = &importer.Window{R: r, Max: importer.MaxRecord}
	dec := json.NewDecoder(c.win)
	dec.UseNumber()
	var next string
	for pages := 0; ; pages++ {
		tok, err := dec.Token()
		if err == io.EOF && pages > 0 {
			return next, nil
		}
		if err != nil {
			return "", c.jsonErr(dec, 0, "", err)
		}
		if pages > 0 && !many {
			return "", c.perr(dec.InputOffset(), "", errors.New("data after the response object"))
		}
		if d, ok := tok.(json.Delim); !ok || d != '{' {
			return "", c.perr(dec.InputOffset(), "", fmt.Errorf("want a JSON object, got %v", tok))
		}
		next = ""
		page := false // a key of a price-list response was seen
		for dec.More() {
			c.win.Reset()
			tok, err := dec.Token()
			if err != nil {
				return "", c.jsonErr(dec, 0, "", err)
			}
			key, _ := tok.(string)
			off := dec.InputOffset()
			switch key {
			case "skus":
				page = true
				if err := c.readSKUs(ctx, dec); err != nil {
					return "", err
				}
			case "nextPageToken":
				page = true
				var s *string
				if err := dec.Decode(&s); err != nil {
					return "", c.jsonErr(dec, off, key, err)
				}
				if s != nil {
					next = *s
				}
			default:
				var skip json.RawMessage
				if err := dec.Decode(&skip); err != nil {
					return "", c.jsonErr(dec, off, key, err)
				}
			}
		}
		if _, err := dec.Token(); err != nil {
			return "", c.jsonErr(dec, 0, "", err)
		}
		if !page {
			return "", c.perr(dec.InputOffset(), "", fmt.Errorf("object %d has neither skus nor nextPageToken: not a response page (trailing or foreign data)", pages+1))
		}
	}
}

func (c *collector) readSKUs(ctx context.Context, dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return c.jsonErr(dec, 0, "skus", err)
	}
	if tok == nil {
		return nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return c.perr(dec.InputOffset(), "skus", fmt.Errorf("want an array, got %v", tok))
	}
	for n := 0; dec.More(); n++ {
		c.win.Reset()
		if n%256 == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("%s: %w", c.source, err)
			}
		}
		off := dec.InputOffset()
		var s sku
		if err := importer.DecodeItem(dec, c.source, off, fmt.Sprintf("skus[%d]", n), &s); err != nil {
			return err
		}
		if err := c.add(&s, off, n); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return c.jsonErr(dec, 0, "skus", err)
	}
	return nil
}

func (c *collector) jsonErr(dec *json.Decoder, off int64, field string, err error) error {
	return importer.StreamDecodeError(c.source, dec, off, field, err)
}

func (c *collector) perr(off int64, field string, err error) error {
	return &importer.ParseError{Source: c.source, Offset: off, Field: field, Err: err}
}

// excluded are description words of SKUs that are not the plain price of
// a predefined machine (lower case).
var excluded = []string{"custom", "sole tenancy", "sole-tenancy", "premium", "reserved", "virtual workstation", "dws", "calendar", "flex", "extended", "licens", "dollar based"}

// classify returns the component a SKU prices: "core:<family>",
// "ram:<family>" or "gpu:<model>", normalised, or a reason to skip it.
func classify(desc, group string) (comp, reason string) {
	low := strings.ToLower(desc)
	for _, x := range excluded {
		if strings.Contains(low, x) {
			return "", "excluded variant (custom, sole tenancy, reserved, workstation ...)"
		}
	}
	head := desc
	for _, p := range []string{"Commitment v1: ", "Commitment v2: ", "Commitment: ", "Spot Preemptible ", "Preemptible "} {
		if len(head) >= len(p) && strings.EqualFold(head[:len(p)], p) {
			head = head[len(p):]
		}
	}
	if k := strings.Index(head, " attached to "); k >= 0 {
		head = head[:k]
	}
	if k := strings.Index(head, " in "); k >= 0 {
		head = head[:k]
	}
	head = strings.TrimSuffix(head, " running")
	words := strings.Fields(head)
	if len(words) < 2 {
		return "", "unmapped SKU"
	}
	last := strings.ToLower(words[len(words)-1])
	if last == "gpu" || strings.EqualFold(group, "GPU") {
		if last != "gpu" {
			return "", "unmapped SKU"
		}
		model := words[:len(words)-1]
		for len(model) > 0 && (strings.EqualFold(model[0], "nvidia") || strings.EqualFold(model[0], "tesla") || strings.EqualFold(model[0], "amd")) {
			model = model[1:]
		}
		if len(model) == 0 {
			return "", "unmapped SKU"
		}
		return "gpu:" + norm(strings.Join(model, " ")), ""
	}
	var kind string
	switch last {
	case "core", "cpu", "vcpu":
		kind = "core"
	case "ram", "memory":
		kind = "ram"
	default:
		return "", "unmapped SKU"
	}
	for _, w := range words[1 : len(words)-1] {
		if !strings.EqualFold(w, "Instance") && !strings.EqualFold(w, "Predefined") {
			return "", "unmapped SKU"
		}
	}
	return kind + ":" + norm(words[0]), ""
}

// norm lower-cases s and drops spaces, hyphens and underscores.
func norm(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r == ' ' || r == '-' || r == '_' {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// add reads one SKU's unit price into the rate table.
func (c *collector) add(s *sku, off int64, n int) error {
	skip := c.res.Skipped.Add
	field := func(f string) string { return fmt.Sprintf("skus[%d].%s", n, f) }
	if s.Category.ResourceFamily != "Compute" {
		skip("not Compute", s.Description)
		return nil
	}
	if _, ok := usageBilling(s.Category.UsageType); !ok {
		skip("unsupported usage type", s.Category.UsageType)
		return nil
	}
	comp, reason := classify(s.Description, s.Category.ResourceGroup)
	if reason != "" {
		skip(reason, s.Description)
		return nil
	}
	if len(s.PricingInfo) == 0 {
		skip("no pricing info", s.Description)
		return nil
	}
	// The latest pricingInfo is the current one.
	var pi *pricingInfo
	var eff time.Time
	for j := range s.PricingInfo {
		var t time.Time
		if e := s.PricingInfo[j].EffectiveTime; e != "" {
			var err error
			if t, err = time.Parse(time.RFC3339Nano, e); err != nil {
				return c.perr(off, field(fmt.Sprintf("pricingInfo[%d].effectiveTime", j)), err)
			}
		}
		if pi == nil || !t.Before(eff) {
			pi, eff = &s.PricingInfo[j], t
		}
	}
	unit := pi.PricingExpression.UsageUnit
	if want := map[string]string{"core": "h", "gpu": "h", "ram": "GiBy.h"}[comp[:strings.IndexByte(comp, ':')]]; unit != want {
		skip("unexpected usage unit", s.Description+" ("+unit+")")
		return nil
	}
	var price decimal.Decimal
	var currency string
	found := false
	for k, tr := range pi.PricingExpression.TieredRates {
		f := field(fmt.Sprintf("pricingInfo[].pricingExpression.tieredRates[%d]", k))
		start := decimal.Zero
		if tr.StartUsageAmount != "" {
			var err error
			if start, err = decimal.NewFromString(string(tr.StartUsageAmount)); err != nil {
				return c.perr(off, f+".startUsageAmount", err)
			}
		}
		if !start.IsZero() {
			continue // the base rate starts at zero usage
		}
		units := decimal.Zero
		if tr.UnitPrice.Units != "" {
			var err error
			units, err = decimal.NewFromString(string(tr.UnitPrice.Units))
			if err != nil || !units.Equal(units.Truncate(0)) {
				return c.perr(off, f+".unitPrice.units", fmt.Errorf("%q is not an integer", tr.UnitPrice.Units))
			}
		}
		if tr.UnitPrice.Nanos <= -1e9 || tr.UnitPrice.Nanos >= 1e9 {
			return c.perr(off, f+".unitPrice.nanos", fmt.Errorf("%d out of range", tr.UnitPrice.Nanos))
		}
		price = units.Add(decimal.New(tr.UnitPrice.Nanos, -9))
		currency = strings.ToUpper(tr.UnitPrice.CurrencyCode)
		found = true
		break
	}
	if !found {
		skip("no base tier", s.Description)
		return nil
	}
	if currency == "" {
		return c.perr(off, field("pricingInfo[].pricingExpression.tieredRates[].unitPrice.currencyCode"), errors.New("missing"))
	}
	if price.IsNegative() || (price.IsZero() && comp[:3] != "ram") {
		skip("no price", s.Description)
		return nil
	}
	if len(s.ServiceRegions) == 0 {
		skip("no service regions", s.Description)
		return nil
	}
	for _, reg := range s.ServiceRegions {
		reg = strings.ToLower(reg)
		if c.regions != nil && !c.regions[reg] {
			continue
		}
		key := rateKey{reg, s.Category.UsageType, comp}
		nr := &rate{price: price, currency: currency, sku: s.SkuID, nRegions: len(s.ServiceRegions), effective: eff}
		if old, ok := c.rates[key]; ok {
			// The SKU for fewer regions is the more specific one and
			// supersedes the other; two SKUs alike are duplicates under
			// the one rule: the first is kept, the rest counted.
			switch {
			case nr.nRegions == old.nRegions:
				skip(importer.SkipDuplicate, s.Description+" "+reg)
				continue
			case nr.nRegions > old.nRegions:
				skip(skipSuperseded, s.Description+" "+reg)
				continue
			}
			skip(skipSuperseded, old.sku+" "+reg)
		}
		c.rates[key] = nr
	}
	return nil
}

// skipSuperseded counts a SKU that a SKU for fewer regions (the more
// specific price) outranks for one region.
const skipSuperseded = "superseded SKU (the one for fewer regions was kept)"

// assemble prices the machine table from the rates.
func (c *collector) assemble(ctx context.Context, ref string, fetched time.Time) (*importer.Result, error) {
	machines := c.imp.Machines
	if machines == nil {
		machines = DefaultMachines()
	}
	regionSet := map[string]bool{}
	for k := range c.rates {
		regionSet[k.region] = true
	}
	regions := make([]string, 0, len(regionSet))
	for r := range regionSet {
		regions = append(regions, r)
	}
	sort.Strings(regions)
	for _, reg := range regions {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("%s: %w", SourceName, err)
		}
		for _, usage := range usageOrder {
			billing, _ := usageBilling(usage)
			for _, m := range machines {
				if o := c.offer(m, reg, usage, billing, ref, fetched); o != nil {
					c.res.Offers = append(c.res.Offers, o)
				}
			}
		}
	}
	return c.res, nil
}

// offer assembles one machine's offer, or records why it cannot.
func (c *collector) offer(m Machine, reg, usage string, billing catalog.Billing, ref string, fetched time.Time) *catalog.Offer {
	type part struct {
		name string
		comp string
		qty  decimal.Decimal
	}
	parts := []part{
		{m.Family + " core", "core:" + norm(m.Family), decimal.NewFromInt(int64(m.VCPU))},
		{m.Family + " RAM", "ram:" + norm(m.Family), m.MemGiB},
	}
	if m.GPUCount > 0 {
		parts = append(parts, part{m.GPU + " GPU", "gpu:" + norm(m.GPU), decimal.NewFromInt(int64(m.GPUCount))})
	}
	var missing []string
	var have []*rate
	for _, p := range parts {
		r := c.rates[rateKey{reg, usage, p.comp}]
		if r == nil {
			missing = append(missing, p.name)
			continue
		}
		have = append(have, r)
	}
	if len(have) == 0 {
		return nil // not offered in this region under this usage type
	}
	ex := m.Name + " " + reg + " " + usage
	if len(missing) > 0 {
		c.res.Skipped.Add("incomplete price components", ex+": no "+strings.Join(missing, ", ")+" SKU")
		return nil
	}
	total := decimal.Zero
	var asOf time.Time
	for k, r := range have {
		if r.currency != have[0].currency {
			c.res.Skipped.Add("mixed currencies", ex)
			return nil
		}
		total = total.Add(r.price.Mul(parts[k].qty))
		if r.effective.After(asOf) {
			asOf = r.effective
		}
	}
	if !c.imp.AsOf.IsZero() {
		asOf = c.imp.AsOf
	}
	return &catalog.Offer{
		Provider:     SourceName,
		InstanceName: m.Name,
		RegionCode:   reg,
		Billing:      billing,
		Price:        catalog.Price{Hourly: total, Currency: have[0].currency},
		Source:       importer.Source(catalog.SourceOfficialAPI, ref, asOf, fetched),
	}
}
