package server_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserSpot picks a spot offer in the form, runs the simulation and
// gets the verdict and the histogram of completion times.
func TestBrowserSpot(t *testing.T) {
	ctx, base, problems := browser(t)
	var verdict, loc string
	var bars int
	err := chromedp.Run(ctx,
		chromedp.Navigate(base+"/spot?lang=en"),
		chromedp.WaitVisible(`form[data-spot-form]`, chromedp.ByQuery),
		chromedp.SetValue(`select[name="offer"]`, "aws/g4dn.xlarge/us-east-1/spot", chromedp.ByQuery),
		chromedp.SetValue(`input[name="work_hours"]`, "24", chromedp.ByQuery),
		chromedp.SetValue(`input[name="mtbi"]`, "6", chromedp.ByQuery),
		chromedp.SetValue(`input[name="deadline_hours"]`, "36", chromedp.ByQuery),
		chromedp.Click(`form[data-spot-form] button[type="submit"]`, chromedp.ByQuery),
	)
	if err != nil {
		t.Fatalf("spot page: %v (problems: %v)", err, problems())
	}
	// The form navigates: wait for the answer's document, retrying queries
	// the navigation interrupts.
	waitFor(ctx, t, `document.readyState === "complete" && document.querySelector("[data-verdict]") !== null`)
	err = chromedp.Run(ctx,
		chromedp.WaitVisible(`[data-verdict]`, chromedp.ByQuery),
		chromedp.WaitVisible(`.chart[data-rendered="1"] canvas`, chromedp.ByQuery),
		chromedp.Text(`[data-verdict] h2`, &verdict, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll('table[data-options] tbody tr').length`, &bars),
		chromedp.Location(&loc),
	)
	if err != nil {
		t.Fatalf("spot page: %v (problems: %v)", err, problems())
	}
	if !strings.HasPrefix(verdict, "Use ") || bars != 3 {
		t.Errorf("verdict %q with %d options", verdict, bars)
	}
	if !strings.Contains(loc, "offer=aws%2Fg4dn.xlarge%2Fus-east-1%2Fspot") || !strings.Contains(loc, "deadline_hours=36") {
		t.Errorf("the question should be in the URL: %s", loc)
	}
	screenshot(ctx, t, "spot")
	if p := problems(); len(p) > 0 {
		t.Errorf("browser reported errors: %v", p)
	}
}
