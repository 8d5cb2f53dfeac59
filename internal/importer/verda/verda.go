// Package verda imports Verda's (formerly DataCrunch) instance prices and
// where each type can be deployed now from the Verda public API
// (https://api.verda.com/v1/docs): an OAuth2 client-credentials token,
// then three reads,
//
//	POST https://api.verda.com/v1/oauth2/token {"grant_type": "client_credentials", "client_id", "client_secret"}
//	GET  https://api.verda.com/v1/instance-types
//	GET  https://api.verda.com/v1/instance-availability?isSpot=false
//	GET  https://api.verda.com/v1/instance-availability?isSpot=true
//	Authorization: Bearer <access_token>
//
// as Verda's official Python SDK sends them (DataCrunch-io/datacrunch-python,
// now verda-cloud/sdk-python, @f0c0829c: AuthenticationService TOKEN_ENDPOINT
// and its client_credentials payload, InstanceTypesService.get,
// InstancesService.get_availabilities with isSpot, the base URL
// https://api.verda.com/v1, errors {"code", "message"}), restated as data in
// testdata/official-client.json, which TestRequestsAndShapeMatchOfficialClient
// checks the requests and the parser's fields against. Instance types are
// [{instance_type, price_per_hour, spot_price, description, cpu
// {number_of_cores}, gpu {description, number_of_gpus}, memory
// {size_in_gigabytes}, gpu_memory {size_in_gigabytes}, ...}] (prices as
// decimal strings); availability is [{location_code, availabilities:
// [instance_type]}].
//
// Each GPU type becomes an on-demand offer (price_per_hour) in each
// location that lists it available, and a spot offer (spot_price) in each
// location that lists it available as spot, both seen available at the
// fetch; a type listed nowhere is counted as skipped (no location to
// place its price in). The credentials are read from VERDA_CLIENT_ID and
// VERDA_CLIENT_SECRET (the variables Verda's SDK documents), sent only in
// the token request's body, and, with the access token, redacted from
// every error.
package verda

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/gpuscout/gpuscout/internal/importer/httpapi"
)

// The credential variables.
const (
	EnvClientID     = "VERDA_CLIENT_ID"
	EnvClientSecret = "VERDA_CLIENT_SECRET"
)

// DefaultBase is the API's server and version prefix.
const DefaultBase = "https://api.verda.com/v1"

// The endpoints.
const (
	TokenPath        = "/oauth2/token"
	TypesPath        = "/instance-types"
	AvailabilityPath = "/instance-availability"
)

const sourceName = "verda"

// Importer fetches or parses the instance types and their availability.
type Importer struct {
	ClientID, ClientSecret string
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

func availabilityCall(spot bool) httpapi.Call {
	return httpapi.Call{Action: "instance-availability", Method: http.MethodGet, Path: AvailabilityPath,
		Query: url.Values{"isSpot": {fmt.Sprint(spot)}}, Header: http.Header{"Accept": {"application/json"}}}
}

var typesCall = httpapi.Call{Action: "instance-types", Method: http.MethodGet, Path: TypesPath, Header: http.Header{"Accept": {"application/json"}}}

// Plan lists the requests Fetch makes (catalog update --dry-run).
func (i *Importer) Plan() []string {
	b := i.base()
	return []string{
		"POST " + b + TokenPath + " (client_credentials from $" + EnvClientID + " and $" + EnvClientSecret + "): an access token",
		"GET " + b + TypesPath + " (Bearer token): price_per_hour and spot_price of every instance type",
		"GET " + b + AvailabilityPath + "?isSpot=false and ?isSpot=true (Bearer token): the locations where each type can be deployed now, on demand and as spot",
	}
}

func (i *Importer) client(c *http.Client, s httpapi.Signer) *httpapi.Client {
	return &httpapi.Client{Source: sourceName, HTTP: c, Base: i.base(), Sign: s, Classify: classify, Retry: i.Retry, Now: i.Now, Codes: apiCodes}
}

// token asks for an access token with the client credentials.
func (i *Importer) token(ctx context.Context, c *http.Client) (string, error) {
	body, _ := json.Marshal(map[string]string{"grant_type": "client_credentials", "client_id": i.ClientID, "client_secret": i.ClientSecret}) // strings always marshal
	ans, err := i.client(c, httpapi.Bearer{Also: []string{i.ClientSecret, i.ClientID}}).Do(ctx, httpapi.Call{Action: "oauth2-token", Method: http.MethodPost, Path: TokenPath, Body: body,
		Header: http.Header{"Content-Type": {"application/json"}}})
	if err != nil {
		return "", err
	}
	var t struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.Unmarshal(ans.Body, &t); err != nil || t.AccessToken == "" {
		return "", &importer.ParseError{Source: sourceName, Field: "access_token", Err: errors.New("the token answer holds no access_token")}
	}
	return t.AccessToken, nil
}

// Fetch gets a token, reads the types and both availabilities, and joins
// them; the readings are seen at the on-demand availability's fetch.
func (i *Importer) Fetch(ctx context.Context, c *http.Client, p importer.Progress) (*importer.Result, error) {
	if i.ClientID == "" || i.ClientSecret == "" {
		return nil, fmt.Errorf("verda: no client credentials (set %s and %s)", EnvClientID, EnvClientSecret)
	}
	tok, err := i.token(ctx, c)
	if err != nil {
		return nil, err
	}
	cl := i.client(c, httpapi.Bearer{Token: tok, Also: []string{i.ClientSecret, i.ClientID}})
	types, err := cl.Do(ctx, typesCall)
	if err != nil {
		return nil, err
	}
	onDemand, err := cl.Do(ctx, availabilityCall(false))
	if err != nil {
		return nil, err
	}
	spot, err := cl.Do(ctx, availabilityCall(true))
	if err != nil {
		return nil, err
	}
	res, err := parse(types.Body, onDemand.Body, spot.Body, onDemand.Fetched, onDemand.Fetched, i.base()+TypesPath)
	if err != nil {
		return nil, err
	}
	if p != nil {
		p(int64(len(types.Body)+len(onDemand.Body)+len(spot.Body)), len(res.Offers))
	}
	return res, nil
}

// Parse reads a recorded answer {"instance_types": [...],
// "availability": [...], "spot_availability": [...]} (catalog import).
func (i *Importer) Parse(ctx context.Context, r io.Reader, p importer.Progress) (*importer.Result, error) {
	b, err := httpapi.ReadRecorded(sourceName, r)
	if err != nil {
		return nil, err
	}
	var rec struct {
		Types json.RawMessage `json:"instance_types"`
		Avail json.RawMessage `json:"availability"`
		Spot  json.RawMessage `json:"spot_availability"`
	}
	if err := json.Unmarshal(b, &rec); err != nil || len(rec.Types) == 0 || len(rec.Avail) == 0 || len(rec.Spot) == 0 {
		return nil, &importer.ParseError{Source: sourceName, Field: "instance_types", Err: errors.New(`not a recorded answer: want {"instance_types", "availability", "spot_availability"}`)}
	}
	fetched := httpapi.RecordedAt(i.Seen, i.Now)
	res, err := parse(rec.Types, rec.Avail, rec.Spot, fetched, i.Seen, i.base()+TypesPath)
	if err != nil {
		return nil, err
	}
	if p != nil {
		p(int64(len(b)), len(res.Offers))
	}
	return res, nil
}
