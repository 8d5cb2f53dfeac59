package spot_test

import (
	"math"
	"sort"
	"testing"

	"github.com/gpuscout/gpuscout/internal/spot"
)

// TestSimulateWallsMatchesSimulate: SimulateWalls runs the very runs
// Simulate runs, so its percentiles and mean are Simulate's, for every kind
// of run (periodic checkpoints, checkpoints in the notice, Weibull
// arrivals, a protection period, the on-demand fallback, no interruptions).
func TestSimulateWallsMatchesSimulate(t *testing.T) {
	job := spot.Job{Work: 24, Checkpoint: 5.0 / 60, Restart: 0.25, Deadline: 30}
	for _, c := range []struct {
		name string
		j    spot.Job
		r    spot.Risk
		cfg  spot.SimConfig
	}{
		{"periodic", job, spot.Risk{MTBI: 6, WeibullK: 1}, spot.SimConfig{Trials: 3000, Seed: 1}},
		{"in the notice", job, spot.Risk{MTBI: 4, Notice: 2.0 / 60 * 3, WeibullK: 1}, spot.SimConfig{Trials: 2000, Seed: 3}},
		{"weibull and protection", job, spot.Risk{MTBI: 8, Protection: 1, WeibullK: 0.7}, spot.SimConfig{Trials: 2000, Seed: 9}},
		{"fallback", job, spot.Risk{MTBI: 3, WeibullK: 1}, spot.SimConfig{Trials: 2000, Seed: 5, Fallback: true, OnDemandRestart: 0.25, Overhead: 0.2}},
		{"never interrupted", job, spot.Risk{MTBI: math.Inf(1), WeibullK: 1}, spot.SimConfig{Trials: 10, Seed: 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			plan := spot.Analyze(c.j, c.r)
			sim := spot.Simulate(c.j, c.r, plan.Interval, c.cfg)
			walls := spot.SimulateWalls(c.j, c.r, plan.Interval, c.cfg)
			if len(walls) != c.cfg.Trials || !sort.Float64sAreSorted(walls) {
				t.Fatalf("%d walls, sorted %v", len(walls), sort.Float64sAreSorted(walls))
			}
			for _, p := range []struct {
				q         float64
				got, want float64
			}{{0.5, spot.Percentile(walls, 0.5), sim.P50Hours}, {0.9, spot.Percentile(walls, 0.9), sim.P90Hours}, {0.99, spot.Percentile(walls, 0.99), sim.P99Hours}} {
				if p.got != p.want {
					t.Errorf("P%.0f = %v, Simulate says %v", 100*p.q, p.got, p.want)
				}
			}
			var sum float64
			for _, w := range walls {
				sum += w
			}
			near(t, "mean", sum/float64(len(walls)), sim.MeanHours, 1e-9*sim.MeanHours)
		})
	}
}

func TestHistogram(t *testing.T) {
	vals := []float64{0, 1, 1.5, 2, 9.99, 10, 12, -3}
	bins := spot.Histogram(vals, 0, 10, 5)
	if len(bins) != 5 || bins[0].From != 0 || bins[4].To != 10 {
		t.Fatalf("bins %+v", bins)
	}
	want := []int{4, 1, 0, 0, 3} // -3 clamps into the first bin, 10 and 12 into the last
	total := 0
	for i, b := range bins {
		if b.Count != want[i] {
			t.Errorf("bin %d [%g, %g): %d, want %d", i, b.From, b.To, b.Count, want[i])
		}
		total += b.Count
	}
	if total != len(vals) {
		t.Errorf("%d of %d values counted", total, len(vals))
	}
	if one := spot.Histogram([]float64{3, 3, 3}, 3, 3, 10); len(one) != 1 || one[0].Count != 3 {
		t.Errorf("equal values: %+v", one)
	}
	if spot.Histogram(vals, 0, math.Inf(1), 5) != nil {
		t.Error("an infinite range has no bins")
	}
	if spot.Percentile(nil, 0.5) != 0 || spot.Percentile([]float64{1, 2, 3, 4}, 0.5) != 2 || spot.Percentile([]float64{1, 2, 3, 4}, 1) != 4 {
		t.Error("Percentile")
	}
}
