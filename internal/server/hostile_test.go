package server_test

import (
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// TestBadPageNumberIs400 (issue 25 item 1): a page number that is not a
// whole number from 1 to 1,048,576 answers 400 with the page's own error
// box in both languages, on the page and its CSV export, never a panic.
func TestBadPageNumberIs400(t *testing.T) {
	srv := newServer(t)
	for _, path := range []string{"/offers", "/offers.csv"} {
		for _, v := range []string{"0", "-1", "1.5", "abc", "1048577", "99999999999999999999"} {
			for _, lang := range []string{"en", "zh"} {
				target := path + "?page=" + url.QueryEscape(v) + "&lang=" + lang
				rec := get(t, srv, target)
				if rec.Code != 400 {
					t.Fatalf("%s: status %d, want 400: %.300s", target, rec.Code, rec.Body)
				}
				body := rec.Body.String()
				if !strings.Contains(body, "page") {
					t.Errorf("%s: the error does not name the parameter: %.300s", target, body)
				}
				if path == "/offers" && lang == "zh" && !strings.Contains(body, "lang=\"zh") {
					t.Errorf("%s: not a Chinese page: %.300s", target, body)
				}
			}
		}
	}
	if rec := get(t, srv, "/offers?page=2"); rec.Code != 200 {
		t.Fatalf("page=2: status %d", rec.Code)
	}
}

// maxRefusalBytes bounds what refusing or failing to find an offer ID may
// allocate: a few MB today; a search whose work grows with the ID or the
// catalog (what these tests guard against) goes far over it, on a quiet
// machine or a busy one alike.
const maxRefusalBytes = 16 << 20

// TestLongOfferIDIsRefusedFast (issue 25 item 3): an unknown offer ID of
// 60,000 bytes used to cost seconds of near-match search on every route
// that takes one; now it is refused up front (400 naming the limit), with
// bounded work.
func TestLongOfferIDIsRefusedFast(t *testing.T) {
	srv := newServer(t)
	get(t, srv, "/offers") // the explorer's index, built once, outside the measures
	long := strings.Repeat("x", 60000)
	for _, target := range []string{"/compare?offer=" + long, "/spot?offer=" + long, "/api/v1/tco?offer=" + long,
		"/api/v1/spot?offer=" + long, "/api/v1/offers/" + long, "/api/v1/tco?offer=aws/a/b/on-demand," + long} {
		for _, lang := range []string{"en", "zh"} {
			sep := "&"
			if !strings.Contains(target, "?") {
				sep = "?"
			}
			var rec *httptest.ResponseRecorder
			if b := allocBytes(func() { rec = get(t, srv, target+sep+"lang="+lang) }); b > maxRefusalBytes {
				t.Errorf("%.40s: refusing allocated %d bytes, want at most %d", target, b, maxRefusalBytes)
			}
			if rec.Code != 400 {
				t.Fatalf("%.40s: status %d, want 400", target, rec.Code)
			}
			want := map[string]string{"en": "Offer ID is 60000 bytes; the limit is 256", "zh": "报价 ID 长 60000 字节，上限为 256"}[lang]
			if !strings.Contains(rec.Body.String(), want) {
				t.Errorf("%.40s %s: body %.300s", target, lang, rec.Body)
			}
		}
	}
}

// BenchmarkLongOfferID measures refusing a 60,000-byte offer ID.
func BenchmarkLongOfferID(b *testing.B) {
	srv := newServer(b)
	target := "/api/v1/offers/" + strings.Repeat("x", 60000)
	for i := 0; i < b.N; i++ {
		req := httptest.NewRequest("GET", target, nil)
		srv.ServeHTTP(httptest.NewRecorder(), req)
	}
}

// TestListParametersAreBounded (issue 25 item 2): repeated list values are
// read once, and a parameter with more values than the limit, or a query
// string over the limit, answers 400 naming the limit instead of a response
// that grows with the repeats.
func TestListParametersAreBounded(t *testing.T) {
	srv := newServer(t)
	one := get(t, srv, "/api/v1/gpus?gpu=A100")
	rep := get(t, srv, "/api/v1/gpus?gpu=A100"+strings.Repeat("&gpu=A100", 100))
	if rep.Code != 200 || rep.Body.Len() != one.Body.Len() {
		t.Errorf("100 repeats: status %d, %d bytes; once: %d bytes", rep.Code, rep.Body.Len(), one.Body.Len())
	}
	for _, c := range []struct{ target, want string }{
		{"/api/v1/gpus?gpu=A" + strings.Repeat("&gpu=A", 10000), "the limit is 16384"},
		{"/api/v1/gpus?gpu=A" + strings.Repeat(",A", 200), `Parameter \"gpu\" has 201 values; the limit is 128`},
		{"/offers?gpu=A" + strings.Repeat(",A", 200) + "&lang=zh", `参数 "gpu" 有 201 个值，上限为 128`},
	} {
		rec := get(t, srv, c.target)
		if rec.Code != 400 || !strings.Contains(rec.Body.String(), c.want) || rec.Body.Len() > 4096 {
			t.Errorf("%.60s: status %d, body %.300s", c.target, rec.Code, rec.Body)
		}
	}
}

// TestUnknownOfferIDAtTheLimitIsFast: an unknown ID just under the limit is
// looked up with bounded work on every route that takes one (its time is
// BenchmarkUnknownOfferIDAtTheLimit's).
func TestUnknownOfferIDAtTheLimitIsFast(t *testing.T) {
	srv := newServer(t)
	get(t, srv, "/offers") // the explorer's index, built once, outside the measures
	for _, target := range unknownAtTheLimit() {
		var rec *httptest.ResponseRecorder
		if b := allocBytes(func() { rec = get(t, srv, target) }); b > maxRefusalBytes {
			t.Errorf("%.40s: looking up an unknown ID allocated %d bytes, want at most %d", target, b, maxRefusalBytes)
		}
		if rec.Code >= 500 {
			t.Errorf("%.40s: status %d", target, rec.Code)
		}
	}
}

const maxID = 256

// unknownAtTheLimit are the routes that take an offer ID, each asked for
// an unknown ID of the longest length accepted.
func unknownAtTheLimit() []string {
	id := "aws/" + strings.Repeat("p", 240) + "/us-east-1/on-demand"
	id = id[:maxID]
	return []string{"/compare?offer=" + id, "/spot?offer=" + id, "/api/v1/tco?offer=" + id,
		"/api/v1/spot?offer=" + id, "/api/v1/offers/" + id}
}

// BenchmarkUnknownOfferIDAtTheLimit measures looking up an unknown ID of
// the longest accepted length on each route that takes one (the time
// TestUnknownOfferIDAtTheLimitIsFast held to 50 ms before it asserted
// bounded work instead).
func BenchmarkUnknownOfferIDAtTheLimit(b *testing.B) {
	srv := newServer(b)
	for _, target := range unknownAtTheLimit() {
		b.Run(strings.SplitN(strings.TrimPrefix(target, "/"), "?", 2)[0], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				srv.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", target, nil))
			}
		})
	}
}
