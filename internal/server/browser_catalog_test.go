package server_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserInstanceAndProviders opens an instance page (prices in every
// region and billing model, the per-GPU-hour chart drawn) and the providers
// matrix in Chinese.
func TestBrowserInstanceAndProviders(t *testing.T) {
	ctx, base, problems := browser(t)
	var prices, bars, estimates int
	var title string
	err := chromedp.Run(ctx,
		chromedp.Navigate(base+"/instances/aws/g6e.8xlarge?lang=en&currency=USD"),
		chromedp.WaitVisible(`.chart[data-rendered="1"] canvas`, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll('table[data-prices] tbody tr').length`, &prices),
		chromedp.Evaluate(`JSON.parse(document.getElementById('chart-instance').textContent).series[0].data.length`, &bars),
		chromedp.Evaluate(`document.querySelectorAll('table[data-estimates] tbody tr').length`, &estimates),
		chromedp.Text(`h1`, &title, chromedp.ByQuery),
	)
	if err != nil {
		t.Fatalf("instance page: %v (problems: %v)", err, problems())
	}
	if prices != instanceOffers(t, "aws/g6e.8xlarge") || bars != 6 || estimates < 3 || !strings.Contains(title, "g6e.8xlarge") {
		t.Errorf("instance page: %d prices, %d bars, %d estimates, title %q", prices, bars, estimates, title)
	}
	screenshot(ctx, t, "instance")
	var nav, h1 string
	var cols, rows int
	err = chromedp.Run(ctx,
		chromedp.Navigate(base+"/providers?lang=zh"),
		chromedp.WaitVisible(`table[data-providers]`, chromedp.ByQuery),
		chromedp.Text(`.nav a[aria-current]`, &nav, chromedp.ByQuery),
		chromedp.Text(`h1`, &h1, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll('table[data-providers] thead th[data-provider]').length`, &cols),
		chromedp.Evaluate(`document.querySelectorAll('table[data-providers] tbody tr[data-category]').length`, &rows),
	)
	if err != nil {
		t.Fatalf("providers page: %v (problems: %v)", err, problems())
	}
	if nav != "云厂商" || h1 != "云厂商对比" || cols < 7 || rows < 8 {
		t.Errorf("providers page: nav %q, h1 %q, %d providers, %d categories", nav, h1, cols, rows)
	}
	screenshot(ctx, t, "providers-zh")
	if p := problems(); len(p) > 0 {
		t.Errorf("browser reported errors: %v", p)
	}
}
