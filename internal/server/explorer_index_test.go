package server

import (
	"fmt"
	"html/template"
	"math/rand"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/catalog/curated"
	"github.com/gpuscout/gpuscout/internal/i18n"
)

func embeddedData(t *testing.T) *Data {
	t.Helper()
	ds, err := curated.LoadEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	return &Data{Catalog: ds.Catalog, FX: ds.FX}
}

// sameRows fails unless got and want are the same offers, in the same
// order, with the same prices.
func sameRows(t *testing.T, what string, got, want []catalog.OfferRow) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows, catalog gives %d", what, len(got), len(want))
	}
	if (got == nil) != (want == nil) {
		t.Fatalf("%s: nil %v, catalog nil %v", what, got == nil, want == nil)
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.Offer != w.Offer || g.Currency != w.Currency || g.Marketplace != w.Marketplace ||
			!g.Hourly.Equal(w.Hourly) || !g.Upfront.Equal(w.Upfront) || !g.Monthly.Equal(w.Monthly) ||
			!g.EffectiveHourly.Equal(w.EffectiveHourly) || !g.PerGPUHourly.Equal(w.PerGPUHourly) || !g.Price.Equal(w.Price) {
			t.Fatalf("%s: row %d is %s %s %s, catalog gives %s %s %s", what, i, g.Offer.ID(), g.Price, g.Currency, w.Offer.ID(), w.Price, w.Currency)
		}
	}
}

// randomQueries are queries over the catalog's own values: every filter,
// unit, currency and sort key, alone and combined.
func randomQueries(d *Data, n int) []catalog.OfferQuery {
	rng := rand.New(rand.NewSource(21))
	c := d.Catalog
	pick := func(vals []string) []string {
		var out []string
		for k := rng.Intn(3) + 1; k > 0; k-- {
			out = append(out, vals[rng.Intn(len(vals))])
		}
		return out
	}
	var providers, gpus, regions, countries, zones, ids []string
	for _, p := range c.Providers() {
		providers = append(providers, p.ID)
	}
	for _, g := range c.GPUs() {
		gpus = append(gpus, g.ID)
	}
	for _, r := range c.Regions() {
		regions, countries, zones = append(regions, r.Code), append(countries, r.Country), append(zones, r.Residency)
	}
	for i, o := range c.Offers() {
		if i%97 == 0 {
			ids = append(ids, o.Instance.ID())
		}
	}
	billing := []string{"on-demand", "spot", "reserved", "savings-plan", "committed", "subscription", "capacity-block", "flex-start", "reserved-1y-no-upfront", "subscription-1m"}
	currencies := append([]string{""}, d.FX.Currencies()...)
	pers := []catalog.PriceUnit{"", catalog.PerInstanceHour, catalog.PerGPUHour, catalog.PerMonth}
	sorts := []catalog.SortKey{"", catalog.SortPrice, catalog.SortGPUPrice, catalog.SortVRAM, catalog.SortFP16PerDollar}
	qs := []catalog.OfferQuery{{}, {Currency: "USD"}, {Currency: "CNY", Statuses: []string{catalog.StatusCurrent, catalog.StatusPrevious, catalog.StatusRetired}}}
	for len(qs) < n {
		q := catalog.OfferQuery{Currency: currencies[rng.Intn(len(currencies))], Per: pers[rng.Intn(len(pers))], Sort: sorts[rng.Intn(len(sorts))]}
		for f := 0; f < 12; f++ {
			if rng.Intn(6) != 0 {
				continue
			}
			switch f {
			case 0:
				q.Providers = pick(providers)
			case 1:
				q.GPUs = pick(gpus)
			case 2:
				q.MinGPUs = decimal.NewFromInt(int64(1 << rng.Intn(4)))
			case 3:
				q.MinVRAMGB = decimal.NewFromInt(int64(16 * rng.Intn(6)))
			case 4:
				q.Regions = pick(regions)
			case 5:
				q.Countries = pick(countries)
			case 6:
				q.Residency = pick(zones)
			case 7:
				q.Billing = pick(billing)
			case 8:
				q.Statuses = pick([]string{catalog.StatusCurrent, catalog.StatusPrevious, catalog.StatusRetired})
			case 9:
				q.MaxPrice = decimal.NewFromFloat(rng.Float64() * 60).Round(2)
			case 10:
				q.Limit = rng.Intn(30)
			case 11:
				q.InstanceID = ids[rng.Intn(len(ids))]
			}
		}
		qs = append(qs, q)
	}
	for i := range qs {
		if qs[i].Currency != "" {
			qs[i].FX = d.FX
		}
	}
	return qs
}

