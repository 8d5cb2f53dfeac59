package alibaba

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/gpuscout/gpuscout/internal/importer/httpapi"
)

// DefaultEndpoint is the regional ECS endpoint; {region} is replaced by
// the region ID.
const DefaultEndpoint = "https://ecs.{region}.aliyuncs.com/"

// APIVersion is the ECS API version the importer speaks.
const APIVersion = "2014-05-26"

// maxBody caps one response body.
const maxBody = 16 << 20

// spotHistoryWindow is how far back DescribeSpotPriceHistory looks.
const spotHistoryWindow = 24 * time.Hour

// maxSpotPages caps DescribeSpotPriceHistory paging per instance type.
const maxSpotPages = 20

// APIError is an error answer of the ECS API. It carries the API's code
// and message, never the credentials.
type APIError = importer.APIError

// LoadEnv fills the AccessKey pair from getenv (os.Getenv) where unset.
func (i *Importer) LoadEnv(getenv func(string) string) {
	if i.AccessKeyID == "" {
		i.AccessKeyID = getenv(EnvAccessKeyID)
	}
	if i.AccessKeySecret == "" {
		i.AccessKeySecret = getenv(EnvAccessKeySecret)
	}
}

func (i *Importer) wants(b catalog.Billing) bool {
	if len(i.Billings) == 0 {
		return b == catalog.OnDemand || b == catalog.Subscription1m || b == catalog.Subscription1y || b == catalog.Spot
	}
	for _, x := range i.Billings {
		if x == b {
			return true
		}
	}
	return false
}

func (i *Importer) nonce() string {
	if i.Nonce != nil {
		return i.Nonce()
	}
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		// crypto/rand does not fail on supported platforms; fall back to
		// the clock so that a nonce is still unique per request.
		return strconv.FormatInt(time.Now().UnixNano(), 16)
	}
	return hex.EncodeToString(b[:])
}

// Fetch asks the ECS API for the prices of every configured region and
// instance type (see the package documentation) and returns them as
// offers. An instance type not sold in a region (an API error other than
// an authentication or permission one) is counted as skipped; a
// credential or permission error stops the import.
func (i *Importer) Fetch(ctx context.Context, c *http.Client, p importer.Progress) (*importer.Result, error) {
	if i.AccessKeyID == "" || i.AccessKeySecret == "" {
		return nil, fmt.Errorf("alibaba: no AccessKey pair configured (set %s and %s)", EnvAccessKeyID, EnvAccessKeySecret)
	}
	if len(i.Regions) == 0 {
		return nil, errors.New("alibaba: no regions configured")
	}
	if len(i.InstanceTypes) == 0 {
		return nil, errors.New("alibaba: no instance types configured (DescribePrice prices one instance type per request)")
	}
	if c == nil {
		c = http.DefaultClient
	}
	b := i.newBuilder()
	t := &importer.Tally{Source: "alibaba"}
	n := 0
	var bytes int64
	add := func(e entry, body []byte) error {
		bytes += int64(len(body))
		e.Response = body
		if err := b.add(n, 0, e); err != nil {
			return fmt.Errorf("alibaba %s %s %s: %w", e.Action, e.Region, e.InstanceType, err)
		}
		n++
		return nil
	}
	units := []struct {
		billing catalog.Billing
		unit    string
	}{{catalog.OnDemand, "Hour"}, {catalog.Subscription1m, "Month"}, {catalog.Subscription1y, "Year"}}
	for _, region := range i.Regions {
		for _, it := range i.InstanceTypes {
			for _, u := range units {
				if !i.wants(u.billing) {
					continue
				}
				params := map[string]string{
					"Action":       ActionDescribePrice,
					"RegionId":     region,
					"ResourceType": "instance",
					"InstanceType": it,
					"PriceUnit":    u.unit,
					"Period":       "1",
				}
				body, fetched, err := i.call(ctx, c, region, params)
				if err != nil {
					if err := importer.RecordAPIError(t, &b.skipped, err, region+" "+it); err != nil {
						return nil, err
					}
					continue
				}
				t.Answered()
				e := entry{Action: ActionDescribePrice, Region: region, InstanceType: it, PriceUnit: u.unit, Period: 1,
					FetchedAt: fetched.UTC().Format(time.RFC3339)}
				if err := add(e, body); err != nil {
					return nil, err
				}
			}
			if i.wants(catalog.Spot) {
				if err := i.fetchSpot(ctx, c, region, it, add, b, t); err != nil {
					return nil, err
				}
			}
			if p != nil {
				p(bytes, b.count())
			}
		}
	}
	if err := t.Err(); err != nil {
		return nil, err
	}
	res := b.result()
	if p != nil {
		p(bytes, len(res.Offers))
	}
	return res, nil
}

