// Package azure imports GPU virtual-machine prices from the Azure Retail
// Prices API (https://prices.azure.com/api/retail/prices), documented at
// https://learn.microsoft.com/en-us/rest/api/cost-management/retail-prices/azure-retail-prices.
//
// One response page is a JSON object
//
//	{"BillingCurrency":"USD","CustomerEntityId":"Default","CustomerEntityType":"Retail",
//	 "Items":[{...}],"NextPageLink":"https://prices.azure.com/api/retail/prices?...&$skip=100","Count":100}
//
// and each item is one meter: a Consumption meter (on-demand, or spot when
// the meter or SKU name ends in " Spot"), a Reservation (the whole-term
// price) or a DevTestConsumption meter, with the savings-plan rates of a
// consumption meter in its savingsPlan array (api-version
// 2023-01-01-preview only). Windows products ("… Series Windows", "… Series
// Win") give Windows offers (catalog.OSWindows: the licence included) for
// their pay-as-you-go and spot meters; their savings-plan and reservation
// rates are skipped and counted, since those cover compute only and the
// Windows licence is charged apart
// (https://learn.microsoft.com/en-us/azure/cost-management-billing/savings-plan/software-costs,
// https://learn.microsoft.com/en-us/azure/cost-management-billing/manage/understand-vm-reservation-charges).
// Low Priority meters and dev/test prices are skipped.
package azure

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
const SourceName = "azure"

// DefaultBaseURL is the Retail Prices API host.
const DefaultBaseURL = "https://prices.azure.com"

// APIVersion is the only API version that returns savings-plan rates.
const APIVersion = "2023-01-01-preview"

// maxPages bounds the paging loop; a full "Virtual Machines" pull is about
// 130,000 items, 1,300 pages of 100.
const maxPages = 20000

// Importer imports the Azure Retail Prices API. The zero value is usable.
type Importer struct {
	// BaseURL is the API host; empty means DefaultBaseURL. Tests point it
	// at an httptest server.
	BaseURL string
	// Currency is the currencyCode requested by Fetch; empty means USD.
	// Microsoft states USD is the retail price and others are for
	// reference.
	Currency string
	// SKUs, when not nil, restricts the import to these armSkuNames
	// (case-insensitive). Nil means every "Standard_N" size (the NC, ND
	// and NV GPU series).
	SKUs []string
	// Regions, when not empty, restricts the import to these
	// armRegionNames; Fetch adds them to the server-side filter.
	Regions []string
	// Now is the clock for FetchedAt; nil means time.Now.
	Now func() time.Time
	// AsOf is the date the parsed data was captured; zero means the
	// FetchedAt time. The API carries no publication date (an item's
	// effectiveStartDate is when its price took effect, often years ago).
	AsOf time.Time
	// Ref names the parsed file in the offers' Source; empty means the
	// API URL. Fetch always records the first page's URL.
	Ref string
}

// Name returns "azure".
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

func (i *Importer) currency() string {
	if i.Currency == "" {
		return "USD"
	}
	return strings.ToUpper(i.Currency)
}

// envelope fields other than Items and NextPageLink are skipped.
type item struct {
	CurrencyCode         string        `json:"currencyCode"`
	TierMinimumUnits     json.Number   `json:"tierMinimumUnits"`
	RetailPrice          json.Number   `json:"retailPrice"`
	UnitPrice            json.Number   `json:"unitPrice"`
	ArmRegionName        string        `json:"armRegionName"`
	Location             string        `json:"location"`
	EffectiveStartDate   string        `json:"effectiveStartDate"`
	MeterID              string        `json:"meterId"`
	MeterName            string        `json:"meterName"`
	ProductID            string        `json:"productId"`
	SkuID                string        `json:"skuId"`
	ProductName          string        `json:"productName"`
	SkuName              string        `json:"skuName"`
	ServiceName          string        `json:"serviceName"`
	ServiceID            string        `json:"serviceId"`
	ServiceFamily        string        `json:"serviceFamily"`
	UnitOfMeasure        string        `json:"unitOfMeasure"`
	Type                 string        `json:"type"`
	IsPrimaryMeterRegion *bool         `json:"isPrimaryMeterRegion"`
	ArmSkuName           string        `json:"armSkuName"`
	ReservationTerm      string        `json:"reservationTerm"`
	SavingsPlan          []savingsPlan `json:"savingsPlan"`
}

type savingsPlan struct {
	UnitPrice   json.Number `json:"unitPrice"`
	RetailPrice json.Number `json:"retailPrice"`
	Term        string      `json:"term"`
}

// candidate is an offer with what decides between duplicate meters.
type candidate struct {
	offer   *catalog.Offer
	primary bool
	start   string
}

