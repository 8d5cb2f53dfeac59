package server_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/document"
	"github.com/gpuscout/gpuscout/internal/server"
)

// TestTCOPageBadgesTheLowestTotalAtTheSameGPUs is the reported case: one-
// and two-GPU Lambda H100 instances against buying an 8-GPU H100 server
// over 120 months, in Chinese. Every plan is priced at 8 GPUs, the badge
// sits on the lowest total, and the break-even answers are Chinese.
func TestTCOPageBadgesTheLowestTotalAtTheSameGPUs(t *testing.T) {
	srv := newServer(t)
	rec := get(t, srv, "/compare?offer=lambda/gpu_1x_h100_sxm5/ANY/on-demand&offer=lambda/gpu_2x_h100_sxm5/ANY/on-demand"+
		"&onprem=H100&months=120&lang=zh&currency=CNY&tab=tco")
	if rec.Code != 200 {
		t.Fatalf("status %d: %s", rec.Code, trim(rec.Body.Bytes()))
	}
	body := rec.Body.String()
	cards := regexp.MustCompile(`(?s)<div class="card( best)?" data-plan="([^"]+)">.*?<p class="big" data-total>([0-9,.]+) CNY</p>`).FindAllStringSubmatch(body, -1)
	if len(cards) != 3 {
		t.Fatalf("%d plan cards, want 3", len(cards))
	}
	best, lowest := "", ""
	low := -1.0
	for _, c := range cards {
		v, err := strconv.ParseFloat(strings.ReplaceAll(c[3], ",", ""), 64)
		if err != nil {
			t.Fatal(err)
		}
		if low < 0 || v < low {
			low, lowest = v, c[2]
		}
		if c[1] != "" {
			best = c[2]
		}
	}
	if best == "" || best != lowest {
		t.Errorf("badge on %q, lowest total is %q", best, lowest)
	}
	if n := strings.Count(body, "data-scaled"); n != 2 {
		t.Errorf("%d plans say they were scaled to 8 GPUs, want 2", n)
	}
	if !strings.Contains(body, "所有方案均按 8 块 GPU 对比") {
		t.Error("the page does not say the plans are compared at 8 GPUs")
	}
	for _, en := range []string{"pays back", "does not pay back", "beats on-demand"} {
		if strings.Contains(body, en) {
			t.Errorf("Chinese TCO page says %q", en)
		}
	}
	if !strings.Contains(body, "回本") {
		t.Error("no buy-vs-rent answer in Chinese")
	}
}

// TestOffersDataJSONIsValidAndEscaped: the explorer's hand-written JSON
// decodes to the same rows and cannot close its <script> block.
func TestOffersDataJSONIsValidAndEscaped(t *testing.T) {
	srv, _, _ := hostileServer(t)
	rec := get(t, srv, "/offers?lang=en&cheapest_region=false")
	body := rec.Body.String()
	i := strings.Index(body, `<script type="application/json" id="offers-data">`)
	if i < 0 {
		t.Fatal("no offers data")
	}
	blob := body[i+len(`<script type="application/json" id="offers-data">`):]
	blob = blob[:strings.Index(blob, "</script>")]
	var d struct {
		Cols []string   `json:"cols"`
		Rows [][]string `json:"rows"`
	}
	if err := json.Unmarshal([]byte(blob), &d); err != nil {
		t.Fatalf("offers data is not JSON: %v", err)
	}
	if len(d.Rows) == 0 || len(d.Rows[0]) != len(d.Cols) {
		t.Fatalf("%d rows of %d cells for %d columns", len(d.Rows), len(d.Rows[0]), len(d.Cols))
	}
	if strings.Contains(blob, "<") {
		t.Error("a raw < inside the JSON block")
	}
}

