package server_test

import (
	"encoding/json"
	"math"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/shopspring/decimal"
)

// onTerm reports whether a billing code is priced on an explorer term.
func onTerm(term, code string) bool {
	commitment := strings.HasPrefix(code, "reserved-") || strings.HasPrefix(code, "savings-plan-") || strings.HasPrefix(code, "committed-") || strings.HasPrefix(code, "subscription-")
	switch term {
	case "1y":
		return commitment && strings.Contains(code, "-1y")
	case "3y":
		return commitment && strings.Contains(code, "-3y")
	}
	return code == term
}

// TestExplorerTermIsThePriceColumn: a user choosing a term (on-demand,
// spot, 1-year, 3-year) as on ec2instances.info keeps one row per instance
// type of the view, priced with that instance's cheapest offer on the
// term (the same figure as the every-billing-model view and the API's
// offer), and an instance with no such offer shows "—" with a title
// saying none is published, in English and Chinese. A bad term is a 400
// naming the field.
func TestExplorerTermIsThePriceColumn(t *testing.T) {
	srv := newServer(t)
	for _, lang := range []string{"en", "zh"} {
		all := explorerData(t, get(t, srv, "/offers?lang="+lang).Body.String())
		types := map[string]bool{}
		for _, r := range all {
			types[r["provider_id"]+"/"+r["instance"]] = true
		}
		for _, term := range []string{"on-demand", "spot", "1y", "3y"} {
			// the cheapest offer of each type on the term, from the
			// every-billing-model view
			best := map[string]map[string]string{}
			for _, r := range all {
				k := r["provider_id"] + "/" + r["instance"]
				if !onTerm(term, r["billing_code"]) {
					continue
				}
				p, _ := strconv.ParseFloat(r["eh"], 64)
				if b, ok := best[k]; !ok || p < mustFloat(b["eh"]) {
					best[k] = r
				}
			}
			body := get(t, srv, "/offers?lang="+lang+"&term="+term).Body.String()
			rows := explorerData(t, body)
			seen := map[string]bool{}
			none := 0
			for _, r := range rows {
				k := r["provider_id"] + "/" + r["instance"]
				if seen[k] {
					t.Fatalf("%s %s: %s has two rows", lang, term, k)
				}
				seen[k] = true
				if r["id"] == "" {
					none++
					if best[k] != nil || r["price"] != "—" || !strings.Contains(r["none"], r["instance"]) {
						t.Errorf("%s %s: %s shows price %q, title %q; its cheapest offer on the term is %v", lang, term, k, r["price"], r["none"], best[k]["id"])
					}
					continue
				}
				if !onTerm(term, r["billing_code"]) {
					t.Errorf("%s %s: %s is priced with %s", lang, term, k, r["id"])
				}
				if b := best[k]; b == nil || b["eh"] != r["eh"] || b["price"] != r["price"] {
					t.Errorf("%s %s: %s is priced %s (%s), its cheapest on the term is %v", lang, term, k, r["price"], r["id"], b)
				}
				// the API's figure for the same offer
				var doc struct {
					Offers []struct {
						Price struct {
							Effective json.Number `json:"effective_hourly"`
						} `json:"price"`
					} `json:"offers"`
				}
				cur := map[string]string{"en": "USD", "zh": "CNY"}[lang]
				rec := get(t, srv, "/api/v1/offers/"+r["id"]+"?currency="+url.QueryEscape(cur))
				if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil || len(doc.Offers) != 1 {
					t.Fatalf("%s: %v %s", r["id"], err, rec.Body.String())
				}
				api, _ := decimal.NewFromString(doc.Offers[0].Price.Effective.String())
				if !agrees(r["price"], api) {
					t.Errorf("%s %s: %s shows %s, the API %s", lang, term, r["id"], r["price"], api)
				}
			}
			if len(seen) != len(types) {
				t.Errorf("%s %s: %d instance rows, the every-billing-model view has %d types: a term must not filter rows", lang, term, len(seen), len(types))
			}
			if none == 0 && term != "on-demand" {
				t.Errorf("%s %s: every instance has a price on the term; the test needs one without", lang, term)
			}
			t.Logf("%s %s: %d instances, %d without a price on the term", lang, term, len(seen), none)
		}
	}
	if w := get(t, srv, "/offers?lang=en&term=2y"); w.Code != 400 || !strings.Contains(w.Body.String(), `data-error-field="term"`) {
		t.Errorf("term=2y: %d", w.Code)
	}
}

func mustFloat(s string) float64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return math.Inf(1)
	}
	return f
}

// TestBrowserTermNoneRows: the script draws an instance without a price
// on the term as the server does: "—" with a title saying none is
// published, and no compare box, in English and Chinese.
func TestBrowserTermNoneRows(t *testing.T) {
	ctx, base, problems := browser(t)
	for _, lang := range []string{"en", "zh"} {
		var got struct {
			None  int
			Title string
			Boxes int
		}
		err := chromedp.Run(ctx,
			chromedp.EmulateViewport(1440, 900),
			chromedp.Navigate(base+"/offers?lang="+lang+"&term=3y&size=0"),
			chromedp.WaitVisible(`table[data-offers]`, chromedp.ByQuery),
			chromedp.Evaluate(`(async () => {
  const wrap = document.querySelector('.table-wrap');
  wrap.scrollTop = wrap.scrollHeight;
  await new Promise(r => requestAnimationFrame(() => setTimeout(r, 100)));
  const none = [...document.querySelectorAll('tbody tr[data-none]')];
  const span = none.length ? none[0].querySelector('td[data-col="price"] span[title]') : null;
  return {None: none.length, Title: span ? span.title + ' ' + span.textContent : '', Boxes: none.filter(tr => tr.querySelector('input')).length};
})()`, &got, awaitPromise),
		)
		if err != nil {
			t.Fatalf("%s: %v (problems: %v)", lang, err, problems())
		}
		want := map[string]string{"en": "No 3-year price is published for", "zh": "3 年期价格"}[lang]
		if got.None == 0 || !strings.Contains(got.Title, want) || !strings.HasSuffix(got.Title, "—") || got.Boxes > 0 {
			t.Errorf("%s: %d rows without a 3-year price drawn, first titled %q, %d with a compare box", lang, got.None, got.Title, got.Boxes)
		}
	}
	if p := problems(); len(p) > 0 {
		t.Errorf("console problems: %v", p)
	}
}
