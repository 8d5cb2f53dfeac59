package server_test

import (
	"html"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

var (
	tableRE = regexp.MustCompile(`(?s)<table[^>]*>.*?</table>`)
	rowRE   = regexp.MustCompile(`(?s)<tr[^>]*>.*?</tr>`)
	cellRE  = regexp.MustCompile(`(?s)<t[dh][^>]*>(.*?)</t[dh]>`)
	// moneyRE is an amount as the pages write it: digits with optional
	// thousands separators and decimals.
	moneyRE = regexp.MustCompile(`^-?[0-9][0-9,]*(\.[0-9]+)?$`)
)

// amountShape is how an amount is written: its decimals, and whether it
// groups thousands (only told apart from 1,000 up).
func amountShape(s string) (decimals int, grouped, big bool) {
	whole, frac, _ := strings.Cut(strings.TrimPrefix(s, "-"), ".")
	digits := strings.ReplaceAll(whole, ",", "")
	return len(frac), strings.Contains(whole, ","), len(digits) >= 4
}

// columnShapes reports each column of each table of money of body (the
// explorer's, an instance's prices, and those marked data-money) whose amounts are
// written more than one way (2, 3 and 4 decimals; 4149.60 beside 10,822).
func columnShapes(body string) []string {
	var out []string
	for ti, table := range tableRE.FindAllString(body, -1) {
		if open := table[:strings.IndexByte(table, '>')]; !strings.Contains(open, "data-offers") && !strings.Contains(open, "data-prices") && !strings.Contains(open, "data-money") {
			continue // a table of specs or estimates, not of amounts of money
		}
		cols := map[int]map[string]bool{}
		for _, row := range rowRE.FindAllString(table, -1) {
			for ci, m := range cellRE.FindAllStringSubmatch(row, -1) {
				text := strings.TrimSpace(html.UnescapeString(tags.ReplaceAllString(m[1], "")))
				if !moneyRE.MatchString(text) || !strings.ContainsAny(text, ".,") {
					continue // not an amount, or a count
				}
				dec, grouped, big := amountShape(text)
				if cols[ci] == nil {
					cols[ci] = map[string]bool{}
				}
				shape := "decimals=" + strconv.Itoa(dec)
				if big && !grouped {
					shape += " ungrouped"
				}
				cols[ci][shape] = true
			}
		}
		for ci, shapes := range cols {
			if len(shapes) > 1 {
				var s []string
				for k := range shapes {
					s = append(s, k)
				}
				sort.Strings(s)
				out = append(out, "table "+strconv.Itoa(ti+1)+" column "+strconv.Itoa(ci+1)+": "+strings.Join(s, " | "))
			}
		}
	}
	sort.Strings(out)
	return out
}

// TestMoneyOneFormatPerColumn: every column of amounts on the pages that
// show money writes them one way (the same decimals, thousands grouped),
// in both languages.
func TestMoneyOneFormatPerColumn(t *testing.T) {
	srv := newServer(t)
	for _, path := range []string{
		"/offers", "/offers?gpu=H100", "/offers?per=month", "/offers?per=year&gpu=A100", "/offers?per=gpu-hour&currency=JPY",
		"/compare?offer=aws/p5.48xlarge/us-east-1/on-demand&offer=gcp/a3-highgpu-8g/us-central1/on-demand&offer=aws/g4dn.xlarge/us-east-1/on-demand",
		"/compare?offer=aws/p5.48xlarge/us-east-1/on-demand&offer=aws/g4dn.xlarge/us-east-1/on-demand&tab=tco&onprem=H100",
		"/advisor?example=distributed-training", "/advisor?example=inference-china",
		"/gpus", "/instances/aws/p5.48xlarge", "/instances/azure/Standard_NC4as_T4_v3",
		"/spot?offer=aws/p5en.48xlarge/us-east-1/spot&work_hours=100&trials=200",
		"/estimate?job=transformer-train&params=7e9&tokens=1e12&gpu=H100-SXM-80GB&count=8",
	} {
		for _, lang := range []string{"en", "zh"} {
			sep := "?"
			if strings.Contains(path, "?") {
				sep = "&"
			}
			body := get(t, srv, path+sep+"lang="+lang).Body.String()
			for _, p := range columnShapes(body) {
				t.Errorf("%s (%s): %s", path, lang, p)
			}
		}
	}
}

// TestMoneyTCOCardsAlike: the TCO tab's plan cards write their totals one
// way (not 4149.60 beside 10,822), and their per-GPU-hour figures one way.
func TestMoneyTCOCardsAlike(t *testing.T) {
	srv := newServer(t)
	total := regexp.MustCompile(`data-total>([0-9.,-]+) `)
	for _, q := range []string{
		"offer=aws/g4dn.xlarge/us-east-1/on-demand&offer=aws/p5.48xlarge/us-east-1/on-demand&tab=tco&months=12",
		"offer=aws/g4dn.xlarge/us-east-1/on-demand&offer=aws/g4dn.2xlarge/us-east-1/on-demand&tab=tco&months=24",
	} {
		body := get(t, srv, "/compare?"+q).Body.String()
		shapes := map[string]bool{}
		var seen []string
		for _, m := range total.FindAllStringSubmatch(body, -1) {
			dec, grouped, big := amountShape(m[1])
			shapes[string(rune('0'+dec))+map[bool]string{true: "u", false: ""}[big && !grouped]] = true
			seen = append(seen, m[1])
		}
		t.Logf("%s: %v", q, seen)
		if len(seen) < 2 || len(shapes) != 1 {
			t.Errorf("%s: totals %v written %d ways", q, seen, len(shapes))
		}
	}
}

// TestMoneySameAmountSpelledOnce: on the advisor's pages an amount of
// money reads the same on the plan's card and in its reasons (not
// "39,072 USD" on the card and "39072 USD" in the sentence, nor "80.000"
// beside "80.00").
func TestMoneySameAmountSpelledOnce(t *testing.T) {
	srv := newServer(t)
	amount := regexp.MustCompile(`([0-9][0-9,]*(?:\.[0-9]+)?) (USD|CNY)`)
	for _, path := range []string{"/advisor?example=distributed-training", "/advisor?example=guaranteed-two-weeks", "/advisor?example=lora-70b&lang=zh"} {
		text := pageText(get(t, srv, path).Body.String())
		spellings := map[string]map[string]bool{}
		for _, m := range amount.FindAllStringSubmatch(text, -1) {
			d, err := strconv.ParseFloat(strings.ReplaceAll(m[1], ",", ""), 64)
			if err != nil {
				continue
			}
			key := strconv.FormatFloat(math.Round(d*100)/100, 'f', 2, 64) + " " + m[2]
			if spellings[key] == nil {
				spellings[key] = map[string]bool{}
			}
			spellings[key][m[1]] = true
		}
		for key, s := range spellings {
			if len(s) > 1 {
				t.Errorf("%s: %s is written %d ways: %v", path, key, len(s), s)
			}
		}
	}
}
