package catalog_test

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/catalog/catalogtest"
	"github.com/shopspring/decimal"
)

// fixedFX converts with 1 USD = 7 CNY.
type fixedFX struct{}

func (fixedFX) Convert(d decimal.Decimal, from, to string) (decimal.Decimal, error) {
	rates := map[string]decimal.Decimal{"USD": D("1"), "CNY": D("7")}
	rf, ok1 := rates[from]
	rt, ok2 := rates[to]
	if !ok1 || !ok2 {
		return decimal.Zero, fmt.Errorf("no rate %s->%s", from, to)
	}
	return d.Mul(rt).Div(rf), nil
}

func ids(rows []catalog.OfferRow) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.Offer.ID())
	}
	return out
}

func TestQueryOffers(t *testing.T) {
	c := catalogtest.New(t)
	tests := []struct {
		name string
		q    catalog.OfferQuery
		want []string
	}{
		{"cheapest first in USD", catalog.OfferQuery{Currency: "USD", FX: fixedFX{}, Limit: 3},
			[]string{"acme/slice/us-east/on-demand", "acme/small1/us-east/on-demand", "acme/big8/us-east/spot"}},
		{"GPU family and min GPUs", catalog.OfferQuery{Currency: "USD", FX: fixedFX{}, GPUs: []string{"A100-SXM4-80GB"}, MinGPUs: D("8")},
			[]string{"panda/gpu.8x80/cn-north/subscription-1m", "panda/gpu.8x80/cn-north/on-demand"}},
		{"residency", catalog.OfferQuery{Currency: "USD", FX: fixedFX{}, Residency: []string{"eu"}},
			[]string{"acme/big8/eu-west/on-demand"}},
		{"country is case-insensitive", catalog.OfferQuery{Currency: "USD", FX: fixedFX{}, Countries: []string{"cn"}, Billing: []string{"on-demand"}},
			[]string{"panda/gpu.8x80/cn-north/on-demand"}},
		{"billing family", catalog.OfferQuery{Currency: "USD", FX: fixedFX{}, Billing: []string{"reserved", "subscription"}},
			[]string{"acme/big8/us-east/reserved-1y-partial-upfront", "panda/gpu.8x80/cn-north/subscription-1m"}},
		{"min VRAM per GPU", catalog.OfferQuery{Currency: "USD", FX: fixedFX{}, MinVRAMGB: D("41")},
			[]string{"panda/gpu.8x80/cn-north/subscription-1m", "panda/gpu.8x80/cn-north/on-demand"}},
		{"max price per GPU-hour in CNY", catalog.OfferQuery{Currency: "CNY", FX: fixedFX{}, Per: catalog.PerGPUHour, MaxPrice: D("7"), Sort: catalog.SortGPUPrice},
			[]string{"acme/big8/us-east/spot", "acme/small1/us-east/on-demand"}},
		{"sort by VRAM", catalog.OfferQuery{Currency: "USD", FX: fixedFX{}, Sort: catalog.SortVRAM, Limit: 2},
			[]string{"panda/gpu.8x80/cn-north/subscription-1m", "panda/gpu.8x80/cn-north/on-demand"}},
		{"FP16 per dollar", catalog.OfferQuery{Currency: "USD", FX: fixedFX{}, Sort: catalog.SortFP16PerDollar, Limit: 1},
			[]string{"acme/big8/us-east/spot"}},
		{"provider", catalog.OfferQuery{Currency: "USD", FX: fixedFX{}, Providers: []string{"panda"}, Billing: []string{"包月"}},
			[]string{"panda/gpu.8x80/cn-north/subscription-1m"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows, err := c.QueryOffers(tt.q)
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(rows); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %v\nwant %v", got, tt.want)
			}
		})
	}
}

func TestQueryConvertsEveryPricePart(t *testing.T) {
	c := catalogtest.New(t)
	rows, err := c.QueryOffers(catalog.OfferQuery{Currency: "CNY", FX: fixedFX{}, Providers: []string{"acme"}, Billing: []string{"reserved-1y-partial-upfront"}, Per: catalog.PerMonth})
	if err != nil || len(rows) != 1 {
		t.Fatalf("rows %v, err %v", rows, err)
	}
	r := rows[0]
	// 6 USD/h + 61320 USD upfront over 8760 h = 13 USD/h = 91 CNY/h; 91 × 730 per month.
	for name, got := range map[string]decimal.Decimal{"hourly": r.Hourly, "upfront": r.Upfront, "effective": r.EffectiveHourly, "per GPU": r.PerGPUHourly, "per month": r.Price} {
		want := map[string]string{"hourly": "42", "upfront": "429240", "effective": "91", "per GPU": "11.375", "per month": "66430"}[name]
		if !got.Equal(D(want)) {
			t.Errorf("%s = %s, want %s", name, got, want)
		}
	}
	if r.Currency != "CNY" || r.Offer.Price.Currency != "USD" {
		t.Errorf("currency %s (original %s)", r.Currency, r.Offer.Price.Currency)
	}
}

func TestQueryWithoutRatesFails(t *testing.T) {
	c := catalogtest.New(t)
	if _, err := c.QueryOffers(catalog.OfferQuery{Currency: "EUR", FX: fixedFX{}}); err == nil {
		t.Error("converting to a currency without a rate must fail")
	}
}

func TestLookupGPU(t *testing.T) {
	c := catalogtest.New(t)
	tests := []struct {
		in   string
		want []string
	}{
		{"A100", []string{"A100-SXM4-40GB", "A100-SXM4-80GB"}},
		{"a100", []string{"A100-SXM4-40GB", "A100-SXM4-80GB"}},
		{"A100 40GB", []string{"A100-SXM4-40GB"}},
		{"a100_sxm4_80gb", []string{"A100-SXM4-80GB"}},
		{"A10", []string{"A10"}}, // a family, not a prefix of A100
		{"A100-SXM4", []string{"A100-SXM4-40GB", "A100-SXM4-80GB"}},
	}
	for _, tt := range tests {
		gs, err := c.LookupGPU(tt.in)
		if err != nil {
			t.Errorf("LookupGPU(%q): %v", tt.in, err)
			continue
		}
		var got []string
		for _, g := range gs {
			got = append(got, g.ID)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("LookupGPU(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
	_, err := c.LookupGPU("A1000")
	var nf *catalog.NotFoundError
	if !errors.As(err, &nf) || len(nf.Suggestions) == 0 || nf.Suggestions[0] != "A100" {
		t.Errorf("LookupGPU(A1000) = %v, want a suggestion of A100", err)
	}
	if _, err := c.LookupProvider("acmee"); err == nil || err.Error() != `unknown provider "acmee" (did you mean acme?)` {
		t.Errorf("LookupProvider(acmee) = %v", err)
	}
}

func TestStats(t *testing.T) {
	s := catalogtest.New(t).Stats()
	if s.Providers != 2 || s.Offers != 8 || s.InstanceTypes != 4 {
		t.Errorf("stats %+v", s)
	}
	want := []catalog.Billing{catalog.OnDemand, catalog.Spot, catalog.Reserved1yPart}
	if got := s.ByProvider["acme"].Billing; !reflect.DeepEqual(got, want) {
		t.Errorf("acme billing %v, want %v", got, want)
	}
}
