package cli_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// hookRecorder is a webhook that records the JSON it receives.
type hookRecorder struct {
	mu     sync.Mutex
	bodies []map[string]any
	status int
}

func newHook(t *testing.T) (*hookRecorder, *httptest.Server) {
	h := &hookRecorder{status: http.StatusNoContent}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var v map[string]any
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" || json.Unmarshal(b, &v) != nil {
			t.Errorf("webhook got %s %s %q", r.Method, r.Header.Get("Content-Type"), b)
		}
		h.mu.Lock()
		h.bodies = append(h.bodies, v)
		status := h.status
		h.mu.Unlock()
		w.WriteHeader(status)
	}))
	t.Cleanup(srv.Close)
	return h, srv
}

func (h *hookRecorder) received() []map[string]any {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]map[string]any(nil), h.bodies...)
}

func writeFile(t *testing.T, path, content string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestWatchFiresOnCrossing imports a price snapshot, checks a rule that the
// price does not cross, imports a lower price and checks that the rule
// fires: printed, posted to the webhook, and exit 1 with --fail-on-alert.
func TestWatchFiresOnCrossing(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "g.db")
	hook, srv := newHook(t)
	rules := writeFile(t, filepath.Join(dir, "rules.yaml"), `webhook: `+srv.URL+`/hook
rules:
  - offer: aws/p5.48xlarge/us-east-1/on-demand
    below: 50
  - offer: aws/p4d.24xlarge/us-east-1/on-demand
    above: 25
`)
	if _, errOut, code := exec(t, false, nil, "catalog", "import", "aws", "--file", offerFile, "--db", db); code != 0 {
		t.Fatal(errOut)
	}
	// 55.04 USD/h: on the other side of "below 50".
	out, errOut, code := exec(t, false, nil, "watch", "-f", rules, "--db", db, "--fail-on-alert")
	if code != 0 || strings.Contains(out, "ALERT") || !strings.Contains(out, "Checked 2 rule(s): 0 alert(s).") {
		t.Fatalf("before the drop: exit %d\n%s%s", code, out, errOut)
	}
	if n := len(hook.received()); n != 0 {
		t.Fatalf("webhook called %d times before the drop", n)
	}

	raw, _ := os.ReadFile(offerFile)
	lower := filepath.Join(dir, "offer2.json")
	os.WriteFile(lower, []byte(strings.Replace(string(raw), "55.0400000000", "49.5000000000", 1)), 0o644)
	if _, errOut, code := exec(t, false, nil, "catalog", "import", "aws", "--file", lower, "--db", db); code != 0 {
		t.Fatal(errOut)
	}
	out, errOut, code = exec(t, false, nil, "watch", "-f", rules, "--db", db, "--fail-on-alert")
	if code != 1 || !strings.Contains(out, "ALERT aws/p5.48xlarge/us-east-1/on-demand costs 49.5 USD per instance-hour, below 50 USD") ||
		!strings.Contains(out, "1 alert(s)") || !strings.Contains(errOut, "--fail-on-alert") {
		t.Fatalf("after the drop: exit %d\n%s%s", code, out, errOut)
	}
	got := hook.received()
	if len(got) != 1 {
		t.Fatalf("webhook called %d times, want 1", len(got))
	}
	a := got[0]
	if a["schema"] != "gpuscout/watch@v1" || a["offer"] != "aws/p5.48xlarge/us-east-1/on-demand" || a["condition"] != "below" ||
		a["price"] != 49.5 || a["threshold"] != 50.0 || a["currency"] != "USD" || a["per"] != "instance-hour" || a["checked_at"] != "2026-12-02T09:00:00Z" {
		t.Errorf("webhook payload %v", a)
	}
	// Without --fail-on-alert the check exits 0 all the same.
	if _, _, code := exec(t, false, nil, "watch", "-f", rules, "--db", db, "-q"); code != 0 {
		t.Errorf("exit %d without --fail-on-alert", code)
	}
}

