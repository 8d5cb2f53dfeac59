// Package huawei imports Huawei Cloud ECS GPU prices from the price
// inquiry APIs of Huawei Cloud's Business Support System (BSS, 客户运营能力
// API). Huawei publishes no price file; every price is one signed request,
// so the importer asks, for each configured region:
//
//   - IAM KeystoneListProjects (GET /v3/projects?name=REGION) for the
//     region's project ID, as the official SDKs do;
//   - ECS ListFlavors (GET /v1/{project_id}/cloudservers/flavors) for the
//     flavors sold there, keeping the GPU-accelerated ones
//     (os_extra_specs "ecs:performancetype" = "gpu", GPU加速型);
//   - for each GPU flavor the catalog knows, BSS ListOnDemandResourceRatings
//     (POST /v2/bills/ratings/on-demand-resources, one hour of the flavor's
//     Linux spec, usage_measure_id 4 = hour) → on-demand (按需计费), and BSS
//     ListRateOnPeriodDetail (POST
//     /v2/bills/ratings/period-resources/subscribe-rate) with period_type 2
//     (month) × 1 → subscription-1m (包月) and period_type 3 (year) × 1 →
//     subscription-1y (包年, the year's price as an upfront amount).
//
// GPU flavors the catalog does not know are skipped and counted, so are
// withdrawn ones (cond:operation:status "abandon"). Huawei's spot
// instances (竞价计费) have no price-inquiry API in BSS, so no spot offers
// are imported.
//
// # Which figure
//
// Each answer carries the official website price (official_website_amount,
// 官网价) and the amount after the calling account's own discounts
// (amount). The catalog wants the public list price, so the importer uses
// official_website_amount: of the product rating result when present,
// else of the whole answer. measure_id gives its unit: 1 yuan (元, or the
// answer's currency unit), 2 jiao (0.1), 3 fen (0.01); others are skipped.
// The currency is the answer's currency (CNY on the China site, USD on
// the international one), else Importer.Currency (default CNY).
//
// # Bundle format (Parse)
//
// Parse reads recorded answers with the request that produced them:
//
//	[
//	  {"action": "ListOnDemandResourceRatings", "region": "cn-north-4",
//	   "flavor": "p2s.2xlarge.8", "fetchedAt": "2026-12-01T03:04:05Z",
//	   "response": {"currency": "CNY", "product_rating_results": [...]}},
//	  {"action": "ListRateOnPeriodDetail", "region": "cn-north-4",
//	   "flavor": "p2s.2xlarge.8", "periodType": 2, "periodNum": 1,
//	   "response": {"currency": "CNY", "official_website_rating_result": {...}}}
//	]
//
// periodType is BSS's (2 month, 3 year) and periodNum its count: month ×
// 1 → subscription-1m, year × 1 or month × 12 → subscription-1y, year × 3
// or month × 36 → subscription-3y; other periods are skipped and counted.
// fetchedAt (RFC 3339) defaults to the importer's clock. An answer that is
// an API error ({"error_code": ..., "error_msg": ...}) is counted as
// skipped.
package huawei

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
	sourceName = "huawei"
	provider   = "huawei"

	// ActionOnDemand is BSS's pay-per-use price inquiry.
	ActionOnDemand = "ListOnDemandResourceRatings"
	// ActionPeriod is BSS's yearly/monthly price inquiry.
	ActionPeriod = "ListRateOnPeriodDetail"

	// EnvAccessKey is the environment variable of the AK, as Huawei's SDKs
	// and samples name it.
	EnvAccessKey = "HUAWEICLOUD_SDK_AK"
	// EnvSecretKey is the environment variable of the SK.
	EnvSecretKey = "HUAWEICLOUD_SDK_SK"

	// periodMonth and periodYear are BSS period_type values.
	periodMonth = 2
	periodYear  = 3
)

// Importer imports Huawei Cloud ECS GPU prices. The zero value parses
// bundles; Fetch needs Regions, InstanceTypes and the AK/SK pair.
type Importer struct {
	// IAMEndpoint, ECSEndpoint and BSSEndpoint are the API base URLs;
	// "{region}" is replaced by the region ID. Defaults DefaultIAMEndpoint,
	// DefaultECSEndpoint, DefaultBSSEndpoint.
	IAMEndpoint, ECSEndpoint, BSSEndpoint string
	// Regions are the region IDs to price (cn-north-4 ...).
	Regions []string
	// InstanceTypes are the flavors the catalog knows (p2s.2xlarge.8 ...);
	// GPU flavors outside it are skipped and counted.
	InstanceTypes []string
	// Billings limits what Fetch asks for; empty means on-demand,
	// subscription-1m and subscription-1y.
	Billings []catalog.Billing
	// AccessKey and SecretKey sign requests (from EnvAccessKey and
	// EnvSecretKey); they never appear in errors.
	AccessKey, SecretKey string
	// Currency is used when an answer names none. Default CNY.
	Currency string
	// Now is the clock (X-Sdk-Date, fetch times). Default time.Now.
	Now func() time.Time
	// Attempts is how many times a request is tried on network errors,
	// throttling and 5xx answers. Default 3.
	Attempts int
	// RetryWait is the first wait between attempts; it doubles each time,
	// unless a throttled answer's Retry-After asks for another wait (at
	// most httpapi.MaxRetryAfter). Default 2s (Huawei asks throttled
	// callers to wait 2 to 5 seconds).
	RetryWait time.Duration
}

