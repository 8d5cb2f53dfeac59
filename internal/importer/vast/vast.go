// Package vast imports the Vast.ai marketplace's rentable offers from its
// public offer search: one request,
//
//	POST https://console.vast.ai/api/v0/bundles/
//	{"verified": {"eq": true}, "external": {"eq": false}, "rentable": {"eq": true},
//	 "rented": {"eq": false}, "type": "on-demand", "order": [["dph_total", "asc"]],
//	 "limit": 3000, "allocated_storage": 5.0}
//
// as Vast.ai's API documentation (https://docs.vast.ai/, "search offers")
// describes the search and as its open-source CLI sends it (vast-ai/vast-cli vast.py@fea8ca1e
// search__offers: the endpoint under https://console.vast.ai/api/v0, the
// default filters verified, external, rentable and rented, the order,
// type, limit and allocated_storage members, and the answer's "offers"
// list), which TestRequestMatchesOfficialClient checks. No key is needed;
// VAST_API_KEY, when set, is sent as a Bearer header (as the CLI sends
// it) and redacted from every error.
//
// The marketplace has no list prices: each offer is one host's asking
// price (dph_total, the total per hour with the 5 GB of disk asked for).
// Offers are grouped by GPU model, GPU count and host country (the country
// code that ends geolocation), and each group becomes one on-demand offer
// at its cheapest asking price, named as the catalog's Vast.ai rows are
// ({n}x-{GPU model with underscores}-32-65536: the name pattern of
// skypilot-org/skypilot-catalog catalogs/v8/vast/vms.csv, whose
// 32 vCPU / 64 GiB is SkyPilot's request template, not a host's size), in
// the country's region, seen available at the fetch: an offer existing is
// the capacity reading.
package vast

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"time"

	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/gpuscout/gpuscout/internal/importer/httpapi"
)

// EnvAPIKey is the environment variable of an optional Vast.ai API key.
const EnvAPIKey = "VAST_API_KEY"

// DefaultBase is Vast.ai's API server (the CLI's server_url_default).
const DefaultBase = "https://console.vast.ai"

// Path is the offer search endpoint.
const Path = "/api/v0/bundles/"

// DefaultLimit is how many offers one search asks for.
const DefaultLimit = 3000

// storageGB is the disk the search prices offers with (the CLI's default
// --storage).
const storageGB = 5.0

const sourceName = "vast"

// Importer fetches or parses the offer search answer.
type Importer struct {
	// APIKey is optional: the search is public.
	APIKey string
	Base   string
	Limit  int
	// Seen is when the answer Parse reads was fetched (zero: readings
	// dropped, prices kept).
	Seen  time.Time
	Now   func() time.Time
	Retry httpapi.Retry
}

// Name implements importer.Importer.
func (i *Importer) Name() string { return sourceName }

func (i *Importer) base() string {
	if i.Base != "" {
		return i.Base
	}
	return DefaultBase
}

// Search is the search's query: the CLI's default filters, on-demand
// offers, cheapest first.
func (i *Importer) Search() map[string]any {
	limit := i.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	return map[string]any{
		"verified": map[string]any{"eq": true}, "external": map[string]any{"eq": false},
		"rentable": map[string]any{"eq": true}, "rented": map[string]any{"eq": false},
		"type": "on-demand", "order": [][]string{{"dph_total", "asc"}}, "limit": limit, "allocated_storage": storageGB,
	}
}

func (i *Importer) call() httpapi.Call {
	body, _ := json.Marshal(i.Search()) // maps of plain values always marshal
	return httpapi.Call{Action: "bundles", Method: http.MethodPost, Path: Path, Body: body,
		Header: http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json"}}}
}

// Plan lists the request Fetch makes (catalog update --dry-run).
func (i *Importer) Plan() []string {
	return []string{"POST " + i.base() + Path + " (public offer search; $" + EnvAPIKey + " optional): rentable verified on-demand offers, cheapest first"}
}

func (i *Importer) client(c *http.Client) *httpapi.Client {
	return &httpapi.Client{Source: sourceName, HTTP: c, Base: i.base(), Sign: httpapi.Bearer{Token: i.APIKey},
		Classify: classify, Retry: i.Retry, Now: i.Now, Codes: apiCodes}
}

// Fetch runs the search and parses the answer.
func (i *Importer) Fetch(ctx context.Context, c *http.Client, p importer.Progress) (*importer.Result, error) {
	ans, err := i.client(c).Do(ctx, i.call())
	if err != nil {
		return nil, err
	}
	res, err := parse(ans.Body, ans.Fetched, ans.Fetched, i.base()+Path)
	if err != nil {
		return nil, err
	}
	if p != nil {
		p(int64(len(ans.Body)), len(res.Offers))
	}
	return res, nil
}

// Parse reads a recorded search answer (catalog import).
func (i *Importer) Parse(ctx context.Context, r io.Reader, p importer.Progress) (*importer.Result, error) {
	b, err := httpapi.ReadRecorded(sourceName, r)
	if err != nil {
		return nil, err
	}
	fetched := httpapi.RecordedAt(i.Seen, i.Now)
	res, err := parse(b, fetched, i.Seen, i.base()+Path)
	if err != nil {
		return nil, err
	}
	if p != nil {
		p(int64(len(b)), len(res.Offers))
	}
	return res, nil
}
