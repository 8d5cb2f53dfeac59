// Package spot is gpuscout's spot-instance economics: the interruption
// rate of an offer, the optimal checkpoint interval, the expected time and
// cost of a job under interruptions (Daly's formula), a seeded Monte Carlo
// of the same process with percentiles and deadline risk, and the choice
// between spot, on-demand and spot with an on-demand fallback.
package spot

import (
	"fmt"
	"math"
)

// HoursPerMonth is the month the providers' monthly figures use.
const HoursPerMonth = 730

// Job is the work to run and its fault-tolerance costs. Times in hours.
type Job struct {
	Work       float64 // W: compute hours without interruptions
	Checkpoint float64 // C: time to write a checkpoint
	Restart    float64 // R: time from an interruption to working again (re-provision, reload, warm up)
	Deadline   float64 // D: hours from start; 0 = none
}

// Validate names the first bad field.
func (j Job) Validate() error {
	switch {
	case math.IsNaN(j.Work) || j.Work < 0:
		return fmt.Errorf("work-hours must not be negative")
	case j.Checkpoint < 0:
		return fmt.Errorf("checkpoint-minutes must not be negative")
	case j.Restart < 0:
		return fmt.Errorf("restart-minutes must not be negative")
	case j.Deadline < 0:
		return fmt.Errorf("deadline-hours must not be negative")
	}
	return nil
}

// Risk is how an offer gets interrupted.
type Risk struct {
	MTBI    float64 // M: mean hours between interruptions while running
	Source  string  // where M comes from
	Assumed bool    // M is an assumption, not derived from published data
	// Prior is set when M comes from the provider-level prior (what the
	// provider documents about interruptions in general) because nothing is
	// published for this instance type in this region.
	Prior      *PriorUse
	Notice     float64 // hours of warning before an interruption
	NoticeNote string
	Protection float64 // hours after each start without interruptions (Alibaba's protection period)
	WeibullK   float64 // shape of inter-arrival times; 1 (or 0) = exponential
}

// PriorUse names the provider-level prior an offer's rate was taken from.
type PriorUse struct {
	Provider string
	Band     string // the prior as the provider states it ("<10%", "24 h")
	BandZH   string // the same in Chinese, when given
	Rated    bool   // the prior carries a rate; false = gpuscout's one-a-day assumption was used with it
	Ref      string
	AsOf     string // "" for an undated source
	ReadOn   string // the day an undated source was read
}

// MTBIFromMonthlyFraction converts a monthly interruption frequency — the
// share f of instances interrupted over a month of running, as the AWS Spot
// Instance Advisor publishes it — into a mean time between interruptions,
// assuming interruptions arrive as a Poisson process over a 730-hour month:
//
//	P(interrupted within 730 h) = 1 − e^(−730/M) = f  ⇒  M = 730 / −ln(1 − f)
func MTBIFromMonthlyFraction(f float64) float64 {
	if f <= 0 {
		return math.Inf(1)
	}
	if f >= 1 {
		return 0
	}
	return HoursPerMonth / -math.Log(1-f)
}

// YoungInterval is Young's (1974) first-order optimal checkpoint interval
// τ = √(2·C·M).
func YoungInterval(c, m float64) float64 { return math.Sqrt(2 * c * m) }

// DalyInterval is Daly's (2006) higher-order optimal checkpoint interval:
//
//	τ = √(2CM)·[1 + ⅓·√(C/2M) + ⅑·(C/2M)] − C   for C < 2M, else τ = M
func DalyInterval(c, m float64) float64 {
	if c >= 2*m {
		return m
	}
	r := c / (2 * m)
	return math.Sqrt(2*c*m)*(1+math.Sqrt(r)/3+r/9) - c
}