// TestAdvisorPageInChinese: the default example priced in CNY, every plan
// linked onward, a Pareto front of distinct, non-dominated points drawn
// above the ranked plans, and plain text answered with a sentence, not a
// Go decoding error.
func TestAdvisorPageInChinese(t *testing.T) {
	srv := newServer(t)
	body := get(t, srv, "/advisor?lang=zh").Body.String()
	plans := strings.Count(body, `<li class="plan card"`)
	if plans == 0 || strings.Count(body, "data-plan-links") != plans {
		t.Fatalf("%d plans, %d with onward links", plans, strings.Count(body, "data-plan-links"))
	}
	if !strings.Contains(body, " CNY") || strings.Contains(body, "data-total>") && strings.Contains(body, " USD</p>") {
		t.Error("the Chinese advisor does not price in CNY")
	}
	i := strings.Index(body, `id="chart-advisor">`)
	if i < 0 {
		t.Fatal("no chart")
	}
	blob := body[i+len(`id="chart-advisor">`):]
	blob = blob[:strings.Index(blob, "</script>")]
	var chart struct {
		Series []struct {
			Type string `json:"type"`
			Data []struct {
				Value []float64 `json:"value"`
				Name  string    `json:"name"`
			} `json:"data"`
		} `json:"series"`
	}
	if err := json.Unmarshal([]byte(blob), &chart); err != nil {
		t.Fatal(err)
	}
	if len(chart.Series) != 2 || chart.Series[1].Type != "line" {
		t.Fatalf("want ranked plans, then the front on top: %+v", chart.Series)
	}
	front := chart.Series[1].Data
	seen := map[string]bool{}
	for _, a := range front {
		if seen[a.Name] {
			t.Errorf("front repeats %s", a.Name)
		}
		seen[a.Name] = true
		for _, b := range front {
			if b.Value[0] <= a.Value[0] && b.Value[1] <= a.Value[1] && (b.Value[0] < a.Value[0] || b.Value[1] < a.Value[1]) {
				t.Errorf("front point %s is dominated by %s", a.Name, b.Name)
			}
		}
	}
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("POST", "/advisor?lang=zh", strings.NewReader("job=train+a+7B+model+in+two+weeks"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	srv.ServeHTTP(rec, req)
	if rec.Code != 400 || strings.Contains(rec.Body.String(), "unmarshal") || !strings.Contains(rec.Body.String(), "不能是纯文本") {
		t.Errorf("plain text job: %d %s", rec.Code, trim(rec.Body.Bytes()))
	}
}

// TestInstancePageDrawsPriceHistory: with a history source, the instance
// page charts its on-demand price at each import; without one it says
// where history comes from.
func TestInstancePageDrawsPriceHistory(t *testing.T) {
	id := "aws/p5.48xlarge/us-east-1/on-demand"
	srv, err := server.New(context.Background(), server.Config{Load: loadEmbedded, Now: func() time.Time { return now },
		History: server.HistoryFunc(func(_ context.Context, offer string) (document.PriceHistory, error) {
			h := document.PriceHistory{Schema: document.SchemaPriceHistory, Offer: offer, Points: []document.PricePoint{}}
			if offer == id {
				h.Points = []document.PricePoint{
					{AsOf: "2026-07-20", Effective: "55.04", Currency: "USD", Source: "curated: test"},
					{Snapshot: 3, FetchedAt: "2026-11-02T10:00:00Z", AsOf: "2026-11-01", Effective: "49.5", Currency: "USD", Source: "offer.json"},
				}
			}
			return h, nil
		})})
	if err != nil {
		t.Fatal(err)
	}
	body := get(t, srv, "/instances/aws/p5.48xlarge?lang=en").Body.String()
	if !strings.Contains(body, `id="chart-history"`) || !strings.Contains(body, "2026-11-02") || !strings.Contains(body, "49.5") {
		t.Error("no price-history chart with the imported point")
	}
	// the chart is in the page's currency: CNY on a Chinese page, EUR when
	// chosen, never the stored USD
	for q, cur := range map[string]string{"lang=zh": "CNY", "lang=en&currency=EUR": "EUR", "lang=en": "USD"} {
		page := get(t, srv, "/instances/aws/p5.48xlarge?"+q).Body.String()
		i := strings.Index(page, `id="chart-history"`)
		if i < 0 {
			t.Fatalf("%s: no history chart", q)
		}
		chart := page[i:]
		chart = chart[:strings.Index(chart, "</script>")]
		if !strings.Contains(chart, cur) || (cur != "USD" && (strings.Contains(chart, "USD") || strings.Contains(chart, "49.5,") || strings.Contains(chart, "49.5]"))) {
			t.Errorf("%s: the history chart is not in %s: %s", q, cur, chart)
		}
	}
	plain := get(t, newServer(t), "/instances/aws/p5.48xlarge?lang=en").Body.String()
	if strings.Contains(plain, `id="chart-history"`) || !strings.Contains(plain, "data-history-none") {
		t.Error("without a database the page should say where history comes from")
	}
}

// TestAdvisorForm: the common-jobs form runs the advisor without YAML
// (train, serve, GPU-hours), shows the job file it wrote, and names a bad
// field in the page's language.
func TestAdvisorForm(t *testing.T) {
	srv := newServer(t)
	for _, q := range []string{
		"kind=train&size_b=7&tokens_b=100&deadline_hours=336&priority=cost&lang=zh",
		"kind=serve&size_b=7&tps=1000&months=12&residency=cn-mainland&lang=zh",
		"kind=gpuhours&gpu_hours=500&gpu_model=A100&spot=1&lang=en",
	} {
		rec := get(t, srv, "/advisor?form=1&"+q)
		body := rec.Body.String()
		written := "written by the advisor form"
		if strings.HasSuffix(q, "lang=zh") {
			written = "由选型建议表单生成"
		}
		if rec.Code != 200 || !strings.Contains(body, `<li class="plan card"`) || !strings.Contains(body, written) {
			t.Errorf("%s: status %d, plans %v", q, rec.Code, strings.Contains(body, `<li class="plan card"`))
		}
	}
	rec := get(t, srv, "/advisor?form=1&kind=train&size_b=seven&tokens_b=100&lang=zh")
	if rec.Code != 400 || !strings.Contains(rec.Body.String(), "模型规模") {
		t.Errorf("bad size: %d", rec.Code)
	}
}
