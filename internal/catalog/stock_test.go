package catalog

import (
	"testing"
	"time"
)

// A stock reading is available when seen with capacity (plenty or low),
// and its age runs from when it was seen.
func TestStockReading(t *testing.T) {
	seen := time.Date(2026, 12, 6, 5, 0, 0, 0, time.UTC)
	var none *Stock
	if none.Available() || none.Age(seen) != 0 {
		t.Error("no reading reads as available or aged")
	}
	for st, want := range map[StockState]bool{StockAvailable: true, StockLow: true, StockNone: false} {
		s := &Stock{State: st, Seen: seen}
		if s.Available() != want {
			t.Errorf("%s: Available %v", st, !want)
		}
		if s.Age(seen.Add(12*time.Minute)) != 12*time.Minute || s.Age(seen.Add(-time.Minute)) != 0 {
			t.Errorf("%s: age", st)
		}
	}
	for _, bad := range []string{"plenty", "Available", " none"} {
		if _, err := ParseStockState(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}
