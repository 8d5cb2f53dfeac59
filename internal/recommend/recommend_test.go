package recommend_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog/curated"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/perf"
	"github.com/gpuscout/gpuscout/internal/pricing"
	"github.com/gpuscout/gpuscout/internal/recommend"
	"github.com/gpuscout/gpuscout/internal/recommend/jobfile"
	"github.com/gpuscout/gpuscout/internal/spot"
)

func engine(t testing.TB) *recommend.Engine {
	t.Helper()
	ds, err := curated.LoadEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	return engineOn(t, ds)
}

// engineOn is the advisor over ds, its performance model fitted on ds's
// catalog, on the tests' fixed day.
func engineOn(t testing.TB, ds *curated.Dataset) *recommend.Engine {
	t.Helper()
	m, _, err := perf.New(ds.Catalog)
	if err != nil {
		t.Fatal(err)
	}
	return &recommend.Engine{Catalog: ds.Catalog, Perf: m, FX: ds.FX, Now: time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC),
		Pricing: &pricing.Engine{Prices: ds.Catalog, FX: ds.FX, Spot: spot.CostHook{Facts: ds.Catalog}}}
}

var en = i18n.NewPrinter(i18n.EN)

// TestPrecisionAsWritten: bf16 comes back as bf16 in the requirements.
func TestPrecisionAsWritten(t *testing.T) {
	r, err := jobfile.Read(strings.NewReader("workload: {job: {kind: transformer-train, params: 1e9, tokens: 1e10, precision: bf16}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"precision":"bf16"`) || strings.Contains(string(b), `"fp16"`) {
		t.Errorf("requirements JSON: %s", b)
	}
}
