package server_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// paintTimer is a script prelude: time(f) runs f (a click, a keystroke)
// and resolves with the milliseconds until the next frame has been
// painted, and keeps in maxDOM the most explorer rows in the DOM after
// any timed run (the work a sort or filter does is bounded by the rows it
// renders); median runs one unmeasured warm-up, then five, keeping each
// run in out.samples. The times are reported, and asserted only in a
// budget run (GPUSCOUT_PERF_BUDGET=1, see checkBudget). ids(csv) are the offer IDs of a CSV export's rows
// (the last column), and view() the explorer's rows in order.
var paintTimer = strings.Replace(paintTimerJS, "BUDGET_ROUNDS", map[bool]string{true: "3", false: "1"}[perfBudget()], 1)

// paintTimerJS is paintTimer before the number of rounds is set: three in
// a budget run, one otherwise (the times are then only reported, so a
// slow round is not measured again).
const paintTimerJS = `
const paint = () => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
let maxDOM = 0;
const time = async f => {
  const t0 = performance.now(); f(); await paint(); const ms = performance.now() - t0;
  maxDOM = Math.max(maxDOM, document.querySelectorAll('table[data-offers] tbody tr[data-offer]').length);
  return ms;
};
// median is the median of five timed runs after a warm-up. In a budget
// run (GPUSCOUT_PERF_BUDGET=1) a round whose median misses the 100 ms
// budget is measured again, up to three rounds, and the best round counts:
// another process on a shared 2-core machine can stall one round, never
// the code's speed in all three. Every run of every round is kept in
// out.samples and logged.
const median = async (out, name, f) => {
  let best = Infinity;
  const all = [];
  for (let round = 0; round < BUDGET_ROUNDS && best > 100; round++) {
    await time(f);
    const runs = [];
    for (let i = 0; i < 5; i++) runs.push(await time(f));
    all.push(...runs.map(x => Math.round(x * 10) / 10));
    best = Math.min(best, runs.sort((x, y) => x - y)[2]);
  }
  out.samples[name] = all;
  return best;
};
const ids = text => text.replace(/^\ufeff/, '').split(/\r?\n/).slice(1).filter(l => l).map(l => l.slice(l.lastIndexOf(',') + 1));
const view = () => document.querySelector('table[data-offers]')._gsExplorer.ids();
const fetchIDs = async url => ids(await (await fetch(url)).text());
`

// allRowsResult is what the all-rows script measures.
type allRowsResult struct {
	Rows      int                  `json:"rows"`
	DOMRows   int                  `json:"domRows"`
	MaxDOM    int                  `json:"maxDOM"`
	RowCount  string               `json:"rowCount"`
	Sorts     map[string]float64   `json:"sorts"`
	Samples   map[string][]float64 `json:"samples"`
	Filter    float64              `json:"filter"`
	Form      float64              `json:"form"`
	Mismatch  []string             `json:"mismatch"`
	LastIndex string               `json:"lastIndex"`
	LastID    string               `json:"lastId"`
	WantLast  string               `json:"wantLast"`
	Reloaded  bool                 `json:"reloaded"`
	FormRows  int                  `json:"formRows"`
	FormURL   string               `json:"formURL"`
}

