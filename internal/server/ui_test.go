package server_test

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestTCOPageBadgesTheLowestTotalAtTheSameGPUs is the reported case: one-
// and two-GPU Lambda H100 instances against buying an 8-GPU H100 server
// over 120 months, in Chinese. Every plan is priced at 8 GPUs, the badge
// sits on the lowest total, and the break-even answers are Chinese.
func TestTCOPageBadgesTheLowestTotalAtTheSameGPUs(t *testing.T) {
	srv := newServer(t)
	rec := get(t, srv, "/compare?offer=lambda/gpu_1x_h100_sxm5/asia-northeast-1/on-demand&offer=lambda/gpu_2x_h100_sxm5/asia-northeast-1/on-demand"+
		"&onprem=H100&months=120&lang=zh&currency=CNY")
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