// collector turns items into offers, across pages.
type collector struct {
	win     *importer.Window // bounds one record of the stream being read
	imp     *Importer
	source  string // ParseError.Source
	res     *importer.Result
	src     catalog.Source
	skus    map[string]bool
	regions map[string]bool
	offers  map[string]*candidate
}

func (i *Importer) newCollector(ref string) *collector {
	fetched := i.now()
	col := &collector{
		imp:    i,
		source: SourceName,
		res:    &importer.Result{Source: SourceName},
		src:    importer.Source(catalog.SourceOfficialAPI, ref, i.AsOf, fetched),
		offers: map[string]*candidate{},
	}
	if i.SKUs != nil {
		col.skus = map[string]bool{}
		for _, s := range i.SKUs {
			col.skus[strings.ToLower(s)] = true
		}
	}
	if len(i.Regions) > 0 {
		col.regions = map[string]bool{}
		for _, r := range i.Regions {
			col.regions[strings.ToLower(r)] = true
		}
	}
	return col
}

func (i *Importer) defaultRef() string {
	if i.Ref != "" {
		return i.Ref
	}
	return i.baseURL() + "/api/retail/prices?api-version=" + APIVersion
}

// Parse reads one or more Retail Prices API response pages (a recorded
// response, or pages written one after another). NextPageLink is not
// followed.
func (i *Importer) Parse(ctx context.Context, r io.Reader, p importer.Progress) (*importer.Result, error) {
	col := i.newCollector(i.defaultRef())
	cr := &importer.CountingReader{R: importer.SkipBOM(r), Progress: p, Records: col.count}
	if _, err := col.readPages(ctx, cr, true); err != nil {
		return nil, err
	}
	res := col.finish()
	if p != nil {
		p(cr.N, len(res.Offers))
	}
	return res, nil
}

// Fetch queries the API for Virtual Machines meters of "Standard_N" sizes
// and follows NextPageLink until it is empty (httpapi.Pages: a repeated
// link or more than maxPages pages stops it). Each page is decoded one
// item at a time. Any failure fails the whole fetch; nothing partial is
// returned.
func (i *Importer) Fetch(ctx context.Context, c *http.Client, p importer.Progress) (*importer.Result, error) {
	first := i.firstURL()
	base, err := url.Parse(first)
	if err != nil {
		return nil, fmt.Errorf("azure: base URL: %w", err)
	}
	client := i.client(c, base.Scheme+"://"+base.Host)
	col := i.newCollector(first)
	var total int64
	page := 0
	link := "" // the NextPageLink of the page last read
	accept := http.Header{"Accept": {"application/json"}}
	next := func(httpapi.Answer) (httpapi.Call, bool, error) {
		if link == "" {
			return httpapi.Call{}, false, nil
		}
		u, err := url.Parse(link)
		if err != nil {
			return httpapi.Call{}, false, fmt.Errorf("NextPageLink %q: %w", link, err)
		}
		if u.Scheme != base.Scheme || u.Host != base.Host {
			return httpapi.Call{}, false, fmt.Errorf("NextPageLink %q leaves %s://%s", link, base.Scheme, base.Host)
		}
		return httpapi.Call{Action: "prices", Path: u.EscapedPath(), RawQuery: u.RawQuery, Header: accept}, true, nil
	}
	firstCall := httpapi.Call{Action: "prices", Path: base.EscapedPath(), RawQuery: base.RawQuery, Header: accept}
	for ans, err := range httpapi.Pages(ctx, client, firstCall, maxPages, next) {
		if err != nil {
			var loop *httpapi.PageLoopError
			var capped *httpapi.PageCapError
			if errors.As(err, &loop) || errors.As(err, &capped) {
				return nil, err
			}
			return nil, fmt.Errorf("azure: page %d: %w", page+1, err)
		}
		page++
		col.source = fmt.Sprintf("azure page %d", page)
		cr := &importer.CountingReader{R: bytes.NewReader(ans.Body), Progress: p, Records: col.count}
		if link, err = col.readPages(ctx, cr, false); err != nil {
			return nil, err
		}
		total += cr.N
		if p != nil {
			p(total, col.count())
		}
	}
	return col.finish(), nil
}

// firstURL is the first page's URL: Virtual Machines meters of sizes
// whose name starts with Standard_N, in the requested currency.
func (i *Importer) firstURL() string {
	filter := "serviceName eq 'Virtual Machines' and (startswith(armSkuName,'Standard_N'))"
	if len(i.Regions) > 0 {
		var or []string
		for _, r := range i.Regions {
			or = append(or, "armRegionName eq '"+strings.ReplaceAll(r, "'", "''")+"'")
		}
		filter += " and (" + strings.Join(or, " or ") + ")"
	}
	return i.baseURL() + "/api/retail/prices?api-version=" + APIVersion +
		"&currencyCode=" + escape("'"+i.currency()+"'") +
		"&$filter=" + escape(filter)
}

