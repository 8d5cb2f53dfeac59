package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog/curated"
	"github.com/gpuscout/gpuscout/internal/server"
)

// TestOffersAPIWindows: os=windows lists the Windows rates (a user's
// overlay here; the figure is test data), the default lists Linux rates
// only, and a Windows offer is found by its ID.
func TestOffersAPIWindows(t *testing.T) {
	overlay := fstest.MapFS{"offers/windows.csv": &fstest.MapFile{Data: []byte("provider,instance_type,region,billing,hourly,upfront,monthly,currency,source_kind,source_ref,as_of,os\n" +
		"aws,g4dn.xlarge,us-east-1,on-demand,0.71,,,USD,user,test data: an illustrative Windows rate,2026-11-01,windows\n")}}
	load := loadCatalog(curated.Embedded(), overlay)
	srv, err := server.New(context.Background(), server.Config{Load: load, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	type doc struct {
		Offers []struct {
			ID, OS string
			Price  struct{ Hourly float64 }
		}
	}
	get := func(target string) doc {
		t.Helper()
		res, err := ts.Client().Get(ts.URL + target)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		var d doc
		if res.StatusCode != 200 || json.Unmarshal(b, &d) != nil {
			t.Fatalf("GET %s: %d\n%s", target, res.StatusCode, b)
		}
		return d
	}
	d := get("/api/v1/offers?os=windows&gpu=T4")
	if len(d.Offers) != 1 || d.Offers[0].ID != "aws/g4dn.xlarge/us-east-1/on-demand/windows" || d.Offers[0].OS != "windows" || d.Offers[0].Price.Hourly != 0.71 {
		t.Errorf("os=windows: %+v", d.Offers)
	}
	for _, o := range get("/api/v1/offers?gpu=T4&limit=0").Offers {
		if o.OS != "linux" {
			t.Errorf("the default lists %s (%s)", o.ID, o.OS)
		}
	}
	// The explorer and its CSV export answer os=windows too; the CSV's id
	// column names the Windows offer.
	for _, target := range []string{"/offers?os=windows&gpu=T4", "/offers.csv?os=windows&gpu=T4"} {
		res, err := ts.Client().Get(ts.URL + target)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || !strings.Contains(string(b), "aws/g4dn.xlarge/us-east-1/on-demand/windows") {
			t.Errorf("GET %s: %d\n%.500s", target, res.StatusCode, b)
		}
	}
	if one := get("/api/v1/offers/aws/g4dn.xlarge/us-east-1/on-demand/windows"); len(one.Offers) != 1 || one.Offers[0].OS != "windows" {
		t.Errorf("offer by ID: %+v", one)
	}
}
