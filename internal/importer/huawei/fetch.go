package huawei

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/gpuscout/gpuscout/internal/importer/httpapi"
)

// Default endpoints; {region} is replaced by the region ID.
const (
	DefaultIAMEndpoint = "https://iam.myhuaweicloud.com"
	DefaultECSEndpoint = "https://ecs.{region}.myhuaweicloud.com"
	DefaultBSSEndpoint = "https://bss.myhuaweicloud.com"
)

// API paths (Huawei Cloud API references; the SDKs' request definitions).
const (
	pathProjects = "/v3/projects"
	pathFlavors  = "/v1/%s/cloudservers/flavors"
	pathOnDemand = "/v2/bills/ratings/on-demand-resources"
	pathPeriod   = "/v2/bills/ratings/period-resources/subscribe-rate"
)

// BSS product codes of an ECS virtual machine and the hour usage unit.
const (
	cloudServiceType = "hws.service.type.ec2"
	resourceType     = "hws.resource.type.vm"
	measureHour      = 4
)

func (i *Importer) wants(b catalog.Billing) bool {
	if len(i.Billings) == 0 {
		return b == catalog.OnDemand || b == catalog.Subscription1m || b == catalog.Subscription1y
	}
	for _, x := range i.Billings {
		if x == b {
			return true
		}
	}
	return false
}

// periods are the BSS period inquiries Fetch makes.
var periods = []struct {
	billing   catalog.Billing
	typ, num  int
	unitLabel string
}{{catalog.Subscription1m, periodMonth, 1, "month"}, {catalog.Subscription1y, periodYear, 1, "year"}}

// Plan lists the requests Fetch would make, without credentials (for
// catalog update --dry-run).
func (i *Importer) Plan() []string {
	var out []string
	per := 0
	if i.wants(catalog.OnDemand) {
		per++
	}
	var kinds []string
	if i.wants(catalog.OnDemand) {
		kinds = append(kinds, ActionOnDemand+" (1 hour)")
	}
	for _, p := range periods {
		if i.wants(p.billing) {
			per++
			kinds = append(kinds, fmt.Sprintf("%s (period_type %d × %d, %s)", ActionPeriod, p.typ, p.num, p.unitLabel))
		}
	}
	for _, r := range i.Regions {
		out = append(out,
			fmt.Sprintf("GET %s%s?name=%s (project ID)", endpoint(i.IAMEndpoint, DefaultIAMEndpoint, r), pathProjects, r),
			fmt.Sprintf("GET %s%s (GPU flavors)", endpoint(i.ECSEndpoint, DefaultECSEndpoint, r), fmt.Sprintf(pathFlavors, "{project_id}")))
	}
	out = append(out, fmt.Sprintf("POST %s: per GPU flavor sold in a region and known to the catalog (%d known): %s",
		endpoint(i.BSSEndpoint, DefaultBSSEndpoint, ""), len(i.InstanceTypes), strings.Join(kinds, ", ")))
	out = append(out, fmt.Sprintf("at most %d requests", 2*len(i.Regions)+per*len(i.Regions)*len(i.InstanceTypes)))
	return out
}

func endpoint(set, def, region string) string {
	if set == "" {
		set = def
	}
	return strings.TrimRight(strings.ReplaceAll(set, "{region}", region), "/")
}

