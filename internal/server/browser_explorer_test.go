package server_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// explorer5000Result is what the 5,000-row script measures.
type explorer5000Result struct {
	Rows    int                  `json:"rows"`
	DOMRows int                  `json:"domRows"`
	MaxDOM  int                  `json:"maxDOM"`
	Sorts   map[string]float64   `json:"sorts"`
	Samples map[string][]float64 `json:"samples"`
	Filter  float64              `json:"filter"`
	Matches int                  `json:"matches"`
	Page    float64              `json:"page"`
	Shown   int                  `json:"shown"`
	Selects int                  `json:"selects"`
	Order   []string             `json:"order"`
}

// explorer5000 loads the explorer in lang, swaps in 5,000 rows (the
// catalog's rows repeated) shown on one virtualised page, and times, in
// the browser, a sort on every sortable column, the quick filter and
// paging (50 rows a page), from the click or keystroke until the next
// frame is painted (median of five runs after a warm-up).
func explorer5000(ctx context.Context, base, lang string) (explorer5000Result, error) {
	var res explorer5000Result
	err := chromedp.Run(ctx,
		chromedp.Navigate(base+"/offers?lang="+lang+"&cheapest_region=false&size=0&cols=provider,instance,gpu,interconnect,rdma,region,billing,price,per_gpu,source,as_of"),
		chromedp.WaitVisible(`table[data-offers]`, chromedp.ByQuery),
		chromedp.Evaluate(`(async () => {`+paintTimer+`
  const src = document.getElementById('offers-data');
  const data = JSON.parse(src.textContent);
  const rows = [];
  for (let i = 0; rows.length < 5000; i++) {
    const r = data.rows[i % data.rows.length].slice();
    r[0] = r[0] + '#' + i;
    rows.push(r);
  }
  data.rows = rows;
  src.textContent = JSON.stringify(data);
  document.dispatchEvent(new Event('gpuscout:offers-data'));
  await paint();
  const out = {rows: view().length, domRows: document.querySelectorAll('tbody tr[data-offer]').length, sorts: {}, samples: {}, selects: document.querySelectorAll('select[name=sort]').length};
  // a sort alternates ascending and descending
  for (const a of document.querySelectorAll('th a[data-sort]')) {
    const k = a.getAttribute('data-sort');
    out.sorts[k] = await median(out, 'sort ' + k, () => a.click());
  }
  const rdma = document.querySelector('th a[data-sort="rdma"]');
  rdma.click();
  await paint();
  out.order = [...document.querySelectorAll('tbody tr[data-offer] td[data-col="rdma"]')].slice(0, 30).map(td => td.textContent);
  const box = document.querySelector('[data-x-filter]');
  const type = v => { box.value = v; box.dispatchEvent(new Event('input', {bubbles: true})); };
  let word = 'h100 us-east';
  out.filter = await median(out, 'filter', () => { type(word); word = word === 'h100 us-east' ? 'a100' : 'h100 us-east'; });
  type('h100 us-east');
  await paint();
  out.matches = view().length;
  type('');
  const size = document.querySelector('[data-x-size]');
  size.value = '50';
  size.dispatchEvent(new Event('change', {bubbles: true}));
  await paint();
  out.page = await median(out, 'next page', () => document.querySelector('[data-x-next]').click());
  for (const b of ['[data-x-prev]', '[data-x-prev]', '[data-x-prev]', '[data-x-prev]', '[data-x-prev]', '[data-x-next]']) document.querySelector(b).click();
  await paint();
  out.shown = document.querySelectorAll('tbody tr[data-offer]').length;
  out.maxDOM = maxDOM;
  return out;
})()`, &res, awaitPromise),
	)
	return res, err
}

// TestBrowserExplorerOn5000Rows: with 5,000 rows on one virtualised page,
// in English and Chinese, does every sortable column (interconnect, RDMA
// and source included) sort, in order, the quick filter narrow the rows,
// and paging show 50 — each rendering only a window of rows, however many
// there are? The paint times are logged (every run, go test -v) and held
// to 100 ms only in a budget run (GPUSCOUT_PERF_BUDGET=1), since a busy
// machine slows them without the code changing;
// BenchmarkBrowserExplorerOn5000Rows reports them. Sorting is one control
// (the headers; no sort select).
func TestBrowserExplorerOn5000Rows(t *testing.T) {
	ctx, base, problems := browser(t)
	for _, lang := range []string{"en", "zh"} {
		res, err := explorer5000(ctx, base, lang)
		if err != nil {
			t.Fatalf("%s: %v (problems: %v)", lang, err, problems())
		}
		if res.Rows != 5000 || res.Shown != 50 || res.DOMRows > maxWindow {
			t.Fatalf("%s: %d rows loaded, %d in the DOM for all of them, %d shown on page 2", lang, res.Rows, res.DOMRows, res.Shown)
		}
		if res.MaxDOM == 0 || res.MaxDOM > maxWindow {
			t.Errorf("%s: %d rows in the DOM after a sort, filter or page of 5,000 rows, want a window of at most %d", lang, res.MaxDOM, maxWindow)
		}
		if res.Selects != 0 {
			t.Error("a sort select next to the sortable headers: one sort control, not two")
		}
		for _, k := range []string{"interconnect", "rdma", "source", "price", "gpu"} {
			if _, ok := res.Sorts[k]; !ok {
				t.Errorf("column %s does not sort", k)
			}
		}
		keys := make([]string, 0, len(res.Sorts))
		for k := range res.Sorts {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			checkBudget(t, fmt.Sprintf("%s: sorting 5,000 rows by %s", lang, k), res.Sorts[k], res.Samples["sort "+k])
		}
		checkBudget(t, lang+": the quick filter on 5,000 rows", res.Filter, res.Samples["filter"])
		checkBudget(t, lang+": the next page of 5,000 rows", res.Page, res.Samples["next page"])
		if res.Matches == 0 || res.Matches >= 5000 {
			t.Errorf("%s: the quick filter kept %d of 5,000 rows", lang, res.Matches)
		}
		for i := 1; i < len(res.Order); i++ {
			if res.Order[i] < res.Order[i-1] {
				t.Fatalf("%s: RDMA column not in order after sorting: %v", lang, res.Order)
			}
		}
	}
	if p := problems(); len(p) > 0 {
		t.Errorf("browser reported errors: %v", p)
	}
}