// TestBrowserExplorerAllRows opens the explorer with every row of every
// region (about 4,000 rows, every price age) on one virtualised page, in
// English and Chinese: at most a window of rows is in the DOM, yet the
// last row is reachable by scrolling and aria-rowcount counts them all;
// a sort on each of five columns, the quick filter and the filter form's
// GPU and cloud filters each render at most a window of rows (their paint
// times, median of five after a warm-up, are logged, and held to 100 ms in
// a budget run), the form's filters without a reload; and every order the
// script produces, ties included, is the server's order for the same URL
// (its CSV export), so a reload or a link in another tab lists the same
// rows in the same order; axe-core finds no violation in the virtual table.
func TestBrowserExplorerAllRows(t *testing.T) {
	ctx, base, problems := browser(t)
	for _, lang := range []string{"en", "zh"} {
		var res allRowsResult
		err := chromedp.Run(ctx,
			chromedp.EmulateViewport(1440, 900),
			chromedp.Navigate(base+"/offers?lang="+lang+"&cheapest_region=false&max_age_months=0&size=0"),
			chromedp.WaitVisible(`table[data-offers] tbody tr[data-offer]`, chromedp.ByQuery),
			chromedp.Evaluate(`(async () => {`+paintTimer+`
  window.__notReloaded = true;
  const table = document.querySelector('table[data-offers]');
  const wrap = table.closest('.table-wrap');
  const out = {rows: view().length, domRows: table.querySelectorAll('tbody tr[data-offer]').length, rowCount: table.getAttribute('aria-rowcount'), sorts: {}, samples: {}, mismatch: []};
  for (const k of ['price', 'provider', 'gpu', 'region', 'as_of']) {
    const a = document.querySelector('th a[data-sort="' + k + '"]');
    out.sorts[k] = await median(out, 'sort ' + k, () => a.click());
    // both directions against the server's order for the same URL
    for (let d = 0; d < 2; d++) {
      const got = view().join('\n');
      const want = (await fetchIDs(document.querySelector('a[data-export="csv"]').href)).join('\n');
      if (got !== want) { const g = got.split('\n'), w = want.split('\n'); let i = 0; while (i < g.length && g[i] === w[i]) i++; out.mismatch.push(k + (location.search.includes('desc=true') ? ' desc' : ' asc') + ' at ' + i + ' of ' + g.length + '/' + w.length + ': ' + g.slice(i, i + 2) + ' vs ' + w.slice(i, i + 2)); }
      a.click();
      await paint();
    }
  }
  wrap.scrollTop = wrap.scrollHeight;
  await paint(); await paint();
  const rendered = table.querySelectorAll('tbody tr[data-offer]');
  const last = rendered[rendered.length - 1];
  out.lastIndex = last.getAttribute('aria-rowindex');
  out.lastId = last.getAttribute('data-offer');
  out.wantLast = view()[view().length - 1];
  wrap.scrollTop = 0;
  const box = document.querySelector('[data-x-filter]');
  const type = v => { box.value = v; box.dispatchEvent(new Event('input', {bubbles: true})); };
  let word = 'h100';
  out.filter = await median(out, 'filter', () => { type(word); word = word === 'h100' ? 'a100' : 'h100'; });
  type('h100 us');
  await paint();
  if (view().join('\n') !== (await fetchIDs(document.querySelector('a[data-export="csv"]').href)).join('\n')) out.mismatch.push('quick filter');
  type('');
  await paint();
  // the filter form: GPU and cloud applied here, without a reload
  const form = document.querySelector('form.filters');
  const gpu = form.querySelector('[name=gpu]');
  const aws = form.querySelector('input[name=provider][value=aws]');
  let n = 0;
  out.form = await median(out, 'form filter', () => {
    n++;
    gpu.value = n % 2 ? 'H100' : 'A100';
    aws.checked = n % 2 === 1;
    form.requestSubmit();
  });
  out.formRows = view().length;
  out.formURL = location.search;
  if (view().join('\n') !== (await fetchIDs(document.querySelector('a[data-export="csv"]').href)).join('\n')) out.mismatch.push('form filter');
  out.reloaded = !window.__notReloaded;
  out.maxDOM = maxDOM;
  return out;
})()`, &res, awaitPromise),
		)
		if err != nil {
			t.Fatalf("%s: %v (problems: %v)", lang, err, problems())
		}
		// the virtual table (spacer and sizer rows, a window of rows) passes axe
		if axe := axeScript(t); axe != "" {
			checkAxe(ctx, t, "offers-all-rows-"+lang, axe)
		}
		runs := make([]string, 0, len(res.Samples))
		for k, v := range res.Samples {
			runs = append(runs, fmt.Sprintf("%s %v", k, v))
		}
		sort.Strings(runs)
		t.Logf("%s: %d rows (%d in the DOM); ms to paint, each run after a warm-up: %s", lang, res.Rows, res.DOMRows, strings.Join(runs, "; "))
		if res.Rows < 3000 {
			t.Fatalf("%s: only %d rows with every region and every price age", lang, res.Rows)
		}
		if res.DOMRows > maxWindow || res.MaxDOM > maxWindow || res.MaxDOM == 0 || res.RowCount != fmt.Sprint(res.Rows+1) {
			t.Errorf("%s: %d rows in the DOM, at most %d after a sort or filter (want a window of at most %d), aria-rowcount %s for %d rows",
				lang, res.DOMRows, res.MaxDOM, maxWindow, res.RowCount, res.Rows)
		}
		for k, ms := range res.Sorts {
			checkBudget(t, fmt.Sprintf("%s: sorting %d rows by %s", lang, res.Rows, k), ms, res.Samples["sort "+k])
		}
		checkBudget(t, lang+": the quick filter", res.Filter, res.Samples["filter"])
		checkBudget(t, lang+": the form's filters", res.Form, res.Samples["form filter"])
		if len(res.Mismatch) > 0 {
			t.Errorf("%s: the script's order differs from the server's for: %v", lang, res.Mismatch)
		}
		if res.LastIndex != fmt.Sprint(res.Rows+1) || res.LastID != res.WantLast {
			t.Errorf("%s: scrolled to the bottom, the last row is %s (aria-rowindex %s), want %s (%d)", lang, res.LastID, res.LastIndex, res.WantLast, res.Rows+1)
		}
		if res.Reloaded || res.FormRows == 0 || !strings.Contains(res.FormURL, "gpu=") {
			t.Errorf("%s: the form's filters reloaded the page (%v) or kept %d rows, URL %s", lang, res.Reloaded, res.FormRows, res.FormURL)
		}
	}
	if p := problems(); len(p) > 0 {
		t.Errorf("browser reported errors: %v", p)
	}
}

