package perf

import (
	"math"
	"testing"
)

// TestTTFitAt checks the piecewise time-to-train scaling: interpolation
// between published scales, the nearest two's slope outside them, the
// exponent kept within 0–1 and the default slope for a single scale.
func TestTTFitAt(t *testing.T) {
	l := math.Log
	// 10 minutes on 8 GPUs, 2 on 64 (slope ln5/ln8 = 0.774), 1.5 on 512 (0.138).
	f := ttFit{xs: []float64{l(8), l(64), l(512)}, ys: []float64{l(10), l(2), l(1.5)}}
	y, s := f.at(l(8))
	if math.Abs(math.Exp(y)-10) > 1e-9 || math.Abs(s-math.Log(5)/math.Log(8)) > 1e-9 {
		t.Errorf("at a published scale: %.3f min, slope %.3f", math.Exp(y), s)
	}
	// Between 8 and 64 (geometric middle, ~22.6 GPUs): √(10·2) minutes.
	if y, _ := f.at(l(math.Sqrt(8 * 64))); math.Abs(math.Exp(y)-math.Sqrt(20)) > 1e-9 {
		t.Errorf("interpolated %.3f min, want %.3f", math.Exp(y), math.Sqrt(20))
	}
	// Beyond 512: the 64–512 slope from the 512 result.
	y, s = f.at(l(4096))
	if want := 1.5 * math.Pow(8, -s); math.Abs(math.Exp(y)-want) > 1e-9 || s > 0.2 {
		t.Errorf("extrapolated %.3f min (slope %.3f), want %.3f", math.Exp(y), s, want)
	}
	// A faster-than-linear pair (another software round) is capped at 1.
	g := ttFit{xs: []float64{l(1000), l(1100)}, ys: []float64{l(4), l(3)}}
	if _, s := g.at(l(3000)); s != 1 {
		t.Errorf("slope %.3f, want the cap 1", s)
	}
	// One scale: the default exponent.
	h := ttFit{xs: []float64{l(8)}, ys: []float64{l(28)}}
	if y, s := h.at(l(16)); s != defaultTTSlope || math.Abs(math.Exp(y)-28*math.Pow(2, -defaultTTSlope)) > 1e-9 {
		t.Errorf("single scale: %.3f min, slope %.3f", math.Exp(y), s)
	}
}