// TestIndexAnswersAsCatalog holds the explorer's index to the catalog: for
// queries over every filter, unit, currency and order, queryOffers returns
// what Catalog.QueryOffers returns, and cheapestRegion what
// catalog.CheapestRegion keeps, also after the server's column orders
// (where it keeps the rows the price order chose, in the column order).
func TestIndexAnswersAsCatalog(t *testing.T) {
	bothModes(t, testIndexAnswersAsCatalog)
}

// bothModes runs a test on the embedded catalog as the index holds it
// (priced rows stored) and as it holds a big catalog (positions only,
// rows priced per answer; see storedRowsMax).
func bothModes(t *testing.T, test func(*testing.T, *Data)) {
	for _, mode := range []struct {
		name   string
		stored int
	}{{"stored", 0}, {"big", -1}} {
		t.Run(mode.name, func(t *testing.T) {
			d := embeddedData(t)
			d.storedRows = mode.stored
			if got := d.index().stored; got != (mode.stored == 0) {
				t.Fatalf("index stored %v", got)
			}
			test(t, d)
		})
	}
}

func testIndexAnswersAsCatalog(t *testing.T, d *Data) {
	nonEmpty := 0
	for i, q := range randomQueries(d, 300) {
		what := fmt.Sprintf("query %d %+v", i, q)
		want, err := d.Catalog.QueryOffers(q)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		got, err := d.queryOffers(q)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		sameRows(t, what, got, want)
		if len(want) > 0 {
			nonEmpty++
		}
		sameRows(t, what+" cheapest region", d.cheapestRegion(q.Currency, got), catalog.CheapestRegion(want))
		if fast, ok := d.queryCheapest(q); ok {
			sameRows(t, what+" cheapest region in one pass", fast, catalog.CheapestRegion(want))
		} else if q.Limit == 0 {
			t.Errorf("%s: queryCheapest did not answer a query the index answers", what)
		}
		// After a column order, the cheapest region of each type is still
		// the one the price order puts first among equals (so a reload
		// sorted otherwise keeps the same rows), in the column order.
		keep := map[*catalog.Offer]bool{}
		for _, r := range catalog.CheapestRegion(want) {
			keep[r.Offer] = true
		}
		order := orderKeys[i%len(orderKeys)]
		sortRows(got, order, i%2 == 0)
		sortRows(want, order, i%2 == 0)
		var kept []catalog.OfferRow
		for _, r := range want {
			if keep[r.Offer] {
				kept = append(kept, r)
			}
		}
		sameRows(t, what+" ordered by "+order+" cheapest region", d.cheapestRegion(q.Currency, got), kept)
	}
	t.Logf("%d of 300 queries match offers", nonEmpty)
	if nonEmpty < 150 {
		t.Fatalf("only %d of 300 queries match offers: the test compares too little", nonEmpty)
	}
}

// TestIndexFallsBack sends what the index cannot answer to the catalog: a
// currency without a rate is the catalog's error, as before.
func TestIndexFallsBack(t *testing.T) {
	bothModes(t, func(t *testing.T, d *Data) {
		q := catalog.OfferQuery{Currency: "XXX", FX: d.FX}
		_, want := d.Catalog.QueryOffers(q)
		_, got := d.queryOffers(q)
		if want == nil || got == nil || got.Error() != want.Error() {
			t.Fatalf("error %v, catalog gives %v", got, want)
		}
	})
}

