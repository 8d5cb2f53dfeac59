package cli_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/catalog/curated"
	"github.com/gpuscout/gpuscout/internal/cli"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/gpuscout/gpuscout/internal/sqlite"
	"github.com/shopspring/decimal"
)

// runRead runs gpuscout on catalog cat on day, reading imports through
// the overlay cache or (noCache) the full way; events collects the read
// paths taken.
func runRead(cat fs.FS, day time.Time, noCache bool, events *[]string, args ...string) (string, string, int) {
	var out, errOut bytes.Buffer
	e := cli.Env{
		Getenv:         func(string) string { return "" },
		Now:            func() time.Time { return day },
		IsTTY:          func() bool { return false },
		Catalog:        cat,
		NoOverlayCache: noCache,
		Event: func(name string) {
			if events != nil {
				*events = append(*events, name)
			}
		},
	}
	code := cli.Main(context.Background(), args, cli.IO{In: strings.NewReader(""), Out: &out, Err: &errOut}, e)
	return out.String(), errOut.String(), code
}

// vmsGPUs are SkyPilot GPU names and per-GPU memory (MiB) that resolve to
// one catalog GPU each, as bench/genvms writes them.
var vmsGPUs = []struct {
	name string
	mib  int
}{{"A100", 40960}, {"A100", 81920}, {"H100", 81559}, {"T4", 15360}}

// writeVMS writes a SkyPilot AWS vms.csv: types synthetic instance types
// (discovered by the import) over real regions and one no catalog knows,
// on-demand and spot, prices from a few values so that many tie (scale
// moves them all), plus two curated instance types whose imported prices
// replace curated ones.
func writeVMS(t testing.TB, path string, seed int64, types int, scale float64) {
	writeVMSIn(t, path, seed, types, scale, []string{"us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-south-1", "ap-northeast-1", "sa-east-1", "xx-nowhere-1"})
}

