package server_test

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserExplorerAboveTheFold opens the explorer at a laptop's and a
// phone's size, in English and Chinese: the first offer rows and the price
// column must be in the first viewport without scrolling, and the phone's
// navigation must stay compact.
func TestBrowserExplorerAboveTheFold(t *testing.T) {
	ctx, base, problems := browser(t)
	for _, size := range [][2]int64{{1440, 900}, {390, 844}} {
		for _, lang := range []string{"en", "zh"} {
			var m struct {
				RowTop, RowBottom, PriceLeft, PriceRight, Nav, W, H float64
			}
			err := chromedp.Run(ctx,
				chromedp.EmulateViewport(size[0], size[1]),
				chromedp.Navigate(base+"/offers?lang="+lang),
				chromedp.WaitVisible(`table[data-offers]`, chromedp.ByQuery),
				chromedp.Evaluate(`(() => {
  window.scrollTo(0, 0);
  const rows = document.querySelectorAll('tbody tr[data-offer]');
  const r = rows[2].getBoundingClientRect();
  const p = rows[0].querySelector('td[data-col="price"]').getBoundingClientRect();
  const n = document.querySelector('header.nav').getBoundingClientRect();
  return {RowTop: rows[0].getBoundingClientRect().top, RowBottom: r.bottom, PriceLeft: p.left, PriceRight: p.right, Nav: n.height, W: innerWidth, H: innerHeight};
})()`, &m),
			)
			if err != nil {
				t.Fatalf("%dx%d %s: %v (problems: %v)", size[0], size[1], lang, err, problems())
			}
			t.Logf("%dx%d %s: first row y=%.0f, third row bottom=%.0f, price column x=%.0f..%.0f, nav %.0f px", size[0], size[1], lang, m.RowTop, m.RowBottom, m.PriceLeft, m.PriceRight, m.Nav)
			if m.RowBottom > m.H {
				t.Errorf("%dx%d %s: the first three rows end at y=%.0f, below the %0.f px viewport", size[0], size[1], lang, m.RowBottom, m.H)
			}
			if m.PriceRight > m.W || m.PriceLeft < 0 {
				t.Errorf("%dx%d %s: the price column spans x=%.0f..%.0f, outside the %.0f px viewport", size[0], size[1], lang, m.PriceLeft, m.PriceRight, m.W)
			}
			if size[0] < 640 && m.Nav > 80 {
				t.Errorf("%dx%d %s: the nav is %.0f px tall, want ≤ 80", size[0], size[1], lang, m.Nav)
			}
		}
	}
	if p := problems(); len(p) > 0 {
		t.Errorf("console problems: %v", p)
	}
}
