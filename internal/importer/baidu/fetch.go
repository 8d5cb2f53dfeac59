package baidu

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/gpuscout/gpuscout/internal/importer/httpapi"
)

// DefaultEndpoint is the regional BCC endpoint; {region} is replaced by
// the region (bcc.bj.baidubce.com ...).
const DefaultEndpoint = "https://bcc.{region}.baidubce.com"

// API paths (bce-sdk-go services/bcc/api/util.go getFlavorSpecUri,
// getPriceBySpecUri).
const (
	pathFlavorSpec = "/v2/instance/flavorSpec"
	pathPrice      = "/v2/instance/price"
)

func (i *Importer) wants(b catalog.Billing) bool {
	if len(i.Billings) == 0 {
		return b == catalog.Subscription1m || b == catalog.Subscription1y
	}
	for _, x := range i.Billings {
		if x == b {
			return true
		}
	}
	return false
}

// lengths are the Prepaid purchase lengths Fetch asks for.
var lengths = []struct {
	billing catalog.Billing
	months  int
}{{catalog.Subscription1m, 1}, {catalog.Subscription1y, 12}}

func endpoint(set, region string) string {
	if set == "" {
		set = DefaultEndpoint
	}
	return strings.TrimRight(strings.ReplaceAll(set, "{region}", region), "/")
}

// Plan lists the requests Fetch would make, without credentials.
func (i *Importer) Plan() []string {
	var out []string
	per := 0
	var kinds []string
	for _, l := range lengths {
		if i.wants(l.billing) {
			per++
			kinds = append(kinds, fmt.Sprintf("Prepaid purchaseLength %d", l.months))
		}
	}
	for _, r := range i.Regions {
		out = append(out, fmt.Sprintf("GET %s%s (GPU flavors per zone)", endpoint(i.Endpoint, r), pathFlavorSpec))
	}
	out = append(out, fmt.Sprintf("POST %s%s per zone and GPU spec known to the catalog (%d known): %s",
		endpoint(i.Endpoint, "{region}"), pathPrice, len(i.InstanceTypes), strings.Join(kinds, ", ")))
	out = append(out, fmt.Sprintf("%d requests per region, plus %d per zone that sells a known GPU spec", 1, per))
	return out
}

// flavor is a BccFlavor of a flavorSpec answer.
type flavor struct {
	SpecID       string          `json:"specId"`
	Spec         string          `json:"spec"`
	GPUCardType  string          `json:"gpuCardType"`
	GPUCardCount json.RawMessage `json:"gpuCardCount"`
}

// gpus is gpuCardCount, a number or a numeric string.
func (f flavor) gpus() int {
	n, _ := strconv.Atoi(strings.Trim(strings.TrimSpace(string(f.GPUCardCount)), `"`))
	return n
}

// zoneFlavor is a GPU flavor sold in a zone.
type zoneFlavor struct {
	zone string
	flavor
}

