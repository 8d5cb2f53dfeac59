package spot

import (
	"math"
	"math/rand/v2"
	"slices"
)

// SimConfig sets up a Monte Carlo run.
type SimConfig struct {
	Trials int
	Seed   uint64
	// Fallback switches to on-demand when finishing on spot would risk the
	// deadline (a spot run with an on-demand fallback).
	Fallback bool
	// OnDemandRestart is the time to start on-demand after giving up on spot.
	OnDemandRestart float64
	// SpotPrice and OnDemandPrice per instance-hour, for cost percentiles.
	SpotPrice, OnDemandPrice float64
	// Overhead is the expected interruption overhead on spot (Plan.Overhead),
	// used by the fallback to project the finish time.
	Overhead float64
}

// SimResult is the distribution of a job's wall time and cost.
type SimResult struct {
	Trials                       int
	MeanHours                    float64
	P10Hours                     float64
	P50Hours, P90Hours, P99Hours float64
	// SpotHours and OnDemandHours are the mean hours billed at each price.
	SpotHours, OnDemandHours            float64
	MeanCost, P50Cost, P90Cost, P99Cost float64
	MeanInterruptions                   float64
	DeadlineMiss                        float64 // share of trials that finish after the deadline
	FellBack                            float64 // share of trials that finished on on-demand
}

// trial is one simulated run: wall hours, spot hours, on-demand hours, interruptions.
type trial struct {
	wall, spot, od float64
	ints           int
}

// Simulate runs the interruption process trials times:
//   - running time between interruptions is exponential (Weibull when
//     r.WeibullK ≠ 1) with mean r.MTBI, and none comes during r.Protection
//     hours after each start;
//   - work is checkpointed every `interval` hours (cost C, work stalls),
//     unless a checkpoint fits in the notice, in which case it is written
//     during the notice and no work is lost;
//   - an interruption loses the work since the last completed checkpoint,
//     then R hours pass before work resumes;
//   - with Fallback, after each checkpoint and each interruption the run
//     moves to on-demand when the remaining work, at spot's expected pace
//     plus the loss of one more interruption, would end after the deadline.
//
// It is seeded and reproducible.
func Simulate(j Job, r Risk, interval float64, cfg SimConfig) SimResult {
	return SimulateSpread(j, 0, 1, r, interval, cfg)
}

// SimulateSpread is Simulate over the work's own uncertainty: one
// distribution of the wall time that combines the time estimate's error
// and the interruptions. The work is log-normal, j.Work its median and
// sigma its log standard deviation; the trials are split evenly over
// `quantiles` equal-probability quantiles of it (j.Work·e^(σz), z the
// standard normal's quantile at (i + ½)/quantiles), each run through the
// interruption process, and pooled. With sigma 0 (or one quantile) it is
// Simulate.
func SimulateSpread(j Job, sigma float64, quantiles int, r Risk, interval float64, cfg SimConfig) SimResult {
	if quantiles < 1 || sigma <= 0 || math.IsNaN(sigma) {
		quantiles = 1
	}
	if cfg.Trials < 1 {
		cfg.Trials = 1
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15))
	k := r.WeibullK
	if k <= 0 {
		k = 1
	}
	// Weibull scale for the mean MTBI: λ = M / Γ(1 + 1/k).
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
	costs := make([]float64, cfg.Trials)
	var res SimResult
	res.Trials = cfg.Trials
	miss, fell := 0, 0
	works := []float64{j.Work}
	if quantiles > 1 {
		works = make([]float64, quantiles)
		for i := range works {
			z := math.Sqrt2 * math.Erfinv(2*(float64(i)+0.5)/float64(quantiles)-1)
			works[i] = j.Work * math.Exp(sigma*z)
		}
	}
	for t := 0; t < cfg.Trials; t++ {
		jt := j
		jt.Work = works[t*len(works)/cfg.Trials]
		tr := runTrial(jt, r, interval, notice, draw, cfg)
		walls[t] = tr.wall
		costs[t] = tr.spot*cfg.SpotPrice + tr.od*cfg.OnDemandPrice
		res.MeanCost += costs[t]
		res.MeanHours += tr.wall
		res.SpotHours += tr.spot
		res.OnDemandHours += tr.od
		res.MeanInterruptions += float64(tr.ints)
		if j.Deadline > 0 && tr.wall > j.Deadline+1e-9 {
			miss++
		}
		if tr.od > 0 {
			fell++
		}
	}
	n := float64(cfg.Trials)
	res.MeanHours /= n
	res.MeanCost /= n
	res.SpotHours /= n
	res.OnDemandHours /= n
	res.MeanInterruptions /= n
	res.DeadlineMiss = float64(miss) / n
	res.FellBack = float64(fell) / n
	slices.Sort(walls)
	slices.Sort(costs)
	pct := func(v []float64, p float64) float64 { return v[min(len(v)-1, int(math.Ceil(p*n))-1)] }
	res.P10Hours = pct(walls, 0.1)
	res.P50Hours, res.P90Hours, res.P99Hours = pct(walls, 0.5), pct(walls, 0.9), pct(walls, 0.99)
	res.P50Cost, res.P90Cost, res.P99Cost = pct(costs, 0.5), pct(costs, 0.9), pct(costs, 0.99)
	return res
}

func runTrial(j Job, r Risk, interval float64, notice bool, draw func() float64, cfg SimConfig) trial {
	var tr trial
	now, saved, since := 0.0, 0.0, 0.0
	next := r.Protection + draw() // wall time of the next interruption
	// One more interruption can cost a restart, a checkpoint and an interval of work.
	slack := j.Restart + j.Checkpoint + math.Min(interval, j.Work)
	if notice {
		slack = j.Restart + j.Checkpoint
	}
	switchNow := func() bool {
		left := j.Work - saved
		return cfg.Fallback && j.Deadline > 0 && now+left*(1+cfg.Overhead)+slack > j.Deadline
	}
	fallback := func() trial {
		left := j.Work - saved
		tr.spot = now
		tr.od = cfg.OnDemandRestart + left
		tr.wall = now + cfg.OnDemandRestart + left
		return tr
	}
	if switchNow() {
		return fallback()
	}
	for saved+since < j.Work {
		remaining := j.Work - saved - since
		seg := remaining
		if !notice && interval > 0 {
			seg = math.Min(interval-since, remaining)
		}
		if now+seg <= next {
			now += seg
			since += seg
			if saved+since >= j.Work {
				break
			}
			if notice || interval <= 0 {
				continue
			}
			// Periodic checkpoint.
			if now+j.Checkpoint <= next {
				now += j.Checkpoint
				saved += since
				since = 0
				if switchNow() {
					return fallback()
				}
				continue
			}
			now = next // interrupted while writing: the checkpoint is lost
		} else {
			worked := next - now
			now = next
			since += worked
			if notice {
				// Written during the notice: all but the notice's last C hours are kept.
				saved += math.Max(0, since-j.Checkpoint)
			}
		}
		// Interrupted at `now`.
		since = 0
		tr.ints++
		if switchNow() {
			return fallback()
		}
		now += j.Restart
		next = now + r.Protection + draw()
	}
	tr.wall = now
	tr.spot = now
	return tr
}
