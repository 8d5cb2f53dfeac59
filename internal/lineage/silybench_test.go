package lineage

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

func fstestFile(name, data string) fstest.MapFS {
	return fstest.MapFS{name: &fstest.MapFile{Data: []byte(data)}}
}

func TestParseSilybenchPricesErrors(t *testing.T) {
	head := strings.Join(silybenchHeader, ",") + "\n"
	for _, tc := range []struct{ in, want string }{
		{"provider,gpu\n", "header"},
		{head + "lambda,A10,on-demand,x,1,1x A10,u,2026-09-25,\n", "line 2: field usd_per_gpu_hour"},
		{head + "lambda,A10,on-demand,1.29,0,1x A10,u,2026-09-25,\n", "line 2: field min_gpus"},
		{head + "lambda,A10,on-demand,1.29,1,1x A10,u,25/09/2026,\n", "line 2: field checked_at"},
		{head + "lambda,A10,on-demand,1.29,1,,u,2026-09-25,\n", "line 2: field product"},
	} {
		_, err := parseSilybenchPrices(strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("parse(%q) error = %v, want %q", tc.in, err, tc.want)
		}
	}
}

func TestSilybenchLambdaRejectsUnknownProduct(t *testing.T) {
	in := strings.Join(silybenchHeader, ",") + "\nlambda,X,on-demand,1,1,1x Unknown GPU,u,2026-09-25,\n"
	src := silybenchLambda()
	_, err := src.Generate(fstestFile("gpu_prices.csv", in))
	if err == nil || !strings.Contains(err.Error(), "no catalog instance type") {
		t.Fatalf("got %v", err)
	}
}

func FuzzParseSilybenchPrices(f *testing.F) {
	head := strings.Join(silybenchHeader, ",") + "\n"
	f.Add(head + "lambda,H100-80GB,on-demand,3.99,8,8x H100 SXM,https://lambda.ai/pricing,2026-09-25,\n")
	f.Add(head + "gcp,H100-80GB,spot,6.571,1,\"a3-highgpu-1g Spot, us-central1\",u,2026-09-26,note\n")
	f.Fuzz(func(t *testing.T, in string) {
		prices, err := parseSilybenchPrices(strings.NewReader(in))
		if err != nil {
			return
		}
		for _, p := range prices {
			if !p.PerGPUHour.IsPositive() || p.MinGPUs < 1 || p.Product == "" || len(p.CheckedAt) != 10 {
				t.Fatalf("accepted an invalid row %+v", p)
			}
		}
	})
}

// TestPriceListsHaveAnAnyRegion keeps a catalog region ANY for every
// provider whose generated rows stand for a price list rather than a
// region (RunPod, Lambda, OCI): an offer cannot name a region the catalog
// does not have.
func TestPriceListsHaveAnAnyRegion(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(dataDir, "regions.csv"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, r := range recs[1:] {
		if r[1] == "ANY" {
			have[r[0]] = true
			if r[5] != "any" {
				t.Errorf("%s/ANY: residency %q, want any (no one country)", r[0], r[5])
			}
		}
	}
	for _, p := range []string{"runpod", "lambda", "oci"} {
		if !have[p] {
			t.Errorf("regions.csv has no %s/ANY row", p)
		}
	}
}
