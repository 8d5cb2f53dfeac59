package server_test

import (
	"strings"
	"testing"
)

// TestLinksCarryOnlyKnownParameters (issue 25 item 2): a page builds its
// links (language switch, paging, sorting, API and CSV exports) from the
// request's query; a parameter nothing reads is not copied into them, so a
// long unknown parameter cannot multiply a page's size.
func TestLinksCarryOnlyKnownParameters(t *testing.T) {
	srv := newServer(t)
	junk := strings.Repeat("J", 8000)
	for _, target := range []string{
		"/offers?lang=en&gpu=H100&zz_unknown=" + junk,
		"/offers?lang=zh&cheapest_region=false&page=2&zz_unknown=" + junk,
		"/compare?lang=en&offer=aws/p5.48xlarge/us-east-1/on-demand&zz_unknown=" + junk,
		"/spot?lang=zh&offer=aws/g4dn.xlarge/us-east-1/spot&zz_unknown=" + junk,
		"/gpus?lang=en&zz_unknown=" + junk,
		"/about?zz_unknown=" + junk,
		"/instances/aws/p5.48xlarge?zz_unknown=" + junk,
		"/estimate?lang=en&zz_unknown=" + junk,
	} {
		rec := get(t, srv, target)
		if rec.Code >= 500 {
			t.Fatalf("%.50s: status %d", target, rec.Code)
		}
		body := rec.Body.String()
		if n := strings.Count(body, "zz_unknown"); n > 0 {
			t.Errorf("%.50s: the unknown parameter appears %d times in the page", target, n)
		}
		if strings.Contains(body, junk[:100]) {
			t.Errorf("%.50s: the unknown value is echoed", target)
		}
	}
	// Known parameters still reach the links: the language switch keeps
	// the filter, the next page keeps it too.
	body := get(t, srv, "/offers?lang=en&cheapest_region=false&zz=1").Body.String()
	if !strings.Contains(body, "cheapest_region=false") || strings.Contains(body, "zz=1") {
		t.Errorf("known parameter lost or unknown kept: %.300s", body)
	}
}