// escape encodes a query value with %20 for spaces.
func escape(s string) string { return strings.ReplaceAll(url.QueryEscape(s), "+", "%20") }

func (c *collector) count() int { return len(c.offers) }

// readPages decodes response pages from r, one or (when many) several
// concatenated, and returns the last NextPageLink.
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
			switch key {
			case "Items":
				page = true
				if err := c.readItems(ctx, dec); err != nil {
					return "", err
				}
			case "NextPageLink":
				page = true
				off := dec.InputOffset()
				var s *string
				if err := dec.Decode(&s); err != nil {
					return "", c.jsonErr(dec, off, "NextPageLink", err)
				}
				if s != nil {
					next = *s
				}
			default:
				off := dec.InputOffset()
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
			return "", c.perr(dec.InputOffset(), "", fmt.Errorf("object %d has neither Items nor NextPageLink: not a response page (trailing or foreign data)", pages+1))
		}
	}
}

func (c *collector) readItems(ctx context.Context, dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return c.jsonErr(dec, 0, "Items", err)
	}
	if tok == nil {
		return nil // "Items": null
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return c.perr(dec.InputOffset(), "Items", fmt.Errorf("want an array, got %v", tok))
	}
	for n := 0; dec.More(); n++ {
		c.win.Reset()
		if n%256 == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("%s: %w", c.source, err)
			}
		}
		off := dec.InputOffset()
		var it item
		if err := importer.DecodeItem(dec, c.source, off, fmt.Sprintf("Items[%d]", n), &it); err != nil {
			return err
		}
		if err := c.add(&it, off, n); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return c.jsonErr(dec, 0, "Items", err)
	}
	return nil
}

// jsonErr wraps a decoding error in a ParseError with the best offset.
func (c *collector) jsonErr(dec *json.Decoder, off int64, field string, err error) error {
	return importer.StreamDecodeError(c.source, dec, off, field, err)
}

func (c *collector) perr(off int64, field string, err error) error {
	return &importer.ParseError{Source: c.source, Offset: off, Field: field, Err: err}
}

// price parses a JSON number field; empty is zero.
func (c *collector) price(n json.Number, off int64, field string) (decimal.Decimal, error) {
	if n == "" {
		return decimal.Zero, nil
	}
	d, err := decimal.NewFromString(string(n))
	if err != nil {
		return decimal.Zero, c.perr(off, field, err)
	}
	return d, nil
}

