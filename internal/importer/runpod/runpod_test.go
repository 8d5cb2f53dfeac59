package runpod

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/golden"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/gpuscout/gpuscout/internal/importer/httpapi"
	"github.com/gpuscout/gpuscout/internal/importer/importertest"
)

var seen = time.Date(2026, 12, 6, 5, 0, 0, 0, time.UTC)

const key = "rpa_secret_runpod_key_0123456789"

func render(res *importer.Result) string {
	var lines []string
	for _, o := range res.Offers {
		st := "no reading"
		if o.Stock != nil {
			st = string(o.Stock.State) + " seen " + o.Stock.Seen.Format(time.RFC3339)
		}
		lines = append(lines, fmt.Sprintf("offer %s %s %s; %s", o.ID(), o.Price.Hourly.String(), o.Price.Currency, st))
	}
	sort.Strings(lines)
	var inst []string
	for _, it := range res.Instances {
		inst = append(inst, fmt.Sprintf("instance %s: %s× %s (%s GB)", it.ID(), it.GPUCount, it.GPUName, it.GPUMemoryGiB))
	}
	sort.Strings(inst)
	lines = append(lines, inst...)
	for _, l := range res.Skipped.Lines() {
		lines = append(lines, "skipped "+l)
	}
	return strings.Join(lines, "\n") + "\n"
}

func assertGolden(t *testing.T, dir, got string) {
	t.Helper()
	path := filepath.Join("testdata", dir, "golden.txt")
	golden.Assert(t, path, got)
}

