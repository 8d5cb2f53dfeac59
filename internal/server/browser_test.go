package server_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// browser starts headless Chromium against a test server. Without a
// Chromium binary the test is skipped locally and fails under CI (CI=true),
// so the browser tests can never silently stop running there.
func browser(t testing.TB) (ctx context.Context, base string, problems func() []string) {
	t.Helper()
	var bin string
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			bin = p
			break
		}
	}
	if bin == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("CI=true but no Chromium binary on PATH: install chromium (apt-get install chromium)")
		}
		t.Skip("no Chromium binary; install chromium to run the browser tests")
	}
	ts := httptest.NewServer(newServer(t))
	t.Cleanup(ts.Close)
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin), chromedp.NoSandbox,
		chromedp.Flag("disable-gpu", true), chromedp.WindowSize(1366, 900))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	// a cap only a hang reaches: at load 30 on two cores a browser test
	// took over 180 s
	ctx, cancelT := context.WithTimeout(ctx, 600*time.Second)
	t.Cleanup(func() { cancelT(); cancelC(); cancelA() })
	var mu sync.Mutex
	var seen []string
	chromedp.ListenTarget(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			seen = append(seen, "exception: "+e.ExceptionDetails.Error())
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.APITypeError {
				var parts []string
				for _, a := range e.Args {
					parts = append(parts, string(a.Value))
				}
				seen = append(seen, "console.error: "+strings.Join(parts, " "))
			}
		case *log.EventEntryAdded:
			if e.Entry.Level == log.LevelError {
				seen = append(seen, "log: "+e.Entry.Text)
			}
		}
	})
	if err := chromedp.Run(ctx, log.Enable(), runtime.Enable()); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	return ctx, ts.URL, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), seen...)
	}
}

// screenshot saves a full-page PNG (quality 100 means PNG) into $GPUSCOUT_SCREENSHOTS when set
// (docs/screenshots is refreshed this way).
func screenshot(ctx context.Context, t *testing.T, name string) {
	dir := os.Getenv("GPUSCOUT_SCREENSHOTS")
	if dir == "" {
		return
	}
	var buf []byte
	if err := chromedp.Run(ctx, chromedp.FullScreenshot(&buf, 100)); err != nil {
		t.Errorf("screenshot %s: %v", name, err)
		return
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), buf, 0o644); err != nil {
		t.Error(err)
	}
}

