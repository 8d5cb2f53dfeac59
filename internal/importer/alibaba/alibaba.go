// Package alibaba imports Alibaba Cloud ECS instance prices from the ECS
// OpenAPI (RPC style, version 2014-05-26). Alibaba publishes no official
// bulk price list; every price is one signed query, so the importer asks
// for each configured (region, instance type) pair:
//
//   - DescribePrice with PriceUnit=Hour (pay-as-you-go) → on-demand, an
//     hourly price per instance;
//   - DescribePrice with PriceUnit=Month, Period=1 (subscription, 包月) →
//     subscription-1m, a monthly price;
//   - DescribePrice with PriceUnit=Year, Period=1 (包年) → subscription-1y,
//     the price of the year as an upfront amount;
//   - DescribeSpotPriceHistory (VPC, Linux, I/O optimised) → spot: the
//     latest price in each zone, and of those the lowest across the
//     region's zones (an offer is per region, and a buyer can pick the
//     zone).
//
// # Which DescribePrice figure
//
// PriceInfo.Price carries OriginalPrice, DiscountPrice and TradePrice.
// TradePrice is OriginalPrice less discounts, and those discounts include
// the calling account's own (negotiated or promotional) ones, so two
// accounts see different TradePrices. The catalog wants the public list
// price, so the importer uses OriginalPrice; where the response itemises
// the order (PriceInfo.Price.DetailInfos.DetailInfo[]) it takes the
// OriginalPrice of the instanceType item, leaving out disks and
// bandwidth. Promotions the response lists under PriceInfo.Rules (for
// example a discount for paying a year) are not applied; their
// descriptions are kept in the offer's Notes.
//
// The currency is the one the response names (Price.Currency for
// DescribePrice, the top-level Currency for DescribeSpotPriceHistory):
// CNY on the China site, USD on the international site. When a response
// names none, Importer.Currency is used (default CNY).
//
// # Bundle format (Parse)
//
// Parse reads a "bundle": recorded responses with the request that
// produced them, so that prices can be imported offline. A bundle is a
// JSON array of entries:
//
//	[
//	  {"action": "DescribePrice", "region": "cn-hangzhou",
//	   "instanceType": "ecs.gn7i-c8g1.2xlarge", "priceUnit": "Hour",
//	   "period": 1, "fetchedAt": "2025-01-02T03:04:05Z",
//	   "response": {"RequestId": "...", "PriceInfo": {...}}},
//	  {"action": "DescribeSpotPriceHistory", "region": "cn-hangzhou",
//	   "response": {"SpotPrices": {"SpotPriceType": [...]}, "Currency": "CNY"}}
//	]
//
// priceUnit is Hour, Month or Year (as sent in the request); period
// defaults to 1 and only 1 is imported; fetchedAt (RFC 3339) is optional
// and defaults to the importer's clock; instanceType is optional for
// DescribeSpotPriceHistory, whose rows name their instance type (when
// given, rows of other types are ignored). A response that is an API
// error ({"Code": "...", "Message": "..."}) is counted as skipped.
package alibaba

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
	sourceName = "alibaba"
	provider   = "alibaba"

	// ActionDescribePrice is the ECS price inquiry action.
	ActionDescribePrice = "DescribePrice"
	// ActionDescribeSpotPriceHistory is the ECS spot price history action.
	ActionDescribeSpotPriceHistory = "DescribeSpotPriceHistory"

	// EnvAccessKeyID is the environment variable the caller reads the
	// AccessKey ID from.
	EnvAccessKeyID = "ALIBABA_CLOUD_ACCESS_KEY_ID"
	// EnvAccessKeySecret is the environment variable the caller reads the
	// AccessKey secret from.
	EnvAccessKeySecret = "ALIBABA_CLOUD_ACCESS_KEY_SECRET"
)

