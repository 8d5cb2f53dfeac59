// Package baidu imports Baidu AI Cloud (百度智能云) BCC GPU prices from the
// BCC API (v2). Baidu publishes no price file; every price is one signed
// request, so for each configured region the importer asks:
//
//   - GET /v2/instance/flavorSpec (查询实例套餐规格) for the flavors sold in
//     each of the region's zones, keeping those with GPUs (gpuCardCount >
//     0) whose spec the catalog knows;
//   - POST /v2/instance/price (查询实例套餐价格) for each of them in each
//     zone, paymentTiming Prepaid (预付费, 包年包月) with purchaseLength 1
//     (month) → subscription-1m and 12 (months) → subscription-1y (the
//     year's price as an upfront amount). The lowest price across a
//     region's zones is the region's offer (a buyer picks the zone).
//
// Pay-as-you-go (Postpaid, 按量付费) prices are not imported: the price
// API takes a purchaseLength in months for every payment timing and its
// reference does not say what period a Postpaid specPrice covers, so such
// a figure could not be stored as an hourly price without guessing.
// Preemptible instances (抢占实例) are not imported either.
//
// specPrice is the total for purchaseCount (1) instances over
// purchaseLength months, as the API reference describes it; the currency
// is Importer.Currency (default CNY: the China site's API answers in yuan
// and names no currency).
//
// # Bundle format (Parse)
//
//	[
//	  {"action": "GetPriceBySpec", "region": "bj", "zone": "cn-bj-a",
//	   "spec": "bcc.gn5.c8m32.1v100-32g", "paymentTiming": "Prepaid",
//	   "purchaseLength": 1, "fetchedAt": "2026-12-01T03:04:05Z",
//	   "response": {"price": [{"specId": "gn5", "specPrices":
//	     [{"spec": "bcc.gn5.c8m32.1v100-32g", "status": "available", "specPrice": "7800"}]}]}}
//	]
//
// An answer that is an API error ({"code": ..., "message": ...}) is
// counted as skipped.
package baidu

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/gpuscout/gpuscout/internal/importer/jsonmoney"
)

const (
	sourceName = "baidu"
	provider   = "baidu"

	// ActionPrice is BCC's price inquiry (查询实例套餐价格).
	ActionPrice = "GetPriceBySpec"

	// EnvAccessKeyID is the environment variable of the AK.
	EnvAccessKeyID = "BCE_ACCESS_KEY_ID"
	// EnvSecretAccessKey is the environment variable of the SK.
	EnvSecretAccessKey = "BCE_SECRET_ACCESS_KEY"

	prepaid = "Prepaid"
)

// Importer imports Baidu AI Cloud BCC GPU prices. The zero value parses
// bundles; Fetch needs Regions, InstanceTypes and the AK/SK pair.
type Importer struct {
	// Endpoint is the BCC API base URL; "{region}" is replaced by the
	// region (bj, gz ...). Default DefaultEndpoint.
	Endpoint string
	// Regions are the regions to price (bj, bd, gz, su, fwh, hkg, sin).
	Regions []string
	// InstanceTypes are the specs the catalog knows
	// (bcc.hgn5IB.c116m978.8A100-80g ...); GPU specs outside it are
	// skipped and counted.
	InstanceTypes []string
	// Billings limits what Fetch asks for; empty means subscription-1m
	// and subscription-1y.
	Billings []catalog.Billing
	// AccessKeyID and SecretAccessKey sign requests; they never appear in
	// errors.
	AccessKeyID, SecretAccessKey string
	// Currency of the prices. Default CNY.
	Currency string
	// Now is the clock (x-bce-date, fetch times). Default time.Now.
	Now func() time.Time
	// Attempts is how many times a request is tried on network errors,
	// throttling and 5xx answers. Default 3.
	Attempts int
	// RetryWait is the first wait between attempts; it doubles each time,
	// unless a throttled answer's Retry-After asks for another wait (at
	// most httpapi.MaxRetryAfter). Default 1s.
	RetryWait time.Duration
}

// Name returns the source name, "baidu".
func (i *Importer) Name() string { return sourceName }

// LoadEnv fills the AK/SK pair from getenv where unset.
func (i *Importer) LoadEnv(getenv func(string) string) {
	if i.AccessKeyID == "" {
		i.AccessKeyID = getenv(EnvAccessKeyID)
	}
	if i.SecretAccessKey == "" {
		i.SecretAccessKey = getenv(EnvSecretAccessKey)
	}
}

// entry is one recorded answer of a bundle.
type entry struct {
	Action         string          `json:"action"`
	Region         string          `json:"region"`
	Zone           string          `json:"zone"`
	Spec           string          `json:"spec"`
	PaymentTiming  string          `json:"paymentTiming"`
	PurchaseLength int             `json:"purchaseLength"`
	FetchedAt      string          `json:"fetchedAt"`
	Response       json.RawMessage `json:"response"`
}

// Parse reads a bundle (see the package documentation).
func (i *Importer) Parse(ctx context.Context, r io.Reader, p importer.Progress) (*importer.Result, error) {
	b := i.newBuilder()
	return importer.DecodeBundle(ctx, sourceName, r, p, b.count, b.add, b.result)
}

func parseErr(off int64, field string, err error) *importer.ParseError {
	return &importer.ParseError{Source: sourceName, Offset: off, Field: field, Err: err}
}

// decodeErr turns a JSON decoding error into a ParseError, keeping the
// offset and field the decoder reports.
func decodeErr(off int64, field string, err error) *importer.ParseError {
	return importer.JSONDecodeError(sourceName, off, field, err)
}

