package server_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserCompareBreakEvenInPageCurrency opens a TCO page of a reserved
// offer in EUR (English) and CNY (Chinese): the break-even sentence's two
// hourly prices are in the page's currency, never USD.
func TestBrowserCompareBreakEvenInPageCurrency(t *testing.T) {
	ctx, base, problems := browser(t)
	const offers = "offer=aws/g5.xlarge/us-east-1/reserved-1y-no-upfront&offer=aws/g5.xlarge/us-east-1/on-demand&months=12"
	for _, c := range []struct{ lang, cur string }{{"en", "EUR"}, {"zh", "CNY"}, {"en", "USD"}} {
		var text string
		err := chromedp.Run(ctx,
			chromedp.Navigate(base+"/compare?tab=tco&"+offers+"&lang="+c.lang+"&currency="+c.cur),
			chromedp.WaitVisible(`[data-breakeven]`, chromedp.ByQuery),
			chromedp.Text(`[data-breakeven]`, &text, chromedp.ByQuery),
		)
		if err != nil {
			t.Fatalf("%s %s: %v (problems: %v)", c.lang, c.cur, err, problems())
		}
		t.Logf("%s %s: %s", c.lang, c.cur, text)
		if !strings.Contains(text, c.cur) {
			t.Errorf("%s %s: the break-even does not name %s: %q", c.lang, c.cur, c.cur, text)
		}
		if c.cur != "USD" && strings.Contains(text, "USD") {
			t.Errorf("%s %s: the break-even is in USD on a %s page: %q", c.lang, c.cur, c.cur, text)
		}
	}
}

// TestBrowserCompareDetailsNamed: the TCO page's offer table names the
// provider (Amazon Web Services, 亚马逊云科技), not its ID, and its source
// column is in the page's language.
func TestBrowserCompareDetailsNamed(t *testing.T) {
	ctx, base, problems := browser(t)
	const offers = "offer=aws/g5.xlarge/us-east-1/reserved-1y-no-upfront&offer=aws/g5.xlarge/us-east-1/on-demand&months=12"
	for lang, want := range map[string]string{"en": "Amazon Web Services", "zh": "亚马逊云科技"} {
		var cells []string
		err := chromedp.Run(ctx,
			chromedp.Navigate(base+"/compare?tab=tco&"+offers+"&lang="+lang),
			chromedp.WaitVisible(`[data-breakeven]`, chromedp.ByQuery),
			chromedp.Evaluate(`[...document.querySelectorAll('table.data tbody tr')].filter(tr => tr.cells.length === 9).flatMap(tr => [tr.cells[0].textContent, tr.cells[7].textContent])`, &cells),
		)
		if err != nil {
			t.Fatalf("%s: %v (problems: %v)", lang, err, problems())
		}
		if len(cells) == 0 {
			t.Fatalf("%s: no offer rows", lang)
		}
		for i := 0; i < len(cells); i += 2 {
			if cells[i] != want {
				t.Errorf("%s: provider cell %q, want %q", lang, cells[i], want)
			}
			if lang == "zh" && (cells[i+1] == "third-party" || cells[i+1] == "official-api") {
				t.Errorf("zh: raw source kind %q", cells[i+1])
			}
		}
	}
}
