package cli_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// gpuCloud is one live GPU-cloud source as the update test drives it.
type gpuCloud struct {
	provider, env, keyEnv, path, fixture string
	refused                              string // an error answer to a refused key
	want                                 []string
}

var gpuClouds = []gpuCloud{
	{provider: "lambda", env: "GPUSCOUT_LAMBDA_URL", keyEnv: "LAMBDA_API_KEY", path: "/api/v1/instance-types",
		fixture: "../importer/lambda/testdata/capacity/answer.json",
		refused: `{"error": {"code": "global/invalid-api-key", "message": "API key was invalid, expired, or deleted.", "suggestion": "Check your API key."}}`,
		want:    []string{"gpu_8x_h100_sxm5", "us-east-1", "22.220"}},
	{provider: "runpod", env: "GPUSCOUT_RUNPOD_URL", keyEnv: "RUNPOD_API_KEY", path: "/graphql",
		fixture: "../importer/runpod/testdata/stock/answer.json",
		refused: `{"errors":[{"message":"Unauthorized","extensions":{"code":"UNAUTHENTICATED"}}]}`,
		want:    []string{"1x_H100-SXM_SECURE", "3.110", "seen low"}},
	{provider: "vast", env: "GPUSCOUT_VAST_URL", keyEnv: "VAST_API_KEY", path: "/api/v0/bundles/",
		fixture: "../importer/vast/testdata/market/answer.json",
		refused: `{"success": false, "error": "invalid_api_key", "msg": "Invalid user key"}`,
		want:    []string{"1x-H100_SXM-32-65536", "1.999"}},
	{provider: "digitalocean", env: "GPUSCOUT_DIGITALOCEAN_URL", keyEnv: "DIGITALOCEAN_TOKEN", path: "/v2/sizes",
		fixture: "../importer/digitalocean/testdata/sizes/answer.json",
		refused: `{"id": "unauthorized", "message": "Unable to authenticate you", "request_id": "test"}`,
		want:    []string{"gpu-h100x1-80gb", "tor1", "1.110"}},
}

