package server_test

import (
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