// TestRecordedAnswer: Secure Cloud types priced per GPU times 1, 2, 4 and
// 8 GPUs (up to maxGpuCount) in the any-data-centre row, spot beside
// them, the one-GPU offer with its stock reading (High: available, Low:
// low, null: none), Community Cloud in its own row, and entries without a
// usable name or price skipped and counted.
func TestRecordedAnswer(t *testing.T) {
	b, err := os.ReadFile("testdata/stock/answer.json")
	if err != nil {
		t.Fatal(err)
	}
	res, err := (&Importer{AnyRegion: "ANY", CommunityRegion: "COMMUNITY", Seen: seen}).Parse(context.Background(), bytes.NewReader(b), nil)
	if err != nil {
		t.Fatal(err)
	}
	assertGolden(t, "stock", render(res))
	// Without a community row, Community Cloud prices are counted as
	// skipped, not put in the Secure Cloud row.
	res, err = (&Importer{Seen: seen}).Parse(context.Background(), bytes.NewReader(b), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range res.Offers {
		if strings.Contains(o.InstanceName, "COMMUNITY") {
			t.Errorf("community offer %s without a community region", o.ID())
		}
	}
	if !strings.Contains(strings.Join(res.Skipped.Lines(), "\n"), "Community Cloud price") {
		t.Errorf("community prices not counted as skipped: %v", res.Skipped.Lines())
	}
}

// TestRequestAndFieldsMatchOfficialClient: the request is what RunPod's
// Python client sends (endpoint, method, headers, a {"query"} body), and
// the query selects only GpuType fields the client selects, plus
// lowestPrice's stockStatus.
func TestRequestAndFieldsMatchOfficialClient(t *testing.T) {
	var oc struct {
		URL, Method   string
		Headers       map[string]string
		BodyKeys      []string `json:"body_keys"`
		GPUTypeFields []string `json:"gpu_type_fields"`
	}
	b, err := os.ReadFile("testdata/official-client.json")
	if err != nil || json.Unmarshal(b, &oc) != nil {
		t.Fatalf("official client notes: %v", err)
	}
	s := &httpapi.Stub{}
	answer, _ := os.ReadFile("testdata/stock/answer.json")
	s.Reply("POST", Path, 200, answer)
	if _, err := (&Importer{APIKey: key, Now: func() time.Time { return seen }}).Fetch(context.Background(), s.Client(), nil); err != nil {
		t.Fatal(err)
	}
	if u := s.Unused(); len(u) > 0 {
		t.Errorf("stubs never used: %v", u)
	}
	req := s.Requests[0]
	if req.Method != oc.Method || req.URL.String() != oc.URL {
		t.Errorf("request %s %s, the client sends %s %s", req.Method, req.URL, oc.Method, oc.URL)
	}
	for h, v := range oc.Headers {
		if want := strings.ReplaceAll(v, "{api_key}", key); req.Header.Get(h) != want {
			t.Errorf("header %s = %q, want %q", h, req.Header.Get(h), want)
		}
	}
	var body map[string]string
	if err := json.Unmarshal(req.Body, &body); err != nil || len(body) != len(oc.BodyKeys) || body[oc.BodyKeys[0]] != Query {
		t.Errorf("body %s", req.Body)
	}
	known := map[string]bool{}
	for _, f := range oc.GPUTypeFields {
		known[f] = true
	}
	inner := Query[strings.Index(Query, "gpuTypes {")+len("gpuTypes {"):]
	inner = regexp.MustCompile(`\([^)]*\)`).ReplaceAllString(inner, "")
	inner = regexp.MustCompile(`\{[^{}]*\}`).ReplaceAllString(inner, "")
	for _, f := range strings.Fields(strings.Trim(inner, "{} ")) {
		if f == "}" {
			continue
		}
		if !known[f] {
			t.Errorf("the query selects %q, which the official client does not", f)
		}
	}
	if !strings.Contains(Query, "lowestPrice(input: {gpuCount: 1") || !strings.Contains(Query, "stockStatus") {
		t.Errorf("query lacks the one-GPU stock status: %s", Query)
	}
}

// A refused key, and a GraphQL error sent with HTTP 200, stop the import
// with RunPod's message; the key is never in the error.
func TestErrors(t *testing.T) {
	for _, c := range []struct {
		dir    string
		status int
		fatal  bool
	}{{"refused", 401, true}, {"graphql-error", 200, false}} {
		s := &httpapi.Stub{}
		b, _ := os.ReadFile(filepath.Join("testdata", c.dir, "answer.json"))
		s.Reply("POST", Path, c.status, bytes.Replace(b, []byte(`"message":"`), []byte(`"message":"`+key+` `), 1))
		_, err := (&Importer{APIKey: key, Now: func() time.Time { return seen }}).Fetch(context.Background(), s.Client(), nil)
		var ae *importer.APIError
		if !errors.As(err, &ae) || ae.Fatal() != c.fatal || len(s.Requests) != 1 {
			t.Errorf("%s: err %v (fatal %v) after %d requests", c.dir, err, ae != nil && ae.Fatal(), len(s.Requests))
			continue
		}
		if strings.Contains(err.Error(), key) {
			t.Errorf("%s: key in the error: %v", c.dir, err)
		}
	}
	if _, err := (&Importer{}).Fetch(context.Background(), nil, nil); err == nil || !strings.Contains(err.Error(), EnvAPIKey) {
		t.Errorf("no key: %v", err)
	}
}

func TestNotAnAnswer(t *testing.T) {
	for _, body := range []string{``, `[]`, `{}`, `{"data": null}`, `{"data": {}}`, `{"data": {"gpuTypes": []}} x`} {
		if _, err := (&Importer{Seen: seen}).Parse(context.Background(), strings.NewReader(body), nil); err == nil {
			t.Errorf("%q parsed", body)
		}
	}
}

// FuzzParse: any bytes give offers or an error, never a panic; every
// offer has a positive USD price no more than 8 GPUs × 1,000 USD.
func FuzzParse(f *testing.F) {
	for _, dir := range []string{"stock", "refused", "graphql-error"} {
		b, _ := os.ReadFile(filepath.Join("testdata", dir, "answer.json"))
		for _, s := range importertest.Seeds(b, "") {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		res, err := parse(b, "ANY", "COMMUNITY", seen, seen, DefaultBase+Path)
		if err != nil {
			return
		}
		for _, o := range res.Offers {
			if !o.Price.Hourly.IsPositive() || o.Price.Hourly.GreaterThan(maxPerGPU.Mul(maxPerGPU)) || o.Price.Currency != "USD" {
				t.Fatalf("offer %s %s", o.ID(), o.Price.Hourly)
			}
		}
	})
}
