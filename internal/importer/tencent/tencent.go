// Package tencent imports Tencent Cloud CVM instance prices from the CVM
// API (version 2017-03-12), signed with TC3-HMAC-SHA256.
//
// Two actions give prices:
//
//   - DescribeZoneInstanceConfigInfos lists every instance type of a zone
//     with its price for one charge type (InstanceTypeQuotaSet[].Price):
//     POSTPAID_BY_HOUR → on-demand and SPOTPAID → spot, an hourly price
//     per instance. An offer is per region: the lowest price across the
//     region's zones that sell the type (Status SELL). PREPAID rows are
//     skipped: they do not say which period they price.
//   - InquiryPriceRunInstances prices one instance type in one zone:
//     POSTPAID_BY_HOUR → on-demand (Price.InstancePrice.UnitPrice, per
//     hour), PREPAID with Period 1 → subscription-1m (OriginalPrice for
//     the month, as Monthly), PREPAID with Period 12 → subscription-1y
//     (OriginalPrice for the year, as Upfront), Period 36 →
//     subscription-3y (as Upfront), SPOTPAID → spot.
//
// # Which figure
//
// An ItemPrice carries list prices (UnitPrice, OriginalPrice) and
// discounted ones (UnitPriceDiscount, DiscountPrice, with Discount the
// percentage paid). Discounts depend on the account and on promotions, so
// on-demand and subscription offers use the list price. Spot is the
// exception: a spot price is itself a discount on the pay-as-you-go price,
// so spot offers use UnitPriceDiscount when present, else UnitPrice (this
// reading of the SPOTPAID answer is not confirmed by a documented sample).
// Pay-as-you-go prices can be tiered (三级阶梯价): UnitPrice is the first
// step, UnitPriceSecondStep and UnitPriceThirdStep apply after longer
// use; the offer's Hourly is the first step and the steps are listed in
// Notes. An hourly price needs ChargeUnit HOUR; anything else is skipped.
// BandwidthPrice (network) is not part of an instance offer.
//
// # Currency
//
// Tencent's price structures carry no currency. The China-site endpoint
// (cvm.tencentcloudapi.com) bills CNY, the international one
// (cvm.intl.tencentcloudapi.com) USD. The currency of an offer is, in
// order: the bundle entry's "currency", Importer.Currency, USD when
// Importer.Endpoint's host contains ".intl.", else CNY.
//
// # Bundle format (Parse)
//
// Parse reads a "bundle" of recorded responses, a JSON array of entries:
//
//	[
//	  {"action": "InquiryPriceRunInstances", "region": "ap-guangzhou",
//	   "instanceType": "GN7.2XLARGE32", "chargeType": "POSTPAID_BY_HOUR",
//	   "period": 1, "currency": "CNY", "fetchedAt": "2025-01-02T03:04:05Z",
//	   "response": {"Response": {"Price": {...}, "RequestId": "..."}}},
//	  {"action": "DescribeZoneInstanceConfigInfos", "region": "ap-guangzhou",
//	   "response": {"Response": {"InstanceTypeQuotaSet": [...]}}}
//	]
//
// chargeType and period are those of the request (period only for
// PREPAID); currency and fetchedAt (RFC 3339, default the importer's
// clock) are optional; region may be left out of a
// DescribeZoneInstanceConfigInfos entry, whose zones name it. A response
// holding {"Response": {"Error": {...}}} is counted as skipped, as are
// entries of other actions.
package tencent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/gpuscout/gpuscout/internal/importer/jsonmoney"
)

