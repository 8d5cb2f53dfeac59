package cli_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog/curated"
	"github.com/gpuscout/gpuscout/internal/cli"
	"github.com/gpuscout/gpuscout/internal/server"
)

// goodImports are the well-formed samples of every source, imported first.
var goodImports = [][]string{
	{"aws", "--file", "../importer/aws/testdata/offer-small.json"},
	{"aws-savings-plans", "--file", "../importer/aws/testdata/savings.csv"},
	{"aws-spot-history", "--file", "../importer/aws/testdata/spot-history.json"},
	{"aws-spot-advisor", "--file", "../importer/aws/testdata/advisor.json"},
	{"azure", "--file", "../importer/azure/testdata/page1.json"},
	{"gcp", "--file", "../importer/gcp/testdata/skus-page1.json"},
	{"alibaba", "--file", "../importer/alibaba/testdata/bundle.json"},
	{"tencent", "--file", "../importer/tencent/testdata/bundle.json"},
	{"huawei", "--file", "../importer/huawei/testdata/bundle.json"},
	{"baidu", "--file", "../importer/baidu/testdata/bundle.json"},
	{"skypilot", "--cloud", "lambda", "--file", "../importer/skypilot/testdata/lambda-crlf.csv"},
}

// prices is every offer's price as a read answers it: ID → effective
// hourly price and currency.
func prices(t *testing.T, doc []byte) map[string]string {
	t.Helper()
	var d struct {
		Offers []struct {
			ID    string `json:"id"`
			Price struct {
				Effective json.Number `json:"effective_hourly"`
				Currency  string      `json:"currency"`
			} `json:"price"`
		} `json:"offers"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatalf("offers: %v\n%.300s", err, doc)
	}
	out := map[string]string{}
	for _, o := range d.Offers {
		out[o.ID] = o.Price.Effective.String() + " " + o.Price.Currency
	}
	return out
}

// reads answers offers, /offers and /api/v1/offers from the database and
// returns the prices of the CLI and of the API.
func reads(t *testing.T, db string) (map[string]string, map[string]string) {
	t.Helper()
	out, errOut, code := exec(t, true, nil, "offers", "--db", db, "--limit", "0", "-o", "json")
	if code != 0 {
		t.Fatalf("offers: exit %d\n%s", code, errOut)
	}
	cliPrices := prices(t, []byte(out))
	env := cli.Env{Getenv: func(string) string { return "" }, Now: func() time.Time { return now }, Catalog: curated.Embedded()}
	srv, err := server.New(context.Background(), server.Config{Load: cli.ServerData(env, db, ""), Now: env.Now})
	if err != nil {
		t.Fatalf("server: %v", err)
	}
	for _, path := range []string{"/api/v1/offers?limit=0", "/offers"} {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != http.StatusOK {
			t.Fatalf("GET %s: %d\n%.300s", path, rec.Code, rec.Body.String())
		}
		if strings.HasPrefix(path, "/api/") {
			return cliPrices, prices(t, rec.Body.Bytes())
		}
	}
	return cliPrices, nil
}

func samePrices(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	var diff []string
	for id, p := range want {
		if got[id] != p {
			diff = append(diff, id+": "+p+" → "+got[id])
		}
	}
	for id, p := range got {
		if _, ok := want[id]; !ok {
			diff = append(diff, id+": new "+p)
		}
	}
	sort.Strings(diff)
	if len(diff) > 0 {
		t.Errorf("%s: %d prices changed, e.g. %v", what, len(diff), diff[:min(5, len(diff))])
	}
}

// located is what a refusal must say besides the file: where in it, or why.
var located = regexp.MustCompile(`record|line \d|byte \d|field|snapshot \d|skipped|requests`)

// TestMalformedFilesKeepThePreviousPrices imports every file of
// testdata/malformed over good imports of every source. Each file either
// imports (its name starts with ok-; it is then rolled back) or exits
// non-zero with a message naming the file and the record, line or field;
// after each, offers, /offers and /api/v1/offers answer with exactly the
// prices of the good imports.
func TestMalformedFilesKeepThePreviousPrices(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "g.db")
	for _, args := range goodImports {
		if out, errOut, code := exec(t, true, nil, append([]string{"catalog", "import"}, append(args, "--db", db)...)...); code != 0 {
			t.Fatalf("good import %v: exit %d\n%s%s", args, code, out, errOut)
		}
	}
	wantCLI, wantAPI := reads(t, db)
	if len(wantCLI) == 0 || len(wantAPI) == 0 {
		t.Fatal("no offers after the good imports")
	}
	if wantCLI["aws/p5.48xlarge/us-east-1/on-demand"] != "55.04 USD" {
		t.Fatalf("imported AWS price not in use: %q", wantCLI["aws/p5.48xlarge/us-east-1/on-demand"])
	}
	files, _ := filepath.Glob("testdata/malformed/*/*")
	// 200,000 nested brackets, generated rather than committed.
	for src, prefix := range map[string]string{"aws": `{"products":{"S":`, "azure": `{"Items":`, "gcp": `{"skus":`, "alibaba": `[`, "tencent": `[`, "huawei": `[`, "baidu": `[`} {
		p := filepath.Join(dir, "nested", src, "nested-brackets.json")
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(prefix+strings.Repeat("[", 200000)), 0o644)
		files = append(files, p)
	}
	if len(files) < 50 {
		t.Fatalf("only %d malformed files", len(files))
	}
	for _, f := range files {
		source, name := filepath.Base(filepath.Dir(f)), filepath.Base(f)
		t.Run(source+"/"+name, func(t *testing.T) {
			args := []string{"catalog", "import", source, "--file", f, "--db", db}
			if source == "skypilot" {
				args = append(args, "--cloud", "lambda")
			}
			out, errOut, code := exec(t, true, nil, args...)
			if code == 0 {
				// Undo it, so that the next file starts from the good imports.
				if _, errOut, code := exec(t, true, nil, "catalog", "snapshots", "rollback", source, "--db", db); code != 0 {
					t.Fatalf("rollback: exit %d\n%s", code, errOut)
				}
			}
			if strings.HasPrefix(name, "ok-") {
				if code != 0 {
					t.Fatalf("exit %d\n%s", code, errOut)
				}
			} else {
				if code == 0 {
					t.Fatalf("accepted:\n%s", out)
				}
				if !strings.Contains(errOut, name) || !located.MatchString(errOut) {
					t.Errorf("the message does not name the file and the record:\n%s", errOut)
				}
			}
			gotCLI, gotAPI := reads(t, db)
			samePrices(t, "offers", gotCLI, wantCLI)
			samePrices(t, "/api/v1/offers", gotAPI, wantAPI)
		})
	}
}

// TestUpdateAgainstAHostileServer: an update whose every call is refused
// (403), answered with garbage, or declined fails, names the provider's
// message without the credentials, and stores nothing.
func TestUpdateAgainstAHostileServer(t *testing.T) {
	const secret = "s3cr3t-key-value"
	db := filepath.Join(t.TempDir(), "g.db")
	if _, errOut, code := exec(t, true, nil, "catalog", "import", "alibaba", "--file", "../importer/alibaba/testdata/bundle.json", "--db", db); code != 0 {
		t.Fatal(errOut)
	}
	want, _, _ := exec(t, true, nil, "catalog", "snapshots", "--db", db, "-o", "json")
	for _, tc := range []struct {
		name, provider string
		status         int
		body           string
		want           string
	}{
		{"alibaba 403", "alibaba", http.StatusForbidden, `{"Code":"Forbidden.RAM","Message":"User not authorized to operate on the specified resource. key ` + secret + `"}`, "Forbidden.RAM"},
		{"alibaba garbage", "alibaba", http.StatusOK, `<html>hello</html>`, "not JSON"},
		{"alibaba declines everything", "alibaba", http.StatusBadRequest, `{"Code":"InvalidInstanceType.NotSupported","Message":"no"}`, "requests failed"},
		{"tencent 403", "tencent", http.StatusForbidden, `forbidden ` + secret, "HTTP403"},
		{"tencent 401 API error", "tencent", http.StatusOK, `{"Response":{"Error":{"Code":"AuthFailure.SecretIdNotFound","Message":"no such key"},"RequestId":"r"}}`, "AuthFailure.SecretIdNotFound"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var calls atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				calls.Add(1)
				w.WriteHeader(tc.status)
				w.Write([]byte(tc.body))
			}))
			defer srv.Close()
			env := map[string]string{
				"ALIBABA_CLOUD_ACCESS_KEY_ID": "id", "ALIBABA_CLOUD_ACCESS_KEY_SECRET": secret, "GPUSCOUT_ALIBABA_ENDPOINT": srv.URL + "/",
				"TENCENTCLOUD_SECRET_ID": "id", "TENCENTCLOUD_SECRET_KEY": secret, "GPUSCOUT_TENCENT_ENDPOINT": srv.URL + "/",
			}
			out, errOut, code := exec(t, true, env, "catalog", "update", "--provider", tc.provider, "--db", db)
			if code == 0 || !strings.Contains(errOut, tc.want) || strings.Contains(out+errOut, secret) {
				t.Errorf("exit %d after %d calls, want a failure naming %q without the secret:\n%s%s", code, calls.Load(), tc.want, out, errOut)
			}
			if got, _, _ := exec(t, true, nil, "catalog", "snapshots", "--db", db, "-o", "json"); got != want {
				t.Errorf("snapshots changed:\n%s", got)
			}
		})
	}
}

// TestImportMessagesInBothLanguages renders a refusal, a shrink and the
// snapshot commands in English and Chinese.
func TestImportMessagesInBothLanguages(t *testing.T) {
	db := filepath.Join(t.TempDir(), "g.db")
	if _, errOut, code := exec(t, true, nil, "catalog", "import", "azure", "--file", "../importer/azure/testdata/page1.json", "--db", db); code != 0 {
		t.Fatal(errOut)
	}
	for _, tc := range []struct {
		lang string
		want []string
	}{
		{"en_US.UTF-8", []string{`currency "XYZ" has no exchange rate`, "against 7 in snapshot 1 (less than 50%)", "Rolled back azure: removed snapshot 2; reads now use snapshot 1", "no snapshot 99", "5 negative price"}},
		{"zh_CN.UTF-8", []string{`币种 "XYZ" 没有汇率`, "而快照 1 有 7 条（不足 50%）", "已回滚 azure：删除快照 2；现在使用快照 1", "没有快照 99", "5 价格为负", "跳过 8 条记录"}},
	} {
		env := map[string]string{"LANG": tc.lang}
		_, cur, code1 := exec(t, true, env, "catalog", "import", "azure", "--file", "testdata/malformed/azure/currency-xyz.json", "--db", db)
		_, shrink, code2 := exec(t, true, env, "catalog", "import", "azure", "--file", "testdata/malformed/azure/shrunk-to-spot-only.json", "--db", db)
		if code1 != 3 || code2 != 3 {
			t.Errorf("%s: exits %d %d, want 3", tc.lang, code1, code2)
		}
		if _, errOut, code := exec(t, true, env, "catalog", "import", "azure", "--allow-shrink", "--file", "testdata/malformed/azure/shrunk-to-spot-only.json", "--db", db); code != 0 {
			t.Fatalf("--allow-shrink: %s", errOut)
		}
		_, neg, _ := exec(t, true, env, "catalog", "import", "azure", "--file", "testdata/malformed/azure/all-negative.json", "--db", db)
		rb, _, _ := exec(t, true, env, "catalog", "snapshots", "rollback", "azure", "--db", db)
		_, rm, code3 := exec(t, true, env, "catalog", "snapshots", "rm", "99", "--db", db)
		all := cur + shrink + neg + rb + rm
		for _, w := range tc.want {
			if !strings.Contains(all, w) {
				t.Errorf("%s: no %q in\n%s", tc.lang, w, all)
			}
		}
		if code3 != 2 {
			t.Errorf("rm of an unknown snapshot: exit %d, want 2", code3)
		}
	}
}