// Fetch asks the APIs for the prices of every configured region's GPU
// flavors that the catalog knows (see the package documentation). A
// region whose project or flavor list cannot be read is counted and the
// others are still priced; a credential or permission error stops the
// fetch; more than importer.MaxFailureShare failed requests fail it.
func (i *Importer) Fetch(ctx context.Context, c *http.Client, p importer.Progress) (*importer.Result, error) {
	if i.AccessKey == "" || i.SecretKey == "" {
		return nil, fmt.Errorf("huawei: no AK/SK pair configured (set %s and %s)", EnvAccessKey, EnvSecretKey)
	}
	if len(i.Regions) == 0 {
		return nil, errors.New("huawei: no regions configured")
	}
	if len(i.InstanceTypes) == 0 {
		return nil, errors.New("huawei: no instance types configured (BSS prices one flavor per request)")
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
		pid, err := i.projectID(ctx, c, region)
		if err != nil {
			if err := importer.RecordAPIError(t, &b.skipped, err, region); err != nil {
				return nil, err
			}
			continue
		}
		t.Answered()
		if pid == "" {
			b.skipped.Add("no project in the region (IAM KeystoneListProjects)", region)
			continue
		}
		flavors, err := i.gpuFlavors(ctx, c, region, pid)
		if err != nil {
			if err := importer.RecordAPIError(t, &b.skipped, err, region); err != nil {
				return nil, err
			}
			continue
		}
		t.Answered()
		for _, f := range flavors {
			if !known[f.ID] {
				b.skipped.Add("GPU flavor not in the catalog", region+" "+f.ID)
				continue
			}
			if f.status() == "abandon" {
				b.skipped.Add("flavor withdrawn (cond:operation:status abandon)", region+" "+f.ID)
				continue
			}
			var reqs []entry
			if i.wants(catalog.OnDemand) {
				reqs = append(reqs, entry{Action: ActionOnDemand})
			}
			for _, pr := range periods {
				if i.wants(pr.billing) {
					reqs = append(reqs, entry{Action: ActionPeriod, PeriodType: pr.typ, PeriodNum: pr.num})
				}
			}
			for _, e := range reqs {
				e.Region, e.Flavor = region, f.ID
				body, fetched, err := i.rate(ctx, c, pid, e)
				if err != nil {
					if err := importer.RecordAPIError(t, &b.skipped, err, region+" "+f.ID); err != nil {
						return nil, err
					}
					continue
				}
				t.Answered()
				read += int64(len(body))
				e.Response, e.FetchedAt = body, fetched.UTC().Format(time.RFC3339)
				if err := b.add(n, 0, e); err != nil {
					return nil, fmt.Errorf("huawei %s %s %s: %w", e.Action, region, f.ID, err)
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

// projectID asks IAM for the region's project (KeystoneListProjects).
func (i *Importer) projectID(ctx context.Context, c *http.Client, region string) (string, error) {
	q := url.Values{"name": {region}}
	body, _, err := i.call(ctx, c, "KeystoneListProjects", region, http.MethodGet, endpoint(i.IAMEndpoint, DefaultIAMEndpoint, region), pathProjects, q, nil)
	if err != nil {
		return "", err
	}
	var resp struct {
		Projects []struct {
			ID   string `json:"id"`
			Name string `json:"name"`
		} `json:"projects"`
	}
	if err := importer.UnmarshalStrict(body, &resp); err != nil {
		return "", notAPI("KeystoneListProjects", region, err)
	}
	for _, p := range resp.Projects {
		if p.Name == region && p.ID != "" {
			return p.ID, nil
		}
	}
	return "", nil
}

// flavor is one ListFlavors item (Flavor / FlavorExtraSpec).
type flavor struct {
	ID           string            `json:"id"`
	Name         string            `json:"name"`
	OSExtraSpecs map[string]string `json:"os_extra_specs"`
}

// gpu reports whether the flavor is GPU-accelerated (ecs:performancetype
// gpu; hws:performancetype on early flavors).
func (f flavor) gpu() bool {
	t := f.OSExtraSpecs["ecs:performancetype"]
	if t == "" {
		t = f.OSExtraSpecs["hws:performancetype"]
	}
	return t == "gpu"
}

// status is cond:operation:status (normal, abandon, sellout, obt, promotion).
func (f flavor) status() string { return f.OSExtraSpecs["cond:operation:status"] }

// gpuFlavors lists the region's GPU flavors, sorted by ID.
func (i *Importer) gpuFlavors(ctx context.Context, c *http.Client, region, project string) ([]flavor, error) {
	body, _, err := i.call(ctx, c, "ListFlavors", region, http.MethodGet, endpoint(i.ECSEndpoint, DefaultECSEndpoint, region),
		fmt.Sprintf(pathFlavors, url.PathEscape(project)), nil, nil)
	if err != nil {
		return nil, err
	}
	var resp struct {
		Flavors []json.RawMessage `json:"flavors"`
	}
	if err := importer.UnmarshalStrict(body, &resp); err != nil {
		return nil, notAPI("ListFlavors", region, err)
	}
	var out []flavor
	for _, raw := range resp.Flavors {
		var f flavor
		// os_extra_specs values are strings; a flavor whose extra specs do
		// not decode is not one the importer can classify.
		if err := json.Unmarshal(raw, &f); err != nil || f.ID == "" {
			continue
		}
		if f.gpu() {
			out = append(out, f)
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].ID < out[b].ID })
	return out, nil
}

// rate sends one BSS price inquiry for e's flavor and region.
func (i *Importer) rate(ctx context.Context, c *http.Client, project string, e entry) ([]byte, time.Time, error) {
	info := map[string]any{
		"id":                 "1",
		"cloud_service_type": cloudServiceType,
		"resource_type":      resourceType,
		"resource_spec":      e.Flavor + ".linux",
		"region":             e.Region,
		"subscription_num":   1,
	}
	path := pathOnDemand
	if e.Action == ActionOnDemand {
		info["usage_factor"] = "Duration"
		info["usage_value"] = 1
		info["usage_measure_id"] = measureHour
	} else {
		path = pathPeriod
		info["period_type"] = e.PeriodType
		info["period_num"] = e.PeriodNum
	}
	body, err := json.Marshal(map[string]any{"project_id": project, "product_infos": []any{info}})
	if err != nil {
		return nil, time.Time{}, err
	}
	return i.call(ctx, c, e.Action, e.Region, http.MethodPost, endpoint(i.BSSEndpoint, DefaultBSSEndpoint, e.Region), path, nil, body)
}

// call sends one signed request (httpapi.Client.Do: retries, body cap,
// redacted errors) and returns the body of a successful answer and when
// it was fetched. API errors are *APIError; an answer that is not JSON is
// one too (notAPI).
func (i *Importer) call(ctx context.Context, c *http.Client, action, region, method, base, path string, q url.Values, body []byte) ([]byte, time.Time, error) {
	ans, err := i.client(c, base).Do(ctx, httpapi.Call{Action: action, Region: region, Method: method, Path: path, Query: q, Body: body})
	if err != nil {
		return nil, time.Time{}, err
	}
	var ef errorFields
	if err := json.Unmarshal(ans.Body, &ef); err != nil {
		return nil, ans.Fetched, notAPI(action, region, err)
	}
	return ans.Body, ans.Fetched, nil
}