const (
	sourceName = "tencent"
	provider   = "tencent"

	// ActionInquiryPriceRunInstances prices one instance type in one zone.
	ActionInquiryPriceRunInstances = "InquiryPriceRunInstances"
	// ActionDescribeZoneInstanceConfigInfos lists a zone's instance types
	// with prices.
	ActionDescribeZoneInstanceConfigInfos = "DescribeZoneInstanceConfigInfos"

	// Charge types (InstanceChargeType).
	ChargePostpaidByHour = "POSTPAID_BY_HOUR"
	ChargePrepaid        = "PREPAID"
	ChargeSpotpaid       = "SPOTPAID"

	// EnvSecretID is the environment variable the caller reads the
	// SecretId from.
	EnvSecretID = "TENCENTCLOUD_SECRET_ID"
	// EnvSecretKey is the environment variable the caller reads the
	// SecretKey from.
	EnvSecretKey = "TENCENTCLOUD_SECRET_KEY"
)

// Importer imports Tencent Cloud CVM prices. The zero value parses
// bundles; Fetch needs Regions and the SecretId/SecretKey pair.
type Importer struct {
	// Endpoint is the API URL. Default DefaultEndpoint (China site);
	// https://cvm.intl.tencentcloudapi.com/ is the international site.
	Endpoint string
	// Regions are the regions to price (ap-guangzhou, ap-shanghai ...).
	Regions []string
	// InstanceTypes limits Fetch to these types (GN7.2XLARGE32); empty
	// means every type the zones list. Subscriptions are asked for only
	// for listed types.
	InstanceTypes []string
	// Families limits Fetch to these instance families (GN7, GT4 ...).
	Families []string
	// ImageID is the image InquiryPriceRunInstances needs (it requires
	// ImageId) to price subscriptions; without it subscriptions are not
	// fetched.
	ImageID string
	// Billings limits what Fetch asks for; empty means on-demand, spot,
	// subscription-1m and subscription-1y.
	Billings []catalog.Billing
	// SecretID and SecretKey sign requests. The caller fills them (from
	// EnvSecretID and EnvSecretKey); they never appear in errors.
	SecretID  string
	SecretKey string
	// Currency overrides the currency decided from the endpoint (see the
	// package documentation).
	Currency string
	// Now is the clock (X-TC-Timestamp, fetch times). Default time.Now.
	// TC3-HMAC-SHA256 uses no nonce, so the clock alone fixes a signature.
	Now func() time.Time
	// Attempts is how many times a request is tried on network errors,
	// throttling and 5xx answers. Default 3.
	Attempts int
	// RetryWait is the first wait between attempts; it doubles each time.
	// Default 500ms.
	RetryWait time.Duration
}

// Name returns the source name, "tencent".
func (i *Importer) Name() string { return sourceName }

func (i *Importer) now() time.Time {
	if i.Now != nil {
		return i.Now()
	}
	return time.Now()
}

// currency is the currency of prices without one (see the package doc).
func (i *Importer) currency() string {
	if i.Currency != "" {
		return i.Currency
	}
	if i.Endpoint != "" {
		if u, err := url.Parse(i.Endpoint); err == nil && strings.Contains(u.Hostname(), ".intl.") {
			return "USD"
		}
	}
	return "CNY"
}

