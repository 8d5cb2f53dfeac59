package verda

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/golden"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/gpuscout/gpuscout/internal/importer/httpapi"
	"github.com/gpuscout/gpuscout/internal/importer/importertest"
)

var seen = time.Date(2026, 12, 6, 5, 0, 0, 0, time.UTC)

const (
	clientID = "verda-client-id-0123456789"
	secret   = "verda-client-secret-0123456789abcdef"
	token    = "verda-access-token-0123456789abcdef"
)

func render(res *importer.Result) string {
	var lines []string
	for _, o := range res.Offers {
		st := "no reading"
		if o.Stock != nil {
			st = string(o.Stock.State) + " seen " + o.Stock.Seen.Format(time.RFC3339)
		}
		lines = append(lines, fmt.Sprintf("offer %s %s %s; %s", o.ID(), o.Price.Hourly.StringFixed(2), o.Price.Currency, st))
	}
	sort.Strings(lines)
	for _, it := range res.Instances {
		lines = append(lines, fmt.Sprintf("instance %s: %s× %s (%s GB), %s vCPU, %s GB", it.ID(), it.GPUCount, it.GPUName, it.GPUMemoryGiB, it.VCPU, it.MemoryGiB))
	}
	for _, l := range res.Skipped.Lines() {
		lines = append(lines, "skipped "+l)
	}
	return strings.Join(lines, "\n") + "\n"
}

type recording struct {
	Types json.RawMessage `json:"instance_types"`
	Avail json.RawMessage `json:"availability"`
	Spot  json.RawMessage `json:"spot_availability"`
}

func recorded(t testing.TB) ([]byte, recording) {
	t.Helper()
	b, err := os.ReadFile("testdata/types/answer.json")
	if err != nil {
		t.Fatal(err)
	}
	var r recording
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return b, r
}