// "Can I get an H100 now, and where?": catalog update reaches Vast.ai,
// Lambda, RunPod, OCI, DigitalOcean, Hyperstack and Verda's own APIs (each listed by --dry-run with its
// endpoint, without credentials), stores their prices with the capacity
// each saw, and offers --available answers from them. A refused key
// stores nothing, keeps the previous snapshot, and never prints the key.
func TestUpdateGPUClouds(t *testing.T) {
	out, errOut, code := exec(t, true, nil, "catalog", "update", "--provider", "vast,lambda,runpod,oci,digitalocean,hyperstack,verda", "--dry-run", "--db", filepath.Join(t.TempDir(), "g.db"))
	if code != 0 {
		t.Fatalf("dry run (%d): %s", code, errOut)
	}
	for _, want := range []string{"POST https://console.vast.ai/api/v0/bundles/", "GET https://cloud.lambda.ai/api/v1/instance-types", "$LAMBDA_API_KEY",
		"POST https://api.runpod.io/graphql", "$RUNPOD_API_KEY", "GET https://api.digitalocean.com/v2/sizes?per_page=200", "$DIGITALOCEAN_TOKEN",
		"GET https://apexapps.oracle.com/pls/apex/cetools/api/v1/products/?currencyCode=USD", "GET https://infrahub-api.nexgencloud.com/v1/core/flavors",
		"$HYPERSTACK_API_KEY", "GET https://api.verda.com/v1/instance-types", "$VERDA_CLIENT_SECRET"} {
		if !strings.Contains(out, want) {
			t.Errorf("dry run lacks %q:\n%s", want, out)
		}
	}
	for _, c := range gpuClouds {
		t.Run(c.provider, func(t *testing.T) {
			answer, err := os.ReadFile(c.fixture)
			if err != nil {
				t.Fatal(err)
			}
			var refuse atomic.Bool
			const key = "live-secret-key-0123456789abcdef"
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != c.path {
					http.NotFound(w, r)
					return
				}
				if refuse.Load() {
					w.WriteHeader(http.StatusUnauthorized)
					w.Write([]byte(strings.Replace(c.refused, `"message": "`, `"message": "`+key+` `, 1)))
					return
				}
				w.Header().Set("Content-Type", "application/json")
				w.Write(answer)
			}))
			defer srv.Close()
			db := filepath.Join(t.TempDir(), "g.db")
			env := map[string]string{c.env: srv.URL, c.keyEnv: key}
			if _, errOut, code := exec(t, true, env, "catalog", "update", "--provider", c.provider, "--db", db); code != 0 {
				t.Fatalf("update (%d): %s", code, errOut)
			}
			check := func(when string) {
				t.Helper()
				out, errOut, code := exec(t, true, nil, "offers", "--db", db, "--provider", c.provider, "--available", "--limit", "0")
				if code != 0 {
					t.Fatalf("%s: offers (%d): %s", when, code, errOut)
				}
				for _, want := range append(c.want, "seen available") {
					if !strings.Contains(out, want) {
						t.Errorf("%s: offers --available lacks %q:\n%s", when, want, out)
					}
				}
			}
			check("after the update")
			refuse.Store(true)
			out, errOut, code := exec(t, true, env, "catalog", "update", "--provider", c.provider, "--db", db)
			if code == 0 || strings.Contains(out+errOut, key) {
				t.Errorf("refused key: exit %d, output shows the key or succeeds:\n%s%s", code, out, errOut)
			}
			check("after a refused update")
			// A recorded answer imports its prices, but no reading: its
			// age is unknown.
			db2 := filepath.Join(t.TempDir(), "r.db")
			if _, errOut, code := exec(t, true, nil, "catalog", "import", c.provider, "--file", c.fixture, "--db", db2); code != 0 {
				t.Fatalf("import of the recorded answer (%d): %s", code, errOut)
			}
			out, _, _ = exec(t, true, nil, "offers", "--db", db2, "--provider", c.provider, "--limit", "0")
			if !strings.Contains(out, c.want[1]) || strings.Contains(out, "seen available") {
				t.Errorf("recorded answer: want %q and no reading:\n%s", c.want[1], out)
			}
		})
	}
	// Lambda and RunPod need their keys; Vast's search is public.
	for _, p := range []string{"lambda", "runpod", "digitalocean"} {
		if _, errOut, code := exec(t, true, nil, "catalog", "update", "--provider", p, "--db", filepath.Join(t.TempDir(), "g.db")); code == 0 || !strings.Contains(errOut, "_API_KEY") && !strings.Contains(errOut, "_TOKEN") {
			t.Errorf("%s without a key: exit %d: %s", p, code, errOut)
		}
	}
}