func (i *Importer) fetchSpot(ctx context.Context, c *http.Client, region, it string, add func(entry, []byte) error, b *builder, t *importer.Tally) error {
	now := i.now().UTC()
	offset := 0
	for page := 0; page < maxSpotPages; page++ {
		params := map[string]string{
			"Action":       ActionDescribeSpotPriceHistory,
			"RegionId":     region,
			"InstanceType": it,
			"NetworkType":  "vpc",
			"OSType":       "linux",
			"IoOptimized":  "optimized",
			"StartTime":    now.Add(-spotHistoryWindow).Format("2006-01-02T15:04:05Z"),
			"EndTime":      now.Format("2006-01-02T15:04:05Z"),
		}
		if offset > 0 {
			params["Offset"] = strconv.Itoa(offset)
		}
		body, fetched, err := i.call(ctx, c, region, params)
		if err != nil {
			return importer.RecordAPIError(t, &b.skipped, err, region+" "+it)
		}
		t.Answered()
		e := entry{Action: ActionDescribeSpotPriceHistory, Region: region, InstanceType: it,
			FetchedAt: fetched.UTC().Format(time.RFC3339)}
		if err := add(e, body); err != nil {
			return err
		}
		var pg struct {
			NextOffset json.Number `json:"NextOffset"`
			SpotPrices struct {
				SpotPriceType []json.RawMessage `json:"SpotPriceType"`
			} `json:"SpotPrices"`
		}
		if err := importer.UnmarshalStrict(body, &pg); err != nil {
			return fmt.Errorf("alibaba %s %s %s: %w", ActionDescribeSpotPriceHistory, region, it, err)
		}
		next, _ := strconv.Atoi(pg.NextOffset.String())
		if len(pg.SpotPrices.SpotPriceType) == 0 || next <= offset {
			return nil
		}
		offset = next
	}
	return nil
}

// call sends one signed GET (through the region's httpapi.Client, which
// retries, caps the body and redacts) and returns the body of a
// successful answer and when it was fetched. API errors are *APIError.
func (i *Importer) call(ctx context.Context, c *http.Client, region string, params map[string]string) ([]byte, time.Time, error) {
	client, path := i.client(c, region)
	q := url.Values{}
	for k, v := range params {
		q.Set(k, v)
	}
	action := params["Action"]
	ans, err := client.Do(ctx, httpapi.Call{Action: action, Region: region, Path: path, Query: q,
		Header: http.Header{"Accept": {"application/json"}}})
	if err != nil {
		return nil, time.Time{}, err
	}
	var head errorHead
	if err := json.Unmarshal(ans.Body, &head); err != nil {
		return nil, ans.Fetched, &importer.ParseError{Source: sourceName, Field: action + " response",
			Err: fmt.Errorf("not JSON: %w", err)}
	}
	return ans.Body, ans.Fetched, nil
}

// Plan lists the requests Fetch would make, without credentials (for
// catalog update --dry-run).
func (i *Importer) Plan() []string {
	endpoint := i.Endpoint
	if endpoint == "" {
		endpoint = DefaultEndpoint
	}
	var kinds []string
	per := 0
	for _, u := range []struct {
		b    catalog.Billing
		unit string
	}{{catalog.OnDemand, "Hour"}, {catalog.Subscription1m, "Month"}, {catalog.Subscription1y, "Year"}} {
		if i.wants(u.b) {
			per++
			kinds = append(kinds, ActionDescribePrice+" PriceUnit="+u.unit)
		}
	}
	if i.wants(catalog.Spot) {
		per++
		kinds = append(kinds, ActionDescribeSpotPriceHistory+" (last 24 hours, paged)")
	}
	return []string{
		fmt.Sprintf("GET %s regions: %s", endpoint, strings.Join(i.Regions, ", ")),
		fmt.Sprintf("per region and instance type (%d types): %s", len(i.InstanceTypes), strings.Join(kinds, ", ")),
		fmt.Sprintf("at least %d requests", per*len(i.Regions)*len(i.InstanceTypes)),
	}
}