// add maps one item to zero or more offers.
func (c *collector) add(it *item, off int64, n int) error {
	skip := c.res.Skipped.Add
	field := func(f string) string { return fmt.Sprintf("Items[%d].%s", n, f) }
	ex := it.ArmSkuName + " " + it.ArmRegionName
	retail, err := c.price(it.RetailPrice, off, field("retailPrice"))
	if err != nil {
		return err
	}
	unit, err := c.price(it.UnitPrice, off, field("unitPrice"))
	if err != nil {
		return err
	}
	tier, err := c.price(it.TierMinimumUnits, off, field("tierMinimumUnits"))
	if err != nil {
		return err
	}
	prod := it.ProductName
	switch {
	case it.ServiceName != "Virtual Machines":
		skip("not Virtual Machines", it.ServiceName)
		return nil
	case it.ArmSkuName == "" || it.ArmRegionName == "":
		skip("no armSkuName or armRegionName", it.MeterID)
		return nil
	case !c.wantSKU(it.ArmSkuName):
		skip("size not selected", it.ArmSkuName)
		return nil
	case c.regions != nil && !c.regions[strings.ToLower(it.ArmRegionName)]:
		skip("region not selected", it.ArmRegionName)
		return nil
	case strings.Contains(prod, "Cloud Services") || strings.Contains(prod, "CloudServices"):
		skip("Cloud Services", prod)
		return nil
	case strings.HasSuffix(it.MeterName, " Low Priority") || strings.HasSuffix(it.SkuName, " Low Priority"):
		skip("Low Priority", ex)
		return nil
	case it.Type == "DevTestConsumption":
		skip("dev/test", ex)
		return nil
	case it.UnitOfMeasure != "1 Hour":
		skip("unit not 1 Hour", it.UnitOfMeasure)
		return nil
	case tier.IsPositive():
		skip("higher usage tier", ex)
		return nil
	}
	cur := strings.ToUpper(it.CurrencyCode)
	if cur == "" {
		return c.perr(off, field("currencyCode"), errors.New("missing"))
	}
	primary := it.IsPrimaryMeterRegion == nil || *it.IsPrimaryMeterRegion
	os := catalog.OSLinux
	if strings.HasSuffix(prod, " Windows") || strings.HasSuffix(prod, " Win") {
		os = catalog.OSWindows
	}
	mk := func(b catalog.Billing, price catalog.Price) {
		price.Currency = cur
		c.keep(&candidate{
			offer: &catalog.Offer{
				Provider:     SourceName,
				InstanceName: it.ArmSkuName,
				RegionCode:   strings.ToLower(it.ArmRegionName),
				Billing:      b,
				OS:           os,
				Price:        price,
				Source:       c.src,
			},
			primary: primary,
			start:   it.EffectiveStartDate,
		})
	}
	switch it.Type {
	case "Consumption":
		if !retail.IsPositive() {
			skip(noPrice(retail), ex)
			return nil
		}
		if strings.HasSuffix(it.MeterName, " Spot") || strings.HasSuffix(it.SkuName, " Spot") {
			mk(catalog.Spot, catalog.Price{Hourly: retail})
			return nil
		}
		mk(catalog.OnDemand, catalog.Price{Hourly: retail})
		if os == catalog.OSWindows && len(it.SavingsPlan) > 0 {
			skip(skipWindowsCommitment, ex)
			return nil
		}
		for j, sp := range it.SavingsPlan {
			rate, err := c.price(sp.RetailPrice, off, field(fmt.Sprintf("savingsPlan[%d].retailPrice", j)))
			if err != nil {
				return err
			}
			var b catalog.Billing
			switch sp.Term {
			case "1 Year":
				b = catalog.Savings1yNo
			case "3 Years":
				b = catalog.Savings3yNo
			default:
				skip("savings-plan term not 1 or 3 years", sp.Term)
				continue
			}
			if !rate.IsPositive() {
				skip(noPrice(rate), ex+" "+string(b))
				continue
			}
			mk(b, catalog.Price{Hourly: rate})
		}
	case "Reservation":
		if os == catalog.OSWindows {
			skip(skipWindowsCommitment, ex)
			return nil
		}
		var b catalog.Billing
		switch it.ReservationTerm {
		case "1 Year":
			b = catalog.Reserved1yAll
		case "3 Years":
			b = catalog.Reserved3yAll
		default:
			skip("reservation term not 1 or 3 years", it.ReservationTerm)
			return nil
		}
		if !unit.IsPositive() {
			skip(noPrice(unit), ex)
			return nil
		}
		// unitPrice of a reservation is the price of the whole term.
		mk(b, catalog.Price{Upfront: unit})
	default:
		skip("unknown price type", it.Type)
	}
	return nil
}

// skipWindowsCommitment counts the savings-plan and reservation rates of
// Windows meters: they cover compute only, the licence is charged apart.
const skipWindowsCommitment = "Windows savings plan or reservation (covers compute only; the licence is charged apart)"

func (c *collector) wantSKU(s string) bool {
	if c.skus != nil {
		return c.skus[strings.ToLower(s)]
	}
	return strings.HasPrefix(strings.ToLower(s), "standard_n")
}

// keep adds a candidate. Meters for one offer are first ranked the way
// the Retail Prices API means them: a primary meter region over a
// secondary one, then the later effectiveStartDate (the current price over
// a past one); the one that loses is counted as superseded. Meters that
// rank the same are duplicates under the one rule of docs/importing.md:
// the first is kept, the rest counted (never the cheaper one silently).
func (c *collector) keep(n *candidate) {
	id := n.offer.ID()
	old, ok := c.offers[id]
	if !ok {
		c.offers[id] = n
		return
	}
	switch rank(n, old) {
	case 0:
		c.res.Skipped.Add(importer.SkipDuplicate, id)
	case 1:
		c.res.Skipped.Add(skipSuperseded, id)
		c.offers[id] = n
	default:
		c.res.Skipped.Add(skipSuperseded, id)
	}
}

// skipSuperseded counts a meter another meter for the same offer outranks.
const skipSuperseded = "superseded meter (a primary region or a later effectiveStartDate was kept)"

// rank compares two meters for one offer: 1 when a outranks b, -1 when b
// outranks a, 0 when neither does.
func rank(a, b *candidate) int {
	if a.primary != b.primary {
		if a.primary {
			return 1
		}
		return -1
	}
	return strings.Compare(a.start, b.start) // RFC 3339 in UTC sorts as text
}

// finish returns the offers sorted by ID.
func (c *collector) finish() *importer.Result {
	ids := make([]string, 0, len(c.offers))
	for id := range c.offers {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		c.res.Offers = append(c.res.Offers, c.offers[id].offer)
	}
	return c.res
}

// noPrice is the skip reason of a price that is not positive.
func noPrice(d decimal.Decimal) string {
	if d.IsNegative() {
		return importer.SkipNegative
	}
	return "no price"
}
