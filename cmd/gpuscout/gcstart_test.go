package main

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// gcPercent reads the collector's setting.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// TestDelayFirstCycleGivesTheSettingBack: until the first collection the
// collector runs at firstCycleGOGC; after it, at the setting it had, so a
// big load grows the heap as GOGC says. A user's GOGC is left alone.
func TestDelayFirstCycleGivesTheSettingBack(t *testing.T) {
	before := gcPercent()
	defer debug.SetGCPercent(before)
	delayFirstCycle(true)
	if got := gcPercent(); got != before {
		t.Fatalf("with GOGC set the setting became %d, want %d left alone", got, before)
	}
	delayFirstCycle(false)
	if got := gcPercent(); got != firstCycleGOGC {
		t.Fatalf("before the first cycle the setting is %d, want %d", got, firstCycleGOGC)
	}
	deadline := time.Now().Add(5 * time.Second)
	for gcPercent() != before {
		if time.Now().After(deadline) {
			t.Fatalf("after collections the setting is still %d, want %d back", gcPercent(), before)
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
}