// Name returns the source name, "huawei".
func (i *Importer) Name() string { return sourceName }

// LoadEnv fills the AK/SK pair from getenv where unset.
func (i *Importer) LoadEnv(getenv func(string) string) {
	if i.AccessKey == "" {
		i.AccessKey = getenv(EnvAccessKey)
	}
	if i.SecretKey == "" {
		i.SecretKey = getenv(EnvSecretKey)
	}
}

// entry is one recorded answer of a bundle.
type entry struct {
	Action     string          `json:"action"`
	Region     string          `json:"region"`
	Flavor     string          `json:"flavor"`
	PeriodType int             `json:"periodType"`
	PeriodNum  int             `json:"periodNum"`
	FetchedAt  string          `json:"fetchedAt"`
	Response   json.RawMessage `json:"response"`
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

// errorFields are the error members of an answer: BSS and the API
// gateway answer {"error_code", "error_msg"}, ECS {"error": {"code",
// "message"}}, IAM (Keystone) {"error": {"code": 401, "message", "title"}}.
type errorFields struct {
	ErrorCode string `json:"error_code"`
	ErrorMsg  string `json:"error_msg"`
	Error     *struct {
		Code    json.RawMessage `json:"code"`
		Message string          `json:"message"`
	} `json:"error"`
}

// code and message of the error an answer carries ("" when none).
func (e errorFields) codeMessage() (string, string) {
	if e.ErrorCode != "" {
		return e.ErrorCode, e.ErrorMsg
	}
	if e.Error != nil {
		c := strings.Trim(string(e.Error.Code), `"`)
		if c == "null" {
			c = ""
		}
		if c == "" && e.Error.Message != "" {
			c = "error"
		}
		return c, e.Error.Message
	}
	return "", ""
}

// rating is a product rating result of either inquiry.
type rating struct {
	ID                    string          `json:"id"`
	ProductID             string          `json:"product_id"`
	OfficialWebsiteAmount jsonmoney.Money `json:"official_website_amount"`
	MeasureID             int             `json:"measure_id"`
}

// onDemandResponse is a ListOnDemandResourceRatings answer
// (ListOnDemandResourceRatingsResponse / DemandProductRatingResult).
type onDemandResponse struct {
	errorFields
	Currency              string          `json:"currency"`
	OfficialWebsiteAmount jsonmoney.Money `json:"official_website_amount"`
	MeasureID             int             `json:"measure_id"`
	ProductRatingResults  []rating        `json:"product_rating_results"`
}

// periodResponse is a ListRateOnPeriodDetail answer
// (ListRateOnPeriodDetailResponse / OfficialWebsiteRatingResult /
// PeriodProductOfficialRatingResult).
type periodResponse struct {
	errorFields
	Currency                    string `json:"currency"`
	OfficialWebsiteRatingResult *struct {
		OfficialWebsiteAmount jsonmoney.Money `json:"official_website_amount"`
		MeasureID             int             `json:"measure_id"`
		ProductRatingResults  []rating        `json:"product_rating_results"`
	} `json:"official_website_rating_result"`
}

// periodBilling maps a BSS period (type, count) to a billing code.
func periodBilling(typ, num int) (catalog.Billing, bool) {
	if num == 0 {
		num = 1
	}
	switch {
	case typ == periodMonth && num == 1:
		return catalog.Subscription1m, true
	case typ == periodYear && num == 1, typ == periodMonth && num == 12:
		return catalog.Subscription1y, true
	case typ == periodYear && num == 3, typ == periodMonth && num == 36:
		return catalog.Subscription3y, true
	}
	return "", false
}

// builder turns entries into offers.
type builder struct {
	i       *Importer
	offers  map[string]*catalog.Offer
	skipped importer.Skips
}

func (i *Importer) newBuilder() *builder {
	return &builder{i: i, offers: map[string]*catalog.Offer{}}
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
	if e.Flavor == "" {
		return parseErr(off, field+".flavor", errors.New("missing"))
	}
	if len(e.Response) == 0 || string(e.Response) == "null" {
		return parseErr(off, field+".response", errors.New("missing"))
	}
	ex := e.Region + " " + e.Flavor
	var (
		billing  catalog.Billing
		currency string
		amount   jsonmoney.Money
		measure  int
		at       string
	)
	switch e.Action {
	case ActionOnDemand:
		var resp onDemandResponse
		if err := importer.UnmarshalStrict(e.Response, &resp); err != nil {
			return decodeErr(off, field+".response", err)
		}
		if code, _ := resp.codeMessage(); code != "" {
			b.skipped.Add("API error "+code, ex)
			return nil
		}
		billing, currency = catalog.OnDemand, resp.Currency
		amount, measure, at = resp.OfficialWebsiteAmount, resp.MeasureID, "official_website_amount"
		if r, k, ok := firstRating(resp.ProductRatingResults); ok {
			amount, measure, at = r.OfficialWebsiteAmount, r.MeasureID, fmt.Sprintf("product_rating_results[%d].official_website_amount", k)
		}
	case ActionPeriod:
		var resp periodResponse
		if err := importer.UnmarshalStrict(e.Response, &resp); err != nil {
			return decodeErr(off, field+".response", err)
		}
		if code, _ := resp.codeMessage(); code != "" {
			b.skipped.Add("API error "+code, ex)
			return nil
		}
		bl, ok := periodBilling(e.PeriodType, e.PeriodNum)
		if !ok {
			b.skipped.Add(fmt.Sprintf("unsupported period type %d × %d", e.PeriodType, e.PeriodNum), ex)
			return nil
		}
		ow := resp.OfficialWebsiteRatingResult
		if ow == nil {
			return parseErr(off, field+".response.official_website_rating_result", errors.New("missing"))
		}
		billing, currency = bl, resp.Currency
		amount, measure, at = ow.OfficialWebsiteAmount, ow.MeasureID, "official_website_rating_result.official_website_amount"
		if r, k, ok := firstRating(ow.ProductRatingResults); ok {
			amount, measure, at = r.OfficialWebsiteAmount, r.MeasureID, fmt.Sprintf("official_website_rating_result.product_rating_results[%d].official_website_amount", k)
		}
	default:
		b.skipped.Add("unsupported action", e.Action)
		return nil
	}
	if !amount.Set {
		return parseErr(off, field+".response."+at, errors.New("missing"))
	}
	if amount.D.IsNegative() {
		return parseErr(off, field+".response."+at, fmt.Errorf("negative price %s", amount.D))
	}
	v, ok := inYuan(amount.D, measure)
	if !ok {
		b.skipped.Add(fmt.Sprintf("unknown measure_id %d", measure), ex)
		return nil
	}
	if v.IsZero() {
		b.skipped.Add("zero price", ex)
		return nil
	}
	if currency == "" {
		currency = b.i.fallbackCurrency()
	}
	price := catalog.Price{Currency: currency}
	switch billing {
	case catalog.OnDemand:
		price.Hourly = v
	case catalog.Subscription1m:
		price.Monthly = v
	default:
		price.Upfront = v
	}
	b.put(&catalog.Offer{
		Provider:     provider,
		InstanceName: e.Flavor,
		RegionCode:   e.Region,
		Billing:      billing,
		Price:        price,
		Notes:        "list price (official_website_amount), Linux",
		Source:       importer.Source(catalog.SourceOfficialAPI, "BSS "+e.Action+" "+e.Region+" "+e.Flavor, fetched, fetched),
	})
	return nil
}

// firstRating is the first product rating result with a price.
func firstRating(rs []rating) (rating, int, bool) {
	for k, r := range rs {
		if r.OfficialWebsiteAmount.Set {
			return r, k, true
		}
	}
	return rating{}, 0, false
}

// inYuan converts an amount in BSS measure units to the currency's unit:
// 1 (or unset) 元, 2 角 (0.1), 3 分 (0.01).
func inYuan(d decimal.Decimal, measure int) (decimal.Decimal, bool) {
	switch measure {
	case 0, 1:
		return d, true
	case 2:
		return d.Shift(-1), true
	case 3:
		return d.Shift(-2), true
	}
	return d, false
}

// put keeps the first price of an offer; later ones are duplicates,
// skipped and counted.
func (b *builder) put(o *catalog.Offer) {
	id := o.ID()
	if _, ok := b.offers[id]; ok {
		b.skipped.Add(importer.SkipDuplicate, id)
		return
	}
	b.offers[id] = o
}

// result returns the offers sorted by ID.
func (b *builder) result() *importer.Result {
	res := &importer.Result{Source: sourceName, Skipped: b.skipped}
	for _, o := range b.offers {
		res.Offers = append(res.Offers, o)
	}
	sort.Slice(res.Offers, func(x, y int) bool { return res.Offers[x].ID() < res.Offers[y].ID() })
	return res
}