// What does an OCI GPU shape cost today? catalog update --provider oci
// reads Oracle's public price list and the Cost Estimator's shapes (no
// key; --dry-run lists both endpoints), prices each shape in the catalog's
// any-OCI-region row, and a refused answer stores nothing and keeps the
// previous snapshot.
func TestUpdateOCI(t *testing.T) {
	out, errOut, code := exec(t, true, nil, "catalog", "update", "--provider", "oci", "--dry-run", "--db", filepath.Join(t.TempDir(), "o.db"))
	if code != 0 {
		t.Fatalf("dry run (%d): %s", code, errOut)
	}
	for _, want := range []string{"GET https://www.oracle.com/a/ocom/docs/cloudestimator2/data/shapes.json",
		"GET https://apexapps.oracle.com/pls/apex/cetools/api/v1/products/?currencyCode=USD", "no key"} {
		if !strings.Contains(out, want) {
			t.Errorf("dry run lacks %q:\n%s", want, out)
		}
	}
	var rec struct{ Shapes, Products json.RawMessage }
	b, err := os.ReadFile("../importer/oci/testdata/list/answer.json")
	if err != nil || json.Unmarshal(b, &rec) != nil {
		t.Fatalf("fixture: %v", err)
	}
	var refuse atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/a/ocom/docs/cloudestimator2/data/shapes.json":
			w.Write(rec.Shapes)
		case r.URL.Path == "/pls/apex/cetools/api/v1/products/" && refuse.Load():
			w.WriteHeader(http.StatusForbidden)
			w.Write([]byte(`{"code": "NotAuthorizedOrNotFound", "message": "Authorization failed or requested resource not found."}`))
		case r.URL.Path == "/pls/apex/cetools/api/v1/products/":
			w.Write(rec.Products)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	db := filepath.Join(t.TempDir(), "o.db")
	env := map[string]string{"GPUSCOUT_OCI_URL": srv.URL}
	if _, errOut, code := exec(t, true, env, "catalog", "update", "--provider", "oci", "--db", db); code != 0 {
		t.Fatalf("update (%d): %s", code, errOut)
	}
	check := func(when string) {
		t.Helper()
		out, errOut, code := exec(t, true, nil, "offers", "--db", db, "--provider", "oci", "--gpu", "H100", "--limit", "0")
		if code != 0 {
			t.Fatalf("%s: offers (%d): %s", when, code, errOut)
		}
		for _, want := range []string{"BM.GPU.H100.8", "ANY", "8.880"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: offers lacks %q:\n%s", when, want, out)
			}
		}
	}
	check("after the update")
	refuse.Store(true)
	if _, _, code := exec(t, true, env, "catalog", "update", "--provider", "oci", "--db", db); code == 0 {
		t.Error("a refused price list succeeded")
	}
	check("after a refused update")
}

