// Package hyperstack imports Hyperstack's GPU flavor prices and stock from
// its Infrahub API: two requests,
//
//	GET https://infrahub-api.nexgencloud.com/v1/core/flavors
//	GET https://infrahub-api.nexgencloud.com/v1/pricebook
//	api_key: $HYPERSTACK_API_KEY
//
// documented as list_flavors and get_pricebook in Hyperstack's API
// reference (https://docs.hyperstack.cloud/docs/api-reference/) and sent so
// by Hyperstack's official Python SDK (NexGenCloud/hyperstack-sdk-python
// @f130f570: FlavorApi.list_flavors, resource path /core/flavors;
// PricebookApi.get_pricebook, /pricebook; the apiKey scheme, an "api_key"
// header; models FlavorListResponse, FlavorItemGetResponse, FlavorFields,
// PricebookModel), restated as data in testdata/official-client.json,
// which TestRequestsAndShapeMatchOfficialClient checks the requests and
// the parser's fields against. The flavors answer is {"status", "message",
// "data": [{"gpu", "region_name", "flavors": [{name, region_name, cpu,
// ram, disk, gpu, gpu_count, stock_available, ...}]}]}; the pricebook is
// [{name, value, original_value, discount_applied, ...}], one hourly price
// per resource, a GPU's by its model name.
//
// Each GPU flavor becomes an on-demand offer in its region: the pricebook
// value of its GPU times its gpu_count (as SkyPilot's Hyperstack fetcher
// prices it), with the flavor's stock_available as the reading at the
// fetch (true: available, false: none). Flavors whose GPU has no price are
// counted as skipped. The key is read from HYPERSTACK_API_KEY, sent only
// in the api_key header and redacted from every error.
package hyperstack

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/gpuscout/gpuscout/internal/importer/httpapi"
)

// EnvAPIKey is the environment variable holding the API key.
const EnvAPIKey = "HYPERSTACK_API_KEY"

// DefaultBase is the Infrahub API's server and version prefix.
const DefaultBase = "https://infrahub-api.nexgencloud.com/v1"

// The two endpoints.
const (
	FlavorsPath   = "/core/flavors"
	PricebookPath = "/pricebook"
)

const sourceName = "hyperstack"

// Importer fetches or parses the flavors and the pricebook.
type Importer struct {
	APIKey string
	// Base overrides DefaultBase (tests, a proxy).
	Base string
	// Seen is when a recorded answer was fetched; zero keeps its prices
	// and drops its readings.
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

// keyHeader signs a request with the api_key header and redacts the key.
type keyHeader struct{ key string }

func (k keyHeader) Sign(req *http.Request, _ []byte) ([]string, error) {
	req.Header.Set("api_key", k.key)
	return []string{k.key}, nil
}

var (
	flavorsCall   = httpapi.Call{Action: "flavors", Method: http.MethodGet, Path: FlavorsPath, Header: http.Header{"Accept": {"application/json"}}}
	pricebookCall = httpapi.Call{Action: "pricebook", Method: http.MethodGet, Path: PricebookPath, Header: http.Header{"Accept": {"application/json"}}}
)

// Plan lists the requests Fetch makes (catalog update --dry-run).
func (i *Importer) Plan() []string {
	return []string{
		"GET " + i.base() + FlavorsPath + " (api_key: $" + EnvAPIKey + "): every flavor per GPU model and region, with its GPU count and stock_available",
		"GET " + i.base() + PricebookPath + " (api_key: $" + EnvAPIKey + "): the hourly price of each GPU model",
	}
}

func (i *Importer) client(c *http.Client) *httpapi.Client {
	return &httpapi.Client{Source: sourceName, HTTP: c, Base: i.base(), Sign: keyHeader{i.APIKey},
		Classify: classify, Retry: i.Retry, Now: i.Now, Codes: apiCodes}
}

// Fetch reads the flavors and the pricebook and joins them; the readings
// are seen at the flavors' fetch.
func (i *Importer) Fetch(ctx context.Context, c *http.Client, p importer.Progress) (*importer.Result, error) {
	if i.APIKey == "" {
		return nil, fmt.Errorf("hyperstack: no API key (set %s)", EnvAPIKey)
	}
	cl := i.client(c)
	flavors, err := cl.Do(ctx, flavorsCall)
	if err != nil {
		return nil, err
	}
	prices, err := cl.Do(ctx, pricebookCall)
	if err != nil {
		return nil, err
	}
	res, err := parse(flavors.Body, prices.Body, flavors.Fetched, flavors.Fetched, i.base()+FlavorsPath)
	if err != nil {
		return nil, err
	}
	if p != nil {
		p(int64(len(flavors.Body)+len(prices.Body)), len(res.Offers))
	}
	return res, nil
}

// Parse reads a recorded answer {"flavors": <flavors answer>, "pricebook":
// <pricebook answer>} (catalog import).
func (i *Importer) Parse(ctx context.Context, r io.Reader, p importer.Progress) (*importer.Result, error) {
	b, err := httpapi.ReadRecorded(sourceName, r)
	if err != nil {
		return nil, err
	}
	var rec struct {
		Flavors   json.RawMessage `json:"flavors"`
		Pricebook json.RawMessage `json:"pricebook"`
	}
	if err := json.Unmarshal(b, &rec); err != nil || len(rec.Flavors) == 0 || len(rec.Pricebook) == 0 {
		return nil, &importer.ParseError{Source: sourceName, Field: "flavors", Err: errors.New(`not a recorded answer: want {"flavors": ..., "pricebook": ...}`)}
	}
	fetched := httpapi.RecordedAt(i.Seen, i.Now)
	res, err := parse(rec.Flavors, rec.Pricebook, fetched, i.Seen, i.base()+FlavorsPath)
	if err != nil {
		return nil, err
	}
	if p != nil {
		p(int64(len(b)), len(res.Offers))
	}
	return res, nil
}
