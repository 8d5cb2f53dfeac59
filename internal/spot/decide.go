package spot

import (
	"fmt"
	"math"
)

// Option is one way to run the job.
type Option struct {
	Name          string // on-demand, spot, spot+fallback
	ExpectedHours float64
	P90Hours      float64
	ExpectedCost  float64
	P90Cost       float64
	DeadlineMiss  float64
}

// Decision compares running on spot, on on-demand, and on spot with an
// on-demand fallback.
type Decision struct {
	Plan     Plan
	Spot     SimResult
	Mix      SimResult
	Options  []Option
	Best     string
	Saving   float64 // expected saving of Best over on-demand (currency)
	Verdict  string
	Currency string
}

// maxMiss is the deadline risk a plan may carry to be chosen.
const maxMiss = 0.05

// Decide simulates the job on spot alone and with an on-demand fallback,
// compares both with on-demand, and picks the cheapest option whose risk
// of missing the deadline is at most 5 % (or, if none, the least risky).
func Decide(j Job, r Risk, spotPrice, odPrice float64, currency string, cfg SimConfig) Decision {
	d := Decision{Plan: Analyze(j, r), Currency: currency}
	interval := d.Plan.Interval
	cfg.SpotPrice, cfg.OnDemandPrice, cfg.Overhead = spotPrice, odPrice, d.Plan.Overhead
	cfg.Fallback = false
	d.Spot = Simulate(j, r, interval, cfg)
	od := Option{Name: "on-demand", ExpectedHours: j.Work, P90Hours: j.Work, ExpectedCost: j.Work * odPrice, P90Cost: j.Work * odPrice}
	if j.Deadline > 0 && j.Work > j.Deadline {
		od.DeadlineMiss = 1
	}
	d.Options = append(d.Options, od,
		Option{Name: "spot", ExpectedHours: d.Spot.MeanHours, P90Hours: d.Spot.P90Hours, ExpectedCost: d.Spot.MeanCost,
			P90Cost: d.Spot.P90Cost, DeadlineMiss: d.Spot.DeadlineMiss})
	if j.Deadline > 0 && odPrice > 0 {
		cfg.Fallback = true
		if cfg.OnDemandRestart == 0 {
			cfg.OnDemandRestart = j.Restart
		}
		d.Mix = Simulate(j, r, interval, cfg)
		d.Options = append(d.Options, Option{Name: "spot+fallback", ExpectedHours: d.Mix.MeanHours, P90Hours: d.Mix.P90Hours,
			ExpectedCost: d.Mix.MeanCost, P90Cost: d.Mix.P90Cost, DeadlineMiss: d.Mix.DeadlineMiss})
	}
	best := -1
	for i, o := range d.Options {
		if o.DeadlineMiss > maxMiss || math.IsInf(o.ExpectedHours, 1) {
			continue
		}
		if best < 0 || o.ExpectedCost < d.Options[best].ExpectedCost {
			best = i
		}
	}
	if best < 0 { // nothing meets the deadline: the least risky
		best = 0
		for i, o := range d.Options {
			if o.DeadlineMiss < d.Options[best].DeadlineMiss {
				best = i
			}
		}
	}
	b := d.Options[best]
	d.Best = b.Name
	d.Saving = od.ExpectedCost - b.ExpectedCost
	d.Verdict = verdict(d, b, od, j)
	return d
}

func verdict(d Decision, b, od Option, j Job) string {
	c := d.Currency
	risk := ""
	if j.Deadline > 0 {
		risk = fmt.Sprintf("; %.1f%% risk of missing the %.4g h deadline", 100*b.DeadlineMiss, j.Deadline)
	}
	switch {
	case j.Work == 0:
		return "no work to run"
	case b.Name == "on-demand" && b.DeadlineMiss > maxMiss:
		return fmt.Sprintf("no option meets the %.4g h deadline: the work alone takes %.4g h", j.Deadline, j.Work)
	case b.Name == "on-demand":
		return fmt.Sprintf("use on-demand: spot's expected %.2f %s (%.4g h) does not beat %.2f %s (%.4g h) within the risk allowed",
			d.Spot.MeanCost, c, d.Spot.MeanHours, od.ExpectedCost, c, od.ExpectedHours)
	}
	return fmt.Sprintf("%s pays: expected %.2f %s vs %.2f %s on-demand (%.0f%% less), %.4g h expected, P90 %.4g h%s",
		b.Name, b.ExpectedCost, c, od.ExpectedCost, c, 100*(1-b.ExpectedCost/od.ExpectedCost), b.ExpectedHours, b.P90Hours, risk)
}
