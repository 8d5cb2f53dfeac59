package server_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/shopspring/decimal"

	"github.com/gpuscout/gpuscout/internal/output"
)

// apiPrices is each offer's price in unit as the API answers the
// explorer's default view: the effective hourly price times the unit's
// hours, or the price per GPU-hour.
func apiPrices(t *testing.T, base, currency, unit string) map[string]decimal.Decimal {
	t.Helper()
	res, err := http.Get(base + "/api/v1/offers?limit=0&max_age_months=12&dated_first=true&cheapest_region=true&per=" + unit + "&currency=" + currency)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var doc struct {
		Offers []struct {
			ID    string `json:"id"`
			Price struct {
				Effective json.Number `json:"effective_hourly"`
				PerGPU    json.Number `json:"per_gpu_hourly"`
			} `json:"price"`
		} `json:"offers"`
	}
	dec := json.NewDecoder(res.Body)
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	hours := map[string]int64{"instance-hour": 1, "day": 24, "month": 730, "year": 8760}
	out := map[string]decimal.Decimal{}
	for _, o := range doc.Offers {
		eh, _ := decimal.NewFromString(o.Price.Effective.String())
		pg, _ := decimal.NewFromString(o.Price.PerGPU.String())
		if unit == "gpu-hour" {
			out[o.ID] = pg
		} else {
			out[o.ID] = eh.Mul(decimal.NewFromInt(hours[unit]))
		}
	}
	return out
}

// TestBrowserPriceUnitSwitchesInPlace: a user switching "Price per" sees
// the table in the new unit at once, without a reload, the URL keeps the
// unit (per=…) and the page the server renders for that URL shows the
// same prices, which are the API's (and so the CLI's) for the same
// choices, in English and Chinese.
func TestBrowserPriceUnitSwitchesInPlace(t *testing.T) {
	ctx, base, problems := browser(t)
	for _, lang := range []string{"en", "zh"} {
		if err := chromedp.Run(ctx,
			chromedp.EmulateViewport(1440, 900),
			chromedp.Navigate(base+"/offers?lang="+lang),
			chromedp.WaitVisible(`select[data-price-unit]`, chromedp.ByQuery),
			chromedp.Evaluate(`window.gsMark = 1; true`, nil),
		); err != nil {
			t.Fatalf("%s: %v (problems: %v)", lang, err, problems())
		}
		for _, unit := range []string{"gpu-hour", "day", "month", "year", "instance-hour"} {
			var got struct {
				Mark   int
				Search string
				Label  string
				Cur    string
				Rows   [][2]string
			}
			err := chromedp.Run(ctx,
				chromedp.Evaluate(`(async () => {
  const sel = document.querySelector('select[data-price-unit]');
  sel.value = `+"`"+unit+"`"+`;
  sel.dispatchEvent(new Event('change', {bubbles: true}));
  await new Promise(r => requestAnimationFrame(() => setTimeout(r, 50)));
  return {Mark: window.gsMark || 0, Search: location.search, Label: document.querySelector('[data-unit-label]').textContent, Cur: document.querySelector('table[data-offers]').getAttribute('data-currency'),
    Rows: [...document.querySelectorAll('tbody tr[data-offer]')].map(tr => [tr.getAttribute('data-offer'), tr.querySelector('td[data-col="price"]').textContent])};
})()`, &got, awaitPromise),
			)
			if err != nil {
				t.Fatalf("%s %s: %v (problems: %v)", lang, unit, err, problems())
			}
			if got.Mark != 1 {
				t.Fatalf("%s %s: the page reloaded", lang, unit)
			}
			wantPer := "per=" + unit
			if unit == "instance-hour" {
				wantPer = ""
			}
			if wantPer != "" && !strings.Contains(got.Search, wantPer) || wantPer == "" && strings.Contains(got.Search, "per=") {
				t.Errorf("%s %s: the URL is %q", lang, unit, got.Search)
			}
			if len(got.Rows) < 20 {
				t.Fatalf("%s %s: %d rows", lang, unit, len(got.Rows))
			}
			// the server's page for the same URL, and the API
			res, err := http.Get(base + "/offers" + got.Search)
			if err != nil {
				t.Fatal(err)
			}
			var body bytes.Buffer
			body.ReadFrom(res.Body)
			res.Body.Close()
			server := map[string]string{}
			for _, r := range explorerData(t, body.String()) {
				server[r["id"]] = r["price"]
			}
			api := apiPrices(t, base, got.Cur, unit)
			for _, r := range got.Rows {
				if server[r[0]] != r[1] || !agrees(r[1], api[r[0]]) {
					t.Errorf("%s %s: %s shows %q in the browser, %q on the server's page, %s from the API", lang, unit, r[0], r[1], server[r[0]], api[r[0]])
					break
				}
			}
			if !strings.Contains(body.String(), got.Label) {
				t.Errorf("%s %s: the browser names the unit %q, the server's page does not", lang, unit, got.Label)
			}
		}
	}
	if p := problems(); len(p) > 0 {
		t.Errorf("console problems: %v", p)
	}
}

// agrees reports whether a price shown agrees with the API's amount: the
// same figure formatted, or, since the API's JSON rounds its hourly
// amounts and a day or a year multiplies that rounding, within the shown
// figure's last digit and 10 ppm.
func agrees(shown string, api decimal.Decimal) bool {
	if shown == output.Money(api) {
		return true
	}
	v, err := decimal.NewFromString(strings.ReplaceAll(shown, ",", ""))
	if err != nil || api.IsZero() {
		return false
	}
	step := decimal.New(1, v.Exponent())
	return v.Sub(api).Abs().LessThanOrEqual(step.Add(api.Abs().Mul(decimal.New(1, -5))))
}