// TestBrowserExplorerStateAcrossLanguages sorts, filters and hides a
// column, then switches language: the other language's page has the same
// sort, quick filter, columns and rows; the CSV link carries the quick
// filter; and the default view says how to see every region and how many
// old prices it hides, in both languages, with links that keep the view.
func TestBrowserExplorerStateAcrossLanguages(t *testing.T) {
	ctx, base, problems := browser(t)
	for _, from := range []string{"en", "zh"} {
		var before, after struct {
			Sort    string   `json:"sort"`
			Q       string   `json:"q"`
			Cols    []string `json:"cols"`
			IDs     []string `json:"ids"`
			Lang    string   `json:"lang"`
			CSV     string   `json:"csv"`
			Regions string   `json:"regions"`
			All     string   `json:"all"`
			Age     string   `json:"age"`
			Show    string   `json:"show"`
		}
		const read = `(() => {
  const th = document.querySelector('th[aria-sort]');
  return {
    sort: th ? th.getAttribute('data-col') + ' ' + th.getAttribute('aria-sort') : '',
    q: document.querySelector('[data-x-filter]').value,
    cols: [...document.querySelectorAll('thead th[data-col]')].filter(th => !th.hidden).map(th => th.getAttribute('data-col')),
    ids: document.querySelector('table[data-offers]')._gsExplorer.ids().slice(0, 40),
    lang: document.documentElement.lang,
    csv: document.querySelector('a[data-export="csv"]').getAttribute('href'),
    regions: document.querySelector('[data-regions]').textContent.trim(),
    all: document.querySelector('[data-regions] a').getAttribute('href'),
    age: document.querySelector('[data-age]').textContent.trim(),
    show: (document.querySelector('[data-age] a') || {getAttribute: () => ''}).getAttribute('href'),
  };
})()`
		err := chromedp.Run(ctx,
			chromedp.Navigate(base+"/offers?lang="+from),
			chromedp.WaitVisible(`table[data-offers] tbody tr[data-offer]`, chromedp.ByQuery),
			chromedp.Evaluate(`(async () => {`+paintTimer+`
  document.querySelector('th a[data-sort="gpu"]').click();
  document.querySelector('th a[data-sort="gpu"]').click();
  const box = document.querySelector('[data-x-filter]');
  box.value = 'spot'; box.dispatchEvent(new Event('input', {bubbles: true}));
  document.querySelector('details.columns').open = true;
  const src = document.querySelector('fieldset[data-columns] input[value="source"]');
  src.click();
  await paint();
  return true;
})()`, nil, awaitPromise),
			chromedp.Evaluate(read, &before),
			chromedp.Click(`a[data-lang-switch]`, chromedp.ByQuery),
			chromedp.WaitVisible(`table[data-offers] tbody tr[data-offer]`, chromedp.ByQuery),
			chromedp.Evaluate(read, &after),
		)
		if err != nil {
			t.Fatalf("%s: %v (problems: %v)", from, err, problems())
		}
		if before.Lang == after.Lang {
			t.Fatalf("%s: the language switch stayed in %s", from, after.Lang)
		}
		if before.Sort != "gpu descending" || after.Sort != before.Sort || after.Q != "spot" || strings.Join(after.Cols, ",") != strings.Join(before.Cols, ",") {
			t.Errorf("%s → %s: sort %q → %q, filter %q, columns %v → %v", from, after.Lang, before.Sort, after.Sort, after.Q, before.Cols, after.Cols)
		}
		for _, c := range after.Cols {
			if c == "source" {
				t.Errorf("%s → %s: the hidden source column came back", from, after.Lang)
			}
		}
		if strings.Join(after.IDs, " ") != strings.Join(before.IDs, " ") || len(after.IDs) == 0 {
			t.Errorf("%s → %s: the rows changed order:\n%v\n%v", from, after.Lang, before.IDs, after.IDs)
		}
		if !strings.Contains(before.CSV, "q=spot") || !strings.Contains(before.CSV, "order=gpu") {
			t.Errorf("%s: the CSV link does not follow the quick filter and sort: %s", from, before.CSV)
		}
		for _, v := range []struct{ name, text, href string }{{"regions", before.Regions, before.All}, {"age", before.Age, before.Show}} {
			if v.text == "" || !strings.Contains(v.href, "q=spot") || !strings.Contains(v.href, "order=gpu") {
				t.Errorf("%s: the %s note %q links to %s, which drops the view", from, v.name, v.text, v.href)
			}
		}
		if !strings.Contains(before.All, "cheapest_region=false") || !strings.Contains(before.Show, "max_age_months=0") {
			t.Errorf("%s: the one-click links are %s and %s", from, before.All, before.Show)
		}
		t.Logf("%s: %q · %q", from, before.Regions, before.Age)
	}
	if p := problems(); len(p) > 0 {
		t.Errorf("browser reported errors: %v", p)
	}
}

