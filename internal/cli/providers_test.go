package cli_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProvidersListsNewClouds checks that `providers` lists the GPU clouds
// and Chinese clouds added to the catalog, in both languages, that
// --provider limits the columns, and that `catalog stats` counts at least 15
// providers.
func TestProvidersListsNewClouds(t *testing.T) {
	clouds := []string{"runpod", "nebius", "coreweave", "vast", "hyperstack", "verda", "digitalocean", "crusoe", "huawei", "volcengine", "baidu"}
	out, errOut, code := exec(t, true, nil, "providers", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Facts []struct {
			Provider string `json:"provider"`
			Category string `json:"category"`
			Value    string `json:"value"`
			ValueZH  string `json:"value_zh"`
		} `json:"facts"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	has := map[string]bool{}
	for _, f := range doc.Facts {
		has[f.Provider] = true
	}
	for _, p := range clouds {
		if !has[p] {
			t.Errorf("providers -o json has no facts for %s", p)
		}
	}

	// All 18 providers: one row per provider and category, not 18 columns.
	out, errOut, code = exec(t, true, nil, "providers")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if h := strings.Fields(strings.SplitN(out, "\n", 2)[0]); len(h) != 3 || h[0] != "PROVIDER" {
		t.Errorf("header %v, want PROVIDER, category, VALUE", h)
	}
	for _, p := range clouds {
		if !strings.Contains(out, "\n"+p+" ") {
			t.Errorf("providers table has no row for %s", p)
		}
	}
	marketRow := false
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 2 && f[0] == "vast" && strings.Contains(line, " GPU marketplace ") && strings.Contains(line, "No platform-wide SLA") {
			marketRow = true
		}
	}
	if !marketRow {
		t.Errorf("no vast marketplace row saying there is no SLA:\n%s", out)
	}
	out, _, code = exec(t, true, nil, "providers", "--matrix")
	if h := strings.Fields(strings.SplitN(out, "\n", 2)[0]); code != 0 || len(h) != 19 {
		t.Errorf("--matrix header has %d fields (exit %d), want the category and 18 providers", len(h), code)
	}

	out, errOut, code = exec(t, true, nil, "providers", "--provider", "vast,huawei,baidu,volcengine")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	header := strings.Fields(strings.SplitN(out, "\n", 2)[0])
	if strings.Join(header[1:], " ") != "baidu huawei vast volcengine" {
		t.Errorf("columns %v, want only baidu huawei vast volcengine (catalog order)", header)
	}
	if !strings.Contains(out, "marketplace") || !strings.Contains(out, "Marketplace: hosts") {
		t.Errorf("vast's marketplace fact missing:\n%s", out)
	}

	out, _, code = exec(t, true, nil, "providers", "--provider", "vast", "--category", "marketplace", "--lang", "zh")
	if code != 0 || !strings.Contains(out, "GPU 租赁市场") || !strings.Contains(out, "无平台级 SLA") {
		t.Errorf("Chinese marketplace facts missing (exit %d):\n%s", code, out)
	}

	_, errOut, code = exec(t, true, nil, "providers", "--provider", "nosuchcloud")
	if code != 2 || errOut == "" {
		t.Errorf("unknown provider: exit %d, stderr %q; want a usage error", code, errOut)
	}

	out, _, code = exec(t, true, nil, "catalog", "stats", "-o", "json")
	var stats struct {
		Providers int `json:"providers"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &stats) != nil || stats.Providers < 15 {
		t.Errorf("catalog stats: %d providers (exit %d), want at least 15", stats.Providers, code)
	}
	out, _, _ = exec(t, true, nil, "catalog", "stats")
	for _, p := range clouds {
		if !strings.Contains(out, "\n"+p+" ") {
			t.Errorf("catalog stats table has no row for %s", p)
		}
	}
}

