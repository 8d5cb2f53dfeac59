package spot

import (
	"math"
	"testing"
)

// The normal approximation of a long job agrees with the simulation it
// stands in for: 130- and 300-hour jobs (Spread's threshold is about 50
// intervals) at one interruption a day, checkpointed every Daly
// interval, with the estimate's 10% error.
func TestSpreadNormalAgreesWithSimulation(t *testing.T) {
	for _, w := range []float64{130, 300} {
		checkSpreadNormal(t, Job{Work: w, Checkpoint: 10.0 / 60, Restart: 0.25, Deadline: 1.2 * w})
	}
}

func checkSpreadNormal(t *testing.T, j Job) {
	t.Helper()
	r := Risk{MTBI: 24}
	tau := DalyInterval(j.Checkpoint, r.MTBI)
	sigma := math.Log(1.1) / 1.2816
	sim := SimulateSpread(j, sigma, 40, r, tau, SimConfig{Trials: 8000, Seed: 1})
	norm := SpreadNormal(j, sigma, 40, r, tau)
	for _, c := range []struct {
		name      string
		sim, norm float64
	}{{"P10", sim.P10Hours, norm.P10Hours}, {"P50", sim.P50Hours, norm.P50Hours}, {"P90", sim.P90Hours, norm.P90Hours}, {"mean", sim.MeanHours, norm.MeanHours}} {
		if math.Abs(c.norm/c.sim-1) > 0.01 {
			t.Errorf("%.0f h: %s: normal approximation %.2f h, simulation %.2f h", j.Work, c.name, c.norm, c.sim)
		}
	}
	if math.Abs(norm.DeadlineMiss-sim.DeadlineMiss) > 0.02 {
		t.Errorf("deadline miss: normal approximation %.3f, simulation %.3f", norm.DeadlineMiss, sim.DeadlineMiss)
	}
	if !(norm.P10Hours <= norm.P50Hours && norm.P50Hours <= norm.P90Hours && norm.P90Hours <= norm.P99Hours) {
		t.Errorf("unordered quantiles %+v", norm)
	}
}

// A 93-minute job at one interruption a day never reaches its 163-minute
// checkpoint interval: it is charged no checkpoint overhead, only the
// work an interruption loses and the restart, and the simulation of the
// same process agrees.
func TestShortJobWritesNoCheckpoint(t *testing.T) {
	j := Job{Work: 93.0 / 60, Checkpoint: 10.0 / 60, Restart: 0.25}
	r := Risk{MTBI: 24}
	p := Analyze(j, r)
	if !p.Short || p.Interval*60 < 160 || p.Interval*60 > 166 {
		t.Fatalf("plan %+v: want a short job under a 163-minute interval", p)
	}
	if p.Overhead > 0.06 || p.Overhead <= 0 {
		t.Errorf("overhead %.1f%%, want the few percent of restarting from zero (Young/Daly charged 14%%)", 100*p.Overhead)
	}
	if want := ShortMakespan(j.Work, j.Restart, r.MTBI); p.ExpectedHours != want {
		t.Errorf("expected %.4f h, want %.4f h", p.ExpectedHours, want)
	}
	sim := Simulate(j, r, p.Interval, SimConfig{Trials: 200000, Seed: 3})
	if math.Abs(sim.MeanHours/p.ExpectedHours-1) > 0.005 {
		t.Errorf("simulated mean %.4f h, model %.4f h", sim.MeanHours, p.ExpectedHours)
	}
}
