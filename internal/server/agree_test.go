package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog/curated"
	"github.com/gpuscout/gpuscout/internal/cli"
)

// recTop is what the three faces must agree on: the first plan's offer,
// instance count, time and cost.
type recTop struct {
	Offer string
	Count int
	Hours float64
	Cost  float64
}

func topOf(t *testing.T, doc []byte) (recTop, bool) {
	t.Helper()
	var d struct {
		Plans []struct {
			Offer string `json:"offer"`
			Count int    `json:"count"`
			Time  *struct {
				Hours float64 `json:"hours"`
			} `json:"time"`
			Cost struct {
				Total float64 `json:"total"`
			} `json:"cost"`
		} `json:"plans"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatalf("%v: %.300s", err, doc)
	}
	if len(d.Plans) == 0 {
		return recTop{}, false
	}
	p := d.Plans[0]
	top := recTop{Offer: p.Offer, Count: p.Count, Cost: p.Cost.Total}
	if p.Time != nil {
		top.Hours = p.Time.Hours
	}
	return top, true
}

var (
	jobArea  = regexp.MustCompile(`(?s)<textarea id="job" name="job"[^>]*>(.*?)</textarea>`)
	firstWeb = regexp.MustCompile(`(?s)<li class="plan card" data-plan="([^"]+)">\s*<h3>#1 (\d+)×`)
)

// FuzzFacesAgree: the web advisor's common-jobs form, the API and the CLI
// answer the same job with the same top plan, time and cost. The form
// writes the job file (shown under it); the API is sent that file and the
// CLI reads it with -f -o json.
func FuzzFacesAgree(f *testing.F) {
	for _, s := range []struct {
		kind      uint8
		a, b      float64
		gpu, prio uint8
	}{
		{0, 7, 100, 0, 0}, {1, 8, 2, 1, 1}, {2, 8, 500, 0, 2}, {3, 100, 0, 2, 1}, {0, 70, 1000, 3, 2}, {3, 0.5, 0, 4, 1},
	} {
		f.Add(s.kind, s.a, s.b, s.gpu, s.prio)
	}
	srv := newServer(f)
	f.Fuzz(func(t *testing.T, kind uint8, a, b float64, gpu, prio uint8) {
		if !(a > 0 && a <= 1000) || !(b >= 0 && b <= 1e4) {
			t.Skip()
		}
		gpus := []string{"", "H100", "A100", "L40S", "T4"}
		q := url.Values{"form": {"1"}, "priority": {[]string{"balanced", "cost", "time"}[prio%3]}}
		switch kind % 4 {
		case 0, 1:
			q.Set("kind", []string{"train", "finetune"}[kind%4])
			q.Set("size_b", fmt.Sprintf("%g", math.Round(a)+1))
			q.Set("tokens_b", fmt.Sprintf("%g", math.Round(b)+1))
		case 2:
			q.Set("kind", "serve")
			q.Set("size_b", fmt.Sprintf("%g", math.Round(a)+1))
			q.Set("tps", fmt.Sprintf("%g", math.Round(b)+10))
		case 3:
			q.Set("kind", "gpuhours")
			q.Set("gpu_hours", fmt.Sprintf("%g", a))
			if gpus[gpu%5] == "" {
				gpu = 4
			}
		}
		if g := gpus[gpu%5]; g != "" {
			q.Set("gpu_model", g)
		}
		page := get(t, srv, "/advisor?"+q.Encode())
		m := jobArea.FindSubmatch(page.Body.Bytes())
		if page.Code != 200 || m == nil {
			t.Skipf("form %v: status %d, no job written", q, page.Code)
		}
		job := html.UnescapeString(string(m[1]))

		api := post(srv, "/api/v1/recommend", "application/yaml", job)
		apiTop, apiOK := topOf(t, api.Body.Bytes())

		file := filepath.Join(t.TempDir(), "job.yaml")
		if err := os.WriteFile(file, []byte(job), 0o644); err != nil {
			t.Fatal(err)
		}
		var out, errOut bytes.Buffer
		code := cli.Main(context.Background(), []string{"recommend", "-f", file, "-o", "json"},
			cli.IO{In: strings.NewReader(""), Out: &out, Err: &errOut},
			cli.Env{Getenv: func(string) string { return "" }, Now: func() time.Time { return now }, IsTTY: func() bool { return false }, Catalog: curated.Embedded()})
		if (code == 0) != (api.Code == 200) {
			t.Fatalf("job %q: CLI exit %d (%s), API status %d", job, code, errOut.String(), api.Code)
		}
		if code != 0 {
			return // both refuse
		}
		cliTop, cliOK := topOf(t, out.Bytes())
		if cliOK != apiOK || cliTop.Offer != apiTop.Offer || cliTop.Count != apiTop.Count ||
			math.Abs(cliTop.Hours-apiTop.Hours) > 1e-9*math.Max(1, apiTop.Hours) || math.Abs(cliTop.Cost-apiTop.Cost) > 1e-6*math.Max(1, apiTop.Cost) {
			t.Errorf("job %q: CLI top %+v, API top %+v", job, cliTop, apiTop)
		}
		t.Logf("%s: top %+v", q.Get("kind"), apiTop)
		w := firstWeb.FindSubmatch(page.Body.Bytes())
		if apiOK != (w != nil) {
			t.Fatalf("job %q: API has a plan %v, page shows one %v", job, apiOK, w != nil)
		}
		if w != nil && (string(w[1]) != apiTop.Offer || string(w[2]) != fmt.Sprint(apiTop.Count)) {
			t.Errorf("job %q: page's first plan %s × %s, API's %s × %d", job, w[2], w[1], apiTop.Offer, apiTop.Count)
		}
	})
}
