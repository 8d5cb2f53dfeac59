package lambda

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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

const key = "secret_lambda_key_0123456789abcdef"

// render is a result as the golden files hold it: one offer a line (ID,
// price, currency, stock reading), then the instances and the skips.
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
		lines = append(lines, fmt.Sprintf("instance %s: %s× %s (%s GB), %s vCPU, %s GiB", it.ID(), it.GPUCount, it.GPUName, it.GPUMemoryGiB, it.VCPU, it.MemoryGiB))
	}
	for _, l := range res.Skipped.Lines() {
		lines = append(lines, "skipped "+l)
	}
	return strings.Join(lines, "\n") + "\n"
}

func assertGolden(t *testing.T, dir, got string) {
	t.Helper()
	path := filepath.Join("testdata", dir, "golden.txt")
	golden.Assert(t, path, got)
}

// TestRecordedAnswers: each recorded answer gives its golden offers: an
// offer in each region with capacity, one in the any-region row (with no
// capacity where no region has any), malformed entries skipped and
// counted.
func TestRecordedAnswers(t *testing.T) {
	for _, dir := range []string{"capacity", "openapi-example"} {
		t.Run(dir, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", dir, "answer.json"))
			if err != nil {
				t.Fatal(err)
			}
			res, err := (&Importer{AnyRegion: "ANY", Seen: seen}).Parse(context.Background(), bytes.NewReader(b), nil)
			if err != nil {
				t.Fatal(err)
			}
			assertGolden(t, dir, render(res))
		})
	}
}

// A recorded answer of unknown age keeps its prices but no capacity
// reading: "seen available" needs to know when.
func TestRecordedAnswerOfUnknownAgeHasNoReading(t *testing.T) {
	b, _ := os.ReadFile("testdata/capacity/answer.json")
	res, err := (&Importer{AnyRegion: "ANY", Now: func() time.Time { return seen }}).Parse(context.Background(), bytes.NewReader(b), nil)
	if err != nil || len(res.Offers) == 0 {
		t.Fatalf("%v, %d offers", err, len(res.Offers))
	}
	for _, o := range res.Offers {
		if o.Stock != nil {
			t.Errorf("%s has a reading %+v", o.ID(), o.Stock)
		}
	}
}

