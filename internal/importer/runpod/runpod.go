// Package runpod imports RunPod's GPU prices and stock from its GraphQL
// API: one request,
//
//	POST https://api.runpod.io/graphql
//	Authorization: Bearer $RUNPOD_API_KEY
//	{"query": "query GpuTypes { gpuTypes { ... } }"}
//
// as RunPod's GraphQL API reference (https://graphql-spec.runpod.io/,
// Query.gpuTypes, GpuType, LowestPrice) describes it and as RunPod's own
// Python client sends it (runpod/runpod-python runpod/api/graphql.py@eaecd2d4
// run_graphql_query: the endpoint, the Bearer header, the {"query"} body,
// errors as {"errors": [{"message"}]} with HTTP 200; the GpuType fields
// from runpod/api/queries/gpus.py@ed85bf1a generate_gpu_query), which
// TestRequestAndFieldsMatchOfficialClient checks. Besides the client's
// fields the query asks lowestPrice(input: {gpuCount: 1, secureCloud:
// true}) for stockStatus, the field RunPod's console reads (High, Medium,
// Low, or null when there is none).
//
// Each GPU type becomes instance types of 1, 2, 4 and 8 GPUs (up to
// maxGpuCount), named as the catalog's RunPod rows are
// ({n}x_{GPU}_{SECURE|COMMUNITY}, the GPU key of SkyPilot's RunPod table,
// skypilot-org/skypilot sky/provision/runpod/utils.py@22ce450d GPU_NAME_MAP,
// else the display name with dashes), priced per GPU (securePrice,
// communityPrice; secureSpotPrice and communitySpotPrice as spot) times the
// count, on-demand in the catalog's any-data-centre row (AnyRegion) for
// Secure Cloud, and in CommunityRegion for Community Cloud when the
// catalog has one (else counted as skipped). The one-GPU Secure Cloud
// offer carries the stock reading: High or Medium is available, Low is
// low, none is none. The key is read from RUNPOD_API_KEY, sent only in the
// Authorization header and redacted from every error.
package runpod

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/gpuscout/gpuscout/internal/importer/httpapi"
)

// EnvAPIKey is the environment variable holding the RunPod API key.
const EnvAPIKey = "RUNPOD_API_KEY"

// DefaultBase is RunPod's API server.
const DefaultBase = "https://api.runpod.io"

// Path is the GraphQL endpoint.
const Path = "/graphql"

const sourceName = "runpod"

// Query is the GraphQL query sent: every GPU type's prices, and the stock
// status of one Secure Cloud GPU.
const Query = `query GpuTypes { gpuTypes { id displayName memoryInGb maxGpuCount secureCloud communityCloud securePrice communityPrice secureSpotPrice communitySpotPrice lowestPrice(input: {gpuCount: 1, secureCloud: true}) { stockStatus } } }`

// Importer fetches or parses the gpuTypes answer.
type Importer struct {
	APIKey string
	Base   string
	// AnyRegion is the catalog's region code for any Secure Cloud data
	// centre (the RunPod rows' ANY).
	AnyRegion string
	// CommunityRegion, when set, is the region code for Community Cloud
	// hosts; empty skips Community Cloud prices (counted).
	CommunityRegion string
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

func (i *Importer) anyRegion() string {
	if i.AnyRegion != "" {
		return i.AnyRegion
	}
	return "ANY"
}

// call is the one request.
func call() httpapi.Call {
	body, _ := json.Marshal(map[string]string{"query": Query}) // a string always marshals
	return httpapi.Call{Action: "gpuTypes", Method: http.MethodPost, Path: Path, Body: body,
		Header: http.Header{"Content-Type": {"application/json"}}}
}

// Plan lists the request Fetch makes (catalog update --dry-run).
func (i *Importer) Plan() []string {
	return []string{"POST " + i.base() + Path + " (Authorization: Bearer $" + EnvAPIKey + "): GraphQL gpuTypes: Secure and Community Cloud prices, spot prices, and the stock status of one Secure Cloud GPU"}
}

func (i *Importer) client(c *http.Client) *httpapi.Client {
	return &httpapi.Client{Source: sourceName, HTTP: c, Base: i.base(), Sign: httpapi.Bearer{Token: i.APIKey},
		Classify: classify, Retry: i.Retry, Now: i.Now, Codes: apiCodes}
}

// Fetch asks the API for the GPU types and parses the answer.
func (i *Importer) Fetch(ctx context.Context, c *http.Client, p importer.Progress) (*importer.Result, error) {
	if i.APIKey == "" {
		return nil, fmt.Errorf("runpod: no API key (set %s)", EnvAPIKey)
	}
	ans, err := i.client(c).Do(ctx, call())
	if err != nil {
		return nil, err
	}
	res, err := parse(ans.Body, i.anyRegion(), i.CommunityRegion, ans.Fetched, ans.Fetched, i.base()+Path)
	if err != nil {
		return nil, err
	}
	if p != nil {
		p(int64(len(ans.Body)), len(res.Offers))
	}
	return res, nil
}

// Parse reads a recorded gpuTypes answer (catalog import).
func (i *Importer) Parse(ctx context.Context, r io.Reader, p importer.Progress) (*importer.Result, error) {
	b, err := httpapi.ReadRecorded(sourceName, r)
	if err != nil {
		return nil, err
	}
	fetched := httpapi.RecordedAt(i.Seen, i.Now)
	res, err := parse(b, i.anyRegion(), i.CommunityRegion, fetched, i.Seen, i.base()+Path)
	if err != nil {
		return nil, err
	}
	if p != nil {
		p(int64(len(b)), len(res.Offers))
	}
	return res, nil
}
