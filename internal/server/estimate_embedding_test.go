package server_test

import (
	"encoding/json"
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