// Importer imports Alibaba Cloud ECS prices. The zero value parses
// bundles; Fetch needs Regions, InstanceTypes and the AccessKey pair.
type Importer struct {
	// Endpoint is the API base URL. "{region}" in it is replaced by the
	// region ID. Default DefaultEndpoint.
	Endpoint string
	// Regions are the region IDs to price (cn-hangzhou, cn-beijing ...).
	Regions []string
	// InstanceTypes are the instance types to price, with the "ecs."
	// prefix (ecs.gn7i-c8g1.2xlarge).
	InstanceTypes []string
	// Billings limits what Fetch asks for; empty means on-demand,
	// subscription-1m, subscription-1y and spot.
	Billings []catalog.Billing
	// AccessKeyID and AccessKeySecret sign requests. The caller fills them
	// (from EnvAccessKeyID and EnvAccessKeySecret); they never appear in
	// errors.
	AccessKeyID     string
	AccessKeySecret string
	// Currency is used when a response names no currency. Default CNY.
	Currency string
	// Now is the clock (signature timestamps, fetch times). Default
	// time.Now.
	Now func() time.Time
	// Nonce returns a fresh SignatureNonce per request. Default: 16
	// random bytes, hex encoded.
	Nonce func() string
	// Attempts is how many times a request is tried on network errors,
	// throttling and 5xx answers. Default 3.
	Attempts int
	// RetryWait is the first wait between attempts; it doubles each time.
	// Default 500ms.
	RetryWait time.Duration
}

// Name returns the source name, "alibaba".
func (i *Importer) Name() string { return sourceName }