func TestWatchFlags(t *testing.T) {
	hook, srv := newHook(t)
	// The test catalog's p5.48xlarge us-east-1 price is 55.04 USD/h.
	out, errOut, code := exec(t, false, nil, "watch", "--offer", "aws/p5.48xlarge/us-east-1/on-demand", "--above", "55", "--webhook", srv.URL)
	if code != 0 || !strings.Contains(out, "above 55 USD") || len(hook.received()) != 1 {
		t.Errorf("above 55: exit %d, %d POSTs\n%s%s", code, len(hook.received()), out, errOut)
	}
	out, _, _ = exec(t, false, nil, "watch", "--offer", "aws/p5.48xlarge/us-east-1/on-demand", "--above", "56", "--below", "55", "--webhook", srv.URL)
	if strings.Contains(out, "ALERT") || len(hook.received()) != 1 {
		t.Errorf("inside the band:\n%s", out)
	}
	// Per GPU-hour in CNY: 55.04 / 8 = 6.88 USD.
	out, errOut, code = exec(t, false, nil, "watch", "--offer", "aws/p5.48xlarge/us-east-1/on-demand", "--below", "100", "--per", "gpu-hour", "--currency", "CNY", "-o", "json")
	var doc struct {
		Schema string `json:"schema"`
		Fired  int    `json:"fired"`
		Alerts []struct {
			Currency string  `json:"currency"`
			Per      string  `json:"per"`
			Price    float64 `json:"price"`
		} `json:"alerts"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || doc.Schema != "gpuscout/watch-check@v1" || doc.Fired != 1 ||
		doc.Alerts[0].Currency != "CNY" || doc.Alerts[0].Per != "gpu-hour" || doc.Alerts[0].Price < 40 || doc.Alerts[0].Price > 60 {
		t.Errorf("gpu-hour in CNY: exit %d\n%s%s", code, out, errOut)
	}
	// Monthly subscription price in the offer's own currency.
	out, _, _ = exec(t, false, nil, "watch", "--offer", "tencent/GT4.4XLARGE96/ap-guangzhou/subscription-1m", "--below", "14000", "--per", "month")
	if !strings.Contains(out, "costs 13748 CNY per month, below 14000 CNY") {
		t.Errorf("monthly:\n%s", out)
	}
}

// TestWatchDefaultFile runs `gpuscout watch` alone with the rules file in
// the user's configuration directory.
func TestWatchDefaultFile(t *testing.T) {
	home := t.TempDir()
	writeFile(t, filepath.Join(home, ".config", "gpuscout", "watch.yaml"), `- offer: aws/g4dn.xlarge/us-east-1/spot
  below: 0.2
`)
	out, errOut, code := exec(t, false, map[string]string{"HOME": home}, "watch")
	if code != 0 || !strings.Contains(out, "ALERT aws/g4dn.xlarge/us-east-1/spot") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
}

func TestWatchErrors(t *testing.T) {
	dir := t.TempDir()
	unknown := writeFile(t, filepath.Join(dir, "unknown.yaml"), "rules:\n  - offer: aws/p5.48xlarge/us-east-1/on-demand\n    below: 50\n  - offer: aws/p5.48xlarge/us-east-1/ondemand\n    below: 50\n")
	typo := writeFile(t, filepath.Join(dir, "typo.yaml"), "rules:\n  - offer: aws/p5.48xlarge/us-east-1/on-demand\n    belw: 50\n")
	nothing := writeFile(t, filepath.Join(dir, "nothing.yaml"), "rules:\n  - offer: aws/p5.48xlarge/us-east-1/on-demand\n")
	failing, srv := newHook(t)
	failing.status = http.StatusInternalServerError
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr []string
	}{
		{"nothing to watch", []string{"watch"}, 2, []string{"nothing to watch", "Hint:"}},
		{"below without offer", []string{"watch", "--below", "3"}, 2, []string{"need --offer"}},
		{"no threshold", []string{"watch", "--offer", "aws/p5.48xlarge/us-east-1/on-demand"}, 2, []string{"set below, above or both"}},
		{"bad number", []string{"watch", "--offer", "aws/p5.48xlarge/us-east-1/on-demand", "--below", "cheap"}, 2, []string{`--below: "cheap" is not a number`}},
		{"inverted band", []string{"watch", "--offer", "aws/p5.48xlarge/us-east-1/on-demand", "--below", "60", "--above", "50"}, 2, []string{"would always fire"}},
		{"bad webhook", []string{"watch", "--offer", "aws/p5.48xlarge/us-east-1/on-demand", "--below", "60", "--webhook", "ftp://x"}, 2, []string{"not an http or https URL"}},
		{"unknown offer", []string{"watch", "--offer", "aws/p5.48xlarge/us-east-1/ondemand", "--below", "60"}, 2, []string{"did you mean aws/p5.48xlarge/us-east-1/on-demand"}},
		{"unknown offer in file", []string{"watch", "-f", unknown}, 3, []string{"unknown.yaml: line 4", "did you mean"}},
		{"unknown field", []string{"watch", "-f", typo}, 3, []string{"typo.yaml: line 3: field belw not found"}},
		{"rule without threshold", []string{"watch", "-f", nothing}, 3, []string{"nothing.yaml: line 2", "set below, above or both"}},
		{"missing file", []string{"watch", "-f", filepath.Join(dir, "none.yaml")}, 2, []string{"rules file"}},
		{"webhook fails", []string{"watch", "--offer", "aws/p5.48xlarge/us-east-1/on-demand", "--below", "60", "--webhook", srv.URL}, 1, []string{"HTTP 500", "1 webhook POST(s) failed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := exec(t, false, nil, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tt.code, errOut)
			}
			for _, s := range tt.stderr {
				if !strings.Contains(errOut, s) {
					t.Errorf("stderr does not contain %q:\n%s", s, errOut)
				}
			}
		})
	}
}

// TestUpdateRunsWatch checks `catalog update --watch rules.yaml`: the check
// runs after the update, on the prices it stored.
func TestUpdateRunsWatch(t *testing.T) {
	raw, _ := os.ReadFile(offerFile)
	lower := strings.Replace(string(raw), "55.0400000000", "49.5000000000", 1)
	adv, _ := os.ReadFile("../importer/aws/testdata/advisor.json")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/offers/v1.0/aws/AmazonEC2/current/region_index.json":
			w.Write([]byte(`{"regions":{"us-east-1":{"regionCode":"us-east-1","currentVersionUrl":"/offers/v1.0/aws/AmazonEC2/20261101/us-east-1/index.json"}}}`))
		case "/offers/v1.0/aws/AmazonEC2/20261101/us-east-1/index.json":
			w.Write([]byte(lower))
		case "/advisor.json":
			w.Write(adv)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	hook, hsrv := newHook(t)
	dir := t.TempDir()
	rules := writeFile(t, filepath.Join(dir, "rules.yaml"), "rules:\n  - offer: aws/p5.48xlarge/us-east-1/on-demand\n    below: 50\n    webhook: "+hsrv.URL+"\n")
	db := filepath.Join(dir, "g.db")
	env := map[string]string{"GPUSCOUT_AWS_PRICING_URL": srv.URL, "GPUSCOUT_AWS_SPOT_ADVISOR_URL": srv.URL + "/advisor.json"}
	// Before the update the test catalog's 55.04 USD/h holds: no alert.
	if out, _, _ := exec(t, false, nil, "watch", "-f", rules, "--db", db); strings.Contains(out, "ALERT") {
		t.Fatalf("alert before the update:\n%s", out)
	}
	out, errOut, code := exec(t, false, env, "catalog", "update", "--provider", "aws", "--region", "us-east-1", "--db", db, "--watch", rules)
	if code != 0 || !strings.Contains(out, "Imported aws as snapshot 1") || !strings.Contains(out, "ALERT aws/p5.48xlarge/us-east-1/on-demand costs 49.5 USD") {
		t.Fatalf("update --watch: exit %d\n%s%s", code, out, errOut)
	}
	if got := hook.received(); len(got) != 1 || got[0]["price"] != 49.5 {
		t.Errorf("webhook got %v", got)
	}
}
