// Package lambda imports Lambda's on-demand prices and the regions with
// capacity now from the Lambda Cloud API: one request,
//
//	GET https://cloud.lambda.ai/api/v1/instance-types
//	Authorization: Bearer $LAMBDA_API_KEY
//
// documented as listInstanceTypes in Lambda's Cloud API reference
// (https://docs-api.lambda.ai/api/cloud#listInstanceTypes; the OpenAPI
// document, version 1.10.0, whose servers, bearer scheme and
// InstanceTypes schema TestRequestAndParseMatchOpenAPI checks the request
// and the parser against, from the copy in api-evangelist/lambda-labs
// openapi/lambda-labs-instances-api-openapi.yml@b2bb310d5473). The answer
// is {"data": {type name: {"instance_type": {name, description,
// gpu_description, price_cents_per_hour, specs {vcpus, memory_gib,
// storage_gib, gpus}}, "regions_with_capacity_available": [{name,
// description}]}}}; errors are {"error": {code, message, suggestion}}.
//
// Each type becomes an on-demand offer (price_cents_per_hour / 100 USD,
// one price in every region) in each region the answer lists with
// capacity, seen available at the fetch; and, when AnyRegion is set (the
// catalog's "any Lambda region" row), one offer there, seen available when
// some region has capacity and with none when no region has: a type with
// no capacity anywhere is priced without claiming a region. The key is
// read from LAMBDA_API_KEY, sent only in the Authorization header and
// redacted from every error.
package lambda

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/gpuscout/gpuscout/internal/importer/httpapi"
)

// EnvAPIKey is the environment variable holding the Lambda Cloud API key.
const EnvAPIKey = "LAMBDA_API_KEY"

// DefaultBase is the Cloud API's production server.
const DefaultBase = "https://cloud.lambda.ai"

// Path is the instance types endpoint.
const Path = "/api/v1/instance-types"

// sourceName names the importer.
const sourceName = "lambda"

// Importer fetches or parses the instance types answer.
type Importer struct {
	APIKey string
	// Base overrides DefaultBase (tests, a proxy).
	Base string
	// AnyRegion, when set, is the catalog's region code that stands for
	// any Lambda region: each type gets one offer there too.
	AnyRegion string
	// Seen is when the answer Parse reads was fetched: its capacity
	// readings are kept with this time. Zero (a recorded answer of unknown
	// age) keeps the prices and drops the readings.
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

// call is the one request.
var call = httpapi.Call{Action: "instance-types", Method: http.MethodGet, Path: Path,
	Header: http.Header{"Accept": {"application/json"}}}

// Plan lists the request Fetch makes (catalog update --dry-run).
func (i *Importer) Plan() []string {
	return []string{"GET " + i.base() + Path + " (Authorization: Bearer $" + EnvAPIKey + "): on-demand price and regions with capacity of every instance type"}
}

// client is the Lambda Cloud API's client.
func (i *Importer) client(c *http.Client) *httpapi.Client {
	return &httpapi.Client{Source: sourceName, HTTP: c, Base: i.base(), Sign: httpapi.Bearer{Token: i.APIKey},
		Classify: classify, Retry: i.Retry, Now: i.Now, Codes: apiCodes}
}

// Fetch asks the API for the instance types and parses the answer, whose
// capacity readings are seen at the fetch.
func (i *Importer) Fetch(ctx context.Context, c *http.Client, p importer.Progress) (*importer.Result, error) {
	if i.APIKey == "" {
		return nil, fmt.Errorf("lambda: no API key (set %s)", EnvAPIKey)
	}
	ans, err := i.client(c).Do(ctx, call)
	if err != nil {
		return nil, err
	}
	res, err := parse(ans.Body, i.AnyRegion, ans.Fetched, ans.Fetched, i.base()+Path)
	if err != nil {
		return nil, err
	}
	if p != nil {
		p(int64(len(ans.Body)), len(res.Offers))
	}
	return res, nil
}

// Parse reads a recorded instance types answer (catalog import).
func (i *Importer) Parse(ctx context.Context, r io.Reader, p importer.Progress) (*importer.Result, error) {
	b, err := httpapi.ReadRecorded(sourceName, r)
	if err != nil {
		return nil, err
	}
	fetched := httpapi.RecordedAt(i.Seen, i.Now)
	res, err := parse(b, i.AnyRegion, fetched, i.Seen, i.base()+Path)
	if err != nil {
		return nil, err
	}
	if p != nil {
		p(int64(len(b)), len(res.Offers))
	}
	return res, nil
}
