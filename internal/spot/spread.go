package spot

import "math"

// spreadSteps is the most simulated steps (checkpoints and interruptions
// per run, times the trials) Spread spends before it answers from the
// normal approximation instead.
const spreadSteps = 100000

// Spread is the distribution of the wall time of a job whose work is
// log-normal (median j.Work, log standard deviation sigma) under
// interruptions: SimulateSpread where the simulation is small, and
// otherwise, for a long job of many checkpoint intervals (or many
// interruptions), the normal approximation of the interruption process
// (SpreadNormal), mixed over the same quantiles of the work. Both give
// P10, P50, P90 and, with a deadline, the share of runs past it.
func Spread(j Job, sigma float64, quantiles int, r Risk, interval float64, cfg SimConfig) SimResult {
	steps := 1.0
	if interval > 0 {
		steps += j.Work / interval
	}
	if r.MTBI > 0 && !math.IsInf(r.MTBI, 1) {
		steps += j.Work / r.MTBI
	}
	if steps*float64(max(cfg.Trials, 1)) <= spreadSteps || r.MTBI <= 0 {
		return SimulateSpread(j, sigma, quantiles, r, interval, cfg)
	}
	return SpreadNormal(j, sigma, quantiles, r, interval)
}

// segmentMoments are the mean and variance of the wall time to complete
// one segment of a hours of work (a checkpoint included) that restarts
// after R hours whenever an interruption (exponential, mean M, none
// during the restart) comes before it ends: the number of failed tries
// is geometric with success e^(−a/M), each costing the truncated
// exponential time to the interruption plus R.
func segmentMoments(a, rst, m float64) (mean, variance float64) {
	if math.IsInf(m, 1) {
		return a, 0
	}
	l := 1 / m
	q := -math.Expm1(-l * a) // P(fail)
	p := 1 - q
	if p <= 0 {
		return math.Inf(1), math.Inf(1)
	}
	ek := q / p
	vk := q / (p * p)
	// Truncated exponential on [0, a].
	e := math.Exp(-l * a)
	eu := 1/l - a*e/q
	eu2 := 2/(l*l) - e*(a*a+2*a/l+2/(l*l))/q
	vu := math.Max(0, eu2-eu*eu)
	ey := eu + rst
	mean = a + ek*ey
	variance = ek*vu + vk*ey*ey
	return mean, variance
}

// SpreadNormal is Spread's approximation for long jobs: given the work W,
// the wall time is normal with the mean and variance of W/τ independent
// segments of τ hours of work and a checkpoint (segmentMoments; the last
// one without a checkpoint), or, when checkpoints are written in the
// notice, of W/(1 − (C + R)/M) hours with each interruption costing
// C + R; the work is mixed over `quantiles` equal-probability quantiles
// of its log-normal. The protection period and Weibull shapes are not
// modelled (exponential interruptions from every start: conservative).
func SpreadNormal(j Job, sigma float64, quantiles int, r Risk, interval float64) SimResult {
	if quantiles < 1 || sigma <= 0 || math.IsNaN(sigma) {
		quantiles = 1
	}
	notice := r.Notice > 0 && j.Checkpoint <= r.Notice
	mu := make([]float64, quantiles)
	sd := make([]float64, quantiles)
	res := SimResult{}
	for i := range mu {
		w := j.Work
		if quantiles > 1 {
			z := math.Sqrt2 * math.Erfinv(2*(float64(i)+0.5)/float64(quantiles)-1)
			w = j.Work * math.Exp(sigma*z)
		}
		var m, v float64
		switch {
		case notice || interval <= 0:
			m = NoticeMakespan(w, j.Checkpoint, j.Restart, r.MTBI)
			if !math.IsInf(r.MTBI, 1) {
				c := j.Checkpoint + j.Restart
				v = c * c * m / r.MTBI
			}
		default:
			n := math.Floor(w / interval)
			last := w - n*interval
			sm, sv := segmentMoments(interval+j.Checkpoint, j.Restart, r.MTBI)
			lm, lv := segmentMoments(last, j.Restart, r.MTBI)
			m, v = n*sm+lm, n*sv+lv
		}
		mu[i], sd[i] = m, math.Sqrt(v)
		res.MeanHours += m / float64(quantiles)
	}
	cdf := func(t float64) float64 {
		s := 0.0
		for i := range mu {
			if sd[i] == 0 {
				if t >= mu[i] {
					s++
				}
				continue
			}
			s += 0.5 * math.Erfc(-(t-mu[i])/(sd[i]*math.Sqrt2))
		}
		return s / float64(len(mu))
	}
	quantile := func(p float64) float64 {
		lo, hi := 0.0, 0.0
		for i := range mu {
			hi = math.Max(hi, mu[i]+10*sd[i])
		}
		for k := 0; k < 60; k++ {
			mid := (lo + hi) / 2
			if cdf(mid) < p {
				lo = mid
			} else {
				hi = mid
			}
		}
		return hi
	}
	res.P10Hours, res.P50Hours, res.P90Hours, res.P99Hours = quantile(0.1), quantile(0.5), quantile(0.9), quantile(0.99)
	if j.Deadline > 0 {
		res.DeadlineMiss = 1 - cdf(j.Deadline)
	}
	return res
}