// priceResponse is a GetPriceBySpec answer (GetPriceBySpecResult /
// SpecIdPrices / SpecPrices of bce-sdk-go services/bcc/api/model.go), or
// an error ({"code", "message", "requestId"}).
type priceResponse struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Price   []struct {
		SpecID     string `json:"specId"`
		SpecPrices []struct {
			Spec      string          `json:"spec"`
			Status    string          `json:"status"`
			SpecPrice jsonmoney.Money `json:"specPrice"`
		} `json:"specPrices"`
	} `json:"price"`
}

// lengthBilling maps a Prepaid purchaseLength (months) to a billing code.
func lengthBilling(months int) (catalog.Billing, bool) {
	switch months {
	case 1:
		return catalog.Subscription1m, true
	case 12:
		return catalog.Subscription1y, true
	case 36:
		return catalog.Subscription3y, true
	}
	return "", false
}

// quote is the price of an offer in one zone.
type quote struct {
	offer *catalog.Offer
	zone  string
}

// builder turns entries into offers: the lowest zone price per offer.
type builder struct {
	i       *Importer
	quotes  map[string]quote
	priced  map[[2]string]bool // offer ID, zone
	skipped importer.Skips
}

func (i *Importer) newBuilder() *builder {
	return &builder{i: i, quotes: map[string]quote{}, priced: map[[2]string]bool{}}
}

func (b *builder) count() int { return len(b.quotes) }

func (i *Importer) now() time.Time {
	if i.Now != nil {
		return i.Now()
	}
	return time.Now()
}

func (i *Importer) currency() string {
	if i.Currency != "" {
		return i.Currency
	}
	return "CNY"
}

// add converts one entry; n and off locate it for errors.
func (b *builder) add(n int, off int64, e entry) error {
	field := fmt.Sprintf("[%d]", n)
	fetched := b.i.now()
	if e.FetchedAt != "" {
		t, err := time.Parse(time.RFC3339, e.FetchedAt)
		if err != nil {
			return parseErr(off, field+".fetchedAt", fmt.Errorf("%q is not an RFC 3339 time", e.FetchedAt))
		}
		fetched = t
	}
	for _, f := range []struct{ name, v string }{{"region", e.Region}, {"zone", e.Zone}, {"spec", e.Spec}} {
		if f.v == "" {
			return parseErr(off, field+"."+f.name, errors.New("missing"))
		}
	}
	if len(e.Response) == 0 || string(e.Response) == "null" {
		return parseErr(off, field+".response", errors.New("missing"))
	}
	ex := e.Region + " " + e.Zone + " " + e.Spec
	if e.Action != ActionPrice {
		b.skipped.Add("unsupported action", e.Action)
		return nil
	}
	var resp priceResponse
	if err := importer.UnmarshalStrict(e.Response, &resp); err != nil {
		return decodeErr(off, field+".response", err)
	}
	if resp.Code != "" {
		b.skipped.Add("API error "+resp.Code, ex)
		return nil
	}
	if !strings.EqualFold(e.PaymentTiming, prepaid) {
		b.skipped.Add("unsupported payment timing "+e.PaymentTiming, ex)
		return nil
	}
	billing, ok := lengthBilling(e.PurchaseLength)
	if !ok {
		b.skipped.Add(fmt.Sprintf("unsupported purchase length %d months", e.PurchaseLength), ex)
		return nil
	}
	var amount jsonmoney.Money
	status, at := "", ""
	for k, p := range resp.Price {
		for j, sp := range p.SpecPrices {
			if sp.Spec == e.Spec && !amount.Set {
				amount, status, at = sp.SpecPrice, sp.Status, fmt.Sprintf("price[%d].specPrices[%d].specPrice", k, j)
			}
		}
	}
	if at == "" {
		b.skipped.Add("no price for the spec in the answer", ex)
		return nil
	}
	if !amount.Set {
		return parseErr(off, field+".response."+at, errors.New("missing"))
	}
	if amount.D.IsNegative() {
		return parseErr(off, field+".response."+at, fmt.Errorf("negative price %s", amount.D))
	}
	if amount.D.IsZero() {
		b.skipped.Add("zero price", ex)
		return nil
	}
	price := catalog.Price{Currency: b.i.currency()}
	if billing == catalog.Subscription1m {
		price.Monthly = amount.D
	} else {
		price.Upfront = amount.D
	}
	notes := "Prepaid list price, lowest across zones (here " + e.Zone + ")"
	if status != "" {
		notes += "; status " + status
	}
	o := &catalog.Offer{
		Provider: provider, InstanceName: e.Spec, RegionCode: e.Region, Billing: billing, Price: price, Notes: notes,
		Source: importer.Source(catalog.SourceOfficialAPI, "BCC "+ActionPrice+" "+e.Region+" "+e.Spec, fetched, fetched),
	}
	b.put(o, e.Zone)
	return nil
}

// put keeps the lowest price per offer across zones; a second price for
// the same offer and zone is a duplicate: the first is kept.
func (b *builder) put(o *catalog.Offer, zone string) {
	id := o.ID()
	if b.priced[[2]string{id, zone}] {
		b.skipped.Add(importer.SkipDuplicate, id+" "+zone)
		return
	}
	b.priced[[2]string{id, zone}] = true
	old, ok := b.quotes[id]
	if !ok || effective(o).LessThan(effective(old.offer)) {
		b.quotes[id] = quote{offer: o, zone: zone}
	}
}

func effective(o *catalog.Offer) decimal.Decimal { return o.EffectiveHourly() }

// result returns the offers sorted by ID.
func (b *builder) result() *importer.Result {
	res := &importer.Result{Source: sourceName, Skipped: b.skipped}
	for _, q := range b.quotes {
		res.Offers = append(res.Offers, q.offer)
	}
	sort.Slice(res.Offers, func(x, y int) bool { return res.Offers[x].ID() < res.Offers[y].ID() })
	return res
}