// Fetch asks the BCC API for the Prepaid prices of every configured
// region's GPU specs that the catalog knows, in each zone (see the
// package documentation). A region whose flavor list cannot be read is
// counted and the others are still priced; a credential or permission
// error stops the fetch; more than importer.MaxFailureShare failed
// requests fail it.
func (i *Importer) Fetch(ctx context.Context, c *http.Client, p importer.Progress) (*importer.Result, error) {
	if i.AccessKeyID == "" || i.SecretAccessKey == "" {
		return nil, fmt.Errorf("baidu: no AK/SK pair configured (set %s and %s)", EnvAccessKeyID, EnvSecretAccessKey)
	}
	if len(i.Regions) == 0 {
		return nil, errors.New("baidu: no regions configured")
	}
	if len(i.InstanceTypes) == 0 {
		return nil, errors.New("baidu: no instance types configured (the price API prices one spec per request)")
	}
	if c == nil {
		c = http.DefaultClient
	}
	known := map[string]bool{}
	for _, t := range i.InstanceTypes {
		known[t] = true
	}
	b := i.newBuilder()
	t := &importer.Tally{Source: sourceName}
	n := 0
	var read int64
	for _, region := range i.Regions {
		flavors, err := i.gpuFlavors(ctx, c, region)
		if err != nil {
			if err := importer.RecordAPIError(t, &b.skipped, err, region); err != nil {
				return nil, err
			}
			continue
		}
		t.Answered()
		unknown := map[string]bool{}
		for _, f := range flavors {
			if !known[f.Spec] {
				if !unknown[f.Spec] {
					unknown[f.Spec] = true
					b.skipped.Add("GPU spec not in the catalog", region+" "+f.Spec)
				}
				continue
			}
			for _, l := range lengths {
				if !i.wants(l.billing) {
					continue
				}
				e := entry{Action: ActionPrice, Region: region, Zone: f.zone, Spec: f.Spec, PaymentTiming: prepaid, PurchaseLength: l.months}
				body, err := json.Marshal(map[string]any{"specId": f.SpecID, "spec": f.Spec, "paymentTiming": prepaid,
					"zoneName": f.zone, "purchaseCount": 1, "purchaseLength": l.months})
				if err != nil {
					return nil, err
				}
				out, fetched, err := i.call(ctx, c, ActionPrice, region, http.MethodPost, pathPrice, nil, body)
				if err != nil {
					if err := importer.RecordAPIError(t, &b.skipped, err, region+" "+f.zone+" "+f.Spec); err != nil {
						return nil, err
					}
					continue
				}
				t.Answered()
				read += int64(len(out))
				e.Response, e.FetchedAt = out, fetched.UTC().Format(time.RFC3339)
				if err := b.add(n, 0, e); err != nil {
					return nil, fmt.Errorf("baidu %s %s %s: %w", ActionPrice, region, f.Spec, err)
				}
				n++
			}
			if p != nil {
				p(read, b.count())
			}
		}
	}
	if err := t.Err(); err != nil {
		return nil, err
	}
	res := b.result()
	if p != nil {
		p(read, len(res.Offers))
	}
	return res, nil
}

// gpuFlavors lists the region's GPU flavors per zone (查询实例套餐规格),
// sorted by zone and spec.
func (i *Importer) gpuFlavors(ctx context.Context, c *http.Client, region string) ([]zoneFlavor, error) {
	body, _, err := i.call(ctx, c, "ListFlavorSpec", region, http.MethodGet, pathFlavorSpec, nil, nil)
	if err != nil {
		return nil, err
	}
	var resp struct {
		ZoneResources []struct {
			ZoneName     string `json:"zoneName"`
			BccResources struct {
				FlavorGroups []struct {
					GroupID string   `json:"groupId"`
					Flavors []flavor `json:"flavors"`
				} `json:"flavorGroups"`
			} `json:"bccResources"`
		} `json:"zoneResources"`
	}
	if err := importer.UnmarshalStrict(body, &resp); err != nil {
		return nil, notAPI("ListFlavorSpec", region, err)
	}
	var out []zoneFlavor
	for _, z := range resp.ZoneResources {
		for _, g := range z.BccResources.FlavorGroups {
			for _, f := range g.Flavors {
				if z.ZoneName != "" && f.Spec != "" && f.gpus() > 0 {
					out = append(out, zoneFlavor{zone: z.ZoneName, flavor: f})
				}
			}
		}
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].zone != out[b].zone {
			return out[a].zone < out[b].zone
		}
		return out[a].Spec < out[b].Spec
	})
	return out, nil
}

// call sends one signed request (httpapi.Client.Do: retries, body cap,
// redacted errors) and returns the body of a successful answer and when
// it was fetched. API errors are *APIError; an answer that is not JSON is
// one too (notAPI).
func (i *Importer) call(ctx context.Context, c *http.Client, action, region, method, path string, q url.Values, body []byte) ([]byte, time.Time, error) {
	ans, err := i.client(c, region).Do(ctx, httpapi.Call{Action: action, Region: region, Method: method, Path: path, Query: q, Body: body})
	if err != nil {
		return nil, time.Time{}, err
	}
	var head errorHead
	if err := json.Unmarshal(ans.Body, &head); err != nil {
		return nil, ans.Fetched, notAPI(action, region, err)
	}
	return ans.Body, ans.Fetched, nil
}
