package spot_test

import (
	"math"
	"testing"

	"github.com/gpuscout/gpuscout/internal/spot"
)

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.6g, want %.6g (±%g)", what, got, want, tol)
	}
}

// The worked fixture: C = 5 min, M = 10 h, R = 15 min.
func TestFormulas(t *testing.T) {
	c, m, r := 5.0/60, 10.0, 0.25
	// Young: √(2 · 1/12 · 10) = √(1.6667) = 1.29099 h = 77.46 min.
	near(t, "Young", spot.YoungInterval(c, m)*60, 77.4597, 1e-3)
	// Daly: 1.29099·[1 + ⅓√(0.0041667) + ⅑·0.0041667] − 0.083333
	//     = 1.29099·[1 + 0.021517 + 0.000463] − 0.083333 = 1.235968 h = 74.158 min.
	near(t, "Daly", spot.DalyInterval(c, m)*60, 74.158, 1e-2)
	// Daly makespan for W = 100 h at τ = 1.235968:
	// 10·e^0.025·(e^(1.319301/10) − 1)·100/1.235968 = 10·1.025315·0.141020·80.9082 = 116.99 h.
	tau := spot.DalyInterval(c, m)
	near(t, "makespan", spot.ExpectedMakespan(100, c, r, m, tau), 116.99, 0.02)
	// Checkpoint in the notice: 100 / (1 − (1/12 + 1/4)/10) = 103.448 h.
	near(t, "notice makespan", spot.NoticeMakespan(100, c, r, m), 103.448, 1e-3)
	// Monthly frequency 10 % → M = 730 / −ln 0.9 = 6928.5 h.
	near(t, "MTBI", spot.MTBIFromMonthlyFraction(0.10), 6928.5, 0.1)
	// Edge cases.
	if spot.DalyInterval(30, 10) != 10 {
		t.Error("C ≥ 2M must give τ = M")
	}
	if spot.ExpectedMakespan(0, c, r, m, tau) != 0 {
		t.Error("no work takes no time")
	}
	if !math.IsInf(spot.NoticeMakespan(10, 1, 1, 1.5), 1) {
		t.Error("C + R ≥ M never finishes")
	}
}

func TestSimulationAgreesWithAnalytic(t *testing.T) {
	j := spot.Job{Work: 100, Checkpoint: 5.0 / 60, Restart: 0.25}
	r := spot.Risk{MTBI: 10, WeibullK: 1}
	p := spot.Analyze(j, r)
	s := spot.Simulate(j, r, p.Interval, spot.SimConfig{Trials: 200000, Seed: 1})
	// Daly's formula is exact for exponential interruptions (up to the
	// shorter last interval, worth about τ/2 of checkpoint in 100 h).
	if rel := math.Abs(s.MeanHours/p.ExpectedHours - 1); rel > 0.01 {
		t.Errorf("simulated mean %.3f h vs analytic %.3f h: %.2f%% apart", s.MeanHours, p.ExpectedHours, 100*rel)
	}
	// Reproducible with the same seed.
	s2 := spot.Simulate(j, r, p.Interval, spot.SimConfig{Trials: 200000, Seed: 1})
	if s2.P90Hours != s.P90Hours || s2.MeanHours != s.MeanHours {
		t.Error("same seed, different result")
	}
	if !(s.P50Hours <= s.P90Hours && s.P90Hours <= s.P99Hours) {
		t.Errorf("percentiles out of order: %+v", s)
	}
	// With the checkpoint inside the notice.
	r.Notice = 0.1
	pn := spot.Analyze(j, r)
	sn := spot.Simulate(j, r, pn.Interval, spot.SimConfig{Trials: 200000, Seed: 2})
	if !pn.NoticeCovers {
		t.Fatal("a 5 min checkpoint fits a 6 min notice")
	}
	if rel := math.Abs(sn.MeanHours/pn.ExpectedHours - 1); rel > 0.01 {
		t.Errorf("notice: simulated %.3f vs analytic %.3f", sn.MeanHours, pn.ExpectedHours)
	}
}