// TestCellTableMatchesRows: the cells a page takes from the load's table
// are the cells formatted from the row itself, in both languages.
func TestCellTableMatchesRows(t *testing.T) {
	d := embeddedData(t)
	for _, c := range []struct {
		lang      i18n.Lang
		cur, unit string
		per       catalog.PriceUnit
		scale     int64
	}{{i18n.EN, "USD", "instance-hour", "", 1}, {i18n.ZH, "CNY", "day", "", 24}, {i18n.EN, "EUR", "gpu-hour", catalog.PerGPUHour, 1}, {i18n.ZH, "USD", "month", catalog.PerMonth, 1}} {
		p := i18n.NewPrinter(c.lang)
		s := OfferSearch{Query: catalog.OfferQuery{Currency: c.cur, FX: d.FX, Per: c.per}, Scale: decimal.NewFromInt(c.scale), Unit: c.unit}
		rows, err := d.queryOffers(s.Query)
		if err != nil {
			t.Fatal(err)
		}
		cells := d.rowCells(p, s, c.cur, rows)
		names := providerNames(d, p)
		for i, r := range rows {
			want := newOfferCells(p, names, r, s.Scale, c.cur, hourlyPrice(s))
			if fmt.Sprint(*cells[i]) != fmt.Sprint(*want) {
				t.Fatalf("%s %s %s row %d: table cells\n%v\nformatted\n%v", c.lang, c.cur, c.unit, i, *cells[i], *want)
			}
		}
		if c.lang == i18n.ZH && len(rows) > 0 && cells[0].view.BillingLabel == string(rows[0].Offer.Billing) {
			t.Fatalf("zh billing label %q is the code", cells[0].view.BillingLabel)
		}
	}
}

// TestLazyCache builds each key once under concurrent first uses and keeps
// at most max keys, dropping the oldest.
func TestLazyCache(t *testing.T) {
	c := newLazyCache[int, int](3)
	var builds atomic.Int32
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, _ := c.get(7, func() (int, error) { builds.Add(1); return 49, nil })
			if v != 49 {
				t.Errorf("got %d", v)
			}
		}()
	}
	wg.Wait()
	if builds.Load() != 1 {
		t.Fatalf("built %d times", builds.Load())
	}
	for k := 0; k < 5; k++ {
		c.get(k, func() (int, error) { return k, nil })
	}
	var keys []int
	for k := range c.entries {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	if fmt.Sprint(keys) != "[2 3 4]" {
		t.Fatalf("kept %v, want the newest three [2 3 4]", keys)
	}
}

// BenchmarkOfferIndexBuild is what the first explorer request after a
// load pays for its language, currency and unit: the base list (every
// offer priced and sorted by the catalog), the price ranks and the cell
// table of every offer.
func BenchmarkOfferIndexBuild(b *testing.B) {
	ds, err := curated.LoadEmbedded()
	if err != nil {
		b.Fatal(err)
	}
	p := i18n.NewPrinter(i18n.EN)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		d := &Data{Catalog: ds.Catalog, FX: ds.FX}
		s := OfferSearch{Query: catalog.OfferQuery{Currency: "USD", FX: d.FX}, Scale: decimal.NewFromInt(1), Unit: "instance-hour"}
		rows, err := d.queryOffers(s.Query)
		if err != nil {
			b.Fatal(err)
		}
		rows = d.cheapestRegion("USD", rows)
		if cells := d.rowCells(p, s, "USD", rows); len(cells) != len(rows) {
			b.Fatal("cells missing")
		}
	}
	b.ReportMetric(float64(len(ds.Catalog.Offers())), "offers")
}

// TestFormFragmentsEscapeAsTemplates: the form's options rendered in Go
// read exactly as html/template renders them, hostile text included.
func TestFormFragmentsEscapeAsTemplates(t *testing.T) {
	tpl := template.Must(template.New("o").Parse(`{{range .}}<option value="{{.Value}}"{{if .Selected}} selected{{end}}>{{.Label}}</option>{{end}}`))
	opts := options{{Value: `a"b'c`, Label: "<script>x</script> & +1", Selected: true}, {Value: "A+B\x00", Label: "按量付费 ·  é"}, {Value: "", Label: ""}}
	var want strings.Builder
	if err := tpl.Execute(&want, opts); err != nil {
		t.Fatal(err)
	}
	if got := string(opts.HTML()); got != want.String() {
		t.Fatalf("Go-rendered options\n%s\nhtml/template\n%s", got, want.String())
	}
}
