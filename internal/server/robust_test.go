package server_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/shopspring/decimal"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/catalog/catalogtest"
	"github.com/gpuscout/gpuscout/internal/catalog/curated"
	"github.com/gpuscout/gpuscout/internal/perf"
	"github.com/gpuscout/gpuscout/internal/pricing"
	"github.com/gpuscout/gpuscout/internal/server"
	"github.com/gpuscout/gpuscout/internal/spot"
)

const xyzOffer = "aws/p5.48xlarge/us-east-1/on-demand"

// loadWithBadImport loads the embedded catalog overlaid with an imported
// offer priced in XYZ, as gpuscout serve does: the offer is rejected and
// the data carries the rejection. With screen false the offer goes in
// unscreened, as a loader that failed to check would leave it.
func loadWithBadImport(screen bool) server.Loader {
	return func(context.Context) (*server.Data, error) {
		d, rates, err := curated.LoadData(curated.Embedded(), nil)
		if err != nil {
			return nil, err
		}
		bad := &catalog.Offer{Provider: "aws", InstanceName: "p5.48xlarge", RegionCode: "us-east-1", Billing: catalog.OnDemand,
			Price:  catalog.Price{Hourly: decimal.NewFromInt(50), Currency: "XYZ"},
			Source: catalog.Source{Kind: catalog.SourceOfficialAPI, Ref: "test", AsOf: now, FetchedAt: now}}
		var known catalog.CurrencyKnown
		if screen {
			known = func(c string) bool { _, ok := rates.Rate(c); return ok }
		}
		c, rep, err := catalog.NewWithImports(d, []*catalog.Offer{bad}, nil, known)
		if err != nil {
			return nil, err
		}
		m, _, err := perf.New(c)
		if err != nil {
			return nil, err
		}
		return &server.Data{Catalog: c, FX: rates, Perf: m, Rejected: rep.Rejected,
			Pricing: &pricing.Engine{Prices: c, FX: rates, Spot: spot.CostHook{Facts: c}}}, nil
	}
}

// conform checks a response against openapi.json.
func conform(t *testing.T, doc *openapi3.T, req *http.Request, tmpl string, pathParams map[string]string, status int, hdr http.Header, body []byte) {
	t.Helper()
	item := doc.Paths.Value(tmpl)
	if item == nil {
		t.Fatalf("%s is not in openapi.json", tmpl)
	}
	route := &routers.Route{Spec: doc, Path: tmpl, PathItem: item, Method: req.Method, Operation: item.GetOperation(req.Method)}
	opts := &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true}
	in := &openapi3filter.RequestValidationInput{Request: req, Route: route, PathParams: pathParams, Options: opts}
	if err := openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in, Status: status, Header: hdr, Body: io.NopCloser(bytes.NewReader(body)), Options: opts,
	}); err != nil {
		t.Errorf("%s: response does not match openapi.json: %v\n%s", req.URL, err, trim(body))
	}
}

// TestRejectedImportIsAWarningNotAFailure: the API answers every other
// offer with a warnings field (as openapi.json says), in the request's
// language, and every page shows a notice naming the offer.
func TestRejectedImportIsAWarningNotAFailure(t *testing.T) {
	srv, err := server.New(context.Background(), server.Config{Load: loadWithBadImport(true), Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	spec, err := openapi3.NewLoader().LoadFromData(server.OpenAPI)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	for _, c := range []struct{ target, tmpl, lang, want string }{
		{"/api/v1/offers?gpu=H100&region=us-east-1", "/api/v1/offers", "en", "no exchange rate for its currency \"XYZ\""},
		{"/api/v1/offers?gpu=H100&lang=zh", "/api/v1/offers", "zh", "其币种 \"XYZ\" 没有汇率"},
		{"/api/v1/offers/" + xyzOffer, "/api/v1/offers/{id}", "en", "left out imported offer " + xyzOffer},
	} {
		req, _ := http.NewRequest("GET", ts.URL+c.target, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("%s: status %d: %s", c.target, resp.StatusCode, trim(body))
		}
		var params map[string]string
		if c.tmpl == "/api/v1/offers/{id}" {
			params = map[string]string{"id": xyzOffer}
		}
		conform(t, spec, req, c.tmpl, params, resp.StatusCode, resp.Header, body)
		var doc struct {
			Offers []struct {
				ID    string
				Price struct {
					OriginalCurrency string `json:"original_currency"`
				} `json:"price"`
			}
			Warnings []struct{ Record, Reason, Message string }
		}
		if err := json.Unmarshal(body, &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Offers) == 0 || len(doc.Warnings) != 1 || doc.Warnings[0].Record != xyzOffer || !strings.Contains(doc.Warnings[0].Message, c.want) {
			t.Errorf("%s: %d offers, warnings %+v; want one naming %s with %q", c.target, len(doc.Offers), doc.Warnings, xyzOffer, c.want)
		}
		for _, o := range doc.Offers {
			if o.ID == xyzOffer && o.Price.OriginalCurrency != "USD" {
				t.Errorf("%s: the curated USD offer should stand, got %s", xyzOffer, o.Price.OriginalCurrency)
			}
		}
	}
	for _, c := range []struct{ target, want string }{
		{"/offers?gpu=H100", "left out imported offer " + xyzOffer},
		{"/offers?gpu=H100&lang=zh", "已忽略导入的报价 " + xyzOffer},
		{"/gpus", "left out imported offer " + xyzOffer},
	} {
		rec := get(t, srv, c.target)
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), `data-warning>`) || !strings.Contains(rec.Body.String(), c.want) {
			t.Errorf("%s: status %d, want 200 with a notice containing %q", c.target, rec.Code, c.want)
		}
		if strings.HasPrefix(c.target, "/offers") && !strings.Contains(rec.Body.String(), "p5.48xlarge") {
			t.Errorf("%s lost the other offers", c.target)
		}
	}
}

