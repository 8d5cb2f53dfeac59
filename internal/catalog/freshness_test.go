package catalog_test

import (
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
)

func TestMeasureFreshness(t *testing.T) {
	day := func(s string) time.Time {
		d, err := time.Parse("2006-01-02", s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	now := day("2026-12-03")
	// Ages in days: 0, 30, 364 (fresh), 365 is exactly 12 months (fresh),
	// 366 and 1000 (stale). The zero date is skipped.
	dates := []time.Time{day("2026-12-03"), day("2026-11-03"), day("2025-12-04"), day("2025-12-03"),
		day("2025-12-02"), now.AddDate(0, 0, -1000), {}}
	f := catalog.MeasureFreshness(dates, now)
	if f.Offers != 6 || f.Fresh != 4 {
		t.Fatalf("offers/fresh = %d/%d, want 6/4", f.Offers, f.Fresh)
	}
	if got, want := f.Share(), 4.0/6.0; got != want {
		t.Errorf("Share = %v, want %v", got, want)
	}
	// Sorted ages 0, 30, 364, 365, 366, 1000: median (364+365)/2.
	if f.MedianAgeDays != 364.5 {
		t.Errorf("MedianAgeDays = %v, want 364.5", f.MedianAgeDays)
	}
	if !f.OldestAsOf.Equal(now.AddDate(0, 0, -1000)) || !f.NewestAsOf.Equal(now) {
		t.Errorf("span = %s..%s", f.OldestAsOf, f.NewestAsOf)
	}
	odd := catalog.MeasureFreshness([]time.Time{day("2026-12-01"), day("2026-12-03"), day("2027-01-01")}, now)
	if odd.MedianAgeDays != 0 || odd.Fresh != 3 {
		t.Errorf("future dates count as age 0 and fresh: median %v fresh %d", odd.MedianAgeDays, odd.Fresh)
	}
	if empty := catalog.MeasureFreshness(nil, now); empty.Share() != 0 || empty.Offers != 0 {
		t.Errorf("empty = %+v", empty)
	}
}

// TestUndatedIsNotFresh: an undated price (no as-of, read on a day) counts
// among the offers as not fresh and stays out of the median age, even when
// it was read today.
func TestUndatedIsNotFresh(t *testing.T) {
	now := time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)
	src := []catalog.Source{
		{AsOf: now.AddDate(0, 0, -10)},
		{AsOf: now.AddDate(0, 0, -30)},
		{AsOf: now.AddDate(-2, 0, 0)},
		{ReadOn: now}, {ReadOn: now},
		{}, // neither date: skipped
	}
	f := catalog.MeasureSourceFreshness(src, now)
	if f.Offers != 5 || f.Fresh != 2 || f.Undated != 2 {
		t.Fatalf("offers/fresh/undated = %d/%d/%d, want 5/2/2", f.Offers, f.Fresh, f.Undated)
	}
	if got, want := f.Share(), 2.0/5.0; got != want {
		t.Errorf("Share = %v, want %v (undated counts as not fresh)", got, want)
	}
	if f.MedianAgeDays != 30 {
		t.Errorf("MedianAgeDays = %v, want 30 (the undated rows have no age, not age 0)", f.MedianAgeDays)
	}
	if !f.NewestAsOf.Equal(now.AddDate(0, 0, -10)) {
		t.Errorf("NewestAsOf = %s, want the newest dated price, not the day undated ones were read", f.NewestAsOf)
	}
	ff := catalog.PublicFileFreshness(map[string]catalog.Freshness{"vast": f})
	if ff.Undated != 2 || ff.Offers != 5 || ff.Fresh != 2 {
		t.Errorf("public file freshness = %+v, want 5 offers, 2 fresh, 2 undated", ff)
	}
}

func TestCapacityBlockHours(t *testing.T) {
	for _, tt := range []struct {
		job, want float64
		ok        bool
	}{
		{0, 24, true}, {1, 24, true}, {24, 24, true}, {24.5, 48, true}, {14 * 24, 14 * 24, true},
		{14*24 + 1, 21 * 24, true}, {100 * 24, 105 * 24, true}, {182 * 24, 182 * 24, true}, {182*24 + 1, 0, false},
	} {
		got, ok := catalog.CapacityBlockHours(tt.job)
		if got != tt.want || ok != tt.ok {
			t.Errorf("CapacityBlockHours(%v) = %v, %v; want %v, %v", tt.job, got, ok, tt.want, tt.ok)
		}
	}
}

// TestPublicFileFreshness checks that the share reported for "providers
// with a public price file" leaves out Alibaba and Tencent, whose prices
// only signed APIs give, and names them.
func TestPublicFileFreshness(t *testing.T) {
	by := map[string]catalog.Freshness{
		"aws":     {Offers: 10, Fresh: 9},
		"azure":   {Offers: 10, Fresh: 4},
		"alibaba": {Offers: 7},
		"tencent": {Offers: 5, Fresh: 1},
		"huawei":  {},
	}
	ff := catalog.PublicFileFreshness(by)
	if ff.Offers != 20 || ff.Fresh != 13 || ff.Share() != 0.65 {
		t.Errorf("offers/fresh/share = %d/%d/%v, want 20/13/0.65", ff.Offers, ff.Fresh, ff.Share())
	}
	if len(ff.Without) != 2 || ff.Without[0] != "alibaba" || ff.Without[1] != "tencent" {
		t.Errorf("Without = %v, want [alibaba tencent]", ff.Without)
	}
	if catalog.PublicPriceFile("alibaba") || !catalog.PublicPriceFile("azure") {
		t.Error("PublicPriceFile: alibaba publishes none, azure does")
	}
}
