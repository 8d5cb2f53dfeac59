package server_test

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
)

// "Book the 13B pretraining's Capacity Blocks to the median, not the
// P90": the API takes book_quantile in the job file and the advisor form
// takes it as a field, and the plans book to it and say the chance of
// running past, in both languages.
func TestBookQuantileThroughAPIAndForm(t *testing.T) {
	srv := newServer(t)
	body := append(readExample(t, "distributed-training.yaml"), []byte("\nbook_quantile: 0.6\nlimit: 10\n")...)
	for lang, want := range map[string]string{"en": "the chance the job runs past that is", "zh": "作业超出可用时间的概率为"} {
		req := httptest.NewRequest("POST", "/api/v1/recommend?lang="+lang, bytes.NewReader(body))
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code != 200 {
			t.Fatalf("%s: status %d: %s", lang, rec.Code, trim(rec.Body.Bytes()))
		}
		var doc struct {
			Plans []struct {
				Offer   string   `json:"offer"`
				Reasons []string `json:"reasons"`
				Booking *struct {
					Quantile float64 `json:"quantile"`
				} `json:"booking"`
			} `json:"plans"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		blocks := 0
		for _, p := range doc.Plans {
			if p.Booking == nil {
				continue
			}
			blocks++
			if p.Booking.Quantile != 0.6 || !strings.Contains(strings.Join(p.Reasons, " "), want) {
				t.Errorf("%s %s: booking %+v, reasons %q", lang, p.Offer, p.Booking, p.Reasons)
			}
		}
		if blocks == 0 {
			t.Errorf("%s: no Capacity Block plan among %d", lang, len(doc.Plans))
		}
	}
	rec := get(t, srv, "/advisor?form=1&kind=train&size_b=13&tokens_b=300&deadline_hours=336&book_quantile=0.6&lang=en")
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `name="book_quantile"`) || !strings.Contains(rec.Body.String(), `value="0.6"`) {
		t.Errorf("advisor form: status %d, the book_quantile field is missing or not kept", rec.Code)
	}
	if rec := get(t, srv, "/advisor?form=1&kind=train&size_b=13&tokens_b=300&book_quantile=2&lang=zh"); rec.Code != 400 && !strings.Contains(rec.Body.String(), "分位数") {
		t.Errorf("book_quantile=2: status %d, no error naming the quantile", rec.Code)
	}
}
