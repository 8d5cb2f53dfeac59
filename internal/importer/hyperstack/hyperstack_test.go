package hyperstack

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

const key = "hyperstack-secret-key-0123456789abcdef"

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
		lines = append(lines, fmt.Sprintf("instance %s: %s× %s, %s vCPU, %s GiB", it.ID(), it.GPUCount, it.GPUName, it.VCPU, it.MemoryGiB))
	}
	for _, l := range res.Skipped.Lines() {
		lines = append(lines, "skipped "+l)
	}
	return strings.Join(lines, "\n") + "\n"
}

func recorded(t *testing.T) (whole, flavors, pricebook []byte) {
	t.Helper()
	b, err := os.ReadFile("testdata/flavors/answer.json")
	if err != nil {
		t.Fatal(err)
	}
	var rec struct{ Flavors, Pricebook json.RawMessage }
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	return b, rec.Flavors, rec.Pricebook
}

// Can I get an 8× H100 flavor at Hyperstack now, where, and at what price?
// Each GPU flavor in each region it is listed in, priced as its GPU's
// pricebook value × its GPU count, with stock_available as the reading;
// flavors whose GPU has no price, CPU flavors and malformed names are not
// offers.
func TestRecordedAnswer(t *testing.T) {
	b, _, _ := recorded(t)
	res, err := (&Importer{Seen: seen}).Parse(context.Background(), bytes.NewReader(b), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := render(res)
	path := filepath.Join("testdata", "flavors", "golden.txt")
	golden.Assert(t, path, got)
}

// TestRequestsAndShapeMatchOfficialClient checks the two requests against
// Hyperstack's Python SDK (host, resource paths, the api_key header) and
// the parser's JSON names against its models.
func TestRequestsAndShapeMatchOfficialClient(t *testing.T) {
	var oc struct {
		Host             string   `json:"host"`
		FlavorsPath      string   `json:"flavors_path"`
		PricebookPath    string   `json:"pricebook_path"`
		Method           string   `json:"method"`
		AuthIn           string   `json:"auth_in"`
		AuthKey          string   `json:"auth_key"`
		FlavorListFields []string `json:"flavor_list_fields"`
		FlavorItemFields []string `json:"flavor_item_fields"`
		FlavorFields     []string `json:"flavor_fields"`
		PricebookFields  []string `json:"pricebook_fields"`
	}
	b, err := os.ReadFile("testdata/official-client.json")
	if err != nil || json.Unmarshal(b, &oc) != nil {
		t.Fatalf("official client notes: %v", err)
	}
	_, flavors, pricebook := recorded(t)
	s := &httpapi.Stub{}
	s.Reply("GET", "/v1"+FlavorsPath, 200, flavors)
	s.Reply("GET", "/v1"+PricebookPath, 200, pricebook)
	res, err := (&Importer{APIKey: key, Now: func() time.Time { return seen }}).Fetch(context.Background(), s.Client(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if u := s.Unused(); len(u) > 0 || len(s.Requests) != 2 || len(res.Offers) == 0 {
		t.Fatalf("unused %v, %d requests, %d offers", u, len(s.Requests), len(res.Offers))
	}
	for n, path := range []string{oc.FlavorsPath, oc.PricebookPath} {
		req := s.Requests[n]
		if req.Method != oc.Method || req.URL.Scheme+"://"+req.URL.Host+req.URL.Path != oc.Host+path || req.URL.RawQuery != "" {
			t.Errorf("request %s %s, the SDK sends %s %s%s", req.Method, req.URL, oc.Method, oc.Host, path)
		}
		if oc.AuthIn != "header" || req.Header.Get(oc.AuthKey) != key || req.Header.Get("Authorization") != "" {
			t.Errorf("key sent as %v, the SDK sends it in the %s header", req.Header, oc.AuthKey)
		}
	}
	within := func(what string, typ reflect.Type, known []string) {
		for i := 0; i < typ.NumField(); i++ {
			n, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			found := false
			for _, k := range known {
				found = found || k == n
			}
			if !found {
				t.Errorf("%s field %q is not in the SDK's model %v", what, n, known)
			}
		}
	}
	within("FlavorListResponse", reflect.TypeOf(flavorsAnswer{}), oc.FlavorListFields)
	within("FlavorItemGetResponse", reflect.TypeOf(flavorItem{}), oc.FlavorItemFields)
	within("FlavorFields", reflect.TypeOf(flavor{}), oc.FlavorFields)
	within("PricebookModel", reflect.TypeOf(priceItem{}), oc.PricebookFields)
}

// A refused key stops at once, the key never in the error; no key is an
// error naming the variable.
func TestRefusedKey(t *testing.T) {
	s := &httpapi.Stub{}
	b, _ := os.ReadFile("testdata/refused/answer.json")
	s.Reply("GET", "/v1"+FlavorsPath, 401, bytes.Replace(b, []byte("Invalid API key"), []byte("Invalid API key "+key), 1))
	_, err := (&Importer{APIKey: key, Now: func() time.Time { return seen }}).Fetch(context.Background(), s.Client(), nil)
	var ae *importer.APIError
	if !errors.As(err, &ae) || !ae.Fatal() || len(s.Requests) != 1 {
		t.Fatalf("err %v after %d requests", err, len(s.Requests))
	}
	if strings.Contains(err.Error(), key) {
		t.Errorf("key in the error: %v", err)
	}
	if _, err := (&Importer{}).Fetch(context.Background(), s.Client(), nil); err == nil || !strings.Contains(err.Error(), EnvAPIKey) {
		t.Errorf("no key: %v", err)
	}
	// An HTTP 200 answer with status false is an error too, never an
	// empty import.
	s2 := &httpapi.Stub{}
	s2.Reply("GET", "/v1"+FlavorsPath, 200, []byte(`{"status": false, "message": "maintenance"}`))
	if _, err := (&Importer{APIKey: key, Now: func() time.Time { return seen }}).Fetch(context.Background(), s2.Client(), nil); err == nil || !strings.Contains(err.Error(), "maintenance") {
		t.Errorf("status false: %v", err)
	}
}

// Answers that are not the two documents are parse errors.
func TestNotAnAnswer(t *testing.T) {
	_, flavors, pricebook := recorded(t)
	for _, c := range [][2]string{{`{}`, string(pricebook)}, {string(flavors), `[]`}, {string(flavors), `{}`}, {`{"status": true, "data": []}`, string(pricebook)}, {`<html>`, string(pricebook)}} {
		if _, err := parse([]byte(c[0]), []byte(c[1]), seen, seen, "ref"); err == nil {
			t.Errorf("%.40q / %.40q parsed", c[0], c[1])
		}
	}
}

// FuzzParse: any flavors text gives offers or an error, never a panic;
// every offer has a positive USD price below the bound and a region.
func FuzzParse(f *testing.F) {
	b, _ := os.ReadFile("testdata/flavors/answer.json")
	var rec struct{ Flavors, Pricebook json.RawMessage }
	json.Unmarshal(b, &rec)
	for _, s := range importertest.Seeds(rec.Flavors, "") {
		f.Add(s)
	}
	f.Add([]byte(`{"status":true,"data":[{"gpu":"H100-80G-PCIe","flavors":[{"name":"x","region_name":"R","gpu_count":64}]}]}`))
	f.Fuzz(func(t *testing.T, fl []byte) {
		res, err := parse(fl, rec.Pricebook, seen, seen, "ref")
		if err != nil {
			return
		}
		for _, o := range res.Offers {
			if !o.Price.Hourly.IsPositive() || o.Price.Hourly.GreaterThan(maxPerHour) || o.Price.Currency != "USD" || o.RegionCode == "" || o.Billing != catalog.OnDemand {
				t.Fatalf("offer %+v", o)
			}
		}
	})
}
