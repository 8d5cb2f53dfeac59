package server_test

import (
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// chartText is what chartTexts measures.
type chartText struct {
	Drawn       bool     `json:"drawn"`
	Overlaps    []string `json:"overlaps"`
	Outside     []string `json:"outside"`
	Labels      []string `json:"labels"`
	LegendShown bool     `json:"legendShown"`
}

// TestBrowserComparePhone opens the compare page's two views on a phone
// (390×844) in English and Chinese: the specifications table lists the
// ticked offers side by side; on the total-cost view no chart text
// overlaps another or leaves the chart, the legends are HTML lists with
// every entry (not a paged chart legend), the breakdown's plan labels stay
// distinct when truncated, and the tabs are links that work without
// JavaScript.
func TestBrowserComparePhone(t *testing.T) {
	ctx, base, problems := browser(t)
	if err := chromedp.Run(ctx, emulation.SetDeviceMetricsOverride(390, 844, 1, true)); err != nil {
		t.Fatal(err)
	}
	const offers = "offer=lambda/gpu_1x_h100_sxm5/ANY/on-demand&offer=lambda/gpu_2x_h100_sxm5/ANY/on-demand&onprem=H100&months=120"
	for _, lang := range []string{"en", "zh"} {
		var cols int
		var tabs []string
		err := chromedp.Run(ctx,
			chromedp.Navigate(base+"/compare?"+offers+"&lang="+lang),
			chromedp.WaitVisible(`table[data-specs]`, chromedp.ByQuery),
			chromedp.Evaluate(`document.querySelectorAll('table[data-specs] thead th[data-offer]').length`, &cols),
			chromedp.Evaluate(`[...document.querySelectorAll('nav[data-tabs] a')].map(a => a.getAttribute('href'))`, &tabs),
		)
		if err != nil {
			t.Fatalf("%s specs: %v (problems: %v)", lang, err, problems())
		}
		if cols != 2 || len(tabs) != 2 || !strings.Contains(tabs[1], "tab=tco") {
			t.Errorf("%s: %d offers in the specifications table, tabs %v", lang, cols, tabs)
		}
		if err := chromedp.Run(ctx, chromedp.Navigate(base+tabs[1])); err == nil {
			err = settle(ctx)
		} else {
			t.Fatalf("%s tco: %v", lang, err)
		}
		var legends int
		chromedp.Run(ctx, chromedp.Evaluate(`[...document.querySelectorAll('ul.legend[data-legend]')].map(u => u.children.length).reduce((a, b) => a + b, 0)`, &legends))
		if legends < 3+2 {
			t.Errorf("%s: %d entries in the charts' HTML legends", lang, legends)
		}
		for _, sel := range []string{`.chart[data-chart="chart-tco"]`, `.chart[data-chart="chart-breakdown"]`} {
			var m chartText
			if err := chromedp.Run(ctx, chromedp.Evaluate(chartTexts+"("+"'"+sel+"'"+")", &m)); err != nil {
				t.Fatalf("%s %s: %v", lang, sel, err)
			}
			t.Logf("%s %s: labels %v", lang, sel, m.Labels)
			switch {
			case !m.Drawn:
				t.Errorf("%s %s: not drawn", lang, sel)
			case len(m.Overlaps) > 0:
				t.Errorf("%s %s: texts overlap: %v", lang, sel, m.Overlaps)
			case len(m.Outside) > 0:
				t.Errorf("%s %s: texts leave the chart: %v", lang, sel, m.Outside)
			case m.LegendShown:
				t.Errorf("%s %s: the chart draws its own (paged) legend", lang, sel)
			}
			seen := map[string]bool{}
			for _, l := range m.Labels {
				if seen[l] {
					t.Errorf("%s %s: two bars labelled %q", lang, sel, l)
				}
				seen[l] = true
			}
		}
		screenshot(ctx, t, "compare-tco-"+lang+"-390")
	}
	if p := problems(); len(p) > 0 {
		t.Errorf("browser reported: %v", p)
	}
}