// entry is one recorded response of a bundle.
type entry struct {
	Action       string          `json:"action"`
	Region       string          `json:"region"`
	InstanceType string          `json:"instanceType"`
	PriceUnit    string          `json:"priceUnit"`
	Period       int             `json:"period"`
	FetchedAt    string          `json:"fetchedAt"`
	Response     json.RawMessage `json:"response"`
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

// priceResponse is a DescribePrice response (or an API error).
type priceResponse struct {
	RequestID string `json:"RequestId"`
	Code      string `json:"Code"`
	Message   string `json:"Message"`
	PriceInfo *struct {
		Price *struct {
			OriginalPrice jsonmoney.Money `json:"OriginalPrice"`
			DiscountPrice jsonmoney.Money `json:"DiscountPrice"`
			TradePrice    jsonmoney.Money `json:"TradePrice"`
			Currency      string          `json:"Currency"`
			DetailInfos   struct {
				DetailInfo []struct {
					Resource      string          `json:"Resource"`
					OriginalPrice jsonmoney.Money `json:"OriginalPrice"`
				} `json:"DetailInfo"`
			} `json:"DetailInfos"`
		} `json:"Price"`
		Rules struct {
			Rule []struct {
				Description string `json:"Description"`
			} `json:"Rule"`
		} `json:"Rules"`
	} `json:"PriceInfo"`
}

// spotResponse is a DescribeSpotPriceHistory response (or an API error).
type spotResponse struct {
	RequestID  string      `json:"RequestId"`
	Code       string      `json:"Code"`
	Message    string      `json:"Message"`
	Currency   string      `json:"Currency"`
	NextOffset json.Number `json:"NextOffset"`
	SpotPrices *struct {
		SpotPriceType []spotRow `json:"SpotPriceType"`
	} `json:"SpotPrices"`
}

type spotRow struct {
	ZoneID       string          `json:"ZoneId"`
	InstanceType string          `json:"InstanceType"`
	IoOptimized  string          `json:"IoOptimized"`
	Timestamp    string          `json:"Timestamp"`
	NetworkType  string          `json:"NetworkType"`
	SpotPrice    jsonmoney.Money `json:"SpotPrice"`
	OriginPrice  jsonmoney.Money `json:"OriginPrice"`
}

// spotQuote is the latest spot price seen in one zone.
type spotQuote struct {
	at       time.Time
	price    decimal.Decimal
	currency string
	fetched  time.Time
}

// builder turns entries into offers.
type builder struct {
	i      *Importer
	offers map[string]*catalog.Offer
	// priced holds each offer ID and zone priced so far ("" for a
	// region-level price): a second price for the same one is a
	// duplicate, skipped and counted, never a lower price that wins.
	priced  map[[2]string]bool
	spot    map[[3]string]spotQuote // region, instance type, zone
	skipped importer.Skips
}

func (i *Importer) newBuilder() *builder {
	return &builder{i: i, offers: map[string]*catalog.Offer{}, priced: map[[2]string]bool{}, spot: map[[3]string]spotQuote{}}
}

func (b *builder) count() int { return len(b.offers) }

func (i *Importer) now() time.Time {
	if i.Now != nil {
		return i.Now()
	}
	return time.Now()
}

func (i *Importer) fallbackCurrency() string {
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
	if e.Region == "" {
		return parseErr(off, field+".region", errors.New("missing"))
	}
	if len(e.Response) == 0 || string(e.Response) == "null" {
		return parseErr(off, field+".response", errors.New("missing"))
	}
	switch e.Action {
	case ActionDescribePrice:
		return b.addPrice(off, field, e, fetched)
	case ActionDescribeSpotPriceHistory:
		return b.addSpot(off, field, e, fetched)
	default:
		b.skipped.Add("unsupported action", e.Action)
		return nil
	}
}

func (b *builder) addPrice(off int64, field string, e entry, fetched time.Time) error {
	if e.InstanceType == "" {
		return parseErr(off, field+".instanceType", errors.New("missing"))
	}
	var resp priceResponse
	if err := importer.UnmarshalStrict(e.Response, &resp); err != nil {
		return decodeErr(off, field+".response", err)
	}
	if resp.Code != "" {
		b.skipped.Add("API error "+resp.Code, e.Region+" "+e.InstanceType)
		return nil
	}
	billing, ok := termBilling(e.PriceUnit, e.Period)
	if !ok {
		b.skipped.Add(fmt.Sprintf("unsupported price unit or period %d %s", e.Period, e.PriceUnit), e.Region+" "+e.InstanceType)
		return nil
	}
	if resp.PriceInfo == nil || resp.PriceInfo.Price == nil {
		return parseErr(off, field+".response.PriceInfo.Price", errors.New("missing"))
	}
	pr := resp.PriceInfo.Price
	// List price: the instance item's OriginalPrice when the order is
	// itemised, else the order's OriginalPrice (see the package doc).
	amount, fieldName := pr.OriginalPrice, "PriceInfo.Price.OriginalPrice"
	for _, d := range pr.DetailInfos.DetailInfo {
		if strings.EqualFold(d.Resource, "instanceType") && d.OriginalPrice.Set {
			amount, fieldName = d.OriginalPrice, "PriceInfo.Price.DetailInfos.DetailInfo.OriginalPrice"
			break
		}
	}
	if !amount.Set {
		return parseErr(off, field+".response."+fieldName, errors.New("missing"))
	}
	if amount.D.IsNegative() {
		return parseErr(off, field+".response."+fieldName, fmt.Errorf("negative price %s", amount.D))
	}
	if amount.D.IsZero() {
		b.skipped.Add("zero price", e.Region+" "+e.InstanceType)
		return nil
	}
	cur := pr.Currency
	if cur == "" {
		cur = b.i.fallbackCurrency()
	}
	price := catalog.Price{Currency: cur}
	switch billing {
	case catalog.OnDemand:
		price.Hourly = amount.D
	case catalog.Subscription1m:
		price.Monthly = amount.D
	case catalog.Subscription1y, catalog.Subscription3y:
		price.Upfront = amount.D
	}
	var rules []string
	for _, r := range resp.PriceInfo.Rules.Rule {
		if d := strings.TrimSpace(r.Description); d != "" {
			rules = append(rules, d)
		}
	}
	notes := "list price (OriginalPrice)"
	if len(rules) > 0 {
		notes += "; promotions not applied: " + strings.Join(rules, "; ")
	}
	b.put(&catalog.Offer{
		Provider:     provider,
		InstanceName: e.InstanceType,
		RegionCode:   e.Region,
		Billing:      billing,
		Price:        price,
		Notes:        notes,
		Source:       importer.Source(catalog.SourceOfficialAPI, ActionDescribePrice+" "+e.Region+" "+e.InstanceType, fetched, fetched),
	}, "")
	return nil
}

func (b *builder) addSpot(off int64, field string, e entry, fetched time.Time) error {
	var resp spotResponse
	if err := importer.UnmarshalStrict(e.Response, &resp); err != nil {
		return decodeErr(off, field+".response", err)
	}
	if resp.Code != "" {
		ex := e.Region
		if e.InstanceType != "" {
			ex += " " + e.InstanceType
		}
		b.skipped.Add("API error "+resp.Code, ex)
		return nil
	}
	if resp.SpotPrices == nil {
		return parseErr(off, field+".response.SpotPrices", errors.New("missing"))
	}
	cur := resp.Currency
	if cur == "" {
		cur = b.i.fallbackCurrency()
	}
	for k, row := range resp.SpotPrices.SpotPriceType {
		rf := fmt.Sprintf("%s.response.SpotPrices.SpotPriceType[%d]", field, k)
		it := row.InstanceType
		if it == "" {
			it = e.InstanceType
		}
		if it == "" {
			return parseErr(off, rf+".InstanceType", errors.New("missing"))
		}
		if e.InstanceType != "" && it != e.InstanceType {
			b.skipped.Add("spot row for another instance type", it)
			continue
		}
		if row.NetworkType != "" && !strings.EqualFold(row.NetworkType, "vpc") {
			b.skipped.Add("spot row for classic network", e.Region+" "+it)
			continue
		}
		if row.ZoneID == "" {
			return parseErr(off, rf+".ZoneId", errors.New("missing"))
		}
		at, err := time.Parse(time.RFC3339, row.Timestamp)
		if err != nil {
			return parseErr(off, rf+".Timestamp", fmt.Errorf("%q is not an RFC 3339 time", row.Timestamp))
		}
		if !row.SpotPrice.Set {
			return parseErr(off, rf+".SpotPrice", errors.New("missing"))
		}
		if row.SpotPrice.D.IsNegative() {
			return parseErr(off, rf+".SpotPrice", fmt.Errorf("negative price %s", row.SpotPrice.D))
		}
		key := [3]string{e.Region, it, row.ZoneID}
		if old, ok := b.spot[key]; ok && !at.After(old.at) {
			continue
		}
		b.spot[key] = spotQuote{at: at, price: row.SpotPrice.D, currency: cur, fetched: fetched}
	}
	return nil
}

// put keeps the lowest price per offer ID across zones (zone is "" for a
// region-level price); a second price for the same offer and zone is a
// duplicate: the first is kept and the rest counted.
func (b *builder) put(o *catalog.Offer, zone string) {
	id := o.ID()
	if b.priced[[2]string{id, zone}] {
		b.skipped.Add(importer.SkipDuplicate, strings.TrimSpace(id+" "+zone))
		return
	}
	b.priced[[2]string{id, zone}] = true
	old, ok := b.offers[id]
	if !ok {
		b.offers[id] = o
		return
	}
	if old.Price.Currency != o.Price.Currency {
		b.skipped.Add("conflicting currency", id)
		return
	}
	if o.EffectiveHourly().LessThan(old.EffectiveHourly()) {
		b.offers[id] = o
	}
}

// result finishes spot offers and returns the offers sorted by ID.
func (b *builder) result() *importer.Result {
	keys := make([][3]string, 0, len(b.spot))
	for k := range b.spot {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(x, y int) bool {
		for n := 0; n < 3; n++ {
			if keys[x][n] != keys[y][n] {
				return keys[x][n] < keys[y][n]
			}
		}
		return false
	})
	for _, k := range keys {
		q := b.spot[k]
		if q.price.IsZero() {
			b.skipped.Add("zero spot price", k[0]+" "+k[1]+" "+k[2])
			continue
		}
		b.put(&catalog.Offer{
			Provider:     provider,
			InstanceName: k[1],
			RegionCode:   k[0],
			Billing:      catalog.Spot,
			Price:        catalog.Price{Hourly: q.price, Currency: q.currency},
			Notes:        "latest spot price, lowest across zones (here " + k[2] + ")",
			Source:       importer.Source(catalog.SourceOfficialAPI, ActionDescribeSpotPriceHistory+" "+k[0]+" "+k[1], q.fetched, q.fetched),
		}, k[2])
	}
	res := &importer.Result{Source: sourceName, Skipped: b.skipped}
	for _, o := range b.offers {
		res.Offers = append(res.Offers, o)
	}
	sort.Slice(res.Offers, func(x, y int) bool { return res.Offers[x].ID() < res.Offers[y].ID() })
	return res
}