// TestServerDataProblemIsNot4xx: should an offer nothing can convert reach
// a query anyway, the client is not blamed: 500 data_error, as
// openapi.json documents, on the API and the page.
func TestServerDataProblemIsNot4xx(t *testing.T) {
	srv, err := server.New(context.Background(), server.Config{Load: loadWithBadImport(false), Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	spec, err := openapi3.NewLoader().LoadFromData(server.OpenAPI)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	req, _ := http.NewRequest("GET", ts.URL+"/api/v1/offers?gpu=H100", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var e struct {
		Error struct{ Code, Message string }
	}
	if resp.StatusCode != 500 || json.Unmarshal(body, &e) != nil || e.Error.Code != "data_error" || !strings.Contains(e.Error.Message, "XYZ") {
		t.Fatalf("status %d, want 500 data_error naming XYZ: %s", resp.StatusCode, trim(body))
	}
	conform(t, spec, req, "/api/v1/offers", nil, resp.StatusCode, resp.Header, body)
	// The client's own mistake stays a 400 with a hint.
	if rec := get(t, srv, "/api/v1/offers?currency=QQQ"); rec.Code != 400 || !strings.Contains(rec.Body.String(), `"hint"`) {
		t.Errorf("unknown requested currency: %d %s", rec.Code, rec.Body)
	}
	if rec := get(t, srv, "/offers?gpu=H100"); rec.Code != 500 {
		t.Errorf("page: status %d, want 500", rec.Code)
	}
}

// TestOffersCSVNeutralisesFormulas: the web download never writes a cell a
// spreadsheet would run, whatever the catalog holds, and numbers stay
// numbers.
func TestOffersCSVNeutralisesFormulas(t *testing.T) {
	load := func(context.Context) (*server.Data, error) {
		d := catalogtest.Data()
		d.Instances[1].Name = `=HYPERLINK("http://evil.example","x")` // acme/small1
		d.Instances[1].GPUInterconnect = ""
		d.Offers[4].InstanceName = d.Instances[1].Name
		d.Regions[0].Code = "@SUM(1)" // acme/us-east
		for _, o := range d.Offers {
			if o.RegionCode == "us-east" {
				o.RegionCode = "@SUM(1)"
			}
		}
		return fixtureData(d)
	}
	srv, err := server.New(context.Background(), server.Config{Load: load, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	rec := get(t, srv, "/offers.csv?cheapest_region=false&cols=instance,region,gpus,price,upfront")
	if rec.Code != 200 {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	recs, err := csv.NewReader(rec.Body).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var sawInstance, sawRegion, sawPrice bool
	for _, r := range recs[1:] {
		for i, c := range r {
			if c != "" && strings.ContainsRune("=+-@\t\r", rune(c[0])) && c != "-" {
				t.Errorf("row %v: cell %q would run as a formula", r, c)
			}
			sawInstance = sawInstance || c == `'=HYPERLINK("http://evil.example","x")`
			sawRegion = sawRegion || c == "'@SUM(1)"
			if i == 3 {
				if _, err := decimal.NewFromString(c); err != nil {
					t.Errorf("price cell %q is not a plain number", c)
				}
				sawPrice = true
			}
		}
	}
	if !sawInstance || !sawRegion || !sawPrice {
		t.Errorf("neutralised instance %v, region %v, prices %v in:\n%s", sawInstance, sawRegion, sawPrice, rec.Body)
	}
}

// TestStaticHasNoDirectoryListing: /static/ serves files, never a listing
// of them.
func TestStaticHasNoDirectoryListing(t *testing.T) {
	srv := newServer(t)
	for _, p := range []string{"/static/", "/static/./", "/static//"} {
		rec := get(t, srv, p)
		// The mux redirects unclean paths to /static/ first.
		if rec.Code == http.StatusTemporaryRedirect && rec.Header().Get("Location") == "/static/" {
			continue
		}
		if rec.Code != http.StatusNotFound || strings.Contains(rec.Body.String(), "app.css") || strings.Contains(rec.Body.String(), "<a href") {
			t.Errorf("%s: status %d, body %.200q; want 404 without a listing", p, rec.Code, rec.Body.String())
		}
	}
	if rec := get(t, srv, "/static/favicon.svg"); rec.Code != 200 {
		t.Errorf("/static/favicon.svg: status %d", rec.Code)
	}
}
