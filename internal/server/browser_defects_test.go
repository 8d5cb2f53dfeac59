package server_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chartLabelsJS lists the explorer chart's category labels as drawn: each
// label's text, its left and right edge in the chart's box; and the box's
// width and the number of bars.
const chartLabelsJS = `(() => {
  const el = document.querySelector('[data-chart="chart-offers"]');
  if (!el || !el._gsChart) return {bars: -1};
  const opt = el._gsChart.getOption();
  const cats = (opt.yAxis[0].data || []).map(d => typeof d === "object" ? d.value : String(d));
  const bars = cats.length;
  const labels = [];
  el._gsChart.getZr().storage.getDisplayList().forEach(e => {
    if (!e.style || typeof e.style.text !== "string") return;
    const shown = e.style.text.replace(/(\.\.\.|…)$/, "");
    if (shown.length < 4 || !cats.some(c => c.startsWith(shown))) return; // a value, the title, an axis name
    const r = e.getBoundingRect().clone();
    if (e.transform) r.applyTransform(e.transform);
    labels.push({text: e.style.text, left: r.x, right: r.x + r.width});
  });
  return {bars, width: el.clientWidth, labels};
})()`

// TestBrowserExplorerChartLabels: every bar of the explorer's chart has
// its label, drawn whole inside the chart (never cut at the left edge, as
// "andard_NC4as_T4_v3" was), on a desktop and a phone, in both languages.
func TestBrowserExplorerChartLabels(t *testing.T) {
	ctx, base, _ := browser(t)
	for _, w := range []int64{1440, 390} {
		for _, lang := range []string{"en", "zh"} {
			var got struct {
				Bars, Width int
				Labels      []struct {
					Text        string
					Left, Right float64
				}
			}
			err := chromedp.Run(ctx, chromedp.EmulateViewport(w, 900), chromedp.Navigate(base+"/offers?gpu=T4&lang="+lang), chromedp.WaitReady("body"),
				chromedp.Evaluate(`document.querySelector('[data-chart="chart-offers"]').scrollIntoView()`, nil),
				chromedp.Poll(`(() => { const el = document.querySelector('[data-chart="chart-offers"]'); return el && el.getAttribute("data-rendered") === "1"; })()`, nil, chromedp.WithPollingTimeout(20*time.Second)),
				chromedp.Sleep(300*time.Millisecond),
				chromedp.Evaluate(chartLabelsJS, &got))
			if err != nil {
				t.Fatalf("%d px %s: %v", w, lang, err)
			}
			if got.Bars <= 0 || len(got.Labels) != got.Bars {
				t.Errorf("%d px %s: %d labels for %d bars: bars without a label", w, lang, len(got.Labels), got.Bars)
			}
			for _, l := range got.Labels {
				if l.Left < 0 || l.Right > float64(got.Width)+1 {
					t.Errorf("%d px %s: label %q drawn from %.0f to %.0f px, outside the chart's %d px", w, lang, l.Text, l.Left, l.Right, got.Width)
					break
				}
			}
		}
	}
}

// TestBrowserPhoneNavReachable: at 390 px every page of the nav can be
// reached, and when the nav's links run past the screen the list shows
// that it scrolls (a shadow at the edge that has more).
func TestBrowserPhoneNavReachable(t *testing.T) {
	ctx, base, _ := browser(t)
	for _, lang := range []string{"en", "zh"} {
		var got struct {
			Overflows bool
			Cue       string
			Hidden    []string
			Reached   []string
		}
		err := chromedp.Run(ctx, chromedp.EmulateViewport(390, 844), chromedp.Navigate(base+"/offers?lang="+lang), chromedp.WaitReady("body"),
			chromedp.Evaluate(`(() => {
  const ul = document.querySelector("header.nav ul");
  const vw = document.documentElement.clientWidth;
  const out = {overflows: ul.scrollWidth > ul.clientWidth + 1, cue: getComputedStyle(ul).backgroundImage, hidden: [], reached: []};
  for (const a of ul.querySelectorAll("a")) {
    const r = a.getBoundingClientRect();
    if (r.right > vw || r.left < 0) out.hidden.push(a.getAttribute("href"));
  }
  for (const href of out.hidden) {
    const a = ul.querySelector('a[href="' + href + '"]');
    a.scrollIntoView({inline: "nearest", block: "nearest"});
    const r = a.getBoundingClientRect();
    if (r.left >= 0 && r.right <= vw) out.reached.push(href);
  }
  return out;
})()`, &got))
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Reached) != len(got.Hidden) {
			t.Errorf("%s: nav links %v off-screen, only %v reachable by scrolling", lang, got.Hidden, got.Reached)
		}
		if len(got.Hidden) > 0 && (!got.Overflows || strings.Count(got.Cue, "gradient") < 2) {
			t.Errorf("%s: nav links %v are off-screen with no cue that the nav scrolls (background %q)", lang, got.Hidden, got.Cue)
		}
	}
}