// writeVMSIn is writeVMS over the regions given.
func writeVMSIn(t testing.TB, path string, seed int64, types int, scale float64, regions []string) {
	t.Helper()
	rng := rand.New(rand.NewSource(seed))
	var b strings.Builder
	b.WriteString("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n")
	row := func(name, gpu string, count, mib int, price, spot float64, region string) {
		info := fmt.Sprintf("\"{'Gpus': [{'Name': '%s', 'Manufacturer': 'NVIDIA', 'Count': %d, 'MemoryInfo': {'SizeInMiB': %d}}]}\"", gpu, count, mib)
		spotText := ""
		if spot > 0 {
			spotText = fmt.Sprintf("%.4f", spot)
		}
		fmt.Fprintf(&b, "%s,%s,%d.0,%d.0,%d.0,%s,%.4f,%s,%s,%sa\n", name, gpu, count, 8*count, 64*count, info, price, spotText, region, region)
	}
	for i := 0; i < types; i++ {
		g := vmsGPUs[i%len(vmsGPUs)]
		count := []int{1, 2, 4, 8}[(i/len(vmsGPUs))%4]
		name := fmt.Sprintf("tst-%s-%dx.%dxlarge", strings.ToLower(g.name), count, i)
		for _, r := range regions {
			if rng.Intn(5) == 0 {
				continue // not every type in every region
			}
			price := (0.5*float64(count) + float64(rng.Intn(8))*0.25) * scale
			spot := 0.0
			if rng.Intn(3) > 0 {
				spot = price * float64(2+rng.Intn(3)) / 5
			}
			row(name, g.name, count, g.mib, price, spot, r)
		}
	}
	for _, r := range []string{"us-east-1", "eu-west-1"} {
		row("p4d.24xlarge", "A100", 8, 40960, 40*scale, 9*scale, r)
		row("p5.48xlarge", "H100", 8, 81559, 120*scale, 30*scale, r)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// overlayTestDB builds a database of three snapshots: a SkyPilot AWS
// import (discovered instance types, a region outside the catalog, prices
// dated a year before the test day, so the run on a late day warns about
// stale prices), and two AWS snapshots of one region each (scopes of
// their own) whose offers share IDs with the SkyPilot ones and replace
// them, one with an offer the SkyPilot file does not hold.
func overlayTestDB(t testing.TB, dir string, seed int64) string {
	t.Helper()
	db := filepath.Join(dir, "g.db")
	vms := filepath.Join(dir, "vms.csv")
	writeVMS(t, vms, seed, 96, 1)
	if out, errOut, code := runRead(curated.Embedded(), now, true, nil, "catalog", "import", "skypilot", "--cloud", "aws", "--file", vms, "--db", db); code != 0 {
		t.Fatalf("import: exit %d\n%s%s", code, out, errOut)
	}
	ctx := context.Background()
	s, err := sqlite.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	src := catalog.Source{Kind: catalog.SourceOfficialAPI, Ref: "https://pricing.us-east-1.amazonaws.com/test.json", AsOf: now.Truncate(24 * time.Hour), FetchedAt: now}
	for k, region := range []string{"us-east-1", "eu-west-1"} {
		var offers []*catalog.Offer
		for i := k; i < 96; i += 3 {
			g := vmsGPUs[i%len(vmsGPUs)]
			count := []int{1, 2, 4, 8}[(i/len(vmsGPUs))%4]
			name := fmt.Sprintf("tst-%s-%dx.%dxlarge", strings.ToLower(g.name), count, i)
			// Above any SkyPilot spot price of the type, so the spot
			// offers stay valid beside it.
			price := decimal.NewFromFloat(float64(count)*0.5 + 3.25)
			o := &catalog.Offer{Provider: "aws", InstanceName: name, RegionCode: region, Billing: catalog.OnDemand,
				Price: catalog.Price{Hourly: price, Currency: "USD"}, Source: src}
			if k == 0 && i%2 == 0 {
				// A live reading of capacity, as Lambda's or RunPod's API gives.
				o.Stock = &catalog.Stock{State: []catalog.StockState{catalog.StockAvailable, catalog.StockLow, catalog.StockNone}[i%3], Seen: now.Add(-20 * time.Minute)}
			}
			offers = append(offers, o)
		}
		offers = append(offers, &catalog.Offer{Provider: "aws", InstanceName: "p4d.24xlarge", RegionCode: region, Billing: catalog.OnDemand,
			Price: catalog.Price{Hourly: decimal.RequireFromString("32.7726"), Currency: "USD"}, Source: src})
		res := &importer.Result{Source: "aws", Offers: offers}
		if _, err := s.SaveImport(ctx, res, fmt.Sprintf("sum-%d", k), "test", now.Add(time.Duration(k+1)*time.Minute), sqlite.SaveOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// offerVariants are the offers commands the differential tests run, each
// for several GPU selections.
var offerVariants = [][]string{
	{"--limit", "20"},
	{"--limit", "5", "-o", "json"},
	{"--limit", "7", "-o", "csv"},
	{"--lang", "zh", "--limit", "10"},
	{"--billing", "spot", "--limit", "6"},
	{"--billing", "on-demand"},
	{"--region", "us-east-1", "--limit", "4"},
	{"--region", "eu-west-1,ap-south-1"},
	{"--country", "DE"},
	{"--residency", "eu", "--limit", "3"},
	{"--min-gpus", "8", "--limit", "5"},
	{"--per", "gpu-hour", "--limit", "8"},
	{"--per", "month", "-o", "markdown", "--limit", "3"},
	{"--max-price", "3"},
	{"--sort", "gpu-price", "--limit", "5"},
	{"--sort", "vram", "--limit", "5"},
	{"--available"},
	{"--cheapest-region", "--limit", "10"},
	{"--per-provider", "2"},
	{"--currency", "CNY", "--limit", "9"},
	{"--fx", "CNY=7.9", "--currency", "CNY", "--limit", "4"},
	{"--limit", "1"},
	{"--limit", "0", "-o", "csv"},
	{"--limit", "200"},
	{"--include-retired", "--limit", "5"},
	{"--provider", "aws", "--limit", "5"},
	{"--min-vram", "80", "--limit", "5"},
	{"--region", "xx-nowhere-1"},
	{"--sort", "gpu-price", "--per", "gpu-hour", "--limit", "12"},
	{"--sort", "gpu-price", "--billing", "spot", "--limit", "3", "-o", "json"},
	{"--sort", "gpu-price", "--currency", "CNY", "--min-gpus", "4"},
	{"--provider", "nosuch"},
	{"--currency", "XXX"},
	{"--billing", "weekly"},
	{"--limit", "-1"},
}

// offerGPUs are the GPU selections of the differential tests ("" none).
var offerGPUs = []string{"A100", "H100", "T4", "A100,H100", ""}

// compareReads runs args through the overlay cache and the full way and
// fails when the answers (stdout, stderr, exit code) differ; it returns
// whether the cache answered.
func compareReads(t *testing.T, day time.Time, args []string) bool {
	t.Helper()
	var events []string
	got, gotErr, code := runRead(curated.Embedded(), day, false, &events, args...)
	want, wantErr, wantCode := runRead(curated.Embedded(), day, true, nil, args...)
	if got != want || gotErr != wantErr || code != wantCode {
		t.Errorf("%s: the overlay cache answers differently from the full read\n--- cache (exit %d, %v) ---\n%s%s\n--- full read (exit %d) ---\n%s%s",
			strings.Join(args, " "), code, events, got, gotErr, wantCode, want, wantErr)
	}
	for _, e := range events {
		if e == "overlay-cache-hit" {
			return true
		}
	}
	return false
}

// TestOverlayCacheAnswersAsFullRead: `offers` answered from the overlay
// cache (the cheapest imported offers only) prints the bytes the full
// read prints, for every output format, language, filter, order, limit
// and currency, on a database of several snapshots with overlapping
// offer IDs, discovered instance types, a region outside the catalog and
// (on a late day) stale prices; and it does answer most of them.
func TestOverlayCacheAnswersAsFullRead(t *testing.T) {
	db := overlayTestDB(t, t.TempDir(), 1)
	hits, runs := 0, 0
	for _, gpu := range offerGPUs {
		for _, v := range offerVariants {
			args := append([]string{"offers", "--db", db}, v...)
			if gpu != "" {
				args = append(args, "--gpu", gpu)
			}
			runs++
			if compareReads(t, now, args) {
				hits++
			}
		}
	}
	for _, v := range append(offerVariants[:6:6], offerVariants[len(offerVariants)-4:]...) {
		compareReads(t, now.AddDate(2, 0, 0), append([]string{"offers", "--db", db, "--gpu", "A100"}, v...))
	}
	// Rows with a live capacity reading show it from the cache too.
	for _, lang := range []string{"en", "zh"} {
		args := []string{"offers", "--db", db, "--gpu", "H100", "--region", "us-east-1", "--billing", "on-demand", "--lang", lang}
		if !compareReads(t, now, args) {
			t.Errorf("%v: not answered from the cache", args)
		}
		out, _, _ := runRead(curated.Embedded(), now, false, nil, args...)
		if want := map[string]string{"en": "seen available 20 min ago", "zh": "20 分钟前"}[lang]; !strings.Contains(out, want) {
			t.Errorf("%v: no capacity reading %q:\n%s", args, want, out)
		}
	}
	t.Logf("the overlay cache answered %d of %d reads", hits, runs)
	// The cache answers every top-rows price query it can prove.
	if hits < runs/2 {
		t.Errorf("the overlay cache answered %d of %d reads; want at least half", hits, runs)
	}
}

// TestOverlayCacheLeavesRejectionsToFullRead: with a stored offer in a
// currency that has no rate, the full read leaves it out with a warning;
// the cache must not answer (it holds nothing rejected) and every answer
// keeps the warning, with or without a rate given by --fx.
func TestOverlayCacheLeavesRejectionsToFullRead(t *testing.T) {
	db := overlayTestDB(t, t.TempDir(), 2)
	raw, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`UPDATE offers SET currency = 'XYZ' WHERE instance_type = 'p4d.24xlarge' AND region = 'eu-west-1' AND snapshot_id = (SELECT max(id) FROM snapshots)`); err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`DELETE FROM snapshot_packs WHERE snapshot_id = (SELECT max(id) FROM snapshots)`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	for _, v := range [][]string{{"--limit", "20"}, {"-o", "json", "--limit", "3"}, {"--fx", "XYZ=2", "--limit", "5"}, {"--region", "eu-west-1"}} {
		args := append([]string{"offers", "--db", db, "--gpu", "A100"}, v...)
		if compareReads(t, now, args) {
			t.Errorf("%v: answered from the cache although the full read rejects an offer", args)
		}
	}
	_, errOut, _ := runRead(curated.Embedded(), now, false, nil, "offers", "--db", db, "--gpu", "A100")
	if !strings.Contains(errOut, "aws/p4d.24xlarge/eu-west-1/on-demand") || !strings.Contains(errOut, `"XYZ"`) {
		t.Errorf("the warning about the offer in XYZ is missing:\n%s", errOut)
	}
}

// readPath runs `offers` through the overlay cache and the full way,
// fails when they differ, and returns the answer and the read path taken
// ("overlay-cache-built", "overlay-cache-hit" or "" for the full read).
func readPath(t *testing.T, cat fs.FS, args ...string) (string, string) {
	t.Helper()
	var events []string
	got, gotErr, code := runRead(cat, now, false, &events, args...)
	want, wantErr, wantCode := runRead(cat, now, true, nil, args...)
	if got != want || gotErr != wantErr || code != wantCode {
		t.Fatalf("%s: the overlay cache answers differently from the full read\n--- cache (exit %d, %v) ---\n%s%s\n--- full read (exit %d) ---\n%s%s",
			strings.Join(args, " "), code, events, got, gotErr, wantCode, want, wantErr)
	}
	return got, strings.Join(events, ",")
}

// TestOverlayCacheFollowsSnapshots: the overlay cache is written by the
// first read of a set of snapshots and used by the next, and a read never
// answers from a cache of other snapshots or another catalog: not after a
// new import, a rollback, a new snapshot that takes a deleted one's ID
// (even with the old rows put back, as an older gpuscout would leave
// them), nor with another catalog. A published read-only copy answers
// from the cache it was published with.
func TestOverlayCacheFollowsSnapshots(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "g.db")
	embedded := curated.Embedded()
	args := []string{"offers", "--db", db, "--gpu", "A100", "--limit", "5"}
	importVMS := func(seed int64, scale float64) {
		t.Helper()
		vms := filepath.Join(dir, fmt.Sprintf("vms-%d.csv", seed))
		writeVMS(t, vms, seed, 48, scale)
		if out, errOut, code := runRead(embedded, now, true, nil, "catalog", "import", "skypilot", "--cloud", "aws", "--file", vms, "--db", db, "--allow-shrink"); code != 0 {
			t.Fatalf("import: exit %d\n%s%s", code, out, errOut)
		}
	}
	expect := func(what, path, want string) {
		t.Helper()
		if path != want {
			t.Errorf("%s: read path %q, want %q", what, path, want)
		}
	}
	importVMS(1, 1)
	first, path := readPath(t, embedded, args...)
	expect("first read", path, "overlay-cache-built")
	again, path := readPath(t, embedded, args...)
	expect("second read", path, "overlay-cache-hit")
	if again != first {
		t.Errorf("the second read differs from the first:\n%s\n%s", first, again)
	}
	// A new snapshot of the scope, every price doubled.
	importVMS(2, 2)
	doubled, path := readPath(t, embedded, args...)
	expect("read after an import", path, "overlay-cache-built")
	if doubled == first {
		t.Errorf("the read after an import shows the old prices:\n%s", doubled)
	}
	_, path = readPath(t, embedded, args...)
	expect("second read after an import", path, "overlay-cache-hit")

	// The rows a read of the second snapshot wrote, for later.
	raw, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	type row struct {
		key, gpu string
		body     []byte
	}
	var old []row
	rows, err := raw.Query(`SELECT key, gpu, body FROM overlay_cache`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.key, &r.gpu, &r.body); err != nil {
			t.Fatal(err)
		}
		old = append(old, r)
	}
	rows.Close()
	if len(old) < 2 {
		t.Fatalf("the overlay cache holds %d rows after a read", len(old))
	}

	// Published with its cache: a read-only replica answers from it.
	snap := filepath.Join(dir, "published.db")
	if _, errOut, code := runRead(embedded, now, true, nil, "catalog", "publish", "--db", db, "--to", snap); code != 0 {
		t.Fatalf("publish: %s", errOut)
	}
	replica, path := readPath(t, embedded, "offers", "--db", snap, "--db-read-only", "--gpu", "A100", "--limit", "5")
	expect("read-only replica", path, "overlay-cache-hit")
	if replica != doubled {
		t.Errorf("the replica answers differently:\n%s\n%s", replica, doubled)
	}

	// Rolled back: the first snapshot's prices again.
	if _, errOut, code := runRead(embedded, now, true, nil, "catalog", "snapshots", "rollback", "skypilot:aws", "--db", db); code != 0 {
		t.Fatalf("rollback: %s", errOut)
	}
	back, path := readPath(t, embedded, args...)
	expect("read after a rollback", path, "overlay-cache-built")
	if back != first {
		t.Errorf("after the rollback the read differs from the first snapshot's:\n%s\n%s", back, first)
	}

	// A third snapshot takes the deleted one's ID; the rows an older
	// gpuscout would have left (the deleted snapshot's) are put back.
	importVMS(3, 3)
	for _, r := range old {
		if _, err := raw.Exec(`INSERT OR REPLACE INTO overlay_cache (key, gpu, body) VALUES (?, ?, ?)`, r.key, r.gpu, r.body); err != nil {
			t.Fatal(err)
		}
	}
	tripled, path := readPath(t, embedded, args...)
	expect("read after an import into a reused ID", path, "overlay-cache-built")
	if tripled == first || tripled == doubled {
		t.Errorf("the read after the third import shows an earlier snapshot's prices:\n%s", tripled)
	}

	// Another catalog (the test catalog, then a copy with one price
	// changed): the cache is written again for it.
	cat := filepath.Join(dir, "catalog")
	if err := os.CopyFS(cat, os.DirFS("testdata/catalog")); err != nil {
		t.Fatal(err)
	}
	_, path = readPath(t, os.DirFS(cat), args...)
	expect("read with another catalog", path, "overlay-cache-built")
	_, path = readPath(t, os.DirFS(cat), args...)
	expect("second read with another catalog", path, "overlay-cache-hit")
	offersFile := filepath.Join(cat, "offers", "aws.csv")
	b, err := os.ReadFile(offersFile)
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(b), "p4d.24xlarge,us-west-2,on-demand,21.95764,", "p4d.24xlarge,us-west-2,on-demand,19.5,", 1)
	if changed == string(b) {
		t.Fatal("the test catalog lacks the price to change")
	}
	if err := os.WriteFile(offersFile, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	_, path = readPath(t, os.DirFS(cat), args...)
	expect("read with a changed catalog", path, "overlay-cache-built")
	// The embedded catalog's rows stayed beside the others.
	_, path = readPath(t, embedded, args...)
	expect("read with the embedded catalog again", path, "overlay-cache-hit")

	// An import writes the cache itself: its first read is answered from it.
	vms := filepath.Join(dir, "vms-4.csv")
	writeVMS(t, vms, 4, 48, 4)
	var events []string
	if out, errOut, code := runRead(embedded, now, false, &events, "catalog", "import", "skypilot", "--cloud", "aws", "--file", vms, "--db", db, "--allow-shrink"); code != 0 {
		t.Fatalf("import: exit %d\n%s%s", code, out, errOut)
	}
	expect("import", strings.Join(events, ","), "overlay-cache-built")
	_, path = readPath(t, embedded, args...)
	expect("first read after an import that wrote the cache", path, "overlay-cache-hit")
}

// TestImportedReadCostDoesNotGrowWithTheImport: a team that imports ten
// times as many offers (the same instance types in ten times as many
// regions) pays about the same for `offers --gpu A100 --limit 20`: the
// read builds the rows it can show, not every imported offer. Measured in
// bytes allocated per cold read (no timing), once the first read has
// written the overlay cache.
func TestImportedReadCostDoesNotGrowWithTheImport(t *testing.T) {
	regions := []string{"us-east-1", "us-east-2", "us-west-1", "us-west-2", "ca-central-1", "eu-west-1", "eu-west-2", "eu-west-3",
		"eu-central-1", "eu-north-1", "eu-south-1", "ap-south-1", "ap-northeast-1", "ap-northeast-2", "ap-northeast-3",
		"ap-southeast-1", "ap-southeast-2", "ap-east-1", "sa-east-1", "me-south-1", "me-central-1", "il-central-1",
		"af-south-1", "eu-central-2", "eu-south-2", "ap-south-2", "ap-southeast-3", "ap-southeast-4", "ca-west-1", "ap-southeast-5"}
	bytesPerRead := map[int]uint64{}
	for _, n := range []int{3, 30} {
		dir := t.TempDir()
		db, vms := filepath.Join(dir, "g.db"), filepath.Join(dir, "vms.csv")
		writeVMSIn(t, vms, 1, 64, 1, regions[:n])
		if out, errOut, code := runCLI(curated.Embedded(), now, nil, "", "catalog", "import", "skypilot", "--cloud", "aws", "--file", vms, "--db", db); code != 0 {
			t.Fatalf("import: exit %d\n%s%s", code, out, errOut)
		}
		read := func() {
			if _, errOut, code := runCLI(curated.Embedded(), now, nil, "", "offers", "--db", db, "--gpu", "A100", "--limit", "20"); code != 0 {
				t.Fatalf("offers: exit %d\n%s", code, errOut)
			}
		}
		read() // the first read of the snapshot may prepare it
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		const runs = 3
		for i := 0; i < runs; i++ {
			read()
		}
		runtime.ReadMemStats(&after)
		bytesPerRead[n] = (after.TotalAlloc - before.TotalAlloc) / runs
	}
	t.Logf("bytes allocated per read: %d with 3 regions, %d with 30", bytesPerRead[3], bytesPerRead[30])
	// A tenth of the larger import's offers, built as catalog offers,
	// would take more than this.
	const slack = 64 << 10
	if bytesPerRead[30] > bytesPerRead[3]+slack {
		t.Errorf("a read of ten times the imported offers allocates %d bytes against %d: it builds every imported offer",
			bytesPerRead[30], bytesPerRead[3])
	}
}

// FuzzOverlayCacheAnswersAsFullRead: any mix of a GPU selection, a
// variant, a limit and a currency prints through the overlay cache the
// bytes the full read prints (compareReads), on the database of
// TestOverlayCacheAnswersAsFullRead.
func FuzzOverlayCacheAnswersAsFullRead(f *testing.F) {
	db := overlayTestDB(f, f.TempDir(), 3)
	for _, seed := range [][4]uint8{{0, 0, 20, 0}, {1, 4, 3, 1}, {2, 6, 1, 2}, {3, 10, 50, 0}, {4, 11, 7, 1}, {0, 23, 0, 0}, {3, 27, 2, 2}, {1, 1, 255, 1}} {
		f.Add(seed[0], seed[1], seed[2], seed[3])
	}
	f.Fuzz(func(t *testing.T, gpu, variant, limit, currency uint8) {
		args := append([]string{"offers", "--db", db}, offerVariants[int(variant)%len(offerVariants)]...)
		if g := offerGPUs[int(gpu)%len(offerGPUs)]; g != "" {
			args = append(args, "--gpu", g)
		}
		if limit > 0 {
			args = append(args, "--limit", fmt.Sprint(limit))
		}
		if c := []string{"", "CNY", "EUR"}[int(currency)%3]; c != "" {
			args = append(args, "--currency", c)
		}
		compareReads(t, now, args)
	})
}

// TestOverlayCacheWhereNoneIsKept: a published read-only copy without a
// cache (here one written with the cache off) answers the full way and
// never reads every offer to build one it cannot keep; a rollback or a
// removal writes the cache of the snapshots left.
func TestOverlayCacheWhereNoneIsKept(t *testing.T) {
	dir := t.TempDir()
	db := overlayTestDB(t, dir, 5)
	snap := filepath.Join(dir, "published.db")
	if _, errOut, code := runRead(curated.Embedded(), now, true, nil, "catalog", "publish", "--db", db, "--to", snap); code != 0 {
		t.Fatalf("publish: %s", errOut)
	}
	for i := 0; i < 2; i++ {
		if _, path := readPath(t, curated.Embedded(), "offers", "--db", snap, "--db-read-only", "--gpu", "A100", "--limit", "5"); path != "" {
			t.Errorf("read %d of a read-only copy without a cache took path %q, want the full read alone", i+1, path)
		}
	}
	for _, cmd := range [][]string{{"catalog", "snapshots", "rollback", "aws:aws@eu-west-1"}, {"catalog", "snapshots", "rm", "2"}} {
		var events []string
		if out, errOut, code := runRead(curated.Embedded(), now, false, &events, append(cmd, "--db", db)...); code != 0 {
			t.Fatalf("%v: exit %d\n%s%s", cmd, code, out, errOut)
		}
		if strings.Join(events, ",") != "overlay-cache-built" {
			t.Errorf("%v wrote no overlay cache: %v", cmd, events)
		}
		if _, path := readPath(t, curated.Embedded(), "offers", "--db", db, "--gpu", "A100", "--limit", "5"); path != "overlay-cache-hit" {
			t.Errorf("the read after %v took path %q", cmd, path)
		}
	}
}

// TestOverlayCacheCanBeTurnedOff: an operator who suspects the overlay
// cache sets GPUSCOUT_OVERLAY_CACHE=off; reads then take the full way,
// and neither an import nor a read writes the cache.
func TestOverlayCacheCanBeTurnedOff(t *testing.T) {
	dir := t.TempDir()
	db := overlayTestDB(t, dir, 7)
	run := func(env string, args ...string) []string {
		t.Helper()
		var events []string
		var out, errOut bytes.Buffer
		e := cli.Env{
			Getenv: func(k string) string {
				if k == cli.EnvOverlayCache {
					return env
				}
				return ""
			},
			Now:     func() time.Time { return now },
			IsTTY:   func() bool { return false },
			Catalog: curated.Embedded(),
			Event:   func(name string) { events = append(events, name) },
		}
		if code := cli.Main(context.Background(), args, cli.IO{In: strings.NewReader(""), Out: &out, Err: &errOut}, e); code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, errOut.String())
		}
		return events
	}
	offers := []string{"offers", "--db", db, "--gpu", "A100", "--limit", "5"}
	run("", offers...) // builds it
	if ev := run("", offers...); strings.Join(ev, ",") != "overlay-cache-hit" {
		t.Fatalf("with the cache on: %v, want a hit", ev)
	}
	vms := filepath.Join(dir, "more.csv")
	writeVMS(t, vms, 8, 96, 1.1)
	for _, args := range [][]string{{"catalog", "import", "skypilot", "--cloud", "aws", "--file", vms, "--db", db}, offers, offers} {
		if ev := run("OFF", args...); len(ev) != 0 {
			t.Errorf("%v with %s=OFF: %v, want the full read and no cache written", args[:2], cli.EnvOverlayCache, ev)
		}
	}
	if ev := run("", offers...); strings.Join(ev, ",") != "overlay-cache-built" {
		t.Errorf("the first read with the cache back on: %v, want it built (none was written while off)", ev)
	}
}