// Where can I deploy a Verda H100 now, on demand or as spot, and at what
// price? Each GPU type in each location its availability lists, on demand
// at price_per_hour and as spot at spot_price (only where spot is listed
// and below on-demand); a type listed nowhere gets no offer.
func TestRecordedAnswer(t *testing.T) {
	b, _ := recorded(t)
	res, err := (&Importer{Seen: seen}).Parse(context.Background(), bytes.NewReader(b), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := render(res)
	path := filepath.Join("testdata", "types", "golden.txt")
	golden.Assert(t, path, got)
}

// TestRequestsAndShapeMatchOfficialClient checks the token request and the
// three reads against Verda's Python SDK (base URL, paths, the
// client_credentials body, the Bearer header, the isSpot query) and the
// parser's JSON names against the fields the SDK reads.
func TestRequestsAndShapeMatchOfficialClient(t *testing.T) {
	var oc struct {
		BaseURL          string   `json:"base_url"`
		TokenPath        string   `json:"token_path"`
		TokenMethod      string   `json:"token_method"`
		TokenBodyKeys    []string `json:"token_body_keys"`
		GrantType        string   `json:"grant_type"`
		TypesPath        string   `json:"types_path"`
		AvailabilityPath string   `json:"availability_path"`
		AvailQuery       []string `json:"availability_query"`
		AuthHeader       string   `json:"auth_header"`
		TypeFields       []string `json:"type_fields"`
		CPUFields        []string `json:"cpu_fields"`
		GPUFields        []string `json:"gpu_fields"`
		MemoryFields     []string `json:"memory_fields"`
		AvailFields      []string `json:"availability_fields"`
		Env              []string `json:"env"`
	}
	b, err := os.ReadFile("testdata/official-client.json")
	if err != nil || json.Unmarshal(b, &oc) != nil {
		t.Fatalf("official client notes: %v", err)
	}
	_, rec := recorded(t)
	s := &httpapi.Stub{}
	s.Reply("POST", "/v1"+TokenPath, 200, []byte(`{"access_token": "`+token+`", "refresh_token": "r", "scope": "cloud-api-v1", "token_type": "Bearer", "expires_in": 3600}`))
	s.Reply("GET", "/v1"+TypesPath, 200, rec.Types)
	s.Reply("GET", "/v1"+AvailabilityPath, 200, rec.Avail)
	s.Reply("GET", "/v1"+AvailabilityPath, 200, rec.Spot)
	res, err := (&Importer{ClientID: clientID, ClientSecret: secret, Now: func() time.Time { return seen }}).Fetch(context.Background(), s.Client(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if u := s.Unused(); len(u) > 0 || len(s.Requests) != 4 || len(res.Offers) == 0 {
		t.Fatalf("unused %v, %d requests, %d offers", u, len(s.Requests), len(res.Offers))
	}
	tr := s.Requests[0]
	var body map[string]string
	if tr.Method != oc.TokenMethod || tr.URL.String() != oc.BaseURL+oc.TokenPath || json.Unmarshal(tr.Body, &body) != nil ||
		len(body) != len(oc.TokenBodyKeys) || body["grant_type"] != oc.GrantType || body["client_id"] != clientID || body["client_secret"] != secret {
		t.Errorf("token request %s %s %s, the SDK posts %v to %s%s", tr.Method, tr.URL, tr.Body, oc.TokenBodyKeys, oc.BaseURL, oc.TokenPath)
	}
	if tr.Header.Get("Authorization") != "" {
		t.Error("the token request carries an Authorization header")
	}
	for n, want := range []string{oc.TypesPath, oc.AvailabilityPath, oc.AvailabilityPath} {
		req := s.Requests[n+1]
		if req.Method != "GET" || req.URL.Scheme+"://"+req.URL.Host+req.URL.Path != oc.BaseURL+want {
			t.Errorf("request %s %s, the SDK reads %s%s", req.Method, req.URL, oc.BaseURL, want)
		}
		if got := req.Header.Get("Authorization"); got != strings.ReplaceAll(oc.AuthHeader, "{access_token}", token) {
			t.Errorf("Authorization %q", got)
		}
		for k := range req.URL.Query() {
			if !contains(oc.AvailQuery, k) {
				t.Errorf("query %q is not one the SDK sends %v", k, oc.AvailQuery)
			}
		}
	}
	if s.Requests[2].URL.Query().Get("isSpot") != "false" || s.Requests[3].URL.Query().Get("isSpot") != "true" {
		t.Errorf("availability queries %s, %s: want isSpot false then true", s.Requests[2].URL.RawQuery, s.Requests[3].URL.RawQuery)
	}
	names := func(typ reflect.Type) []string {
		var out []string
		for i := 0; i < typ.NumField(); i++ {
			n, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			out = append(out, n)
		}
		return out
	}
	within := func(what string, got, known []string) {
		for _, n := range got {
			if !contains(known, n) {
				t.Errorf("%s field %q is not one the SDK reads %v", what, n, known)
			}
		}
	}
	it := reflect.TypeOf(instanceType{})
	within("instance type", names(it), oc.TypeFields)
	for field, known := range map[string][]string{"CPU": oc.CPUFields, "GPU": oc.GPUFields, "Memory": oc.MemoryFields, "GPUMemory": oc.MemoryFields} {
		f, _ := it.FieldByName(field)
		within(field, names(f.Type), known)
	}
	within("availability", names(reflect.TypeOf(location{})), oc.AvailFields)
	if !reflect.DeepEqual(oc.Env, []string{EnvClientID, EnvClientSecret}) {
		t.Errorf("credential variables %s %s, the SDK documents %v", EnvClientID, EnvClientSecret, oc.Env)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Refused credentials stop at the token request, neither the secret nor
// the client ID in the error; none set is an error naming the variables.
func TestRefusedCredentials(t *testing.T) {
	s := &httpapi.Stub{}
	b, _ := os.ReadFile("testdata/refused/answer.json")
	s.Reply("POST", "/v1"+TokenPath, 401, bytes.Replace(b, []byte("Invalid client credentials"), []byte("Invalid client credentials "+clientID+" "+secret), 1))
	_, err := (&Importer{ClientID: clientID, ClientSecret: secret, Now: func() time.Time { return seen }}).Fetch(context.Background(), s.Client(), nil)
	var ae *importer.APIError
	if !errors.As(err, &ae) || !ae.Fatal() || len(s.Requests) != 1 {
		t.Fatalf("err %v after %d requests", err, len(s.Requests))
	}
	if strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), clientID) {
		t.Errorf("credentials in the error: %v", err)
	}
	if _, err := (&Importer{}).Fetch(context.Background(), s.Client(), nil); err == nil || !strings.Contains(err.Error(), EnvClientSecret) {
		t.Errorf("no credentials: %v", err)
	}
}

// Answers that are not the API's are parse errors.
func TestNotAnAnswer(t *testing.T) {
	_, rec := recorded(t)
	for _, c := range [][3]string{{`[]`, string(rec.Avail), string(rec.Spot)}, {`{}`, string(rec.Avail), string(rec.Spot)},
		{string(rec.Types), `{}`, string(rec.Spot)}, {string(rec.Types), string(rec.Avail), `null`}, {`<html>`, `[]`, `[]`}} {
		if _, err := parse([]byte(c[0]), []byte(c[1]), []byte(c[2]), seen, seen, "ref"); err == nil {
			t.Errorf("%.30q / %.30q / %.30q parsed", c[0], c[1], c[2])
		}
	}
}

// FuzzParse: any instance-types text gives offers or an error, never a
// panic; every offer has a positive USD price below the bound, a
// location, and a spot price below its on-demand price.
func FuzzParse(f *testing.F) {
	_, rec := recorded(f)
	for _, s := range importertest.Seeds(rec.Types, "") {
		f.Add(s)
	}
	f.Add([]byte(`[{"instance_type":"1H100.80S.32V","price_per_hour":"1e30","gpu":{"number_of_gpus":1}}]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		res, err := parse(b, rec.Avail, rec.Spot, seen, seen, "ref")
		if err != nil {
			return
		}
		for _, o := range res.Offers {
			if !o.Price.Hourly.IsPositive() || o.Price.Hourly.GreaterThan(maxPerHour) || o.Price.Currency != "USD" || o.RegionCode == "" ||
				(o.Billing != catalog.OnDemand && o.Billing != catalog.Spot) {
				t.Fatalf("offer %+v", o)
			}
		}
	})
}
