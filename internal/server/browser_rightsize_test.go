package server_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserRightsizeReport pastes a metrics log into the right-size form
// in a browser, submits it, and checks the report in English and Chinese
// at 1440 px and 390 px as every page is checked: no sideways scrolling,
// no axe-core violation, no English words on the Chinese page outside the
// allowlist (the engine's actions, reasons, figures, caveats and notes
// included).
func TestBrowserRightsizeReport(t *testing.T) {
	ctx, base, problems := browser(t)
	axe := axeScript(t)
	names := catalogNames(t)
	data, err := os.ReadFile("../rightsize/testdata/two-of-eight-l40s.csv")
	if err != nil {
		t.Fatal(err)
	}
	text, _ := json.Marshal(string(data))
	for _, lang := range []string{"en", "zh"} {
		for _, width := range []int64{1440, 390} {
			name := "rightsize-report-" + lang
			var rows int
			var overflow bool
			err := chromedp.Run(ctx,
				chromedp.EmulateViewport(width, 900),
				chromedp.Navigate(base+"/rightsize?offer=aws/g6e.48xlarge/us-east-1/on-demand&lang="+lang),
				chromedp.Evaluate(`document.querySelector('textarea[name=metrics]').value = `+string(text)+`; true`, nil),
				chromedp.Submit(`form[data-rightsize-form] button`),
				chromedp.WaitVisible(`table[data-usage]`),
				chromedp.Evaluate(`document.querySelectorAll('table[data-usage] tbody tr').length`, &rows),
				chromedp.Evaluate(`document.documentElement.scrollWidth > document.documentElement.clientWidth + 1`, &overflow),
			)
			if err != nil {
				t.Fatalf("%s %d: %v (problems: %v)", name, width, err, problems())
			}
			if rows != 9 {
				t.Errorf("%s: %d usage rows, want 8 GPUs and the total", name, rows)
			}
			if overflow {
				t.Errorf("%s at %d px scrolls sideways", name, width)
			}
			if width != 1440 {
				continue
			}
			if lang == "zh" {
				var visible string
				if err := chromedp.Run(ctx, chromedp.Evaluate(visibleText, &visible)); err != nil {
					t.Fatal(err)
				}
				if w := englishWords(visible, names); len(w) > 0 {
					t.Errorf("%s shows English: %v", name, w)
				}
			}
			if axe != "" {
				checkAxe(ctx, t, name, axe)
			}
			screenshot(ctx, t, name)
		}
	}
	for _, p := range problems() {
		t.Errorf("browser reported %s", p)
	}
}