// ExpectedMakespan is Daly's expected wall-clock time for W hours of work
// checkpointed every τ hours (cost C) with restart R under exponential
// interruptions of mean M:
//
//	T = M · e^(R/M) · (e^((τ+C)/M) − 1) · W / τ
func ExpectedMakespan(w, c, r, m, tau float64) float64 {
	if w == 0 {
		return 0
	}
	if math.IsInf(m, 1) {
		return w + c*math.Max(0, math.Ceil(w/tau)-1)
	}
	return m * math.Exp(r/m) * math.Expm1((tau+c)/m) * w / tau
}

// NoticeMakespan is the expected time when a checkpoint fits in the
// interruption notice: nothing is lost but the checkpoint and restart at
// each interruption, so with interruptions every M hours of running,
//
//	T = W / (1 − (C + R)/M)     (infinite when C + R ≥ M)
func NoticeMakespan(w, c, r, m float64) float64 {
	if w == 0 {
		return 0
	}
	if math.IsInf(m, 1) {
		return w
	}
	if c+r >= m {
		return math.Inf(1)
	}
	return w / (1 - (c+r)/m)
}

// ShortMakespan is the expected wall time of W hours of work that writes
// no checkpoint (it is shorter than one checkpoint interval), so an
// interruption restarts it from zero, with restart R under exponential
// interruptions of mean M (Daly's expression for one segment, C = 0):
//
//	T = M · e^(R/M) · (e^(W/M) − 1)
func ShortMakespan(w, r, m float64) float64 {
	if w == 0 {
		return 0
	}
	if math.IsInf(m, 1) {
		return w
	}
	return m * math.Exp(r/m) * math.Expm1(w/m)
}

// Plan is the analytic answer for a job on a spot offer.
type Plan struct {
	Interval      float64 // optimal checkpoint interval (hours); 0 when checkpoints go in the notice
	YoungInterval float64
	Formula       string
	ExpectedHours float64
	Overhead      float64 // ExpectedHours / Work − 1
	NoticeCovers  bool    // a checkpoint fits in the notice window
	// Short: the work is shorter than one checkpoint interval, so no
	// checkpoint is written and an interruption restarts it from zero
	// (ShortMakespan); Interval is the interval it never reaches.
	Short bool
}

// Analyze computes the optimal interval and the expected makespan.
func Analyze(j Job, r Risk) Plan {
	p := Plan{}
	if r.Notice > 0 && j.Checkpoint <= r.Notice {
		p.NoticeCovers = true
		p.Formula = "checkpoint in the interruption notice: T = W / (1 − (C + R)/M)"
		p.ExpectedHours = NoticeMakespan(j.Work, j.Checkpoint, j.Restart, r.MTBI)
	} else {
		p.YoungInterval = YoungInterval(j.Checkpoint, r.MTBI)
		p.Interval = DalyInterval(j.Checkpoint, r.MTBI)
		if p.Interval <= 0 || math.IsNaN(p.Interval) {
			p.Interval = j.Work // no checkpoint cost: checkpoint continuously
		}
		p.Formula = "Daly (2006): τ = √(2CM)·[1 + ⅓√(C/2M) + ⅑(C/2M)] − C; T = M·e^(R/M)·(e^((τ+C)/M) − 1)·W/τ"
		p.ExpectedHours = ExpectedMakespan(j.Work, j.Checkpoint, j.Restart, r.MTBI, p.Interval)
		if j.Work > 0 && j.Work <= p.Interval {
			// No checkpoint fires: charge none, and lose the work done
			// at each interruption.
			p.Short = true
			p.Formula = "shorter than one checkpoint interval, so no checkpoint is written and an interruption restarts it from zero: T = M·e^(R/M)·(e^(W/M) − 1)"
			p.ExpectedHours = ShortMakespan(j.Work, j.Restart, r.MTBI)
		}
	}
	if j.Work > 0 {
		p.Overhead = p.ExpectedHours/j.Work - 1
	}
	return p
}

// Label is the prior as the provider states it, in Chinese when zh and a
// Chinese text is given.
func (p PriorUse) Label(zh bool) string {
	if zh && p.BandZH != "" {
		return p.BandZH
	}
	return p.Band
}