// TestBrowserOffersToCompare walks the main path: filter offers, see the
// chart, hide a column, tick two offers, compare them over three years.
func TestBrowserOffersToCompare(t *testing.T) {
	ctx, base, problems := browser(t)
	var rows, shownCells, rowsAfter int
	var loc string
	err := chromedp.Run(ctx,
		chromedp.Navigate(base+"/offers?gpu=A100,H100&min_gpus=8&billing=on-demand&lang=en"),
		chromedp.WaitVisible(`table[data-offers]`, chromedp.ByQuery),
		// the chart chunk loads when the chart, below the table, nears the viewport
		chromedp.ScrollIntoView(`.chart[data-chart]`, chromedp.ByQuery),
		chromedp.WaitVisible(`.chart[data-rendered="1"] canvas`, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll('table.data tbody tr').length`, &rows),
	)
	if err != nil {
		t.Fatalf("offers page: %v (problems: %v)", err, problems())
	}
	if rows < 4 {
		t.Fatalf("only %d offer rows for 8-GPU A100/H100 on demand", rows)
	}
	screenshot(ctx, t, "offers")
	// Hide the SOURCE column with the column chooser.
	err = chromedp.Run(ctx,
		chromedp.Click(`details.columns summary`, chromedp.ByQuery),
		chromedp.Click(`fieldset[data-columns] input[value="source"]`, chromedp.ByQuery),
		// the script draws a hidden column's cells hidden or not at all
		chromedp.Evaluate(`[...document.querySelectorAll('td[data-col="source"]')].filter(td => td.offsetParent !== null).length`, &shownCells),
		chromedp.Evaluate(`document.querySelectorAll('table.data tbody tr').length`, &rowsAfter),
		chromedp.Location(&loc),
	)
	if err != nil {
		t.Fatal(err)
	}
	if shownCells != 0 || rowsAfter != rows {
		t.Errorf("%d source cells still shown in %d rows (%d before) after unticking the column", shownCells, rowsAfter, rows)
	}
	if !strings.Contains(loc, "cols=") || strings.Contains(loc, "source") && strings.Contains(strings.SplitN(loc, "cols=", 2)[1], "source") {
		t.Errorf("the column choice should be kept in the URL: %s", loc)
	}
	// Tick two offers and compare them.
	var disabled bool
	var cards, specCols int
	var total string
	err = chromedp.Run(ctx,
		chromedp.Click(`table.data tbody tr:nth-child(1) input[name="compare"]`, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector('[data-compare-button]').disabled`, &disabled),
	)
	if err != nil {
		t.Fatal(err)
	}
	if !disabled {
		t.Error("compare should need two offers")
	}
	err = chromedp.Run(ctx,
		chromedp.Click(`table.data tbody tr:nth-child(2) input[name="compare"]`, chromedp.ByQuery),
		chromedp.Click(`[data-compare-button]`, chromedp.ByQuery),
		// The ticked offers side by side first; total cost is the second view.
		chromedp.WaitVisible(`table[data-specs]`, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll('table[data-specs] thead th[data-offer]').length`, &specCols),
		chromedp.Click(`nav[data-tabs] a[data-tab="tco"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-plans]`, chromedp.ByQuery),
		chromedp.WaitVisible(`.chart[data-rendered="1"] canvas`, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll('.card[data-plan]').length`, &cards),
		chromedp.Text(`.card.best [data-total]`, &total, chromedp.ByQuery),
		chromedp.Location(&loc),
	)
	if err != nil {
		t.Fatalf("compare: %v (problems: %v)", err, problems())
	}
	if specCols != 2 {
		t.Errorf("the specifications table has %d offers, want the 2 ticked", specCols)
	}
	if cards != 2 || strings.Count(loc, "offer=") != 2 {
		t.Errorf("compare page has %d plans for %s", cards, loc)
	}
	if !strings.HasSuffix(strings.TrimSpace(total), "USD") {
		t.Errorf("cheapest plan total %q should be in USD", total)
	}
	screenshot(ctx, t, "compare")
	if p := problems(); len(p) > 0 {
		t.Errorf("browser reported errors: %v", p)
	}
}

// TestBrowserFiltersAndLanguage: changing a filter with the keyboard does
// not reload the page or move focus (WCAG 3.2.2); Apply does. The language
// switch keeps the query and shows Chinese labels and CNY prices.
func TestBrowserFiltersAndLanguage(t *testing.T) {
	ctx, base, problems := browser(t)
	var loc, nav, unit, focused string
	err := chromedp.Run(ctx,
		chromedp.Navigate(base+"/offers?gpu=H100&lang=en"),
		chromedp.WaitVisible(`form.filters`, chromedp.ByQuery),
		chromedp.Focus(`select[name="billing"]`, chromedp.ByQuery),
		chromedp.KeyEvent(kb.ArrowDown),
		chromedp.Sleep(300*time.Millisecond),
		chromedp.Location(&loc),
		chromedp.Evaluate(`document.activeElement.name`, &focused),
	)
	if err != nil {
		t.Fatalf("%v (problems: %v)", err, problems())
	}
	if strings.Contains(loc, "billing=") || focused != "billing" {
		t.Fatalf("an arrow key on the billing filter navigated (%s) or moved focus (to %q)", loc, focused)
	}
	err = chromedp.Run(ctx,
		chromedp.SetValue(`select[name="billing"]`, "spot", chromedp.ByQuery),
		chromedp.Click(`form.filters button[type="submit"]`, chromedp.ByQuery),
	)
	if err != nil {
		t.Fatalf("%v (problems: %v)", err, problems())
	}
	waitURL(ctx, t, "billing=spot")
	err = chromedp.Run(ctx,
		chromedp.WaitVisible(`table.data`, chromedp.ByQuery),
		chromedp.Click(`[data-lang-switch]`, chromedp.ByQuery),
	)
	if err != nil {
		t.Fatalf("%v (problems: %v)", err, problems())
	}
	waitURL(ctx, t, "lang=zh")
	err = chromedp.Run(ctx,
		chromedp.WaitVisible(`.nav a[aria-current]`, chromedp.ByQuery),
		chromedp.Text(`.nav a[aria-current]`, &nav, chromedp.ByQuery),
		chromedp.Text(`[data-count]`, &unit, chromedp.ByQuery),
		chromedp.Location(&loc),
	)
	if err != nil {
		t.Fatalf("%v (problems: %v)", err, problems())
	}
	if !strings.Contains(loc, "billing=spot") {
		t.Errorf("the language switch lost the filters: %s", loc)
	}
	if nav != "报价" {
		t.Errorf("nav = %q, want 报价", nav)
	}
	// The Chinese page keeps the currency the English page used (USD in its URL).
	if !strings.Contains(unit, "实例·小时") {
		t.Errorf("price unit %q not in Chinese", unit)
	}
	screenshot(ctx, t, "offers-zh")
	if p := problems(); len(p) > 0 {
		t.Errorf("browser reported errors: %v", p)
	}
}