// BenchmarkBrowserExplorerOn5000Rows reports the explorer's paint times on
// 5,000 rows (English), each the median of five runs after a warm-up: the
// slowest column's sort, the quick filter and the next page, in ms.
//
//	go test ./internal/server -run '^$' -bench BrowserExplorerOn5000Rows -benchtime 3x
func BenchmarkBrowserExplorerOn5000Rows(b *testing.B) {
	ctx, base, problems := browser(b)
	var sortMS, filterMS, pageMS float64
	for b.Loop() {
		res, err := explorer5000(ctx, base, "en")
		if err != nil {
			b.Fatalf("%v (problems: %v)", err, problems())
		}
		worst := 0.0
		for _, ms := range res.Sorts {
			worst = max(worst, ms)
		}
		sortMS += worst
		filterMS += res.Filter
		pageMS += res.Page
	}
	n := float64(b.N)
	b.ReportMetric(sortMS/n, "sort-ms")
	b.ReportMetric(filterMS/n, "filter-ms")
	b.ReportMetric(pageMS/n, "page-ms")
}

// TestBrowserPriceUnitAndFixedPages: switching the price unit clears the
// price limits and says so (no silent empty table); an instance page shows
// no throughput for a model that does not fit and no "0" hourly price for
// monthly billing; a spot run no interruption hits shows no one-bar chart.
func TestBrowserPriceUnitAndFixedPages(t *testing.T) {
	ctx, base, problems := browser(t)
	var maxPrice string
	var noteHidden bool
	err := chromedp.Run(ctx,
		chromedp.Navigate(base+"/offers?lang=en&max_price=2"),
		chromedp.WaitVisible(`select[data-price-unit]`, chromedp.ByQuery),
		chromedp.SetValue(`select[data-price-unit]`, "month", chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector('select[data-price-unit]').dispatchEvent(new Event('change', {bubbles: true})); true`, nil),
		chromedp.Value(`input[name="max_price"]`, &maxPrice, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector('[data-price-reset]').hidden`, &noteHidden),
	)
	if err != nil {
		t.Fatalf("%v (problems: %v)", err, problems())
	}
	if maxPrice != "" || noteHidden {
		t.Errorf("after switching to month: max_price %q, note hidden %v", maxPrice, noteHidden)
	}
	var noFitThroughput []string
	var zeroHourly int
	err = chromedp.Run(ctx,
		chromedp.Navigate(base+"/instances/aws/p3.2xlarge?lang=en"),
		chromedp.WaitVisible(`table[data-estimates]`, chromedp.ByQuery),
		chromedp.Evaluate(`[...document.querySelectorAll('tr[data-no-fit] td:nth-child(3)')].map(td => td.textContent.trim()).filter(s => s !== '–')`, &noFitThroughput),
		chromedp.Navigate(base+"/instances/tencent/GN6S.LARGE20?lang=zh"),
		chromedp.WaitVisible(`table[data-prices]`, chromedp.ByQuery),
		chromedp.Evaluate(`[...document.querySelectorAll('table[data-prices] tbody td:nth-child(3)')].filter(td => td.textContent.trim() === '0').length`, &zeroHourly),
	)
	if err != nil {
		t.Fatalf("%v (problems: %v)", err, problems())
	}
	if len(noFitThroughput) > 0 {
		t.Errorf("throughput shown for models that do not fit: %v", noFitThroughput)
	}
	if zeroHourly > 0 {
		t.Errorf("%d price rows show an hourly price of 0", zeroHourly)
	}
	var flat string
	var charts, verdicts int
	err = chromedp.Run(ctx,
		chromedp.Navigate(base+"/spot?offer=aws/p5en.48xlarge/us-east-1/spot&work_hours=48&lang=zh"),
		chromedp.WaitVisible(`[data-verdict]`, chromedp.ByQuery),
		chromedp.Text(`[data-flat]`, &flat, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll('.chart').length`, &charts),
		chromedp.Evaluate(`[...document.querySelectorAll('main p, main li')].filter(e => /spot pays|override with/.test(e.textContent)).length`, &verdicts),
	)
	if err != nil {
		t.Fatalf("%v (problems: %v)", err, problems())
	}
	if charts != 0 || !strings.Contains(flat, "100000") || verdicts != 0 {
		t.Errorf("p5en spot page: %d charts, flat note %q, %d raw English verdicts", charts, flat, verdicts)
	}
	if p := problems(); len(p) > 0 {
		t.Errorf("browser reported errors: %v", p)
	}
}
