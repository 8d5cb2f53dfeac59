package spot

import (
	"math"
	"math/rand/v2"
	"slices"
)

// SimulateWalls runs exactly the simulation Simulate runs for the same
// arguments — same seed, same draws, same trials — and returns every
// trial's wall hours, sorted, for histograms and percentiles that
// SimResult does not carry (P95). Percentile(walls, p) equals Simulate's
// P50Hours, P90Hours and P99Hours.
func SimulateWalls(j Job, r Risk, interval float64, cfg SimConfig) []float64 {
	if cfg.Trials < 1 {
		cfg.Trials = 1
	}
	// The set-up below must stay the same as Simulate's (TestSimulateWallsMatchesSimulate).
	rng := rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15))
	k := r.WeibullK
	if k <= 0 {
		k = 1
	}
	scale := r.MTBI / math.Gamma(1+1/k)
	draw := func() float64 {
		u := rng.Float64()
		if k == 1 {
			return -scale * math.Log1p(-u)
		}
		return scale * math.Pow(-math.Log1p(-u), 1/k)
	}
	if math.IsInf(r.MTBI, 1) || r.MTBI <= 0 {
		draw = func() float64 { return math.Inf(1) }
	}
	notice := r.Notice > 0 && j.Checkpoint <= r.Notice
	walls := make([]float64, cfg.Trials)
	for t := range walls {
		walls[t] = runTrial(j, r, interval, notice, draw, cfg).wall
	}
	slices.Sort(walls)
	return walls
}

// Percentile is the p-quantile (0 < p ≤ 1) of sorted values, as Simulate
// reports its percentiles: the smallest value with at least p of the
// values at or below it.
func Percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	n := float64(len(sorted))
	return sorted[min(len(sorted)-1, max(0, int(math.Ceil(p*n))-1))]
}

// Bin is one bar of a histogram: values in [From, To).
type Bin struct {
	From, To float64
	Count    int
}

// Histogram counts values in bins equal-width bins from lo to hi; values
// below lo count in the first bin and values from hi on in the last, so
// every value is counted. With hi ≤ lo there is one bin.
func Histogram(values []float64, lo, hi float64, bins int) []Bin {
	if bins < 1 || math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return nil
	}
	if hi <= lo {
		return []Bin{{From: lo, To: hi, Count: len(values)}}
	}
	w := (hi - lo) / float64(bins)
	out := make([]Bin, bins)
	for i := range out {
		out[i] = Bin{From: lo + float64(i)*w, To: lo + float64(i+1)*w}
	}
	out[bins-1].To = hi
	for _, v := range values {
		i := 0
		if v > lo {
			i = min(bins-1, int((v-lo)/w))
		}
		out[i].Count++
	}
	return out
}
