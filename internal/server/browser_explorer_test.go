package server_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserExplorerOn5000Rows loads the explorer, swaps in 5,000 rows
// (the catalog's rows repeated) and shows them all on one virtualised
// page, in English and Chinese; it times, in the browser, a sort on every
// sortable column (interconnect, RDMA and source included) and the quick
// filter, from the click or keystroke until the next frame is painted:
// each must take ≤ 100 ms. Paging (50 rows a page) is timed the same way.
// Each figure is the median of five runs after one unmeasured warm-up run,
// so one run slowed by a busy machine (a CI runner compiling next door)
// cannot fail it; a round over budget is measured again, up to three
// rounds, and the best round counts (see median); every run's time is logged (go test -v, and with every
// failure) for docs/benchmarks.md. Sorting is one control (the headers;
// no sort select).
func TestBrowserExplorerOn5000Rows(t *testing.T) {
	ctx, base, problems := browser(t)
	for _, lang := range []string{"en", "zh"} {
		var res struct {
			Rows    int                  `json:"rows"`
			DOMRows int                  `json:"domRows"`
			Sorts   map[string]float64   `json:"sorts"`
			Samples map[string][]float64 `json:"samples"`
			Filter  float64              `json:"filter"`
			Matches int                  `json:"matches"`
			Page    float64              `json:"page"`
			Shown   int                  `json:"shown"`
			Selects int                  `json:"selects"`
			Order   []string             `json:"order"`
		}
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
  return out;
})()`, &res, awaitPromise),
		)
		if err != nil {
			t.Fatalf("%s: %v (problems: %v)", lang, err, problems())
		}
		if res.Rows != 5000 || res.Shown != 50 || res.DOMRows > 200 {
			t.Fatalf("%s: %d rows loaded, %d in the DOM for all of them, %d shown on page 2", lang, res.Rows, res.DOMRows, res.Shown)
		}
		if res.Selects != 0 {
			t.Error("a sort select next to the sortable headers: one sort control, not two")
		}
		for _, k := range []string{"interconnect", "rdma", "source", "price", "gpu"} {
			if _, ok := res.Sorts[k]; !ok {
				t.Errorf("column %s does not sort", k)
			}
		}
		runs := make([]string, 0, len(res.Samples))
		for k, v := range res.Samples {
			runs = append(runs, fmt.Sprintf("%s %v", k, v))
		}
		sort.Strings(runs)
		t.Logf("%s: 5,000 rows, ms to paint of each run after a warm-up: %s", lang, strings.Join(runs, "; "))
		for k, ms := range res.Sorts {
			if ms > 100 {
				t.Errorf("%s: sorting 5,000 rows by %s took %.1f ms to paint (median of %v)", lang, k, ms, res.Samples["sort "+k])
			}
		}
		if res.Filter > 100 || res.Page > 100 {
			t.Errorf("%s: filter %.1f ms (median of %v), page %.1f ms (median of %v) on 5,000 rows", lang, res.Filter, res.Samples["filter"], res.Page, res.Samples["next page"])
		}
		if res.Matches == 0 || res.Matches >= 5000 {
			t.Errorf("%s: the quick filter kept %d of 5,000 rows", lang, res.Matches)
		}
		for i := 1; i < len(res.Order); i++ {
			if res.Order[i] < res.Order[i-1] {
				t.Fatalf("%s: RDMA column not in order after sorting: %v", lang, res.Order)
			}
		}
		medians := make([]string, 0, len(res.Sorts))
		for k, ms := range res.Sorts {
			medians = append(medians, fmt.Sprintf("%s %.1f", k, ms))
		}
		sort.Strings(medians)
		t.Logf("%s: 5,000 rows, medians: sort ms %s; filter %.1f ms (%d matches); next page %.1f ms", lang, strings.Join(medians, ", "), res.Filter, res.Matches, res.Page)
	}
	if p := problems(); len(p) > 0 {
		t.Errorf("browser reported errors: %v", p)
	}
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