// TestRequestAndParseMatchOpenAPI checks the request against Lambda's
// OpenAPI document (server, path, method, bearer scheme) and the parser
// against its schemas: every fixture holds the fields the schemas
// require, and the document's own example parses to its price (1592
// cents: 15.92 USD an hour) in its region.
func TestRequestAndParseMatchOpenAPI(t *testing.T) {
	var spec struct {
		Servers []struct{ URL string }
		Paths   map[string]map[string]struct {
			OperationID string `json:"operationId"`
		}
		SecuritySchemes map[string]struct{ Type, Scheme string } `json:"securitySchemes"`
		Schemas         map[string]struct {
			Required []string
			Code     string
		}
	}
	b, err := os.ReadFile("testdata/openapi.json")
	if err != nil || json.Unmarshal(b, &spec) != nil {
		t.Fatalf("openapi excerpt: %v", err)
	}
	s := &httpapi.Stub{}
	answer, _ := os.ReadFile("testdata/openapi-example/answer.json")
	s.Reply("GET", Path, 200, answer)
	imp := &Importer{APIKey: key, Base: strings.TrimSuffix(spec.Servers[0].URL, "/"), AnyRegion: "ANY", Now: func() time.Time { return seen }}
	res, err := imp.Fetch(context.Background(), s.Client(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if u := s.Unused(); len(u) > 0 {
		t.Errorf("stubs never used: %v", u)
	}
	req := s.Requests[0]
	if op, ok := spec.Paths[req.URL.Path]["get"]; !ok || op.OperationID != "listInstanceTypes" || req.Method != "GET" {
		t.Errorf("request %s %s is not the reference's listInstanceTypes", req.Method, req.URL.Path)
	}
	if req.URL.Scheme+"://"+req.URL.Host+"/" != spec.Servers[0].URL || req.URL.RawQuery != "" {
		t.Errorf("request goes to %s, not the reference's server %s", req.URL, spec.Servers[0].URL)
	}
	if sc := spec.SecuritySchemes["bearerAuth"]; sc.Scheme != "bearer" || req.Header.Get("Authorization") != "Bearer "+key {
		t.Errorf("Authorization %q, scheme %+v", req.Header.Get("Authorization"), sc)
	}
	var got []string
	for _, o := range res.Offers {
		got = append(got, o.ID()+" "+o.Price.Hourly.String()+" "+string(o.Stock.State))
	}
	sort.Strings(got)
	if want := "lambda/gpu_8x_example/ANY/on-demand 15.92 available,lambda/gpu_8x_example/us-west-1/on-demand 15.92 available"; strings.Join(got, ",") != want {
		t.Errorf("example parsed to %v, want %s", got, want)
	}
	// Every fixture holds what the schemas require.
	for _, dir := range []string{"capacity", "openapi-example"} {
		var a struct {
			Data map[string]map[string]json.RawMessage
		}
		b, _ := os.ReadFile(filepath.Join("testdata", dir, "answer.json"))
		if err := json.Unmarshal(b, &a); err != nil {
			t.Fatal(err)
		}
		for name, it := range a.Data {
			requireFields(t, dir+" "+name, it, spec.Schemas["InstanceTypesItem"].Required)
			var inner map[string]json.RawMessage
			json.Unmarshal(it["instance_type"], &inner)
			requireFields(t, dir+" "+name+".instance_type", inner, spec.Schemas["InstanceType"].Required)
			var regions []map[string]json.RawMessage
			json.Unmarshal(it["regions_with_capacity_available"], &regions)
			for _, r := range regions {
				requireFields(t, dir+" "+name+" region", r, spec.Schemas["Region"].Required)
			}
		}
	}
	var e struct{ Error map[string]json.RawMessage }
	b, _ = os.ReadFile("testdata/refused/answer.json")
	json.Unmarshal(b, &e)
	requireFields(t, "refused", e.Error, spec.Schemas["ApiErrorUnauthorized"].Required)
	if string(e.Error["code"]) != `"`+spec.Schemas["ApiErrorUnauthorized"].Code+`"` {
		t.Errorf("refused fixture code %s", e.Error["code"])
	}
}

func requireFields(t *testing.T, where string, obj map[string]json.RawMessage, required []string) {
	t.Helper()
	for _, f := range required {
		if _, ok := obj[f]; !ok {
			t.Errorf("%s lacks %s, which the reference requires", where, f)
		}
	}
}

// A refused key stops at once with Lambda's code and message, the key
// never in the error.
func TestRefusedKey(t *testing.T) {
	s := &httpapi.Stub{}
	b, _ := os.ReadFile("testdata/refused/answer.json")
	s.Reply("GET", Path, 401, bytes.Replace(b, []byte("API key was"), []byte("API key "+key+" was"), 1))
	_, err := (&Importer{APIKey: key, Now: func() time.Time { return seen }}).Fetch(context.Background(), s.Client(), nil)
	var ae *importer.APIError
	if !errors.As(err, &ae) || !ae.Fatal() || ae.Code != "global/invalid-api-key" || len(s.Requests) != 1 {
		t.Fatalf("err %v after %d requests", err, len(s.Requests))
	}
	if strings.Contains(err.Error(), key) {
		t.Errorf("key in the error: %v", err)
	}
	if _, err := (&Importer{}).Fetch(context.Background(), s.Client(), nil); err == nil || !strings.Contains(err.Error(), EnvAPIKey) {
		t.Errorf("no key: %v", err)
	}
}

// Answers that are not instance-types answers are parse errors, never
// an empty import.
func TestNotAnAnswer(t *testing.T) {
	for _, body := range []string{``, `[]`, `{}`, `{"data": []}`, `{"data": {}} trailing`, `<html>`} {
		if _, err := (&Importer{Seen: seen}).Parse(context.Background(), strings.NewReader(body), nil); err == nil {
			t.Errorf("%q parsed", body)
		}
	}
}

// FuzzParse: any bytes give offers or an error, never a panic, and every
// offer kept has a positive USD price and a region.
func FuzzParse(f *testing.F) {
	for _, dir := range []string{"capacity", "openapi-example", "refused"} {
		b, _ := os.ReadFile(filepath.Join("testdata", dir, "answer.json"))
		for _, s := range importertest.Seeds(b, "") {
			f.Add(s)
		}
	}
	f.Add([]byte(`{"data":{"x":{"instance_type":{"name":"x","price_cents_per_hour":1e30,"specs":{"gpus":1}}}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		res, err := parse(b, "ANY", seen, seen, DefaultBase+Path)
		if err != nil {
			return
		}
		for _, o := range res.Offers {
			if !o.Price.Hourly.IsPositive() || o.Price.Currency != "USD" || o.RegionCode == "" || o.Stock == nil || o.Stock.State == "" {
				t.Fatalf("offer %+v", o)
			}
			if o.Billing != catalog.OnDemand {
				t.Fatalf("billing %s", o.Billing)
			}
		}
	})
}