// entry is one recorded response of a bundle.
type entry struct {
	Action       string          `json:"action"`
	Region       string          `json:"region"`
	InstanceType string          `json:"instanceType"`
	ChargeType   string          `json:"chargeType"`
	Period       int             `json:"period"`
	Currency     string          `json:"currency"`
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

// itemPrice is Tencent's ItemPrice.
type itemPrice struct {
	UnitPrice                   jsonmoney.Money `json:"UnitPrice"`
	UnitPriceDiscount           jsonmoney.Money `json:"UnitPriceDiscount"`
	UnitPriceSecondStep         jsonmoney.Money `json:"UnitPriceSecondStep"`
	UnitPriceThirdStep          jsonmoney.Money `json:"UnitPriceThirdStep"`
	UnitPriceDiscountSecondStep jsonmoney.Money `json:"UnitPriceDiscountSecondStep"`
	UnitPriceDiscountThirdStep  jsonmoney.Money `json:"UnitPriceDiscountThirdStep"`
	OriginalPrice               jsonmoney.Money `json:"OriginalPrice"`
	DiscountPrice               jsonmoney.Money `json:"DiscountPrice"`
	Discount                    jsonmoney.Money `json:"Discount"`
	ChargeUnit                  string          `json:"ChargeUnit"`
}

// apiError is Response.Error.
type apiError struct {
	Code    string `json:"Code"`
	Message string `json:"Message"`
}

type inquiryResponse struct {
	Response *struct {
		Error     *apiError `json:"Error"`
		RequestID string    `json:"RequestId"`
		Price     *struct {
			InstancePrice  *itemPrice `json:"InstancePrice"`
			BandwidthPrice *itemPrice `json:"BandwidthPrice"`
		} `json:"Price"`
	} `json:"Response"`
}

type zoneResponse struct {
	Response *struct {
		Error                *apiError  `json:"Error"`
		RequestID            string     `json:"RequestId"`
		InstanceTypeQuotaSet []quotaRow `json:"InstanceTypeQuotaSet"`
	} `json:"Response"`
}

type quotaRow struct {
	Zone               string     `json:"Zone"`
	InstanceType       string     `json:"InstanceType"`
	InstanceChargeType string     `json:"InstanceChargeType"`
	Status             string     `json:"Status"`
	Price              *itemPrice `json:"Price"`
}

// builder turns entries into offers.
type builder struct {
	i      *Importer
	offers map[string]*catalog.Offer
	// priced holds each offer ID and zone priced so far ("" for a
	// region-level price): a second price for the same one is a
	// duplicate, skipped and counted, never a lower price that wins.
	priced  map[[2]string]bool
	skipped importer.Skips
}

func (i *Importer) newBuilder() *builder {
	return &builder{i: i, offers: map[string]*catalog.Offer{}, priced: map[[2]string]bool{}}
}

func (b *builder) count() int { return len(b.offers) }

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
	if len(e.Response) == 0 || string(e.Response) == "null" {
		return parseErr(off, field+".response", errors.New("missing"))
	}
	cur := e.Currency
	if cur == "" {
		cur = b.i.currency()
	}
	switch e.Action {
	case ActionInquiryPriceRunInstances:
		return b.addInquiry(off, field, e, cur, fetched)
	case ActionDescribeZoneInstanceConfigInfos:
		return b.addZone(off, field, e, cur, fetched)
	default:
		b.skipped.Add("unsupported action", e.Action)
		return nil
	}
}

// hourly returns the hourly list price of a pay-as-you-go ItemPrice and a
// note on its tiers, or ok false (with a skip reason) when it has none.
func hourly(p *itemPrice) (price decimal.Decimal, notes, skip string, field string, err error) {
	if !strings.EqualFold(p.ChargeUnit, "HOUR") {
		return decimal.Zero, "", "charge unit " + quoteUnit(p.ChargeUnit) + " is not HOUR", "", nil
	}
	if !p.UnitPrice.Set {
		return decimal.Zero, "", "", "UnitPrice", errors.New("missing")
	}
	if p.UnitPrice.D.IsNegative() {
		return decimal.Zero, "", "", "UnitPrice", fmt.Errorf("negative price %s", p.UnitPrice.D)
	}
	notes = "list price (UnitPrice)"
	if s2, s3 := p.UnitPriceSecondStep, p.UnitPriceThirdStep; (s2.Set && !s2.D.Equal(p.UnitPrice.D)) || (s3.Set && !s3.D.Equal(p.UnitPrice.D)) {
		notes = fmt.Sprintf("tiered pay-as-you-go price: %s/h first step", p.UnitPrice.D)
		if s2.Set {
			notes += fmt.Sprintf(", %s/h second step", s2.D)
		}
		if s3.Set {
			notes += fmt.Sprintf(", %s/h third step", s3.D)
		}
	}
	return p.UnitPrice.D, notes, "", "", nil
}

