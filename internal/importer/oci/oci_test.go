package oci

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

var now = time.Date(2026, 12, 6, 5, 0, 0, 0, time.UTC)

func render(res *importer.Result) string {
	var lines []string
	for _, o := range res.Offers {
		lines = append(lines, fmt.Sprintf("offer %s %s %s; stock reading %v; %s", o.ID(), o.Price.Hourly.StringFixed(2), o.Price.Currency, o.Stock != nil, o.Notes))
	}
	sort.Strings(lines)
	for _, it := range res.Instances {
		lines = append(lines, fmt.Sprintf("instance %s: %s× %s", it.ID(), it.GPUCount, it.GPUName))
	}
	for _, l := range res.Skipped.Lines() {
		lines = append(lines, "skipped "+l)
	}
	return strings.Join(lines, "\n") + "\n"
}

func recorded(t *testing.T) (whole, shapes, products []byte) {
	t.Helper()
	b, err := os.ReadFile("testdata/list/answer.json")
	if err != nil {
		t.Fatal(err)
	}
	s, p, err := splitRecorded(b)
	if err != nil {
		t.Fatal(err)
	}
	return b, s, p
}

// What does an OCI GPU shape cost, and where? The part's pay-as-you-go USD
// price times the shape's GPUs (or OCPUs, by the part's metric), one
// global price in the any-OCI-region row, with no stock reading: Oracle
// publishes none. Inactive shapes and shapes without a priced part are
// skipped and counted.
func TestRecordedAnswer(t *testing.T) {
	b, _, _ := recorded(t)
	res, err := (&Importer{AnyRegion: "ANY", Now: func() time.Time { return now }}).Parse(context.Background(), bytes.NewReader(b), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := render(res)
	path := filepath.Join("testdata", "list", "golden.txt")
	golden.Assert(t, path, got)
	// Without the catalog's any-region row no shape is placed in a region.
	res, err = (&Importer{Now: func() time.Time { return now }}).Parse(context.Background(), bytes.NewReader(b), nil)
	if err != nil || len(res.Offers) != 0 || len(res.Instances) == 0 {
		t.Errorf("no AnyRegion: %d offers, %d instances, %v; want instances only", len(res.Offers), len(res.Instances), err)
	}
}

// TestRequestsAndShapeMatchReferenceClient checks the two requests against
// the URLs, currency and price model SkyPilot's OCI fetcher uses (and
// Oracle's reference names), and the parser's JSON names against the
// fields it reads.
func TestRequestsAndShapeMatchReferenceClient(t *testing.T) {
	var rc struct {
		ShapesURL, PriceListURL, Currency, PriceModel            string
		ProductFields, LocalizationFields, PriceFields           []string
		ShapeFields, ShapeProductFields                          []string
		GPUPartType, PerGPUMetricContains, PerOCPUMetricContains string
	}
	b, err := os.ReadFile("testdata/reference-client.json")
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	for k, dst := range map[string]any{"shapes_url": &rc.ShapesURL, "price_list_url": &rc.PriceListURL, "currency": &rc.Currency, "price_model": &rc.PriceModel,
		"product_fields": &rc.ProductFields, "localization_fields": &rc.LocalizationFields, "price_fields": &rc.PriceFields,
		"shape_fields": &rc.ShapeFields, "shape_product_fields": &rc.ShapeProductFields, "gpu_part_type": &rc.GPUPartType} {
		if err := json.Unmarshal(raw[k], dst); err != nil {
			t.Fatalf("%s: %v", k, err)
		}
	}
	_, shapes, products := recorded(t)
	s := &httpapi.Stub{}
	s.Reply("GET", ShapesPath, 200, shapes)
	s.Reply("GET", PricePath, 200, products)
	res, err := (&Importer{AnyRegion: "ANY", Now: func() time.Time { return now }}).Fetch(context.Background(), s.Client(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if u := s.Unused(); len(u) > 0 || len(s.Requests) != 2 || len(res.Offers) == 0 {
		t.Fatalf("unused stubs %v, %d requests, %d offers", u, len(s.Requests), len(res.Offers))
	}
	if u := s.Requests[0].URL; u.Scheme+"://"+u.Host+u.Path != rc.ShapesURL || u.RawQuery != "" {
		t.Errorf("shapes request %s, the reference client reads %s", u, rc.ShapesURL)
	}
	if u := s.Requests[1].URL; u.Scheme+"://"+u.Host+u.Path != rc.PriceListURL || u.Query().Get("currencyCode") != rc.Currency {
		t.Errorf("price list request %s, the reference client reads %s in %s", u, rc.PriceListURL, rc.Currency)
	}
	for _, r := range s.Requests {
		if r.Header.Get("Authorization") != "" {
			t.Errorf("%s sends an Authorization header: the price list is public", r.URL)
		}
	}
	if Currency != rc.Currency || payAsYouGo != rc.PriceModel {
		t.Errorf("currency %s model %s, the reference client uses %s %s", Currency, payAsYouGo, rc.Currency, rc.PriceModel)
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
				t.Errorf("%s field %q is not one the reference client reads %v", what, n, known)
			}
		}
	}
	item := reflect.TypeOf(pricesAnswer{}).Field(0).Type.Elem()
	within("product", []string{"partNumber", "metricName", "currencyCodeLocalizations"}, rc.ProductFields)
	loc, _ := item.FieldByName("Localizations")
	within("localization", names(loc.Type.Elem()), rc.LocalizationFields)
	pr, _ := loc.Type.Elem().FieldByName("Prices")
	within("price", names(pr.Type.Elem()), rc.PriceFields)
	within("shape", names(reflect.TypeOf(shape{})), rc.ShapeFields)
	sp, _ := reflect.TypeOf(shape{}).FieldByName("Products")
	within("shape product", names(sp.Type.Elem()), rc.ShapeProductFields)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// A refused request stops the source with Oracle's message; nothing is
// parsed from half an answer.
func TestRefused(t *testing.T) {
	_, shapes, _ := recorded(t)
	refused, _ := os.ReadFile("testdata/refused/answer.json")
	s := &httpapi.Stub{}
	s.Reply("GET", ShapesPath, 200, shapes)
	s.Reply("GET", PricePath, 403, refused)
	res, err := (&Importer{AnyRegion: "ANY", Now: func() time.Time { return now }}).Fetch(context.Background(), s.Client(), nil)
	var ae *importer.APIError
	if !errors.As(err, &ae) || !ae.Fatal() || res != nil || !strings.Contains(err.Error(), "Authorization failed") {
		t.Fatalf("got %v, %v; want a refusal carrying Oracle's message", res, err)
	}
}

// Answers that are not the two documents are parse errors, never an
// empty import.
func TestNotAnAnswer(t *testing.T) {
	_, shapes, products := recorded(t)
	for _, c := range [][2]string{{`{}`, string(products)}, {string(shapes), `{}`}, {string(shapes), `{"items": []}`}, {`{"items": []}`, string(products)}, {`<html>`, string(products)}} {
		if _, err := parse([]byte(c[0]), []byte(c[1]), "ANY", now, "ref"); err == nil {
			t.Errorf("%.40q / %.40q parsed", c[0], c[1])
		}
	}
	if _, err := (&Importer{}).Parse(context.Background(), strings.NewReader(`{"shapes": {}}`), nil); err == nil {
		t.Error("a recorded answer without products parsed")
	}
}

// FuzzParse: any price list text gives offers or an error, never a panic;
// every offer has a positive USD price below the bound, in the any row.
func FuzzParse(f *testing.F) {
	b, _ := os.ReadFile("testdata/list/answer.json")
	_, products, _ := splitRecorded(b)
	for _, s := range importertest.Seeds(products, "") {
		f.Add(s)
	}
	f.Add([]byte(`{"items":[{"partNumber":"B99901","metricName":"GPU Per Hour","currencyCodeLocalizations":[{"currencyCode":"USD","prices":[{"model":"PAY_AS_YOU_GO","value":1e30}]}]}]}`))
	shapes, _, _ := splitRecorded(b)
	f.Fuzz(func(t *testing.T, p []byte) {
		res, err := parse(shapes, p, "ANY", now, "ref")
		if err != nil {
			return
		}
		for _, o := range res.Offers {
			if !o.Price.Hourly.IsPositive() || o.Price.Hourly.GreaterThan(maxPerHour) || o.Price.Currency != "USD" || o.RegionCode != "ANY" || o.Billing != catalog.OnDemand {
				t.Fatalf("offer %+v", o)
			}
		}
	})
}