func TestProtectionAndWeibull(t *testing.T) {
	j := spot.Job{Work: 2, Checkpoint: 0.1, Restart: 0.2}
	base := spot.Simulate(j, spot.Risk{MTBI: 1, WeibullK: 1}, 0.5, spot.SimConfig{Trials: 50000, Seed: 3})
	// A 1-hour protection period shields the first hour after every start.
	prot := spot.Simulate(j, spot.Risk{MTBI: 1, WeibullK: 1, Protection: 1}, 0.5, spot.SimConfig{Trials: 50000, Seed: 3})
	if !(prot.MeanInterruptions < base.MeanInterruptions && prot.MeanHours < base.MeanHours) {
		t.Errorf("protection did not help: %+v vs %+v", prot, base)
	}
	// Weibull with the same mean runs and gives a different spread.
	wb := spot.Simulate(j, spot.Risk{MTBI: 1, WeibullK: 2}, 0.5, spot.SimConfig{Trials: 50000, Seed: 3})
	if wb.MeanHours <= j.Work || math.IsNaN(wb.MeanHours) {
		t.Errorf("weibull %+v", wb)
	}
}

func TestDecision(t *testing.T) {
	j := spot.Job{Work: 10, Checkpoint: 5.0 / 60, Restart: 0.25, Deadline: 16}
	// Spot at 30 % of on-demand, interruptions every 10 h, 60 % slack.
	d := spot.Decide(j, spot.Risk{MTBI: 10, WeibullK: 1}, 3, 10, "USD", spot.SimConfig{Trials: 20000, Seed: 4})
	if d.Best == "on-demand" || d.Saving <= 0 {
		t.Errorf("spot should pay: %+v", d.Options)
	}
	var mix spot.Option
	for _, o := range d.Options {
		if o.Name == "spot+fallback" {
			mix = o
		}
	}
	if mix.DeadlineMiss > d.Spot.DeadlineMiss+1e-9 {
		t.Errorf("the fallback must not miss the deadline more often: %v vs %v", mix.DeadlineMiss, d.Spot.DeadlineMiss)
	}
	// A tight deadline (20 % slack for a 16 % expected overhead): spot alone
	// misses it about a third of the time, so on-demand wins.
	tight := spot.Decide(spot.Job{Work: 10, Checkpoint: 5.0 / 60, Restart: 0.25, Deadline: 12}, spot.Risk{MTBI: 10, WeibullK: 1}, 3, 10, "USD",
		spot.SimConfig{Trials: 20000, Seed: 4})
	if tight.Best != "on-demand" || tight.Options[1].DeadlineMiss < 0.2 {
		t.Errorf("tight deadline: %s %+v", tight.Best, tight.Options)
	}
	// Interruptions every 20 minutes with 15-minute restarts: spot cannot finish in time.
	d = spot.Decide(spot.Job{Work: 10, Checkpoint: 0.1, Restart: 0.25, Deadline: 11}, spot.Risk{MTBI: 1.0 / 3, WeibullK: 1}, 3, 10, "USD",
		spot.SimConfig{Trials: 2000, Seed: 5})
	if d.Best == "spot" {
		t.Errorf("spot cannot meet the deadline: %+v", d.Options)
	}
}

func BenchmarkSimulate(b *testing.B) {
	j := spot.Job{Work: 24, Checkpoint: 5.0 / 60, Restart: 0.25, Deadline: 30}
	r := spot.Risk{MTBI: 24, WeibullK: 1}
	p := spot.Analyze(j, r)
	for b.Loop() {
		spot.Simulate(j, r, p.Interval, spot.SimConfig{Trials: 1000000, Seed: 1, SpotPrice: 3, OnDemandPrice: 10})
	}
}