// spotHourly returns the spot price of a SPOTPAID ItemPrice.
func spotHourly(p *itemPrice) (price decimal.Decimal, skip, field string, err error) {
	if !strings.EqualFold(p.ChargeUnit, "HOUR") {
		return decimal.Zero, "charge unit " + quoteUnit(p.ChargeUnit) + " is not HOUR", "", nil
	}
	m, f := p.UnitPriceDiscount, "UnitPriceDiscount"
	if !m.Set {
		m, f = p.UnitPrice, "UnitPrice"
	}
	if !m.Set {
		return decimal.Zero, "", "UnitPrice", errors.New("missing")
	}
	if m.D.IsNegative() {
		return decimal.Zero, "", f, fmt.Errorf("negative price %s", m.D)
	}
	return m.D, "", "", nil
}

func quoteUnit(u string) string {
	if u == "" {
		return "(none)"
	}
	return fmt.Sprintf("%q", u)
}

func (b *builder) addInquiry(off int64, field string, e entry, cur string, fetched time.Time) error {
	if e.Region == "" {
		return parseErr(off, field+".region", errors.New("missing"))
	}
	if e.InstanceType == "" {
		return parseErr(off, field+".instanceType", errors.New("missing"))
	}
	var resp inquiryResponse
	if err := importer.UnmarshalStrict(e.Response, &resp); err != nil {
		return decodeErr(off, field+".response", err)
	}
	if resp.Response == nil {
		return parseErr(off, field+".response.Response", errors.New("missing"))
	}
	ex := e.Region + " " + e.InstanceType
	if resp.Response.Error != nil {
		b.skipped.Add("API error "+resp.Response.Error.Code, ex)
		return nil
	}
	if resp.Response.Price == nil || resp.Response.Price.InstancePrice == nil {
		return parseErr(off, field+".response.Response.Price.InstancePrice", errors.New("missing"))
	}
	ip := resp.Response.Price.InstancePrice
	pf := field + ".response.Response.Price.InstancePrice."
	o := &catalog.Offer{
		Provider:     provider,
		InstanceName: e.InstanceType,
		RegionCode:   e.Region,
		Price:        catalog.Price{Currency: cur},
		Source:       importer.Source(catalog.SourceOfficialAPI, ActionInquiryPriceRunInstances+" "+e.Region+" "+e.InstanceType, fetched, fetched),
	}
	switch strings.ToUpper(e.ChargeType) {
	case ChargePostpaidByHour, "":
		// POSTPAID_BY_HOUR is the API's default charge type.
		price, notes, skip, f, err := hourly(ip)
		if err != nil {
			return parseErr(off, pf+f, err)
		}
		if skip != "" {
			b.skipped.Add(skip, ex)
			return nil
		}
		o.Billing, o.Price.Hourly, o.Notes = catalog.OnDemand, price, notes
	case ChargeSpotpaid:
		price, skip, f, err := spotHourly(ip)
		if err != nil {
			return parseErr(off, pf+f, err)
		}
		if skip != "" {
			b.skipped.Add(skip, ex)
			return nil
		}
		o.Billing, o.Price.Hourly = catalog.Spot, price
	case ChargePrepaid:
		period := e.Period
		if period == 0 {
			period = 1
		}
		billing, monthly, ok := prepaidBilling(period)
		if !ok {
			b.skipped.Add(fmt.Sprintf("unsupported prepaid period %d", period), ex)
			return nil
		}
		if !ip.OriginalPrice.Set {
			return parseErr(off, pf+"OriginalPrice", errors.New("missing"))
		}
		if ip.OriginalPrice.D.IsNegative() {
			return parseErr(off, pf+"OriginalPrice", fmt.Errorf("negative price %s", ip.OriginalPrice.D))
		}
		o.Notes = "list price (OriginalPrice)"
		if o.Billing = billing; monthly {
			o.Price.Monthly = ip.OriginalPrice.D
		} else {
			o.Price.Upfront = ip.OriginalPrice.D
		}
	default:
		b.skipped.Add("unsupported charge type "+e.ChargeType, ex)
		return nil
	}
	if o.EffectiveHourly().IsZero() {
		b.skipped.Add("zero price", ex)
		return nil
	}
	b.put(o, "")
	return nil
}