// TestBrowserChartCodeOnlyWithCharts: the 404 page and the explorer's
// first view load no chart code, and the explorer's scripts come to at
// most 60 KB on the wire; the explorer's chart chunk loads when its chart
// nears the viewport, and draws it.
func TestBrowserChartCodeOnlyWithCharts(t *testing.T) {
	ctx, base, problems := browser(t)
	type loads struct {
		Scripts []string `json:"scripts"`
		Bytes   float64  `json:"bytes"`
	}
	const scripts = `(() => {
  const s = performance.getEntriesByType('resource').filter(e => /\.js(\?|$)/.test(e.name));
  return {scripts: s.map(e => e.name.replace(location.origin, '')), bytes: s.reduce((n, e) => n + e.encodedBodySize, 0)};
})()`
	var notFound, first, later loads
	var drawn bool
	err := chromedp.Run(ctx,
		chromedp.EmulateViewport(1440, 900),
		chromedp.Navigate(base+"/no-such-page?lang=en"),
		chromedp.WaitReady(`main`, chromedp.ByQuery),
		chromedp.Evaluate(scripts, &notFound),
		chromedp.Navigate(base+"/offers?lang=zh"),
		chromedp.WaitVisible(`table[data-offers] tbody tr[data-offer]`, chromedp.ByQuery),
		chromedp.Evaluate(`new Promise(r => setTimeout(r, 500))`, nil, awaitPromise),
		chromedp.Evaluate(scripts, &first),
		chromedp.ScrollIntoView(`.chart[data-chart]`, chromedp.ByQuery),
		chromedp.WaitVisible(`.chart[data-rendered="1"] canvas`, chromedp.ByQuery),
		chromedp.Evaluate(scripts, &later),
		chromedp.Evaluate(`!!document.querySelector('.chart[data-rendered="1"]')`, &drawn),
	)
	if err != nil {
		t.Fatalf("%v (problems: %v)", err, problems())
	}
	t.Logf("404: %v; explorer: %v (%.0f bytes on the wire), then %v", notFound.Scripts, first.Scripts, first.Bytes, later.Scripts)
	for _, l := range []struct {
		name string
		l    loads
	}{{"the 404 page", notFound}, {"the explorer's first view", first}} {
		for _, s := range l.l.Scripts {
			if strings.Contains(s, "charts") {
				t.Errorf("%s loads the chart code: %v", l.name, l.l.Scripts)
			}
		}
	}
	if first.Bytes == 0 || first.Bytes > 60<<10 {
		t.Errorf("the explorer's scripts are %.0f bytes on the wire, want 1 to %d", first.Bytes, 60<<10)
	}
	if !strings.Contains(strings.Join(later.Scripts, " "), "/static/charts.js") || !drawn {
		t.Errorf("the chart chunk did not load or draw when the chart came into view: %v", later.Scripts)
	}
	for _, p := range problems() {
		if !strings.Contains(p, "404") {
			t.Errorf("browser reported %s", p)
		}
	}
}

