package fx_test

import (
	"errors"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/fx"
	"github.com/shopspring/decimal"
)

func table(t *testing.T) *fx.Table {
	t.Helper()
	asOf := time.Date(2026, 5, 8, 0, 0, 0, 0, time.UTC)
	tb, err := fx.New([]fx.Rate{
		{Currency: "CNY", PerUSD: decimal.RequireFromString("7.2"), AsOf: asOf, Source: "test"},
		{Currency: "EUR", PerUSD: decimal.RequireFromString("0.9"), AsOf: asOf, Source: "test"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func TestConvert(t *testing.T) {
	tb := table(t)
	tests := []struct {
		amount, from, to, want string
	}{
		{"10", "USD", "CNY", "72"},
		{"72", "CNY", "USD", "10"},
		{"72", "CNY", "EUR", "9"},
		{"5", "eur", "eur", "5"},
	}
	for _, tt := range tests {
		got, err := tb.Convert(decimal.RequireFromString(tt.amount), tt.from, tt.to)
		if err != nil || !got.Equal(decimal.RequireFromString(tt.want)) {
			t.Errorf("Convert(%s %s→%s) = %s, %v; want %s", tt.amount, tt.from, tt.to, got, err, tt.want)
		}
	}
	_, err := tb.Convert(decimal.NewFromInt(1), "USD", "XYZ")
	var ue *fx.UnknownCurrencyError
	if !errors.As(err, &ue) || ue.Currency != "XYZ" {
		t.Errorf("unknown currency error = %v", err)
	}
}

func TestRoundTripKeepsCents(t *testing.T) {
	tb := table(t)
	start := decimal.RequireFromString("32.7726")
	cny, _ := tb.Convert(start, "USD", "CNY")
	back, _ := tb.Convert(cny, "CNY", "USD")
	if !back.Round(8).Equal(start) {
		t.Errorf("round trip %s -> %s -> %s", start, cny, back)
	}
}

func TestOverrides(t *testing.T) {
	tb := table(t)
	r, err := fx.ParseOverride("cny=7.0")
	if err != nil {
		t.Fatal(err)
	}
	over, err := tb.With(r)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := over.Convert(decimal.NewFromInt(1), "USD", "CNY")
	orig, _ := tb.Convert(decimal.NewFromInt(1), "USD", "CNY")
	if !got.Equal(decimal.NewFromInt(7)) || !orig.Equal(decimal.RequireFromString("7.2")) {
		t.Errorf("override gives %s (original table now %s)", got, orig)
	}
	for _, bad := range []string{"CNY", "CNY=", "CNY=abc", "CNY=-1", "CNY=0", "C=7", "=7"} {
		if _, err := fx.ParseOverride(bad); err == nil {
			t.Errorf("ParseOverride(%q) succeeded", bad)
		}
	}
	if _, err := tb.With(fx.Rate{Currency: "USD", PerUSD: decimal.NewFromInt(2)}); err == nil {
		t.Error("overriding USD must fail")
	}
}

func TestUsedNamesRatesForOutput(t *testing.T) {
	tb := table(t)
	used := tb.Used([]string{"USD", "CNY", "USD"}, "EUR")
	if len(used) != 2 || used[0].Currency != "CNY" || used[1].Currency != "EUR" {
		t.Errorf("Used = %+v", used)
	}
	if got := tb.Used([]string{"USD"}, "USD"); len(got) != 0 {
		t.Errorf("no conversion needs no rate, got %+v", got)
	}
}