// regionOfZone strips the zone number: ap-guangzhou-3 → ap-guangzhou.
func regionOfZone(zone string) string {
	if k := strings.LastIndexByte(zone, '-'); k > 0 {
		return zone[:k]
	}
	return zone
}

func (b *builder) addZone(off int64, field string, e entry, cur string, fetched time.Time) error {
	var resp zoneResponse
	if err := importer.UnmarshalStrict(e.Response, &resp); err != nil {
		return decodeErr(off, field+".response", err)
	}
	if resp.Response == nil {
		return parseErr(off, field+".response.Response", errors.New("missing"))
	}
	if resp.Response.Error != nil {
		b.skipped.Add("API error "+resp.Response.Error.Code, e.Region)
		return nil
	}
	for k, row := range resp.Response.InstanceTypeQuotaSet {
		rf := fmt.Sprintf("%s.response.Response.InstanceTypeQuotaSet[%d]", field, k)
		if row.InstanceType == "" {
			return parseErr(off, rf+".InstanceType", errors.New("missing"))
		}
		if row.Zone == "" {
			return parseErr(off, rf+".Zone", errors.New("missing"))
		}
		region := e.Region
		if region == "" {
			region = regionOfZone(row.Zone)
		}
		ex := row.Zone + " " + row.InstanceType
		if e.InstanceType != "" && row.InstanceType != e.InstanceType {
			b.skipped.Add("row for another instance type", ex)
			continue
		}
		if row.Status != "" && !strings.EqualFold(row.Status, "SELL") {
			b.skipped.Add("not on sale in zone ("+row.Status+")", ex)
			continue
		}
		if row.Price == nil {
			return parseErr(off, rf+".Price", errors.New("missing"))
		}
		o := &catalog.Offer{
			Provider:     provider,
			InstanceName: row.InstanceType,
			RegionCode:   region,
			Price:        catalog.Price{Currency: cur},
			Source:       importer.Source(catalog.SourceOfficialAPI, ActionDescribeZoneInstanceConfigInfos+" "+region+" "+row.InstanceType, fetched, fetched),
		}
		switch strings.ToUpper(row.InstanceChargeType) {
		case ChargePostpaidByHour:
			price, notes, skip, f, err := hourly(row.Price)
			if err != nil {
				return parseErr(off, rf+".Price."+f, err)
			}
			if skip != "" {
				b.skipped.Add(skip, ex)
				continue
			}
			o.Billing, o.Price.Hourly, o.Notes = catalog.OnDemand, price, notes
		case ChargeSpotpaid:
			price, skip, f, err := spotHourly(row.Price)
			if err != nil {
				return parseErr(off, rf+".Price."+f, err)
			}
			if skip != "" {
				b.skipped.Add(skip, ex)
				continue
			}
			o.Billing, o.Price.Hourly = catalog.Spot, price
		default:
			b.skipped.Add("unsupported charge type "+quoteUnit(row.InstanceChargeType)+" in zone listing", ex)
			continue
		}
		if o.Price.Hourly.IsZero() {
			b.skipped.Add("zero price", ex)
			continue
		}
		if o.Notes != "" {
			o.Notes += "; "
		}
		o.Notes += "lowest across zones (here " + row.Zone + ")"
		b.put(o, row.Zone)
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

func (b *builder) result() *importer.Result {
	res := &importer.Result{Source: sourceName, Skipped: b.skipped}
	for _, o := range b.offers {
		res.Offers = append(res.Offers, o)
	}
	sort.Slice(res.Offers, func(x, y int) bool { return res.Offers[x].ID() < res.Offers[y].ID() })
	return res
}