// TestOffersMarkMarketplace checks that offers from a marketplace carry a
// note, in English and Chinese, that prices are hosts' asking prices with no
// SLA, and that other providers' offers do not.
func TestOffersMarkMarketplace(t *testing.T) {
	out, errOut, code := exec(t, true, nil, "offers", "--provider", "vast", "--limit", "5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "vast: a marketplace") || !strings.Contains(out, "no SLA") {
		t.Errorf("English marketplace note missing:\n%s", out)
	}
	out, _, code = exec(t, true, nil, "offers", "--provider", "vast", "--limit", "5", "--lang", "zh")
	if code != 0 || !strings.Contains(out, "vast 为 GPU 租赁市场") || !strings.Contains(out, "无服务等级协议") {
		t.Errorf("Chinese marketplace note missing (exit %d):\n%s", code, out)
	}
	out, _, code = exec(t, true, nil, "offers", "--provider", "nebius", "--limit", "5")
	if code != 0 || strings.Contains(out, "marketplace") {
		t.Errorf("nebius offers must not carry the marketplace note (exit %d):\n%s", code, out)
	}
	// JSON: "marketplace": true on Vast.ai offers only.
	out, _, code = exec(t, true, nil, "offers", "--provider", "vast,nebius", "--limit", "0", "-o", "json")
	var doc struct {
		Offers []struct {
			Provider    string `json:"provider"`
			Marketplace *bool  `json:"marketplace"`
		} `json:"offers"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || len(doc.Offers) == 0 {
		t.Fatalf("offers -o json: exit %d\n%s", code, out)
	}
	for _, o := range doc.Offers {
		if (o.Provider == "vast") != (o.Marketplace != nil && *o.Marketplace) {
			t.Errorf("%s offer: marketplace %v", o.Provider, o.Marketplace)
		}
	}
}

// TestOffersSayNoPublicPrice checks that asking for the offers of a
// provider with instance types but no sourced price says so, in English and
// Chinese, instead of only "no offers match".
func TestOffersSayNoPublicPrice(t *testing.T) {
	out, _, code := exec(t, true, nil, "offers", "--provider", "huawei")
	if code != 0 || !strings.Contains(out, "huawei has 6 instance type(s) in the catalog but no public price") {
		t.Errorf("exit %d, want the no-public-price note for huawei:\n%s", code, out)
	}
	out, _, code = exec(t, true, nil, "offers", "--provider", "baidu", "--lang", "zh")
	if code != 0 || !strings.Contains(out, "baidu 在目录中有 1 个实例规格，但未能找到公开价格") {
		t.Errorf("exit %d, want the Chinese no-public-price note:\n%s", code, out)
	}
	out, _, _ = exec(t, true, nil, "offers", "--provider", "aws", "--gpu", "MI300X")
	if strings.Contains(out, "no public price") {
		t.Errorf("aws has prices; the note must not appear:\n%s", out)
	}
}

// TestUpdateAddedCloudFromSkyPilot checks that `catalog update --provider
// nebius` reads SkyPilot's v8 nebius/vms.csv (here a test server), stores it
// as a snapshot, and that offers then show the imported price.
func TestUpdateAddedCloudFromSkyPilot(t *testing.T) {
	raw, err := os.ReadFile("testdata/skypilot/v8-nebius-vms.csv")
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.URL.Path)
		if r.URL.Path == "/catalogs/v8/nebius/vms.csv" {
			w.Write(raw)
			return
		}
		http.NotFound(w, r)
	}))
	defer srv.Close()
	db := filepath.Join(t.TempDir(), "g.db")
	env := map[string]string{"GPUSCOUT_SKYPILOT_URL": srv.URL}
	out, errOut, code := exec(t, true, env, "catalog", "update", "--provider", "nebius", "--db", db)
	if code != 0 || !strings.Contains(out, "Imported skypilot") {
		t.Fatalf("update: exit %d (paths %v)\n%s%s", code, paths, out, errOut)
	}
	out, errOut, code = exec(t, true, env, "offers", "--provider", "nebius", "--gpu", "H100", "--min-gpus", "8", "--region", "eu-north1", "--db", db, "-o", "json")
	if code != 0 {
		t.Fatalf("offers: exit %d %s", code, errOut)
	}
	var doc struct {
		Offers []struct {
			ID     string `json:"id"`
			Source struct {
				Ref string `json:"ref"`
			} `json:"source"`
			Price struct {
				Hourly json.Number `json:"hourly"`
			} `json:"price"`
		} `json:"offers"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, o := range doc.Offers {
		got[o.ID] = o.Price.Hourly.String() + " " + o.Source.Ref
	}
	od := got["nebius/gpu-h100-sxm_8gpu-128vcpu-1600gb/eu-north1/on-demand"]
	sp := got["nebius/gpu-h100-sxm_8gpu-128vcpu-1600gb/eu-north1/spot"]
	if !strings.HasPrefix(od, "22 ") || !strings.Contains(od, "skypilot-catalog") || !strings.HasPrefix(sp, "9.5 ") {
		t.Errorf("imported offers not used: on-demand %q, spot %q (all %v)", od, sp, got)
	}
	// RunPod is not refreshed from SkyPilot's file (other region codes)
	// but from its own API, which needs its key.
	if _, errOut, code := exec(t, true, env, "catalog", "update", "--provider", "runpod", "--db", db); code != 2 || !strings.Contains(errOut, "RUNPOD_API_KEY") {
		t.Errorf("runpod: exit %d %s; want a usage error naming RUNPOD_API_KEY", code, errOut)
	}
}
