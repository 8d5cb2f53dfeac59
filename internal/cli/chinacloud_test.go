package cli_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
)

// huaweiServer answers IAM, ECS and BSS as Huawei Cloud does (the shapes
// of internal/importer/huawei's tests; prices illustrative): every region
// has a project, sells the GPU flavors p2s.2xlarge.8 and pi2.2xlarge.4
// and an unknown one, and BSS prices them. In ap-southeast-2 ECS declines
// the flavor list.
func huaweiServer(t *testing.T, calls *atomic.Int32) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if !strings.HasPrefix(r.Header.Get("Authorization"), "SDK-HMAC-SHA256 Access=AKEXAMPLE, SignedHeaders=") {
			t.Errorf("authorization %q", r.Header.Get("Authorization"))
		}
		body, _ := io.ReadAll(r.Body)
		switch {
		case r.URL.Path == "/v3/projects":
			n := r.URL.Query().Get("name")
			fmt.Fprintf(w, `{"projects":[{"id":"p-%s","name":"%s"}]}`, n, n)
		case r.URL.Path == "/v1/p-ap-southeast-2/cloudservers/flavors":
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"error":{"message":"The region is not supported.","code":"Ecs.0005"}}`)
		case strings.HasSuffix(r.URL.Path, "/cloudservers/flavors"):
			fmt.Fprint(w, `{"flavors":[{"id":"p2s.2xlarge.8","name":"p2s.2xlarge.8","vcpus":"8","ram":65536,"os_extra_specs":{"ecs:performancetype":"gpu","cond:operation:status":"normal"}},`+
				`{"id":"pi2.2xlarge.4","name":"pi2.2xlarge.4","vcpus":"8","ram":32768,"os_extra_specs":{"ecs:performancetype":"gpu","cond:operation:status":"normal"}},`+
				`{"id":"pi9.2xlarge.4","name":"pi9.2xlarge.4","vcpus":"8","ram":32768,"os_extra_specs":{"ecs:performancetype":"gpu"}},`+
				`{"id":"s6.large.2","name":"s6.large.2","vcpus":"2","ram":4096,"os_extra_specs":{"ecs:performancetype":"normal"}}]}`)
		case strings.HasPrefix(r.URL.Path, "/v2/bills/ratings/"):
			var req struct {
				ProductInfos []struct {
					Spec       string `json:"resource_spec"`
					PeriodType int    `json:"period_type"`
				} `json:"product_infos"`
			}
			if err := json.Unmarshal(body, &req); err != nil || len(req.ProductInfos) != 1 {
				t.Errorf("body %s", body)
				return
			}
			hourly := map[string]string{"p2s.2xlarge.8.linux": "17.22", "pi2.2xlarge.4.linux": "8.93"}[req.ProductInfos[0].Spec]
			switch req.ProductInfos[0].PeriodType {
			case 0:
				fmt.Fprintf(w, `{"currency":"CNY","amount":%s,"official_website_amount":%s,"measure_id":1,"product_rating_results":[{"id":"1","official_website_amount":%s,"measure_id":1}]}`, hourly, hourly, hourly)
			case 2:
				fmt.Fprint(w, `{"currency":"CNY","official_website_rating_result":{"official_website_amount":6000,"measure_id":1}}`)
			case 3:
				fmt.Fprint(w, `{"currency":"CNY","official_website_rating_result":{"official_website_amount":61200,"measure_id":1}}`)
			}
		default:
			t.Errorf("unexpected %s", r.URL)
			w.WriteHeader(http.StatusNotFound)
		}
	}))
}

// TestUpdateHuawei: catalog update --provider huawei against a fake
// Huawei Cloud stores dated offers that offers --provider huawei lists in
// English and Chinese, and catalog stats counts.
func TestUpdateHuawei(t *testing.T) {
	var calls atomic.Int32
	srv := huaweiServer(t, &calls)
	defer srv.Close()
	db := filepath.Join(t.TempDir(), "g.db")
	env := map[string]string{"HUAWEICLOUD_SDK_AK": "AKEXAMPLE", "HUAWEICLOUD_SDK_SK": "sk-secret-value", "GPUSCOUT_HUAWEI_ENDPOINT": srv.URL}

	out, errOut, code := exec(t, true, env, "catalog", "update", "--provider", "huawei", "--dry-run", "--db", db)
	if code != 0 || calls.Load() != 0 || !strings.Contains(out, "dry run: 1 source(s) would be fetched") ||
		!strings.Contains(out, "/v3/projects?name=cn-north-4") || !strings.Contains(out, "ListRateOnPeriodDetail") {
		t.Fatalf("dry run: exit %d, %d calls\n%s%s", code, calls.Load(), out, errOut)
	}

	out, errOut, code = exec(t, true, env, "catalog", "update", "--provider", "huawei", "--db", db)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	// 6 regions answer: 2 flavors × 3 billing models each.
	for _, w := range []string{"36 offers", "GPU flavor not in the catalog", "API error Ecs.0005 (e.g. ap-southeast-2)"} {
		if !strings.Contains(out, w) {
			t.Errorf("no %q in\n%s", w, out)
		}
	}
	if strings.Contains(out+errOut, "sk-secret-value") {
		t.Error("the secret key was printed")
	}

	en, errOut, code := exec(t, true, env, "offers", "--provider", "huawei", "--region", "cn-north-4", "--currency", "CNY", "--db", db)
	if code != 0 {
		t.Fatalf("offers: %s", errOut)
	}
	for _, w := range []string{"p2s.2xlarge.8", "pi2.2xlarge.4", "on-demand", "subscription-1m", "subscription-1y", "17.220", "official-api", "2026-12-02"} {
		if !strings.Contains(en, w) {
			t.Errorf("offers: no %q in\n%s", w, en)
		}
	}
	zh, errOut, code := exec(t, true, map[string]string{"LANG": "zh_CN.UTF-8"}, "offers", "--provider", "huawei", "--region", "cn-north-4", "--db", db)
	if code != 0 {
		t.Fatalf("offers zh: %s", errOut)
	}
	for _, w := range []string{"p2s.2xlarge.8", "按量付费", "包月", "包年", "官方 API", "17.220"} {
		if !strings.Contains(zh, w) {
			t.Errorf("offers zh: no %q in\n%s", w, zh)
		}
	}
	var doc struct {
		Offers []struct {
			ID     string `json:"id"`
			Source struct {
				Kind  string `json:"kind"`
				AsOf  string `json:"as_of"`
				Fetch string `json:"fetched_at"`
			} `json:"source"`
		} `json:"offers"`
	}
	js, _, _ := exec(t, true, nil, "offers", "--provider", "huawei", "--db", db, "-o", "json", "--limit", "100")
	if err := json.Unmarshal([]byte(js), &doc); err != nil || len(doc.Offers) != 36 {
		t.Fatalf("json: %v, %d offers\n%.400s", err, len(doc.Offers), js)
	}
	for _, o := range doc.Offers {
		if o.Source.Kind != "official-api" || o.Source.AsOf == "" {
			t.Errorf("%s: source %+v", o.ID, o.Source)
		}
	}
	stats, _, _ := exec(t, true, nil, "catalog", "stats", "--db", db)
	if !regexp.MustCompile(`(?m)^huawei +7 +6 +36 .*on-demand, subscription-1m, subscription-1y$`).MatchString(stats) {
		t.Errorf("stats: huawei not priced:\n%s", stats)
	}
	// The advisor weighs the imported 包年/包月 prices: at 90% utilisation for a
	// year, 包年 ranks first.
	rec, errOut, code := exec(t, true, nil, "recommend", "--cluster-gpus", "1", "--gpu", "V100", "--horizon-months", "12", "--utilization", "0.9", "--provider", "huawei", "--db", db)
	if code != 0 || !regexp.MustCompile(`(?m)^1 +huawei 1× p2s\.2xlarge\.8 .* subscription-1y `).MatchString(rec) || !strings.Contains(rec, "on-demand would be cheaper than this commitment") {
		t.Errorf("recommend: exit %d\n%s%s", code, rec, errOut)
	}
	recZH, _, _ := exec(t, true, map[string]string{"LANG": "zh_CN.UTF-8"}, "recommend", "--cluster-gpus", "1", "--gpu", "V100", "--horizon-months", "12", "--utilization", "0.9", "--provider", "huawei", "--db", db)
	if !regexp.MustCompile(`(?m)^1 +huawei 1× p2s\.2xlarge\.8 .* 包年 `).MatchString(recZH) {
		t.Errorf("recommend zh:\n%s", recZH)
	}
	if !strings.Contains(stats, "huawei publishes no public price file") || !strings.Contains(stats, "HUAWEICLOUD_SDK_AK=… HUAWEICLOUD_SDK_SK=… gpuscout catalog update --provider huawei") {
		t.Errorf("stats:\n%s", stats)
	}
}

// A refused key stops the Huawei update at once with Huawei's message and
// stores nothing; missing credentials are a usage error.
func TestUpdateHuaweiRefused(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprint(w, `{"error_msg":"Incorrect IAM authentication information: verify aksk signature fail","error_code":"APIG.0301","request_id":"r"}`)
	}))
	defer srv.Close()
	db := filepath.Join(t.TempDir(), "g.db")
	env := map[string]string{"HUAWEICLOUD_SDK_AK": "AKEXAMPLE", "HUAWEICLOUD_SDK_SK": "sk-secret-value", "GPUSCOUT_HUAWEI_ENDPOINT": srv.URL, "LANG": "zh_CN.UTF-8"}
	out, errOut, code := exec(t, true, env, "catalog", "update", "--provider", "huawei", "--db", db)
	if code == 0 || calls.Load() != 1 || !strings.Contains(errOut, "APIG.0301") || !strings.Contains(errOut, "verify aksk signature fail") || strings.Contains(out+errOut, "sk-secret-value") {
		t.Errorf("exit %d after %d calls:\n%s%s", code, calls.Load(), out, errOut)
	}
	_, errOut, code = exec(t, true, nil, "catalog", "update", "--provider", "huawei", "--db", db)
	if code != 2 || !strings.Contains(errOut, "HUAWEICLOUD_SDK_AK") {
		t.Errorf("no credentials: exit %d\n%s", code, errOut)
	}
}

// TestUpdateBaidu: catalog update --provider baidu against a fake BCC API
// stores 包月 and 包年 offers of the catalog's A100 spec that offers lists
// in English and Chinese.
func TestUpdateBaidu(t *testing.T) {
	const spec = "bcc.hgn5IB.c116m978.8A100-80g"
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if !strings.HasPrefix(r.Header.Get("Authorization"), "bce-auth-v1/AKEXAMPLE/") {
			t.Errorf("authorization %q", r.Header.Get("Authorization"))
		}
		region, path, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		switch {
		case region == "sin":
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"code":"Instance.NotSupportInstanceTypeException","message":"not support the instance type.","requestId":"q"}`)
		case path == "v2/instance/flavorSpec":
			fmt.Fprintf(w, `{"zoneResources":[{"zoneName":"cn-%s-a","bccResources":{"flavorGroups":[{"groupId":"gpuHGN5","flavors":[{"specId":"hgn5IB","gpuCardType":"A100-80g","gpuCardCount":8,"spec":"%s"}]}]}}]}`, region, spec)
		case path == "v2/instance/price":
			var body struct {
				Length int `json:"purchaseLength"`
			}
			b, _ := io.ReadAll(r.Body)
			_ = json.Unmarshal(b, &body)
			price := map[int]string{1: "98000", 12: "999600"}[body.Length]
			fmt.Fprintf(w, `{"price":[{"specId":"hgn5IB","specPrices":[{"spec":"%s","status":"available","specPrice":"%s"}]}]}`, spec, price)
		default:
			t.Errorf("unexpected %s", r.URL)
		}
	}))
	defer srv.Close()
	db := filepath.Join(t.TempDir(), "g.db")
	env := map[string]string{"BCE_ACCESS_KEY_ID": "AKEXAMPLE", "BCE_SECRET_ACCESS_KEY": "bce-secret-value", "GPUSCOUT_BAIDU_ENDPOINT": srv.URL + "/{region}"}
	zhPlan, _, code := exec(t, true, map[string]string{"LANG": "zh_CN.UTF-8"}, "catalog", "update", "--provider", "baidu,alibaba", "--dry-run", "--db", db)
	if code != 0 || calls.Load() != 0 || !strings.Contains(zhPlan, "演练：将获取 2 个来源；不发送任何请求") || !strings.Contains(zhPlan, "/v2/instance/price") ||
		!strings.Contains(zhPlan, "DescribePrice PriceUnit=Year") {
		t.Errorf("dry run zh: exit %d\n%s", code, zhPlan)
	}
	out, errOut, code := exec(t, true, env, "catalog", "update", "--provider", "baidu", "--db", db)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	// 7 regions, one declines: 6 × 2 offers.
	if !strings.Contains(out, "12 offers") || !strings.Contains(out, "API error Instance.NotSupportInstanceTypeException (e.g. sin)") || strings.Contains(out+errOut, "bce-secret-value") {
		t.Errorf("update:\n%s%s", out, errOut)
	}
	en, _, _ := exec(t, true, nil, "offers", "--provider", "baidu", "--region", "bj", "--currency", "CNY", "--db", db)
	zh, _, _ := exec(t, true, map[string]string{"LANG": "zh_CN.UTF-8"}, "offers", "--provider", "baidu", "--region", "bj", "--db", db)
	for _, w := range []string{spec, "subscription-1m", "subscription-1y", "8× A100-SXM4-80GB", "official-api"} {
		if !strings.Contains(en, w) {
			t.Errorf("offers: no %q in\n%s", w, en)
		}
	}
	for _, w := range []string{spec, "包月", "包年", "官方 API"} {
		if !strings.Contains(zh, w) {
			t.Errorf("offers zh: no %q in\n%s", w, zh)
		}
	}
}