// TestBrowserAdvisor loads an example job, runs it and gets ranked plans
// with reasons and the time/cost chart.
func TestBrowserAdvisor(t *testing.T) {
	ctx, base, problems := browser(t)
	var plans int
	var reason string
	err := chromedp.Run(ctx,
		chromedp.Navigate(base+"/advisor?lang=en"),
		chromedp.WaitVisible(`textarea#job`, chromedp.ByQuery),
		chromedp.SetValue(`select[name="example"]`, "spot-experiment", chromedp.ByQuery),
		chromedp.Click(`details.advanced form[method="get"] button[type="submit"]`, chromedp.ByQuery),
	)
	if err != nil {
		t.Fatalf("%v (problems: %v)", err, problems())
	}
	waitURL(ctx, t, "example=spot-experiment")
	err = chromedp.Run(ctx,
		chromedp.WaitVisible(`textarea#job`, chromedp.ByQuery),
		chromedp.Click(`form.job button[type="submit"]`, chromedp.ByQuery),
	)
	if err != nil {
		t.Fatalf("%v (problems: %v)", err, problems())
	}
	// The form posts to the same URL: wait for the new document's plans,
	// retrying queries the navigation interrupts.
	waitFor(ctx, t, `document.readyState === "complete" && document.querySelectorAll("ol.plans li.plan").length > 0`)
	err = chromedp.Run(ctx,
		chromedp.WaitVisible(`ol.plans li.plan`, chromedp.ByQuery),
		chromedp.WaitVisible(`.chart[data-rendered="1"] canvas`, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll('ol.plans li.plan').length`, &plans),
		chromedp.Text(`ol.plans li.plan .reasons li`, &reason, chromedp.ByQuery),
	)
	if err != nil {
		t.Fatalf("%v (problems: %v)", err, problems())
	}
	if plans < 1 || reason == "" {
		t.Errorf("%d plans, first reason %q", plans, reason)
	}
	screenshot(ctx, t, "advisor")
	if p := problems(); len(p) > 0 {
		t.Errorf("browser reported errors: %v", p)
	}
}

// waitFor waits until the script cond is true in the current document,
// retrying while a navigation replaces the document (a query during one
// fails with "Cannot find context with specified id").
func waitFor(ctx context.Context, t *testing.T, cond string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	var last error
	for time.Now().Before(deadline) {
		var ok bool
		if last = chromedp.Run(ctx, chromedp.Evaluate(cond, &ok)); last == nil && ok {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("waited 60 s for %s (last error: %v)", cond, last)
}

// waitURL waits until the page's URL contains want and the new document is
// ready; the page navigates on its own, so errors while it does are retried.
func waitURL(ctx context.Context, t *testing.T, want string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		var loc, state string
		if err := chromedp.Run(ctx, chromedp.Location(&loc), chromedp.Evaluate(`document.readyState`, &state)); err == nil &&
			strings.Contains(loc, want) && state == "complete" {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("the page never reached a URL with %q", want)
}

// TestBrowserSortExportAndShare: clicking a column header orders the table
// in the browser; the CSV export (built in the browser) holds exactly the
// rows of the view, in its order, and the rows and columns on screen with
// every row shown (a virtualised page draws a window of them: each drawn
// row equals its CSV row); opening the page's URL afresh gives the same
// view.
func TestBrowserSortExportAndShare(t *testing.T) {
	ctx, base, problems := browser(t)
	var vram []string
	err := chromedp.Run(ctx,
		chromedp.Navigate(base+"/offers?gpu=A100,H100,H200,B200&per_provider=0&lang=en&cols=provider,instance,vram,region,billing,price"),
		chromedp.WaitVisible(`table.data`, chromedp.ByQuery),
		chromedp.Click(`th[data-col="vram"] a`, chromedp.ByQuery),
	)
	if err != nil {
		t.Fatalf("%v (problems: %v)", err, problems())
	}
	waitURL(ctx, t, "order=vram")
	err = chromedp.Run(ctx,
		chromedp.WaitVisible(`th[data-col="vram"][aria-sort="ascending"]`, chromedp.ByQuery),
		chromedp.Evaluate(`[...document.querySelectorAll('tbody td[data-col="vram"]')].map(td => td.textContent.trim())`, &vram),
	)
	if err != nil {
		t.Fatalf("%v (problems: %v)", err, problems())
	}
	for i := 1; i < len(vram); i++ {
		if atof(vram[i]) < atof(vram[i-1]) {
			t.Fatalf("GPU memory column not ascending after the click: %v", vram)
		}
	}
	// Every row on one page, the table as shown, and the CSV the export link
	// makes (captured from the Blob it hands to the download).
	var table [][]string
	var ids []string
	var csvText, shared string
	const drawn = `[...document.querySelectorAll('tbody tr[data-offer]')].map(tr => [tr.getAttribute('data-offer'), ...[...tr.querySelectorAll('td[data-col]')].filter(td => !td.hidden).map(td => td.textContent.trim())])`
	const viewIDs = `document.querySelector('table[data-offers]')._gsExplorer.ids()`
	err = chromedp.Run(ctx,
		chromedp.SetValue(`select[data-x-size]`, "0", chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector('select[data-x-size]').dispatchEvent(new Event('change', {bubbles: true})); true`, nil),
		chromedp.Evaluate(drawn, &table),
		chromedp.Evaluate(viewIDs, &ids),
		chromedp.Evaluate(captureCSV, &csvText, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }),
	)
	if err != nil {
		t.Fatal(err)
	}
	waitURL(ctx, t, "size=0")
	if err := chromedp.Run(ctx, chromedp.Location(&shared)); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(csvText, "\ufeff"))).ReadAll()
	if err != nil {
		t.Fatalf("CSV export does not parse: %v\n%s", err, csvText)
	}
	if len(recs)-1 != len(ids) || len(table) == 0 {
		t.Fatalf("CSV has %d rows, the view %d (%d drawn)", len(recs)-1, len(ids), len(table))
	}
	byID := map[string][]string{}
	for i, rec := range recs[1:] {
		id := rec[len(rec)-1] // the last CSV column is the offer ID
		if id != ids[i] {
			t.Fatalf("CSV row %d is %s, the view's %s", i, id, ids[i])
		}
		byID[id] = rec[:len(rec)-1]
	}
	for i, row := range table {
		got := byID[row[0]]
		if len(got) != len(row)-1 {
			t.Fatalf("row %d: CSV %v vs table %v", i, got, row)
		}
		for j := range row[1:] {
			if strings.ReplaceAll(row[j+1], ",", "") != got[j] {
				t.Fatalf("row %d col %d: CSV %q vs table %q", i, j, got[j], row[j+1])
			}
		}
	}
	// A fresh browser tab on the same URL shows the same rows.
	tab, cancel := chromedp.NewContext(ctx)
	defer cancel()
	var again [][]string
	var idsAgain []string
	err = chromedp.Run(tab,
		chromedp.Navigate(shared),
		chromedp.WaitVisible(`table.data`, chromedp.ByQuery),
		chromedp.Evaluate(drawn, &again),
		chromedp.Evaluate(viewIDs, &idsAgain),
	)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(again) != fmt.Sprint(table) || fmt.Sprint(idsAgain) != fmt.Sprint(ids) {
		t.Errorf("the shared URL shows a different view:\n%v\n%v", again, table)
	}
	if p := problems(); len(p) > 0 {
		t.Errorf("browser reported errors: %v", p)
	}
}

// captureCSV clicks the CSV export link and resolves to the file's text.
const captureCSV = `new Promise(res => {
  const orig = URL.createObjectURL;
  URL.createObjectURL = b => { URL.createObjectURL = orig; b.text().then(res); return orig.call(URL, b); };
  document.querySelector('a[data-export="csv"]').click();
})`

func atof(s string) float64 {
	f, _ := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64)
	return f
}
