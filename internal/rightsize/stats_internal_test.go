package rightsize

import "testing"

// A log spanning far more minutes than the map holds coarsens its slots
// instead of growing without bound, and keeps its figures.
func TestSlotMapStaysBounded(t *testing.T) {
	defer func(n int) { maxSlots = n }(maxSlots)
	maxSlots = 1000
	an := NewAnalyzer()
	s := Sample{Has: HasTime | HasUtil, Util: 50}
	for i := range 30_000 {
		s.TimeMs = int64(i) * 7 * 60_000 // seven minutes apart: 145 days
		an.Add(&s)
	}
	st := an.Stats(nil)
	if len(an.slots) > maxSlots || st.SlotSeconds != 15360 || st.BusyShare < 0.999 || st.Coverage < 0.999 {
		t.Errorf("%d slots of %d s, busy %v, coverage %v", len(an.slots), st.SlotSeconds, st.BusyShare, st.Coverage)
	}
	if h, want := st.SpanHours, 30_000*7.0/60; h < want || h > want+float64(st.SlotSeconds)/3600 {
		t.Errorf("span %v h", h)
	}
}

func TestParseFloat(t *testing.T) {
	for in, want := range map[string]float64{"0": 0, "97": 97, "97.5": 97.5, "-3.25": -3.25, "+1": 1, "0.000001": 1e-6,
		"1e3": 1000, "12345678901234567890": 12345678901234567890, ".5": 0.5, "5.": 5} {
		if got, ok := parseFloat([]byte(in)); !ok || got != want {
			t.Errorf("%q: %v %v", in, got, ok)
		}
	}
	for _, in := range []string{"", "-", ".", "abc", "1.2.3", "NaN", "Inf", "1e999", "0x10"} {
		if v, ok := parseFloat([]byte(in)); ok {
			t.Errorf("%q accepted as %v", in, v)
		}
	}
}

func TestParseTimestamp(t *testing.T) {
	for in, want := range map[string]int64{
		"1970/01/01 00:00:00.000":   0,
		"2026/11/30 10:00:00.123":   1796032800123,
		"2026-11-30T10:00:00Z":      1796032800000,
		"2026-11-30 10:00:00.5":     1796032800500,
		"2026-11-30T10:00:00+08:00": 1796032800000, // the clock as written
	} {
		if got, ok := parseTimestamp([]byte(in)); !ok || got != want {
			t.Errorf("%q: %d %v, want %d", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "2026/11/30", "2026/13/30 10:00:00", "2026/11/30 25:00:00", "2026/11/30 10:00:00.", "yesterday at noon"} {
		if _, ok := parseTimestamp([]byte(in)); ok {
			t.Errorf("%q accepted", in)
		}
	}
}

// The minute cache reads every timestamp as parseTimestamp does.
func TestTimestampCache(t *testing.T) {
	var c tsCache
	for _, in := range []string{
		"2026/11/30 10:00:00.123", "2026/11/30 10:00:01.5", "2026/11/30 10:00:59", "2026/11/30 10:00:60", "2026/11/30 10:00:7x",
		"2026/11/30 10:00:02.", "2026/11/30 10:00:02.1234567", "2026/11/30 10:00:02Z", "2026/11/30 10:01:00.000",
		"2026-11-30T10:01:05+08:00", "2026-11-30T10:01:06.250", "2026/11/30 10:01:07.999", "garbage-garbage-garbage",
	} {
		want, wok := parseTimestamp([]byte(in))
		got, gok := c.parse([]byte(in))
		if got != want || gok != wok {
			t.Errorf("%q: cache %d %v, parse %d %v", in, got, gok, want, wok)
		}
	}
}
