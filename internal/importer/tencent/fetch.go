package tencent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/gpuscout/gpuscout/internal/importer/httpapi"
)

// DefaultEndpoint is the China-site CVM endpoint.
const DefaultEndpoint = "https://cvm.tencentcloudapi.com/"

// APIVersion is the CVM API version the importer speaks.
const APIVersion = "2017-03-12"

// maxBody caps one response body.
const maxBody = 16 << 20

// filterValues is how many values the importer puts in one filter.
const filterValues = 5

// APIError is an error answer of the CVM API (Response.Error). It
// carries the API's code and message, never the credentials.
type APIError = importer.APIError

// LoadEnv fills SecretID and SecretKey from getenv (os.Getenv) where
// unset.
func (i *Importer) LoadEnv(getenv func(string) string) {
	if i.SecretID == "" {
		i.SecretID = getenv(EnvSecretID)
	}
	if i.SecretKey == "" {
		i.SecretKey = getenv(EnvSecretKey)
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

type filter struct {
	Name   string   `json:"Name"`
	Values []string `json:"Values"`
}

func chunks(s []string) [][]string {
	if len(s) == 0 {
		return [][]string{nil}
	}
	var out [][]string
	for len(s) > filterValues {
		out = append(out, s[:filterValues])
		s = s[filterValues:]
	}
	return append(out, s)
}

// Fetch asks the CVM API for the prices of the configured regions (see
// the package documentation): DescribeZoneInstanceConfigInfos per region
// for on-demand and spot prices, and, when ImageID and InstanceTypes are
// set, InquiryPriceRunInstances for 1-month and 1-year subscriptions in a
// zone that sells the type. API errors other than authentication and
// permission ones are counted as skipped; those stop the import.
func (i *Importer) Fetch(ctx context.Context, c *http.Client, p importer.Progress) (*importer.Result, error) {
	if i.SecretID == "" || i.SecretKey == "" {
		return nil, fmt.Errorf("tencent: no SecretId/SecretKey configured (set %s and %s)", EnvSecretID, EnvSecretKey)
	}
	if len(i.Regions) == 0 {
		return nil, errors.New("tencent: no regions configured")
	}
	if c == nil {
		c = http.DefaultClient
	}
	b := i.newBuilder()
	t := &importer.Tally{Source: "tencent"}
	n := 0
	var total int64
	add := func(e entry, body []byte) error {
		total += int64(len(body))
		e.Response = body
		if err := b.add(n, 0, e); err != nil {
			return fmt.Errorf("tencent %s %s: %w", e.Action, e.Region, err)
		}
		n++
		return nil
	}
	subs := (i.wants(catalog.Subscription1m) || i.wants(catalog.Subscription1y)) && i.ImageID != "" && len(i.InstanceTypes) > 0
	for _, region := range i.Regions {
		// zones[type] are the zones selling the type pay-as-you-go.
		zones := map[string][]string{}
		for _, charge := range []string{ChargePostpaidByHour, ChargeSpotpaid} {
			keep := (charge == ChargePostpaidByHour && i.wants(catalog.OnDemand)) || (charge == ChargeSpotpaid && i.wants(catalog.Spot))
			if !keep && !(charge == ChargePostpaidByHour && subs) {
				continue
			}
			for _, types := range chunks(i.InstanceTypes) {
				filters := []filter{{Name: "instance-charge-type", Values: []string{charge}}}
				if len(types) > 0 {
					filters = append(filters, filter{Name: "instance-type", Values: types})
				}
				if len(i.Families) > 0 {
					filters = append(filters, filter{Name: "instance-family", Values: i.Families})
				}
				body, fetched, err := i.call(ctx, c, ActionDescribeZoneInstanceConfigInfos, region, map[string]any{"Filters": filters})
				if err != nil {
					if err := importer.RecordAPIError(t, &b.skipped, err, region); err != nil {
						return nil, err
					}
					continue
				}
				t.Answered()
				if charge == ChargePostpaidByHour {
					var zr zoneResponse
					if err := importer.UnmarshalStrict(body, &zr); err == nil && zr.Response != nil {
						for _, row := range zr.Response.InstanceTypeQuotaSet {
							if row.Status == "" || strings.EqualFold(row.Status, "SELL") {
								zones[row.InstanceType] = append(zones[row.InstanceType], row.Zone)
							}
						}
					}
				}
				if keep {
					e := entry{Action: ActionDescribeZoneInstanceConfigInfos, Region: region, FetchedAt: fetched.UTC().Format(time.RFC3339)}
					if err := add(e, body); err != nil {
						return nil, err
					}
				}
			}
		}
		if subs {
			if err := i.fetchSubscriptions(ctx, c, region, zones, add, b, t); err != nil {
				return nil, err
			}
		} else if i.wants(catalog.Subscription1m) || i.wants(catalog.Subscription1y) {
			b.skipped.Add("subscriptions not fetched (they need ImageID and InstanceTypes)", region)
		}
		if p != nil {
			p(total, b.count())
		}
	}
	if err := t.Err(); err != nil {
		return nil, err
	}
	res := b.result()
	if p != nil {
		p(total, len(res.Offers))
	}
	return res, nil
}

func (i *Importer) fetchSubscriptions(ctx context.Context, c *http.Client, region string, zones map[string][]string,
	add func(entry, []byte) error, b *builder, t *importer.Tally) error {
	periods := prepaidPeriods(i.wants)
	for _, it := range i.InstanceTypes {
		zs := append([]string(nil), zones[it]...)
		if len(zs) == 0 {
			b.skipped.Add("no zone sells the type", region+" "+it)
			continue
		}
		sort.Strings(zs)
		for _, period := range periods {
			req := map[string]any{
				"Placement":             map[string]any{"Zone": zs[0]},
				"ImageId":               i.ImageID,
				"InstanceChargeType":    ChargePrepaid,
				"InstanceChargePrepaid": map[string]any{"Period": period, "RenewFlag": "NOTIFY_AND_MANUAL_RENEW"},
				"InstanceType":          it,
				"InstanceCount":         1,
			}
			body, fetched, err := i.call(ctx, c, ActionInquiryPriceRunInstances, region, req)
			if err != nil {
				if err := importer.RecordAPIError(t, &b.skipped, err, region+" "+it); err != nil {
					return err
				}
				continue
			}
			t.Answered()
			e := entry{Action: ActionInquiryPriceRunInstances, Region: region, InstanceType: it, ChargeType: ChargePrepaid,
				Period: period, FetchedAt: fetched.UTC().Format(time.RFC3339)}
			if err := add(e, body); err != nil {
				return err
			}
		}
	}
	return nil
}

// call sends one signed POST (through httpapi.Client, which retries,
// caps the body and redacts) and returns the body of a successful answer
// and when it was fetched. API errors are *APIError.
func (i *Importer) call(ctx context.Context, c *http.Client, action, region string, req any) ([]byte, time.Time, error) {
	payload, err := json.Marshal(req)
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("tencent %s: encoding request: %w", action, err)
	}
	client, path := i.client(c)
	ans, err := client.Do(ctx, httpapi.Call{Action: action, Region: region, Method: http.MethodPost, Path: path, Body: payload,
		Header: http.Header{
			"Content-Type": {contentType},
			"X-Tc-Action":  {action},
			"X-Tc-Version": {APIVersion},
			"X-Tc-Region":  {region},
		}})
	if err != nil {
		return nil, time.Time{}, err
	}
	var head answerHead
	jsonErr := json.Unmarshal(ans.Body, &head)
	if jsonErr != nil || head.Response == nil {
		if jsonErr == nil {
			jsonErr = errors.New("no Response object")
		}
		return nil, ans.Fetched, &importer.ParseError{Source: sourceName, Field: action + " response", Err: fmt.Errorf("not a CVM answer: %w", jsonErr)}
	}
	return ans.Body, ans.Fetched, nil
}