// TestBrowserExplorerVirtualScrolls scrolls a virtualised page of every
// row to its middle and end, in its scroll box at 1440×900 and with the
// page on a phone (390×844, where the box has no height limit): the rows
// in view are drawn (the point at the middle of the view is in a data
// row, never in a spacer), at the right place (aria-rowindex of the row
// there matches how far it is scrolled), and a printout gets every row.
func TestBrowserExplorerVirtualScrolls(t *testing.T) {
	ctx, base, problems := browser(t)
	for _, size := range [][2]int64{{1440, 900}, {390, 844}} {
		var res struct {
			Rows   int      `json:"rows"`
			Page   bool     `json:"page"`
			Hits   []string `json:"hits"`
			Print  int      `json:"print"`
			Shrunk int      `json:"shrunk"`
		}
		err := chromedp.Run(ctx,
			chromedp.EmulateViewport(size[0], size[1]),
			chromedp.Navigate(base+"/offers?lang=zh&cheapest_region=false&max_age_months=0&size=0"),
			chromedp.WaitVisible(`table[data-offers] tbody tr[data-offer]`, chromedp.ByQuery),
			chromedp.Evaluate(`(async () => {`+paintTimer+`
  const table = document.querySelector('table[data-offers]');
  const wrap = table.closest('.table-wrap');
  const page = wrap.scrollHeight <= wrap.clientHeight + 1;
  const out = {rows: view().length, page: page, hits: []};
  const rowH = table.querySelector('tbody tr[data-offer]').getBoundingClientRect().height;
  for (const f of [0.5, 0.999]) {
    let x, y;
    if (page) {
      const r = table.getBoundingClientRect();
      window.scrollTo(0, window.scrollY + r.top + (r.height - innerHeight) * f);
      x = innerWidth / 2; y = innerHeight / 2;
    } else {
      wrap.scrollIntoView({block: 'start'});
      wrap.scrollTop = (wrap.scrollHeight - wrap.clientHeight) * f;
      const r = wrap.getBoundingClientRect();
      x = r.left + r.width / 2; y = r.top + r.height / 2;
    }
    await paint(); await paint();
    const at = document.elementFromPoint(x, y);
    const tr = at && at.closest('tr');
    const idx = tr && tr.hasAttribute('data-offer') ? parseInt(tr.getAttribute('aria-rowindex'), 10) : 0;
    // where that row should be: its offset in the table over the row height
    const want = tr ? Math.floor((tr.getBoundingClientRect().top - table.tBodies[0].getBoundingClientRect().top) / rowH) + 2 : -1;
    out.hits.push(f + ':' + (tr ? (tr.className || 'row') : 'none') + ':' + idx + ':' + want);
  }
  window.dispatchEvent(new Event('beforeprint'));
  out.print = table.querySelectorAll('tbody tr[data-offer]').length;
  window.dispatchEvent(new Event('afterprint'));
  out.shrunk = table.querySelectorAll('tbody tr[data-offer]').length;
  window.scrollTo(0, 0);
  return out;
})()`, &res, awaitPromise),
		)
		if err != nil {
			t.Fatalf("%dx%d: %v (problems: %v)", size[0], size[1], err, problems())
		}
		t.Logf("%dx%d: %d rows, scrolls with the page %v: %v; printing draws %d rows, then %d", size[0], size[1], res.Rows, res.Page, res.Hits, res.Print, res.Shrunk)
		if (size[0] < 640) != res.Page {
			t.Errorf("%dx%d: the table scrolls with the page: %v", size[0], size[1], res.Page)
		}
		for _, h := range res.Hits {
			var f float64
			var kind string
			var got, want int
			if _, err := fmt.Sscanf(strings.ReplaceAll(h, ":", " "), "%g %s %d %d", &f, &kind, &got, &want); err != nil || got == 0 || got < want-1 || got > want+1 {
				t.Errorf("%dx%d: at %.0f%% of the table the view shows %s (row %d, want about %d)", size[0], size[1], f*100, kind, got, want)
			}
		}
		if res.Print != res.Rows || res.Shrunk > 200 {
			t.Errorf("%dx%d: printing drew %d of %d rows, and after it %d stayed", size[0], size[1], res.Print, res.Rows, res.Shrunk)
		}
	}
	if p := problems(); len(p) > 0 {
		t.Errorf("browser reported errors: %v", p)
	}
}
