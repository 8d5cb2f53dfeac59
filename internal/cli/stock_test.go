package cli_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/gpuscout/gpuscout/internal/sqlite"
	"github.com/shopspring/decimal"
)

// storeStockSnapshot stores a live import whose offers carry capacity
// readings taken 12 minutes before the test's clock: g4dn.xlarge in
// us-east-1 seen available, p4d.24xlarge in us-east-1 seen with none
// (illustrative test prices, not a provider's).
func storeStockSnapshot(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "g.db")
	ctx := context.Background()
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	seen := now.Add(-12 * time.Minute)
	src := catalog.Source{Kind: catalog.SourceOfficialAPI, Ref: "test capacity answer", AsOf: now.Truncate(24 * time.Hour), FetchedAt: seen}
	offer := func(inst, price string, st catalog.StockState) *catalog.Offer {
		return &catalog.Offer{Provider: "aws", InstanceName: inst, RegionCode: "us-east-1", Billing: catalog.OnDemand,
			Price: catalog.Price{Hourly: decimal.RequireFromString(price), Currency: "USD"}, Source: src,
			Stock: &catalog.Stock{State: st, Seen: seen}}
	}
	res := &importer.Result{Source: "test-live", Offers: []*catalog.Offer{offer("g4dn.xlarge", "0.61", catalog.StockAvailable), offer("p4d.24xlarge", "20", catalog.StockNone)}}
	if _, err := db.SaveImport(ctx, res, "sum", "test", seen, sqlite.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	return path
}

// "Which offers can I launch now?": --available keeps the offers a live
// import saw capacity for and says how long ago, in both languages; the
// JSON document and the API carry the reading.
func TestOffersAvailable(t *testing.T) {
	db := storeStockSnapshot(t)
	out, errOut, code := exec(t, false, nil, "offers", "--db", db, "--available")
	if code != 0 {
		t.Fatalf("offers --available failed (%d): %s", code, errOut)
	}
	if !strings.Contains(out, "g4dn.xlarge") || strings.Contains(out, "p4d.24xlarge") || strings.Contains(out, "us-west-2") {
		t.Errorf("--available should keep only g4dn.xlarge in us-east-1:\n%s", out)
	}
	if !strings.Contains(out, "seen available 12 min ago") || !strings.Contains(out, "STOCK") {
		t.Errorf("the stock reading and its age are not shown:\n%s", out)
	}
	out, _, _ = exec(t, false, map[string]string{"LANG": "zh_CN.UTF-8"}, "offers", "--db", db, "--available")
	if !strings.Contains(out, "12 分钟前有货") || !strings.Contains(out, "库存") {
		t.Errorf("Chinese stock reading missing:\n%s", out)
	}
	// Without the filter, every offer is listed and the one seen with no
	// capacity says so.
	out, _, _ = exec(t, false, nil, "offers", "--db", db, "--region", "us-east-1", "--billing", "on-demand")
	if !strings.Contains(out, "p4d.24xlarge") || !strings.Contains(out, "no capacity 12 min ago") {
		t.Errorf("the reading of no capacity is not shown:\n%s", out)
	}
	out, _, _ = exec(t, false, nil, "offers", "--db", db, "--available", "-o", "json")
	var doc struct {
		Offers []struct {
			ID    string
			Stock *struct {
				State  string `json:"state"`
				SeenAt string `json:"seen_at"`
			} `json:"stock"`
		} `json:"offers"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Offers) != 1 || doc.Offers[0].Stock == nil || doc.Offers[0].Stock.State != "available" || doc.Offers[0].Stock.SeenAt != "2026-12-02T08:48:00Z" {
		t.Errorf("JSON: %s", out)
	}
	// The API and the explorer filter the same way.
	base := serve(t, db)
	for _, c := range []struct{ path, want, not string }{
		{"/api/v1/offers?available=true", `"stock":{"state":"available","seen_at":"2026-12-02T08:48:00Z"}`, "p4d.24xlarge"},
		{"/offers?available=true&cheapest_region=false", "g4dn.xlarge", "p4d.24xlarge"},
		{"/offers?available=true&cheapest_region=false&cols=provider,instance,region,stock", `<td data-col="stock">seen available 12 min ago</td>`, "p4d.24xlarge"},
		{"/offers?cheapest_region=false&region=us-east-1&lang=zh&cols=provider,instance,stock", "12 分钟前无可用容量", "no capacity"},
		{"/offers.csv?available=true&cheapest_region=false&cols=instance,stock", "g4dn.xlarge,seen available 12 min ago", "p4d"},
		{`/offers?cheapest_region=false&region=us-east-1`, `name="available" value="true">`, `name="available" value="true" checked`},
	} {
		resp, err := http.Get(base + c.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(body), c.want) || strings.Contains(string(body), c.not) {
			t.Errorf("%s (status %d): want %q and not %q:\n%.2000s", c.path, resp.StatusCode, c.want, c.not, body)
		}
	}
	// Without a live import nothing has been seen available: say why.
	out, _, _ = exec(t, false, nil, "offers", "--available")
	if !strings.Contains(out, "--available keeps only offers a live import") {
		t.Errorf("no explanation for an empty --available:\n%s", out)
	}
}