// Can I get an H100 flavor at Hyperstack now? catalog update --provider
// hyperstack with HYPERSTACK_API_KEY reads its flavors and pricebook
// (--dry-run lists both endpoints without a key), stores each flavor's
// price with its stock reading, and a refused key stores nothing, keeps the
// previous snapshot and never prints the key.
func TestUpdateHyperstack(t *testing.T) {
	out, errOut, code := exec(t, true, nil, "catalog", "update", "--provider", "hyperstack", "--dry-run", "--db", filepath.Join(t.TempDir(), "h.db"))
	if code != 0 {
		t.Fatalf("dry run (%d): %s", code, errOut)
	}
	for _, want := range []string{"GET https://infrahub-api.nexgencloud.com/v1/core/flavors", "GET https://infrahub-api.nexgencloud.com/v1/pricebook", "$HYPERSTACK_API_KEY"} {
		if !strings.Contains(out, want) {
			t.Errorf("dry run lacks %q:\n%s", want, out)
		}
	}
	var rec struct{ Flavors, Pricebook json.RawMessage }
	b, err := os.ReadFile("../importer/hyperstack/testdata/flavors/answer.json")
	if err != nil || json.Unmarshal(b, &rec) != nil {
		t.Fatalf("fixture: %v", err)
	}
	const key = "live-secret-key-0123456789abcdef"
	var refuse atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("api_key") != key {
			http.Error(w, "no key", http.StatusBadRequest)
			return
		}
		switch {
		case refuse.Load():
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"status": false, "message": "Invalid API key ` + key + `"}`))
		case r.URL.Path == "/v1/core/flavors":
			w.Write(rec.Flavors)
		case r.URL.Path == "/v1/pricebook":
			w.Write(rec.Pricebook)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	db := filepath.Join(t.TempDir(), "h.db")
	env := map[string]string{"GPUSCOUT_HYPERSTACK_URL": srv.URL + "/v1", "HYPERSTACK_API_KEY": key}
	if _, errOut, code := exec(t, true, env, "catalog", "update", "--provider", "hyperstack", "--db", db); code != 0 {
		t.Fatalf("update (%d): %s", code, errOut)
	}
	check := func(when string) {
		t.Helper()
		out, errOut, code := exec(t, true, nil, "offers", "--db", db, "--provider", "hyperstack", "--available", "--limit", "0")
		if code != 0 {
			t.Fatalf("%s: offers (%d): %s", when, code, errOut)
		}
		for _, want := range []string{"n3-H100x1", "NORWAY-1", "1.110", "seen available"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: offers --available lacks %q:\n%s", when, want, out)
			}
		}
	}
	check("after the update")
	refuse.Store(true)
	out, errOut, code = exec(t, true, env, "catalog", "update", "--provider", "hyperstack", "--db", db)
	if code == 0 || strings.Contains(out+errOut, key) {
		t.Errorf("refused key: exit %d, output shows the key or succeeds:\n%s%s", code, out, errOut)
	}
	check("after a refused update")
}

// Where can I deploy a Verda H100 now? catalog update --provider verda
// with VERDA_CLIENT_ID/SECRET gets a token, reads the instance types and
// both availabilities (--dry-run lists the four requests without
// credentials), stores each type where it is available, and refused
// credentials store nothing, keep the previous snapshot and are never
// printed.
func TestUpdateVerda(t *testing.T) {
	out, errOut, code := exec(t, true, nil, "catalog", "update", "--provider", "verda", "--dry-run", "--db", filepath.Join(t.TempDir(), "v.db"))
	if code != 0 {
		t.Fatalf("dry run (%d): %s", code, errOut)
	}
	for _, want := range []string{"POST https://api.verda.com/v1/oauth2/token", "GET https://api.verda.com/v1/instance-types",
		"GET https://api.verda.com/v1/instance-availability", "$VERDA_CLIENT_ID", "$VERDA_CLIENT_SECRET"} {
		if !strings.Contains(out, want) {
			t.Errorf("dry run lacks %q:\n%s", want, out)
		}
	}
	var rec struct {
		Types json.RawMessage `json:"instance_types"`
		Avail json.RawMessage `json:"availability"`
		Spot  json.RawMessage `json:"spot_availability"`
	}
	b, err := os.ReadFile("../importer/verda/testdata/types/answer.json")
	if err != nil || json.Unmarshal(b, &rec) != nil {
		t.Fatalf("fixture: %v", err)
	}
	const secret = "live-secret-0123456789abcdef"
	var refuse atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/v1/oauth2/token" && refuse.Load():
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"code": "unauthorized_request", "message": "Invalid client credentials ` + secret + `"}`))
		case r.URL.Path == "/v1/oauth2/token":
			w.Write([]byte(`{"access_token": "tok", "token_type": "Bearer"}`))
		case r.Header.Get("Authorization") != "Bearer tok":
			http.Error(w, "no token", http.StatusUnauthorized)
		case r.URL.Path == "/v1/instance-types":
			w.Write(rec.Types)
		case r.URL.Path == "/v1/instance-availability" && r.URL.Query().Get("isSpot") == "true":
			w.Write(rec.Spot)
		case r.URL.Path == "/v1/instance-availability":
			w.Write(rec.Avail)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	db := filepath.Join(t.TempDir(), "v.db")
	env := map[string]string{"GPUSCOUT_VERDA_URL": srv.URL + "/v1", "VERDA_CLIENT_ID": "client-id", "VERDA_CLIENT_SECRET": secret}
	if _, errOut, code := exec(t, true, env, "catalog", "update", "--provider", "verda", "--db", db); code != 0 {
		t.Fatalf("update (%d): %s", code, errOut)
	}
	check := func(when string) {
		t.Helper()
		out, errOut, code := exec(t, true, nil, "offers", "--db", db, "--provider", "verda", "--available", "--limit", "0")
		if code != 0 {
			t.Fatalf("%s: offers (%d): %s", when, code, errOut)
		}
		for _, want := range []string{"1H100.80S.32V", "FIN-01", "1.110", "seen available"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: offers --available lacks %q:\n%s", when, want, out)
			}
		}
	}
	check("after the update")
	refuse.Store(true)
	out, errOut, code = exec(t, true, env, "catalog", "update", "--provider", "verda", "--db", db)
	if code == 0 || strings.Contains(out+errOut, secret) {
		t.Errorf("refused credentials: exit %d, output shows the secret or succeeds:\n%s%s", code, out, errOut)
	}
	check("after a refused update")
}
