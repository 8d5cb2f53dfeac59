package server_test

import (
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// denseProbe measures a first visit to the explorer: how many rows are
// whole in both the viewport and the table's box, whether each row is one
// line (every row as tall as the shortest), the table's width against its
// box's, the price and (on a laptop; a phone scrolls the table sideways
// under its pinned price) as-of cells cut by the box or their own width, and
// whether the filter form is open.
const denseProbe = `(() => {
  window.scrollTo(0, 0);
  const wrap = document.querySelector('.table-wrap');
  const table = wrap.querySelector('table[data-offers]');
  const box = wrap.getBoundingClientRect();
  const head = table.tHead.getBoundingClientRect();
  const top = Math.max(head.bottom, 0), bottom = Math.min(box.bottom, innerHeight);
  const rows = [...table.querySelectorAll('tbody tr[data-offer]')].map(r => r.getBoundingClientRect());
  const heights = rows.map(r => r.height);
  const low = Math.min(...heights);
  return {
    Whole: rows.filter(r => r.top >= top - 0.5 && r.bottom <= bottom + 0.5).length,
    Tall: heights.filter(h => h > low * 1.5).length,
    Table: Math.max(wrap.scrollWidth, table.getBoundingClientRect().width), Box: wrap.clientWidth,
    Cut: [...table.querySelectorAll(innerWidth > 640 ? 'tbody tr[data-offer] td[data-col="price"], tbody tr[data-offer] td[data-col="as_of"]' : 'tbody tr[data-offer] td[data-col="price"]')].filter(td => {
      const c = td.getBoundingClientRect(), k = td.firstElementChild ? td.firstElementChild.getBoundingClientRect() : c;
      return td.scrollWidth > td.clientWidth + 1 || k.right > Math.min(box.right, innerWidth) + 0.5 || c.left < box.left - 0.5;
    }).map(td => td.closest('tr').getAttribute('data-offer') + ' ' + td.getAttribute('data-col')).slice(0, 3),
    Open: document.querySelector('details[data-filters]').open,
  };
})()`

// TestBrowserExplorerDense: a user coming from ec2instances.info sees a
// screenful of offers on a first visit: at least 15 whole rows at
// 1440×900 and 5 at 390×844, in English and Chinese, each one line tall,
// with the filters folded into the toolbar and, on a laptop, the table no
// wider than its box (no column cut at its right edge).
func TestBrowserExplorerDense(t *testing.T) {
	ctx, base, problems := browser(t)
	for _, size := range []struct {
		w, h int64
		rows int
	}{{1440, 900, 15}, {390, 844, 5}} {
		for _, lang := range []string{"en", "zh"} {
			var m struct {
				Whole, Tall int
				Table, Box  float64
				Open        bool
				Cut         []string
			}
			err := chromedp.Run(ctx,
				chromedp.EmulateViewport(size.w, size.h),
				chromedp.Navigate(base+"/offers?lang="+lang),
				chromedp.WaitVisible(`table[data-offers]`, chromedp.ByQuery),
				chromedp.Evaluate(`localStorage.clear(); true`, nil),
				chromedp.Reload(),
				chromedp.WaitVisible(`table[data-offers]`, chromedp.ByQuery),
				chromedp.Evaluate(denseProbe, &m),
			)
			if err != nil {
				t.Fatalf("%dx%d %s: %v (problems: %v)", size.w, size.h, lang, err, problems())
			}
			t.Logf("%dx%d %s: %d whole rows in view, %d rows taller than one line, table %.0f px in a %.0f px box, filters open %v", size.w, size.h, lang, m.Whole, m.Tall, m.Table, m.Box, m.Open)
			if m.Whole < size.rows {
				t.Errorf("%dx%d %s: %d whole rows in the first view, want at least %d", size.w, size.h, lang, m.Whole, size.rows)
			}
			if m.Tall > 0 {
				t.Errorf("%dx%d %s: %d rows wrap onto more than one line", size.w, size.h, lang, m.Tall)
			}
			if size.w == 1440 && m.Table > m.Box+1 {
				t.Errorf("%dx%d %s: the table is %.0f px wide in a %.0f px box: its right columns are cut", size.w, size.h, lang, m.Table, m.Box)
			}
			if len(m.Cut) > 0 {
				t.Errorf("%dx%d %s: price or as-of cells cut: %v", size.w, size.h, lang, m.Cut)
			}
			if m.Open {
				t.Errorf("%dx%d %s: the filter form fills the first view (open on a first visit)", size.w, size.h, lang)
			}
		}
	}
	if p := problems(); len(p) > 0 {
		t.Errorf("console problems: %v", p)
	}
}

// TestBrowserFiltersFoldSavedOnlyByHand: the filters' open or folded state
// is remembered only when the user toggles it: a phone visit (where they
// start folded) does not fold them on a laptop afterwards, where a page
// that filters its rows shows its filters; folding them by hand is
// remembered.
func TestBrowserFiltersFoldSavedOnlyByHand(t *testing.T) {
	ctx, base, problems := browser(t)
	var phone, laptop, afterFold string
	open := `(() => { const d = document.querySelector('details[data-filters]'); return (d.open ? 'open' : 'closed') + ' ' + (localStorage.getItem('gpuscout.filters') || 'unsaved'); })()`
	err := chromedp.Run(ctx,
		chromedp.EmulateViewport(390, 844),
		chromedp.Navigate(base+"/offers?lang=en&gpu=H100"),
		chromedp.WaitVisible(`table[data-offers]`, chromedp.ByQuery),
		chromedp.Evaluate(`localStorage.clear(); true`, nil),
		chromedp.Reload(),
		chromedp.WaitVisible(`table[data-offers]`, chromedp.ByQuery),
		chromedp.Sleep(200e6),
		chromedp.Evaluate(open, &phone),
		chromedp.EmulateViewport(1440, 900),
		chromedp.Navigate(base+"/offers?lang=en&gpu=H100&again=1"),
		chromedp.WaitVisible(`table[data-offers]`, chromedp.ByQuery),
		chromedp.Evaluate(open, &laptop),
		chromedp.Click(`details[data-filters] > summary`, chromedp.ByQuery),
		chromedp.Sleep(200e6),
		chromedp.Navigate(base+"/offers?lang=en&gpu=H100&again=2"),
		chromedp.WaitVisible(`table[data-offers]`, chromedp.ByQuery),
		chromedp.Evaluate(open, &afterFold),
	)
	if err != nil {
		t.Fatalf("%v (problems: %v)", err, problems())
	}
	t.Logf("phone: %s; laptop after it: %s; after folding by hand: %s", phone, laptop, afterFold)
	if phone != "closed unsaved" {
		t.Errorf("phone visit: %q, want the filters folded and nothing saved", phone)
	}
	if laptop != "open unsaved" {
		t.Errorf("laptop visit after a phone visit, on a filtered page: %q, want the filters open", laptop)
	}
	if !strings.HasPrefix(afterFold, "closed closed") {
		t.Errorf("after folding them by hand: %q, want folded and remembered", afterFold)
	}
	if p := problems(); len(p) > 0 {
		t.Errorf("console problems: %v", p)
	}
}

// TestBrowserExplorerFirstPaint logs how soon a first visit to the
// explorer paints (first contentful paint) and is ready (DOMContentLoaded
// handled, the script's table drawn), the median of five loads at
// 1440×900 in each language. Timings are logged, never asserted (see
// docs/benchmarks.md).
func TestBrowserExplorerFirstPaint(t *testing.T) {
	ctx, base, problems := browser(t)
	for _, lang := range []string{"en", "zh"} {
		var fcp, ready []float64
		for i := 0; i < 6; i++ {
			var m struct{ FCP, Ready float64 }
			err := chromedp.Run(ctx,
				chromedp.EmulateViewport(1440, 900),
				chromedp.Navigate(base+"/offers?lang="+lang+"&n="+string(rune('a'+i))),
				chromedp.WaitVisible(`table[data-offers]`, chromedp.ByQuery),
				chromedp.Evaluate(`new Promise(r => requestAnimationFrame(() => setTimeout(() => {
  const p = performance.getEntriesByName('first-contentful-paint')[0];
  const n = performance.getEntriesByType('navigation')[0];
  r({FCP: p ? p.startTime : -1, Ready: n.domContentLoadedEventEnd});
}, 0)))`, &m, awaitPromise),
			)
			if err != nil {
				t.Fatalf("%s: %v (problems: %v)", lang, err, problems())
			}
			if i == 0 { // the first load warms the server's caches
				continue
			}
			if m.FCP >= 0 { // headless Chromium does not always report it
				fcp = append(fcp, m.FCP)
			}
			ready = append(ready, m.Ready)
		}
		if len(fcp) == 0 {
			fcp = []float64{-1}
		}
		t.Logf("%s: first contentful paint %s ms (median %.1f of the loads that reported it); DOMContentLoaded handled %s ms (median %.1f)", lang, msList(fcp), median(fcp), msList(ready), median(ready))
	}
}

func msList(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.FormatFloat(x, 'f', 1, 64)
	}
	return strings.Join(s, ", ")
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}
