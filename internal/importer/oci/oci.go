// Package oci imports Oracle Cloud Infrastructure's GPU shape list prices
// from Oracle's public price list, with no key: two requests,
//
//	GET https://www.oracle.com/a/ocom/docs/cloudestimator2/data/shapes.json
//	GET https://apexapps.oracle.com/pls/apex/cetools/api/v1/products/?currencyCode=USD
//
// The second is the price list API Oracle documents for list prices
// ("Accessing List Pricing",
// https://docs.oracle.com/en-us/iaas/Content/GSG/Tasks/signingup_topic-Estimating_Costs.htm#accessing_list_pricing):
// {"items": [{partNumber, displayName, metricName, serviceCategory,
// currencyCodeLocalizations: [{currencyCode, prices: [{model, value}]}]}]},
// one PAY_AS_YOU_GO price per part. The first is the shape data behind
// Oracle's public Cost Estimator (https://www.oracle.com/cloud/costestimator.html):
// {"items": [{name, status, hidden, subType {value}, gpuQty, products:
// [{type {value}, partNumber, qty}]}]}, which names the part a shape is
// billed under. SkyPilot's OCI catalog fetcher reads the same two
// documents (skypilot-org/skypilot sky/catalog/data_fetchers/fetch_oci.py@14cffac4:
// SHAPES_URL, PRICE_LIST_URL, load_prices, gpu_shape_info, restated as
// data in testdata/reference-client.json, which
// TestRequestsAndShapeMatchReferenceClient checks against).
//
// Each active GPU shape becomes one on-demand offer: its "ocpu" product's
// part price times the shape's GPU count when the part is billed per GPU
// hour (metricName "GPU Per Hour"), times its OCPU count when billed per
// OCPU hour. Oracle publishes one global list price and no per-region
// availability, so the offer is placed in the catalog's any-OCI-region row
// (AnyRegion) and carries no stock reading; without that row the shapes
// are counted as skipped. Preemptible prices are not derived.
package oci

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/gpuscout/gpuscout/internal/importer/httpapi"
)

// DefaultPriceBase is the price list API's server; PricePath its path.
const (
	DefaultPriceBase = "https://apexapps.oracle.com"
	PricePath        = "/pls/apex/cetools/api/v1/products/"
)

// DefaultShapesBase is the Cost Estimator data's server; ShapesPath its
// path.
const (
	DefaultShapesBase = "https://www.oracle.com"
	ShapesPath        = "/a/ocom/docs/cloudestimator2/data/shapes.json"
)

// Currency is the price list currency asked for.
const Currency = "USD"

const sourceName = "oci"

// Importer fetches or parses the shape data and the price list.
type Importer struct {
	// PriceBase and ShapesBase override the servers (tests, a proxy).
	PriceBase, ShapesBase string
	// AnyRegion is the catalog's region code for any OCI region (the OCI
	// rows' ANY); empty skips every shape (counted).
	AnyRegion string
	Now       func() time.Time
	Retry     httpapi.Retry
}

// Name implements importer.Importer.
func (i *Importer) Name() string { return sourceName }

func (i *Importer) priceBase() string {
	if i.PriceBase != "" {
		return i.PriceBase
	}
	return DefaultPriceBase
}

func (i *Importer) shapesBase() string {
	if i.ShapesBase != "" {
		return i.ShapesBase
	}
	return DefaultShapesBase
}

var (
	shapesCall = httpapi.Call{Action: "shapes", Method: http.MethodGet, Path: ShapesPath, Header: http.Header{"Accept": {"application/json"}}}
	pricesCall = httpapi.Call{Action: "products", Method: http.MethodGet, Path: PricePath,
		Query: url.Values{"currencyCode": {Currency}}, Header: http.Header{"Accept": {"application/json"}}}
)

// Plan lists the requests Fetch makes (catalog update --dry-run).
func (i *Importer) Plan() []string {
	return []string{
		"GET " + i.shapesBase() + ShapesPath + " (no key): the Cost Estimator's shapes, their GPU counts and the parts they are billed under",
		"GET " + i.priceBase() + PricePath + "?currencyCode=" + Currency + " (no key): Oracle's price list, the pay-as-you-go price of every part (one global price, no per-region availability)",
	}
}

func (i *Importer) client(c *http.Client, base string) *httpapi.Client {
	return &httpapi.Client{Source: sourceName, HTTP: c, Base: base, Classify: classify, Retry: i.Retry, Now: i.Now, Codes: apiCodes}
}

// Fetch reads the shapes and the price list and joins them.
func (i *Importer) Fetch(ctx context.Context, c *http.Client, p importer.Progress) (*importer.Result, error) {
	shapes, err := i.client(c, i.shapesBase()).Do(ctx, shapesCall)
	if err != nil {
		return nil, err
	}
	prices, err := i.client(c, i.priceBase()).Do(ctx, pricesCall)
	if err != nil {
		return nil, err
	}
	res, err := parse(shapes.Body, prices.Body, i.AnyRegion, prices.Fetched, i.priceBase()+PricePath+"?currencyCode="+Currency)
	if err != nil {
		return nil, err
	}
	if p != nil {
		p(int64(len(shapes.Body)+len(prices.Body)), len(res.Offers))
	}
	return res, nil
}

// Parse reads a recorded answer: {"shapes": <shapes.json>, "products":
// <price list answer>} (catalog import).
func (i *Importer) Parse(ctx context.Context, r io.Reader, p importer.Progress) (*importer.Result, error) {
	b, err := httpapi.ReadRecorded(sourceName, r)
	if err != nil {
		return nil, err
	}
	shapes, prices, err := splitRecorded(b)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	if i.Now != nil {
		now = i.Now()
	}
	res, err := parse(shapes, prices, i.AnyRegion, now, i.priceBase()+PricePath+"?currencyCode="+Currency)
	if err != nil {
		return nil, err
	}
	if p != nil {
		p(int64(len(b)), len(res.Offers))
	}
	return res, nil
}