// An imported Alibaba 包年 price is weighed by tco against 按量付费: the
// break-even utilisation is named in both languages.
func TestTCOWeighsImportedAlibabaSubscription(t *testing.T) {
	db := filepath.Join(t.TempDir(), "g.db")
	if _, errOut, code := exec(t, true, nil, "catalog", "import", "alibaba", "--file", "../importer/alibaba/testdata/bundle.json", "--db", db); code != 0 {
		t.Fatal(errOut)
	}
	args := []string{"tco", "--months", "24", "--offer", "alibaba/ecs.gn7i-c8g1.2xlarge/cn-hangzhou/on-demand",
		"--offer", "alibaba/ecs.gn7i-c8g1.2xlarge/cn-hangzhou/subscription-1y", "--db", db}
	en, errOut, code := exec(t, true, nil, args...)
	if code != 0 || !strings.Contains(en, "Cheapest over 24 months: alibaba/ecs.gn7i-c8g1.2xlarge/cn-hangzhou/subscription-1y") ||
		!strings.Contains(en, "subscription-1y beats on-demand for ecs.gn7i-c8g1.2xlarge in cn-hangzhou above 60.4% utilisation") {
		t.Errorf("exit %d\n%s%s", code, en, errOut)
	}
	zh, _, _ := exec(t, true, map[string]string{"LANG": "zh_CN.UTF-8"}, args...)
	if !strings.Contains(zh, "的包年在利用率高于 60.4% 时比按量付费便宜") {
		t.Errorf("zh:\n%s", zh)
	}
}
