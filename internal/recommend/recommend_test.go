package recommend_test

import (
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog/curated"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/perf"
	"github.com/gpuscout/gpuscout/internal/pricing"
	"github.com/gpuscout/gpuscout/internal/recommend"
	"github.com/gpuscout/gpuscout/internal/spot"
)

func engine(t testing.TB) *recommend.Engine {
	t.Helper()
	ds, err := curated.LoadEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := perf.New(ds.Catalog)
	if err != nil {
		t.Fatal(err)
	}
	return &recommend.Engine{Catalog: ds.Catalog, Perf: m, FX: ds.FX, Now: time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC),
		Pricing: &pricing.Engine{Prices: ds.Catalog, FX: ds.FX, Spot: spot.CostHook{Facts: ds.Catalog}}}
}

var en = i18n.NewPrinter(i18n.EN)
