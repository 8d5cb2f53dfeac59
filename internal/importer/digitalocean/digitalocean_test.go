package digitalocean

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

const token = "dop_v1_secret_test_token_0123456789abcdef"

// render is a result as the golden files hold it.
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
		lines = append(lines, fmt.Sprintf("instance %s: %s× %s (%s GiB), %s vCPU, %s GiB", it.ID(), it.GPUCount, it.GPUName, it.GPUMemoryGiB, it.VCPU, it.MemoryGiB))
	}
	for _, l := range res.Skipped.Lines() {
		lines = append(lines, "skipped "+l)
	}
	return strings.Join(lines, "\n") + "\n"
}

// Where can I create an H100 Droplet now, and at what price? Each GPU size
// is priced in each region it lists, with its available flag as the
// reading; CPU sizes, sizes with no price and malformed regions are
// skipped and counted.
func TestRecordedAnswer(t *testing.T) {
	b, err := os.ReadFile("testdata/sizes/answer.json")
	if err != nil {
		t.Fatal(err)
	}
	res, err := (&Importer{Seen: seen}).Parse(context.Background(), bytes.NewReader(b), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := render(res)
	path := filepath.Join("testdata", "sizes", "golden.txt")
	golden.Assert(t, path, got)
}

// TestRequestAndShapeMatchOfficialClient checks the request against what
// godo's SizesService.List sends (GET v2/sizes on api.digitalocean.com,
// bearer token, page and per_page) and the parser's fields against godo's
// Size, GPUInfo and VRAM JSON names; pages are followed by
// links.pages.next, as godo's Links.NextPageToken reads them.
func TestRequestAndShapeMatchOfficialClient(t *testing.T) {
	var oc struct {
		BaseURL     string   `json:"base_url"`
		Method      string   `json:"method"`
		Path        string   `json:"path"`
		ListOptions []string `json:"list_options"`
		AuthHeader  string   `json:"auth_header"`
		RootKeys    []string `json:"root_keys"`
		SizeFields  []string `json:"size_fields"`
		GPUFields   []string `json:"gpu_info_fields"`
		VRAMFields  []string `json:"vram_fields"`
		ErrorFields []string `json:"error_fields"`
	}
	b, err := os.ReadFile("testdata/official-client.json")
	if err != nil || json.Unmarshal(b, &oc) != nil {
		t.Fatalf("official client notes: %v", err)
	}
	s := &httpapi.Stub{}
	p1, _ := os.ReadFile("testdata/paged/page1.json")
	p2, _ := os.ReadFile("testdata/paged/page2.json")
	s.Reply("GET", Path, 200, p1)
	s.Reply("GET", Path, 200, p2)
	res, err := (&Importer{Token: token, Now: func() time.Time { return seen }}).Fetch(context.Background(), s.Client(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if u := s.Unused(); len(u) > 0 {
		t.Errorf("stubs never used: %v", u)
	}
	if len(s.Requests) != 2 || len(res.Offers) != 2 {
		t.Fatalf("%d requests, %d offers; want 2 pages and an offer from each", len(s.Requests), len(res.Offers))
	}
	for n, req := range s.Requests {
		if req.Method != oc.Method || req.URL.Scheme+"://"+req.URL.Host+"/" != oc.BaseURL || strings.TrimPrefix(req.URL.Path, "/") != oc.Path {
			t.Errorf("request %s %s, godo sends %s %s%s", req.Method, req.URL, oc.Method, oc.BaseURL, oc.Path)
		}
		for k := range req.URL.Query() {
			if !contains(oc.ListOptions, k) {
				t.Errorf("query parameter %q is not one of godo's ListOptions %v", k, oc.ListOptions)
			}
		}
		if want := strings.TrimPrefix(strings.ReplaceAll(oc.AuthHeader, "{token}", token), "Authorization: "); req.Header.Get("Authorization") != want {
			t.Errorf("Authorization %q, want %q", req.Header.Get("Authorization"), want)
		}
		if page := req.URL.Query().Get("page"); n == 1 && page != "2" {
			t.Errorf("second request asks page %q, want 2 (links.pages.next)", page)
		}
	}
	// Every JSON name the parser reads is one godo's types read.
	check := func(what string, typ reflect.Type, known []string) {
		for i := 0; i < typ.NumField(); i++ {
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			if !contains(known, name) {
				t.Errorf("%s field %q is not in godo's %v", what, name, known)
			}
		}
	}
	check("size", reflect.TypeOf(size{}), oc.SizeFields)
	f, _ := reflect.TypeOf(size{}).FieldByName("GPUInfo")
	gi := f.Type.Elem()
	check("gpu_info", gi, oc.GPUFields)
	v, _ := gi.FieldByName("VRAM")
	check("vram", v.Type.Elem(), oc.VRAMFields)
	if !contains(oc.RootKeys, "sizes") {
		t.Errorf("godo's root has no sizes key: %v", oc.RootKeys)
	}
	for _, f := range []string{"message", "request_id"} {
		if !contains(oc.ErrorFields, f) {
			t.Errorf("godo's ErrorResponse lacks %s", f)
		}
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

// A refused token stops at once with DigitalOcean's id and message, the
// token never in the error; no token is an error naming the variable.
func TestRefusedToken(t *testing.T) {
	s := &httpapi.Stub{}
	b, _ := os.ReadFile("testdata/refused/answer.json")
	s.Reply("GET", Path, 401, bytes.Replace(b, []byte("Unable"), []byte(token+" Unable"), 1))
	_, err := (&Importer{Token: token, Now: func() time.Time { return seen }}).Fetch(context.Background(), s.Client(), nil)
	var ae *importer.APIError
	if !errors.As(err, &ae) || !ae.Fatal() || ae.Code != "unauthorized" || len(s.Requests) != 1 {
		t.Fatalf("err %v after %d requests", err, len(s.Requests))
	}
	if strings.Contains(err.Error(), token) {
		t.Errorf("token in the error: %v", err)
	}
	if _, err := (&Importer{}).Fetch(context.Background(), s.Client(), nil); err == nil || !strings.Contains(err.Error(), EnvToken) {
		t.Errorf("no token: %v", err)
	}
}

// A next link that repeats the page already read stops with an error
// rather than looping.
func TestRepeatedPageStops(t *testing.T) {
	s := &httpapi.Stub{}
	p := []byte(`{"sizes": [], "links": {"pages": {"next": "https://api.digitalocean.com/v2/sizes?page=2&per_page=200"}}}`)
	s.Reply("GET", Path, 200, p)
	s.Reply("GET", Path, 200, p)
	_, err := (&Importer{Token: token, Now: func() time.Time { return seen }}).Fetch(context.Background(), s.Client(), nil)
	var le *httpapi.PageLoopError
	if !errors.As(err, &le) {
		t.Errorf("got %v, want a page loop error", err)
	}
}

// Answers that are not sizes answers are parse errors, never an empty
// import.
func TestNotAnAnswer(t *testing.T) {
	for _, body := range []string{``, `[]`, `{}`, `{"sizes": {}}`, `{"sizes": []}`, `{"sizes": []} trailing`, `<html>`} {
		if _, err := (&Importer{Seen: seen}).Parse(context.Background(), strings.NewReader(body), nil); err == nil {
			t.Errorf("%q parsed", body)
		}
	}
}

// FuzzParse: any bytes give offers or an error, never a panic, and every
// offer kept has a positive USD price below the bound, a region and a
// reading.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"sizes/answer.json", "paged/page1.json", "refused/answer.json"} {
		b, _ := os.ReadFile(filepath.Join("testdata", name))
		for _, s := range importertest.Seeds(b, "") {
			f.Add(s)
		}
	}
	f.Add([]byte(`{"sizes":[{"slug":"g","price_hourly":1e30,"regions":["a"],"gpu_info":{"count":1}}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		res, err := parsePages([][]byte{b}, seen, seen, DefaultBase+Path)
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
