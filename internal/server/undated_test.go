package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog/catalogtest"
	"github.com/gpuscout/gpuscout/internal/server"
)

// TestUndatedOfferInAPIAndPages serves the CLI's test catalog with one
// offer undated and checks that the API gives it as_of null, read_on and
// undated, and that the explorer, the instance page and the comparison
// show it as undated (read …) in both languages.
func TestUndatedOfferInAPIAndPages(t *testing.T) {
	const id, readOn = "aws/p5.48xlarge/us-east-1/on-demand", "2026-12-01"
	cat, err := catalogtest.WithUndatedOffer(os.DirFS("../cli/testdata/catalog"), "aws.csv", id, readOn)
	if err != nil {
		t.Fatal(err)
	}
	load := loadCatalog(cat, nil)
	srv, err := server.New(context.Background(), server.Config{Load: load, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	get := func(target string) string {
		t.Helper()
		res, err := ts.Client().Get(ts.URL + target)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		if err != nil || res.StatusCode != 200 {
			t.Fatalf("GET %s: %d %v\n%s", target, res.StatusCode, err, b)
		}
		return string(b)
	}

	var one struct {
		Offers []struct {
			Source map[string]any `json:"source"`
		} `json:"offers"`
	}
	if err := json.Unmarshal([]byte(get("/api/v1/offers/"+id)), &one); err != nil || len(one.Offers) != 1 {
		t.Fatalf("%v %v", err, one)
	}
	offer := one.Offers[0]
	if v, ok := offer.Source["as_of"]; !ok || v != nil || offer.Source["read_on"] != readOn || offer.Source["undated"] != true {
		t.Errorf("API source = %v, want as_of null, read_on %s, undated true", offer.Source, readOn)
	}
	var list struct {
		Offers []struct {
			ID string `json:"id"`
		} `json:"offers"`
	}
	if err := json.Unmarshal([]byte(get("/api/v1/offers?provider=aws&gpu=H100&billing=on-demand&currency=USD")), &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Offers) != 2 || list.Offers[0].ID != "aws/p5.48xlarge/us-west-2/on-demand" || list.Offers[1].ID != id {
		t.Errorf("API order %v: the dated offer must precede the undated one of the same price", list.Offers)
	}

	// The documents with an undated record are what openapi.json says.
	spec := loadJobSpec(t)
	for _, target := range []string{"/api/v1/offers?provider=aws&gpu=H100", "/api/v1/catalog/stats", "/api/v1/catalog/sources"} {
		if status, _ := jobConform(t, spec, ts.URL, target); status != 200 {
			t.Errorf("%s: status %d", target, status)
		}
	}

	for _, tt := range []struct{ lang, want string }{
		{"en", "undated (read " + readOn + ")"},
		{"zh", "无日期（" + readOn + " 读取）"},
	} {
		for _, page := range []string{
			"/offers?provider=aws&gpu=H100&cheapest_region=false&lang=" + tt.lang,
			"/instances/aws/p5.48xlarge?lang=" + tt.lang,
			"/compare?offer=" + id + "&lang=" + tt.lang,
			"/about?lang=" + tt.lang,
		} {
			if body := get(page); !strings.Contains(body, tt.want) {
				i := strings.Index(body, "us-east-1")
				t.Errorf("%s does not show %q: %q", page, tt.want, body[max(0, i-200):max(0, i)+100])
			}
		}
	}
}
