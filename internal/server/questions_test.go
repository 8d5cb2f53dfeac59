package server_test

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/document"
)

// "How long does embedding 1B tokens with a 335M encoder take on one
// H100?": the estimate API and the estimate form take the embedding
// workload (input tokens), as gpuscout estimate and recommend do, in
// both languages; a missing size names the field.
func TestEstimateEmbeddingWorkload(t *testing.T) {
	srv := newServer(t)
	const q = "params=335e6&tokens=1e9&gpu=H100-SXM-80GB"
	rec := get(t, srv, "/api/v1/estimate?workload=embedding&"+q)
	if rec.Code != 200 {
		t.Fatalf("API: status %d: %s", rec.Code, trim(rec.Body.Bytes()))
	}
	var doc document.Estimate
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Time == nil {
		t.Fatalf("no time to finish for 1e9 encoder tokens: %s", trim(rec.Body.Bytes()))
	}
	if h, _ := doc.Time.Hours.Float64(); !(h > 0 && h < 2) {
		t.Errorf("1e9 tokens through a 335M encoder on one H100: %.2f h; MLPerf BERT-Large puts it at minutes", h)
	}
	for lang, want := range map[string]string{"en": "Embed or classify text", "zh": "文本嵌入或分类"} {
		rec := get(t, srv, "/estimate?job=embedding&lang="+lang+"&"+q)
		body := rec.Body.String()
		if rec.Code != 200 {
			t.Fatalf("%s: status %d: %s", lang, rec.Code, trim(rec.Body.Bytes()))
		}
		if !strings.Contains(body, `<option value="embedding" selected>`) || !strings.Contains(body, want) {
			t.Errorf("%s: the form does not offer and keep the embedding workload (%q)", lang, want)
		}
	}
	rec = get(t, srv, "/api/v1/estimate?workload=embedding&params=335e6&gpu=H100-SXM-80GB&lang=zh")
	if rec.Code != 400 || !strings.Contains(rec.Body.String(), "tokens") {
		t.Errorf("embedding without tokens: status %d: %s", rec.Code, trim(rec.Body.Bytes()))
	}
}

// "What can I run for 100 GPU-hours on T4 at no more than 1 USD an hour,
// starting within a week?": the advisor form takes a budget (in the
// page's currency, per period) and a guaranteed start, and the plans
// keep within the budget and say so, in both languages.
func TestAdvisorFormBudgetAndGuaranteedStart(t *testing.T) {
	srv := newServer(t)
	for lang, want := range map[string]string{"en": "Within your budget", "zh": "在预算之内"} {
		budget := map[string]string{"en": "1", "zh": "7"}[lang] // USD on English pages, CNY on Chinese ones
		rec := get(t, srv, "/advisor?form=1&kind=gpuhours&gpu_hours=100&gpu_model=T4&budget="+budget+"&budget_period=hour&start_within_days=7&lang="+lang)
		body := rec.Body.String()
		if rec.Code != 200 {
			t.Fatalf("%s: status %d: %s", lang, rec.Code, trim(rec.Body.Bytes()))
		}
		if !strings.Contains(body, want) || !strings.Contains(body, `name="budget"`) || !strings.Contains(body, `name="start_within_days"`) {
			t.Errorf("%s: the page lacks the budget fields or %q", lang, want)
		}
		if strings.Contains(body, `data-plan="vast/`) {
			t.Errorf("%s: a marketplace host planned for a guaranteed start", lang)
		}
	}
	if rec := get(t, srv, "/advisor?form=1&kind=gpuhours&gpu_hours=100&gpu_model=T4&budget=1&budget_period=week"); rec.Code != 400 {
		t.Errorf("budget_period=week: status %d, want 400", rec.Code)
	}
}

// "Serve users in Frankfurt and Virginia" through POST /api/v1/recommend:
// the job file's places with their loads give one plan set per place,
// each plan naming its place (for_users), with the Chinese reasons too.
func TestAPIRecommendUsersInTwoPlaces(t *testing.T) {
	srv := newServer(t)
	for lang, want := range map[string]string{"en": "For your users in Virginia", "zh": "服务 Virginia 的用户"} {
		req := httptest.NewRequest("POST", "/api/v1/recommend?lang="+lang, bytes.NewReader(readExample(t, "two-city-service.yaml")))
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code != 200 {
			t.Fatalf("%s: status %d: %s", lang, rec.Code, trim(rec.Body.Bytes()))
		}
		var doc struct {
			Plans []struct {
				ForUsers string   `json:"for_users"`
				Reasons  []string `json:"reasons"`
			} `json:"plans"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		places := map[string]bool{}
		text := ""
		for _, p := range doc.Plans {
			places[p.ForUsers] = true
			text += strings.Join(p.Reasons, " ")
		}
		if !places["Frankfurt"] || !places["Virginia"] || !strings.Contains(text, want) {
			t.Errorf("%s: want plans for Frankfurt and Virginia saying %q; got places %v", lang, want, places)
		}
	}
}
