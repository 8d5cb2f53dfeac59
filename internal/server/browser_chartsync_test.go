package server_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserExplorerChartFollowsTheTable: the chart below the explorer is
// the first 25 rows' price per GPU-hour. After a quick filter and a sort
// applied in the browser (no reload), it is redrawn from the rows the
// table now shows, in the table's order, in both languages; it never
// keeps bars for rows the filter left out.
func TestBrowserExplorerChartFollowsTheTable(t *testing.T) {
	ctx, base, problems := browser(t)
	for _, lang := range []string{"en", "zh"} {
		var res struct {
			Before  []string `json:"before"`
			Filter  []string `json:"filter"`
			WantF   []string `json:"wantF"`
			Sorted  []string `json:"sorted"`
			WantS   []string `json:"wantS"`
			Drawn   bool     `json:"drawn"`
			Colours int      `json:"colours"`
		}
		err := chromedp.Run(ctx,
			chromedp.EmulateViewport(1440, 900),
			chromedp.Navigate(base+"/offers?lang="+lang),
			chromedp.WaitVisible(`table[data-offers] tbody tr[data-offer]`, chromedp.ByQuery),
			chromedp.Evaluate(`(async () => {`+paintTimer+`
  const sleep = ms => new Promise(r => setTimeout(r, ms));
  const el = document.querySelector('[data-chart="chart-offers"]');
  el.scrollIntoView();
  for (let i = 0; i < 100 && el.getAttribute('data-rendered') !== '1'; i++) await sleep(50);
  window.scrollTo(0, 0);
  const bars = () => JSON.parse(document.getElementById('chart-offers').textContent).series[0].data;
  const names = () => bars().map(d => d.name).reverse();
  const out = {before: names()};
  const box = document.querySelector('[data-x-filter]');
  box.value = 'h100';
  box.dispatchEvent(new Event('input', {bubbles: true}));
  await paint(); await sleep(400);
  out.filter = names();
  out.wantF = view().slice(0, 25);
  document.querySelector('th a[data-sort="provider"]').click();
  await paint(); await sleep(400);
  out.sorted = names();
  out.wantS = view().slice(0, 25);
  out.drawn = el._gsChartJSON === document.getElementById('chart-offers').textContent;
  out.colours = bars().filter(d => d.itemStyle && d.itemStyle.color && d.itemStyle.color !== '#888888').length;
  return out;
})()`, &res, awaitPromise),
		)
		if err != nil {
			t.Fatalf("%s: %v (problems: %v)", lang, err, problems())
		}
		if len(res.Before) == 0 || len(res.Filter) == 0 {
			t.Fatalf("%s: chart bars before %d, after the filter %d", lang, len(res.Before), len(res.Filter))
		}
		if strings.Join(res.Filter, " ") != strings.Join(res.WantF, " ") {
			t.Errorf("%s: after the quick filter the chart shows %v, the table's first rows are %v", lang, res.Filter, res.WantF)
		}
		for _, id := range res.Filter {
			if !strings.Contains(strings.ToLower(id), "h100") && !strings.Contains(strings.ToLower(id), "p5") && !strings.Contains(strings.ToLower(id), "a3-") {
				t.Logf("%s: %s kept by the filter (matches another column)", lang, id)
			}
		}
		if strings.Join(res.Sorted, " ") != strings.Join(res.WantS, " ") {
			t.Errorf("%s: after sorting by provider the chart shows %v, the table's first rows are %v", lang, res.Sorted, res.WantS)
		}
		if strings.Join(res.Sorted, " ") == strings.Join(res.Before, " ") {
			t.Errorf("%s: the chart did not change after a filter and a sort", lang)
		}
		if !res.Drawn {
			t.Errorf("%s: the chart's drawing is not the redrawn option", lang)
		}
		if res.Colours != len(res.Sorted) {
			t.Errorf("%s: %d of %d bars in a provider colour", lang, res.Colours, len(res.Sorted))
		}
	}
	if p := problems(); len(p) > 0 {
		t.Errorf("browser reported errors: %v", p)
	}
}
