package recommend

import (
	"fmt"
	"math"
	"strings"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/perf"
	"github.com/gpuscout/gpuscout/internal/pricing"
	"github.com/gpuscout/gpuscout/internal/spot"
	"github.com/shopspring/decimal"
)

// plan builds a full plan (bill and simulation) for a chosen candidate.
func (x *run) plan(c *cand, rank int) (*Plan, error) {
	r, e, cur := x.r, x.e, x.cur
	if err := x.full(c); err != nil {
		return nil, err
	}
	p := e.lightPlan(c, cur)
	p.Rank = rank
	p.spotPlan, p.spotRisk, p.stale = c.spotPlan, c.spotRisk, c.stale
	p.Sizing = c.sizing
	if c.est != nil {
		p.Confidence = c.est.Confidence
	}
	var b *pricing.Breakdown
	var err error
	if r.service() {
		u := pricing.DefaultUsage()
		u.Instances = c.instances
		u.Months = max(1, r.HorizonMonths)
		if r.Utilization > 0 {
			u.Utilization = decimal.NewFromFloat(r.Utilization)
		}
		b, err = e.Pricing.Cost(c.offer, u)
	} else {
		// Job hours already include spot overhead: bill them as they are.
		noHook := *e.Pricing
		noHook.Spot = nil
		b, err = noHook.JobCost(c.offer, c.instances, decimal.NewFromFloat(c.billed))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.offer.ID(), err)
	}
	p.Breakdown = b
	if p.Cost, err = e.toCur(b.Total().InexactFloat64(), b.Currency, cur); err != nil {
		return nil, err
	}
	if g := c.offer.Instance.GPUCount.InexactFloat64(); g > 0 {
		// The effective hourly rate per GPU (commitments spread over their hours).
		if h, err := e.toCur(c.offer.EffectiveHourly().InexactFloat64(), c.offer.Price.Currency, cur); err == nil {
			p.PerGPUHour = h / g
		}
	}
	if r.service() && c.offer.Billing.IsCommitment() {
		p.Cost = c.cost // renewals over the horizon
	}
	c.cost = p.Cost
	// Each component in the plan's currency: conversion is linear, so
	// they are the bill's shares of the plan's cost and sum to it.
	if bt := b.Total(); !bt.IsZero() {
		for _, comp := range b.Components {
			p.ComponentTotals = append(p.ComponentTotals, p.Cost*comp.Total().Div(bt).InexactFloat64())
		}
	}
	if c.spotPlan != nil && c.spotRisk != nil {
		adv := &SpotAdvice{MTBIHours: c.spotRisk.MTBI, MTBISource: c.spotRisk.Source, IntervalMinutes: c.spotPlan.Interval * 60,
			Formula: c.spotPlan.Formula, Overhead: c.spotPlan.Overhead}
		if !r.service() {
			// The one distribution of the job's time (spotDist): its P90
			// is the plan's slow end, its share past the deadline the
			// plan's risk of missing it.
			adv.P90Hours, adv.P50Hours = c.high, c.spotP50
			adv.Short = c.spotPlan.Short
		}
		p.Spot = adv
	}
	if c.est != nil && !r.service() {
		p.Basis = x.basis(c)
	}
	if c.inf != nil {
		p.Serving = x.serving(c)
	}
	if c.book > 0 {
		p.Booking = &Booking{Quantile: r.bookQuantile(), QuantileHours: round6(c.book), BlockHours: c.billed,
			UsableHours: c.billed - capacityBlockWindDown, OverrunProbability: round6(c.pastBook)}
	}
	if r.service() {
		red := &Redundancy{Chosen: r.HA}
		if r.HA {
			red.Instances, red.Cost = c.instances, p.Cost
			red.Extra = p.Cost / float64(c.instances)
		} else {
			red.Instances = c.instances + 1
			red.Extra = p.Cost / float64(c.instances)
			red.Cost = p.Cost + red.Extra
		}
		p.Redundant = red
	}
	return p, nil
}

// bestCommitment names, in a service's top plan that pays as it goes,
// the cheapest feasible commitment it beat, its total and the utilisation
// above which it would win; and the assumption that pay-as-you-go is
// billed only for the hours used.
func (x *run) bestCommitment(pl *Plan, cands []*cand) {
	var best *cand
	for _, c := range cands {
		if c.offer.Billing.IsCommitment() && (best == nil || c.cost < best.cost) {
			best = c
		}
	}
	util := x.r.Utilization
	if util == 0 {
		util = 1
	}
	cur := x.res.Currency
	x.add(pl, "rec.payg_used_hours", pct(util))
	if best == nil {
		x.add(pl, "rec.no_commitment")
		return
	}
	full := pl.Cost / util // this plan at 100% utilisation
	name := x.p.T("rec.commit_name", best.offer.InstanceName, best.instances, best.offer.Provider, best.offer.RegionCode, x.billing(best.offer))
	if be := best.cost / full; be < 1 {
		x.add(pl, "rec.best_commitment", name, money(best.cost, cur), pct(be))
	} else {
		x.add(pl, "rec.best_commitment_never", name, money(best.cost, cur))
	}
}

func (x *run) add(pl *Plan, key string, args ...any) {
	pl.Reasons = append(pl.Reasons, x.p.T(key, args...))
}

// fabricNotes is the fabric bandwidth a multi-node plan's scaling assumed,
// in the printer's language.
func (x *run) fabricNotes(c *cand) string {
	var v []string
	for _, m := range c.fabric {
		v = append(v, x.p.M(m))
	}
	if len(v) == 0 {
		return x.p.T("rec.fabric_none")
	}
	return strings.Join(v, "; ")
}

// armHost reports whether an instance's CPUs are ARM: AWS Graviton
// instances with T4G GPUs (g5g) and NVIDIA Grace (GH200).
func armHost(it *catalog.InstanceType) bool {
	id := strings.ToUpper(it.GPUID)
	return id == "T4G" || strings.HasPrefix(id, "GH200") || strings.HasPrefix(strings.ToLower(it.Name), "g5g.")
}

// basis states what a job's time rests on.
func (x *run) basis(c *cand) *Basis {
	est := c.est
	r := x.r
	b := &Basis{Confidence: string(est.Confidence), Scaling: c.scaling, Precision: r.precisionLabel(est.Precision), Sources: []string{}, Assumptions: []string{}}
	for _, a := range est.Assumptions {
		if c.fp64 > 0 && strings.Contains(a.String(), "FP64") {
			continue // the advisor sizes FP64 itself (below)
		}
		b.Assumptions = append(b.Assumptions, x.p.M(a))
	}
	if c.fp64 > 0 {
		b.Assumptions = append(b.Assumptions, fmt.Sprintf("FP64: the FP32 estimate scaled by the FP64/FP32 vector peak ratio (%.1f / %.1f TFLOPS)",
			c.fp64, c.offer.Instance.GPU.FP32TFLOPS.InexactFloat64()))
	}
	if c.scaling > 0 && c.scaling < 1 {
		b.Assumptions = append(b.Assumptions, fmt.Sprintf("multi-node data-parallel efficiency %.2f from the model's all-reduce fit on %s", c.scaling, scalingBenchmark))
	}
	for _, m := range c.fabric {
		b.Assumptions = append(b.Assumptions, x.p.M(m))
	}
	if j := r.Workload.Job; j != nil {
		switch j.Kind {
		case perf.TransformerTrain:
			work := j.Params
			if j.ActiveParams > 0 {
				work = j.ActiveParams
			}
			b.FLOPs = 6 * work * j.Tokens
			if j.Method == perf.LoRA || j.Method == perf.QLoRA {
				b.FLOPs = 4 * work * j.Tokens
			}
			b.Utilization = est.Efficiency
		case perf.FLOPJob:
			b.FLOPs = j.FLOPs
			b.Utilization = est.Efficiency
		}
		if pk, _, _, ok := perf.SpecOf(c.offer.Instance.GPU).PeakFor(est.Precision); ok {
			b.PeakTFLOPS = pk
		}
		if c.fp64 > 0 {
			b.PeakTFLOPS = c.fp64
			b.Sources = append(b.Sources, c.offer.Instance.GPU.FP64Source)
		}
	}
	for _, pt := range est.Basis {
		if len(b.Sources) >= 5 {
			break
		}
		b.Sources = append(b.Sources, pt.Source)
	}
	if len(b.Sources) == 0 {
		b.Sources = append(b.Sources, c.offer.Instance.GPU.Source.Ref)
	}
	return b
}

// precisionLabel is the precision as the user wrote it (bf16 stays bf16).
func (r *Requirements) precisionLabel(p perf.Precision) string {
	if r.Workload.Precision != "" {
		return strings.ToLower(r.Workload.Precision)
	}
	return string(p)
}

func pct(v float64) string { return fmt.Sprintf("%.0f%%", 100*v) }

// pct2 is a probability as a percentage, "<1%" when it rounds to none
// but is not none.
func pct2(v float64) string {
	if v > 0 && v < 0.005 {
		return "<1%"
	}
	return pct(v)
}

// round6 rounds a figure for a document (6 decimal places, as
// document.Num does).
func round6(v float64) float64 { return math.Round(v*1e6) / 1e6 }

// quantileName is a quantile as a percentile: 0.9 → "P90".
func quantileName(q float64) string { return "P" + strconvG(100*q) }

func strconvG(v float64) string { return fmt.Sprintf("%g", math.Round(v*10)/10) }

// hrs renders hours in the printer's language.
func (x *run) hrs(h float64) string {
	switch {
	case h < 2:
		return x.p.T("rec.unit.min", h*60)
	case h < 72:
		return x.p.T("rec.unit.h", h)
	}
	return x.p.T("rec.unit.days", h/24)
}

// money writes an amount as the advisor's sentences and plan cards do:
// whole units with thousands grouped from 100 up (39,072 USD), two
// decimals from 1, four below.
func money(v float64, cur string) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%s %s", thousands(fmt.Sprintf("%.0f", v)), cur)
	case v >= 1:
		return fmt.Sprintf("%.2f %s", v, cur)
	}
	return fmt.Sprintf("%.4f %s", v, cur)
}

func thousands(s string) string {
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// popular are the choices the seed articles recommend; when the advisor
// rejects them it says why.
var popular = []string{"aws/p4d.24xlarge/", "azure/Standard_ND96asr_v4/", "alibaba/ecs.gn7i-", "tencent/GN10Xp.", "tencent/GT4."}

// prioName is the priority in the printer's language.
func (x *run) prioName() string {
	r := x.r
	if r.Weights != nil {
		w := r.weights()
		return x.p.T("rec.prio.custom", w.Cost, w.Time, w.Risk)
	}
	pr := r.Priority
	if pr == "" {
		pr = "balanced"
	}
	return x.p.T("rec.prio." + pr)
}

func (x *run) billing(o *catalog.Offer) string {
	return x.p.Billing(string(o.Billing), o.Billing.Family())
}

func (x *run) name(pl *Plan) string {
	return fmt.Sprintf("%s (%s, %s)", pl.Offer.InstanceName, pl.Offer.Provider, x.billing(pl.Offer))
}

// explain writes every plan's reasons and risks, and the result's notes.
func (x *run) explain(cands []*cand) error {
	r, res, p, e := x.r, x.res, x.p, x.e
	cur := res.Currency
	cheapest, fastest := cands[0], cands[0]
	for _, c := range cands {
		// Windows plans priced at a Windows rate are compared with each
		// other: a Linux rate is only a lower bound (windowsNotes says
		// when one is below the top plan).
		if r.windows() && windowsRate(cands[0].offer) && !windowsRate(c.offer) {
			continue
		}
		if c.cost < cheapest.cost {
			cheapest = c
		}
		if c.hours > 0 && c.hours < fastest.hours {
			fastest = c
		}
	}
	// The top plan's reasons may name what makes the cheapest risky.
	if err := x.full(cheapest); err != nil {
		return err
	}
	for i, pl := range res.Plans {
		o := pl.Offer
		c := pl.cand
		add := func(key string, args ...any) { pl.Reasons = append(pl.Reasons, p.T(key, args...)) }
		risk := func(key string, args ...any) { pl.Risks = append(pl.Risks, p.T(key, args...)) }
		if r.service() {
			add("rec.what_service", pl.Instances, o.InstanceName, pl.GPUCount(), o.Instance.GPUID, o.Provider, o.RegionCode, x.billing(o),
				money(pl.Cost, cur), max(1, r.HorizonMonths))
		} else {
			add("rec.what_job", pl.Instances, o.InstanceName, pl.GPUCount(), o.Instance.GPUID, o.Provider, o.RegionCode, x.billing(o),
				x.hrs(pl.Hours), money(pl.Cost, cur))
		}
		hourly, _ := e.toCur(o.EffectiveHourly().InexactFloat64(), o.Price.Currency, cur)
		add("rec.price2", money(hourly, cur), p.T("rec.srckind."+string(o.Source.Kind)), p.AsOfPhrase(o.Source.AsOfString(), o.Source.ReadOnString()), x.mainComponent(pl.Breakdown))
		if o.Price.Currency != cur {
			add("rec.converted", o.Price.Currency, cur)
		}
		if e.Catalog.IsMarketplace(o.Provider) {
			add("rec.marketplace", o.Provider)
		}
		if st := o.Stock; st != nil {
			switch st.State {
			case catalog.StockAvailable:
				add("rec.stock_seen", o.Provider, p.StockAge(st.Age(e.Now)))
			case catalog.StockLow:
				risk("rec.risk_stock_low", o.Provider, p.StockAge(st.Age(e.Now)))
			case catalog.StockNone:
				risk("rec.risk_no_capacity", o.Provider, p.StockAge(st.Age(e.Now)))
			}
		}
		switch o.Billing {
		case catalog.CapacityBlock:
			if !r.service() {
				block := c.billed
				blockCost, _ := e.toCur(o.EffectiveHourly().InexactFloat64()*block*float64(pl.Instances), o.Price.Currency, cur)
				add("rec.capacity_block", int(block/24), money(blockCost, cur))
				need := pl.Hours
				if c.book > 0 {
					// Booked to the slow end: the quantile it covers and
					// the chance of running past the usable hours.
					need = c.book
					add("rec.book_slow_end", quantileName(r.bookQuantile()), x.hrs(c.book), x.hrs(pl.Hours), x.hrs(block-capacityBlockWindDown), pct2(c.pastBook))
					if c.pastBook >= 0.005 {
						risk("rec.risk_block_overrun", pct2(c.pastBook), int(block/24))
					}
				}
				if need > 14*24 && block-need >= 24 {
					add("rec.capacity_block_steps", need/24, int(block/24))
				}
				if block-pl.Hours < capacityBlockWindDown {
					add("rec.capacity_block_end", block-capacityBlockWindDown, pl.Hours)
				}
				if r.guaranteed() {
					add("rec.capacity_block_start", r.StartWithinDays)
				}
			}
		case catalog.FlexStart:
			add("rec.flex_start", catalog.FlexStartMaxHours/24)
		}
		// How the size was chosen.
		switch c.sizing {
		case "rec.size_deadline":
			add(c.sizing, pl.Instances, x.hrs(pl.HoursHigh), r.DeadlineHours)
		case "rec.size_no_margin":
			add(c.sizing, pl.Instances, x.hrs(pl.HoursHigh), r.DeadlineHours)
		case "rec.size_speed":
			add(c.sizing, pl.Instances, pct(speedGain))
		case "rec.size_reservation":
			add(c.sizing, x.hrs(r.Hours), pl.Instances, r.Workload.ClusterGPUs)
		case "rec.size_smallest":
			if r.MultiNode {
				add(c.sizing, pl.Instances)
			}
		}
		// The basis of time (jobs) or throughput (services).
		if pl.Basis != nil {
			b := pl.Basis
			if b.FLOPs > 0 {
				add("rec.basis_flops", b.FLOPs, b.Precision, pct(b.Utilization), b.PeakTFLOPS, p.T("rec.conf."+b.Confidence))
			} else {
				add("rec.basis_bench", len(pl.Estimate.Basis), p.T("rec.conf."+b.Confidence))
			}
			if c.fp64 > 0 {
				add("rec.basis_fp64", c.fp64, o.Instance.GPU.FP64TensorTFLOPS.InexactFloat64())
			}
			if j := r.Workload.Job; j != nil && j.Kind == perf.TransformerTrain && pl.Estimate.Memory != nil {
				m := j.Method
				if m == "" {
					m = perf.Full
				}
				add("rec.train_memory", p.T("rec.method."+string(m)), pl.Estimate.Memory.NeedGB)
				if j.ActiveParams > 0 {
					add("rec.train_moe", j.Params, j.ActiveParams)
				}
			}
			if pl.Nodes > 1 && r.training() {
				add("rec.basis_scaling", pct(c.scaling), pl.Nodes, x.fabricName(o.Instance.RDMA), x.fabricNotes(c))
			}
			add("rec.time2", x.hrs(pl.HoursLow), x.hrs(pl.HoursHigh))
		}
		if !r.service() && !o.Billing.IsCommitment() && o.Billing != catalog.CapacityBlock {
			switch {
			case c.gran.Verified:
				rule := x.p.T("rec.gran.second")
				if c.gran.Min > 0 {
					rule = x.p.T("rec.gran.second_min", c.gran.Min*3600)
				}
				if r.reservation() {
					add("rec.billed_held", x.hrs(c.billed), rule, c.gran.Source)
				} else {
					add("rec.billed2", x.hrs(c.billed), startupHours*60, rule, c.gran.Source)
				}
			case r.reservation():
				add("rec.billed_held_assumed", x.hrs(c.billed), o.Provider)
			default:
				add("rec.billed_assumed", x.hrs(c.billed), startupHours*60, o.Provider)
			}
		}
		if c.inf != nil {
			s := c.inf
			add("rec.inf_sizing", s.TP, s.Replicas, s.PerInstance, p.T("rec.conf."+string(pl.Confidence)))
			inf := r.Workload.Inference
			if rf := c.est.Roofline; rf != nil && rf.KVPerSeqGB > 0 {
				free := float64(s.TP)*c.offer.Instance.VRAMPerGPUGB().InexactFloat64()*0.9 - inf.Params*bytesPerParam(c.est.Precision)/1e9
				add("rec.inf_kv", rf.KVPerSeqGB, math.Max(0, free), s.TP, math.Floor(math.Max(0, free)/rf.KVPerSeqGB), rf.Batch)
			}
			if inf.ActiveParams > 0 {
				add("rec.inf_moe", inf.Params, inf.ActiveParams)
			}
			if rf := c.est.Roofline; rf != nil && rf.KVPerSeqGB > 0 {
				x.servingReasons(add, c)
			}
			if inf.Precision == "" {
				add("rec.inf_weights16", inf.Params*2/1e9)
			} else {
				add("rec.inf_weights", r.precisionLabel(inf.Precision), inf.Params*bytesPerParam(inf.Precision)/1e9)
			}
			if r.Workload.Inference.QPS > 0 {
				add("rec.inf_latency", s.TTFTMs, s.TPOTFloorMs, r.Workload.Inference.QPS, r.Workload.Inference.OutputRate(), c.base)
			} else if s.TPOTFloorMs > 0 {
				add("rec.inf_tpot", s.TPOTFloorMs)
			}
			if r.Workload.Inference.Heads == 0 && s.TP > 1 {
				risk("rec.risk_heads", defaultHeads, s.TP)
			}
		}
		if i == 0 {
			x.whyFirst(pl, c, cheapest, fastest, cands)
			for _, cc := range res.Constraints {
				add("rec.constraint_removed", cc.Constraint, cc.Removed)
			}
			if len(res.Plans) > 1 {
				pl.Reasons = append(pl.Reasons, x.tradeOff(pl, res.Plans[1]))
			}
			if r.service() && !o.Billing.IsCommitment() {
				x.bestCommitment(pl, cands)
			}
			if r.Budget > 0 {
				s := x.spend(c, pl.Cost)
				add("rec.budget_ok", money(s, cur), x.periodWord(), money(r.Budget, cur), pct(s/r.Budget))
			}
		}
		x.whatWouldChange(pl)
		if c.nearKM >= 0 && len(x.near) > 0 {
			if c.nearKM >= 0 && o.Region.HasCoords {
				city := o.Region.City
				if p.Lang() == i18n.ZH && o.Region.NameZH != "" {
					city = o.Region.NameZH
				}
				add("rec.near_km", city, c.nearKM)
			}
		}
		if r.windows() {
			x.windowsNotes(pl, i == 0, cands)
		}
		// Spot: the checkpoint plan.
		if pl.Spot != nil {
			s := pl.Spot
			if r.service() {
				add("rec.spot_service", s.MTBIHours, pct(s.Overhead))
			} else {
				if s.Short {
					add("rec.spot_short", s.IntervalMinutes, pct(s.Overhead), x.hrs(s.P90Hours))
				} else {
					add("rec.spot_plan", s.IntervalMinutes, checkpointHours*60, pct(s.Overhead), x.hrs(s.P90Hours))
				}
			}
			if r.MTBIHours > 0 {
				risk("rec.risk_spot_given", s.MTBIHours)
			} else {
				risk("rec.risk_spot2", fmt.Sprintf("%.0f", s.MTBIHours), spotSource(x.p, pl.spotRisk, o))
			}
		}
		// A commitment longer than the horizon is paid in full.
		if tm := o.Billing.TermHours() / 730; r.service() && o.Billing.IsCommitment() && tm > max(1, r.HorizonMonths) {
			add("rec.commit_whole_term", x.billing(o), tm, max(1, r.HorizonMonths))
		}
		// Commitments over a longer horizon.
		if r.service() && o.Billing.IsCommitment() && c.terms > 1 {
			add("rec.commit_renew", x.billing(o), c.terms)
			if miss := x.missingTerms(o); miss != "" {
				add("rec.commit_missing", miss)
			}
		}
		// Services: redundancy.
		if rd := pl.Redundant; rd != nil {
			if rd.Chosen {
				add("rec.ha_chosen", rd.Instances, money(rd.Extra, cur))
			} else {
				add("rec.ha_offer", rd.Instances, money(rd.Cost, cur), money(rd.Extra, cur))
				if pl.Instances == 1 {
					risk("rec.risk_spof")
				}
			}
		}
		if r.scoresSLA() {
			if s, ok := ComputeSLA(o.Provider); ok {
				sla := s
				pl.SLA = &sla
				if s.Zones > 0 {
					add("rec.sla", o.Provider, s.Single, s.Zones, s.Ref)
				} else {
					add("rec.sla_single", o.Provider, s.Single, s.Ref)
				}
				switch {
				case s.GPUImplicit && s.AsOf != "":
					add("rec.sla_gpu_implicit", o.Provider, s.AsOf)
				case s.GPUImplicit:
					add("rec.sla_gpu_implicit_undated", o.Provider, s.ReadOn)
				}
			} else {
				risk("rec.risk_no_sla", o.Provider, noSLARisk)
			}
		}
		if r.guaranteed() && !reserved(o) {
			risk("rec.risk_not_reserved", pl.Instances, o.InstanceName, r.StartWithinDays)
		}
		if pl.DeadlineMiss >= 0.005 {
			risk("rec.risk_deadline", pct(pl.DeadlineMiss), r.DeadlineHours, x.hrs(pl.HoursHigh))
		}
		if r.likelyMiss(c.miss) {
			meet := 0
			for _, o := range cands {
				if !r.likelyMiss(o.miss) {
					meet++
				}
			}
			if meet > 0 {
				add("rec.likely_miss", r.DeadlineHours, pct(c.miss), pct(LikelyMiss), x.hrs(pl.HoursHigh), meet)
			}
		}
		if g := o.Instance.GPU; g != nil && armHost(o.Instance) {
			risk("rec.risk_arm", o.Instance.GPUID)
		}
		if g := o.Instance.GPU; g != nil && !g.MLSupported() && r.mlWorkload() {
			risk("rec.risk_no_ml_stack", g.ID) // named by the user: kept, with the warning
		} else if g != nil && strings.EqualFold(g.Vendor, "AMD") {
			risk("rec.risk_rocm")
		}
		if pl.Confidence == perf.Transferred || pl.Confidence == perf.SpecsOnly {
			risk("rec.risk_confidence2", p.T("rec.conf."+string(pl.Confidence)))
		}
		switch {
		case o.Source.Undated():
			risk("rec.risk_undated", o.Source.ReadOnString())
		case pl.stale:
			risk("rec.risk_stale", o.Source.AsOfString())
		}
		if pl.Nodes > 1 && r.Workload.Job != nil && r.Workload.Job.Kind == perf.FLOPJob {
			risk("rec.risk_linear_flops", pl.Nodes)
		}
		if pl.Nodes > 1 && !hasRDMA(o.Instance) && (r.training() || r.Workload.ClusterGPUs > 0) {
			risk("rec.risk_no_rdma", pct(noRDMAPenalty))
		}
		if pl.Estimate != nil && pl.Estimate.Memory != nil && pl.Estimate.Memory.Group > 1 && c.inf == nil {
			risk("rec.risk_sharded", nextPow2(pl.Estimate.Memory.Group), pl.Estimate.Memory.NeedGB)
		}
	}
	// Popular choices that were rejected.
	seen := map[string]bool{}
	for _, rj := range res.Rejected {
		for _, pfx := range popular {
			fam := strings.TrimSuffix(pfx, "/")
			if !seen[fam] && rj.idHasPrefix(pfx) {
				seen[fam] = true
				res.Notes = append(res.Notes, p.T("rec.rejected_popular", rj.OfferID(), rj.Reason))
			}
		}
	}
	return nil
}

// windowsNotes says what a Windows plan's price is: the provider's
// Windows rate (the licence included), or the Linux rate, a lower bound,
// ranked after every plan priced at a Windows rate. The top plan, when it
// has a Windows rate, names the cheapest plan known only by a lower bound
// below its cost, so that a lower bound is never silently passed over.
func (x *run) windowsNotes(pl *Plan, top bool, cands []*cand) {
	o, p, cur := pl.Offer, x.p, x.res.Currency
	add := func(key string, args ...any) { pl.Reasons = append(pl.Reasons, p.T(key, args...)) }
	priced := map[*catalog.Offer]bool{} // offers with a Windows rate
	var below *cand                     // the cheapest lower-bound plan below this one's cost
	for _, c := range cands {
		if windowsRate(c.offer) {
			priced[c.offer] = true
		} else if c.cost < pl.Cost && (below == nil || c.cost < below.cost) {
			below = c
		}
	}
	if windowsRate(o) {
		add("rec.windows_rate")
		if top && below != nil {
			add("rec.windows_lower_below", below.offer.Instance.ID(), below.offer.RegionCode, money(below.cost, cur), below.offer.Provider)
		}
		return
	}
	pl.LowerBound = true
	add("rec.windows_licence", WindowsLicence[o.Provider])
	if len(priced) > 0 {
		add("rec.windows_after", len(priced))
	}
}

// whyFirst says why the first plan won, true of that plan: the cheapest
// or fastest only when it is; otherwise which score term moved it.
func (x *run) whyFirst(pl *Plan, c, cheapest, fastest *cand, cands []*cand) {
	p, r, cur := x.p, x.r, x.res.Currency
	prio := x.prioName()
	n := x.res.Feasible
	add := func(key string, args ...any) { pl.Reasons = append(pl.Reasons, p.T(key, args...)) }
	if r.windows() && windowsRate(c.offer) {
		priced := 0
		for _, x := range cands {
			if windowsRate(x.offer) {
				priced++
			}
		}
		if priced < len(cands) {
			// A lower bound is not a price: say what the first plan beat.
			add("rec.why_windows", prio, priced, len(cands)-priced)
			return
		}
	}
	isCheapest := c.cost <= cheapest.cost*1.0000001
	isFastest := !r.service() && c.hours <= fastest.hours*1.0000001
	switch {
	case isCheapest && isFastest:
		add("rec.why_both", prio, n)
	case isCheapest:
		add("rec.why_cheapest2", prio, n)
	case isFastest && (r.Priority == "time" && r.Weights == nil):
		add("rec.why_fastest2", prio, n, x.name(x.lightName(cheapest)), money(cheapest.cost, cur))
	case r.likelyMiss(cheapest.miss) && !r.likelyMiss(c.miss):
		// The cheaper plan does not meet the deadline: it ranks after
		// every plan that does.
		add("rec.why_meets_deadline", prio, n, x.name(x.lightName(cheapest)), money(cheapest.cost, cur), pct(cheapest.miss), r.DeadlineHours)
	default:
		best := x.movedBy(c, cheapest)
		add("rec.why_not_cheapest", prio, n, x.name(x.lightName(cheapest)), money(cheapest.cost, cur), p.T("rec.term."+best))
		if best == "time" && !r.service() {
			add("rec.why_time_detail", x.hrs(c.hours), x.hrs(cheapest.hours))
		}
		if best == "risk" {
			add("rec.why_risk_detail", c.risk, cheapest.risk, x.riskParts(cheapest))
		}
	}
}

func (x *run) lightName(c *cand) *Plan { return &Plan{Offer: c.offer} }

// riskParts names what makes a candidate risky.
func (x *run) riskParts(c *cand) string {
	var parts []string
	p := x.p
	if c.miss >= 0.005 {
		parts = append(parts, p.T("rec.riskpart.deadline", pct(c.miss)))
	}
	if c.est != nil && confidencePenalty[c.est.Confidence] > 0 {
		parts = append(parts, p.T("rec.riskpart.confidence", p.T("rec.conf."+string(c.est.Confidence))))
	}
	if c.stale {
		parts = append(parts, p.T("rec.riskpart.stale"))
	}
	if c.spotRisk != nil {
		parts = append(parts, p.T("rec.riskpart.spot"))
	}
	if c.stock != nil {
		if c.stock.State == catalog.StockNone {
			parts = append(parts, p.T("rec.riskpart.no_capacity"))
		} else {
			parts = append(parts, p.T("rec.riskpart.stock_low"))
		}
	}
	if x.r.guaranteed() && !reserved(c.offer) {
		parts = append(parts, p.T("rec.riskpart.not_reserved"))
	}
	if len(parts) == 0 {
		return p.T("rec.riskpart.none")
	}
	return x.list(parts)
}

// missingTerms lists the commitment terms the catalog lacks for an offer's
// instance type and region, longer than the one used.
func (x *run) missingTerms(o *catalog.Offer) string {
	var missing []string
	fam := o.Billing.Family()
	for _, b := range catalog.BillingCodes() {
		if b.Family() != fam || b.TermHours() <= o.Billing.TermHours() {
			continue
		}
		if _, ok := x.e.Catalog.Offer(o.SiblingID(b)); !ok {
			missing = append(missing, x.p.Billing(string(b), b.Family()))
		}
	}
	// Prefer the plain forms: one line per term is enough.
	if len(missing) > 3 {
		missing = missing[:3]
	}
	return x.list(missing)
}

// mainComponent names the largest component of a bill and its share.
func (x *run) mainComponent(b *pricing.Breakdown) string {
	if b == nil {
		return ""
	}
	total := b.Total()
	var best pricing.Component
	for _, c := range b.Components {
		if c.Total().GreaterThan(best.Total()) {
			best = c
		}
	}
	name := best.Name
	switch {
	case strings.HasPrefix(name, "Compute"):
		name = x.p.T("rec.comp.compute")
	case strings.HasPrefix(name, "Commitment"):
		name = x.p.T("rec.comp.commitment")
	case strings.HasPrefix(name, "Spot"):
		name = x.p.T("rec.comp.spot")
	case name == "Support":
		name = x.p.T("rec.comp.support")
	}
	if total.IsZero() {
		return name
	}
	return fmt.Sprintf("%s %.0f%%", name, best.Total().Div(total).InexactFloat64()*100)
}

// tradeOff compares the winner with the runner-up in one sentence.
func (x *run) tradeOff(a, b *Plan) string {
	p, r, cur := x.p, x.r, x.res.Currency
	dc := b.Cost/a.Cost - 1
	name := x.name(b)
	switch {
	case r.DeadlineHours > 0 && b.DeadlineMiss > a.DeadlineMiss+0.01 && dc < 0:
		return p.T("rec.runner_cheaper_risky", name, pct(-dc), pct(b.DeadlineMiss))
	case !r.service() && dc < 0 && b.Hours > a.Hours:
		return p.T("rec.runner_cheaper_slower", name, pct(-dc), pct(b.Hours/a.Hours-1))
	case dc < 0:
		return p.T("rec.runner_cheaper_term", name, pct(-dc), p.T("rec.term."+x.movedBy(a.cand, b.cand)))
	case !r.service() && b.Hours < a.Hours:
		return p.T("rec.runner_faster_dearer", name, pct(1-b.Hours/a.Hours), pct(dc))
	}
	return p.T("rec.runner_dearer", name, pct(dc), money(b.Cost, cur))
}

// whatWouldChange adds the condition that would flip the answer.
func (x *run) whatWouldChange(pl *Plan) {
	r, p, e, cur := x.r, x.p, x.e, x.res.Currency
	o := pl.Offer
	c := e.Catalog
	switch {
	case pl.spotPlan != nil && pl.spotRisk != nil && !r.service():
		m := math.Round(pl.spotRisk.MTBI / 4)
		if pl.spotRisk.MTBI > 1000 {
			m = 24
		}
		work := pl.cand.work
		worse := spot.Analyze(spot.Job{Work: work, Checkpoint: checkpointHours, Restart: restartHours}, spot.Risk{MTBI: m, Notice: pl.spotRisk.Notice})
		if od, ok := c.Offer(o.SiblingID(catalog.OnDemand)); ok {
			odCost, _ := e.toCur(od.EffectiveHourly().InexactFloat64()*(work+startupHours)*float64(pl.Instances), od.Price.Currency, cur)
			spCost := pl.Cost * (worse.ExpectedHours + startupHours) / pl.Hours
			pl.Reasons = append(pl.Reasons, p.T("rec.change_spot2", m, money(spCost, cur), x.hrs(worse.ExpectedHours+startupHours), money(odCost, cur)))
		}
	case o.Billing == catalog.OnDemand && !r.Interruptible && !r.guaranteed():
		if sp, ok := c.Offer(o.SiblingID(catalog.Spot)); ok && !r.service() {
			spCost, _ := e.toCur(sp.EffectiveHourly().InexactFloat64()*pl.BilledHours*float64(pl.Instances), sp.Price.Currency, cur)
			pl.Reasons = append(pl.Reasons, p.T("rec.change_allow_spot", money(spCost, cur), pct(1-spCost/pl.Cost)))
		}
	}
	if r.service() && !o.Billing.IsCommitment() {
		for _, b := range catalog.BillingCodes() {
			if !b.IsCommitment() {
				continue
			}
			if co, ok := c.Offer(o.SiblingID(b)); ok {
				if be, ok, err := e.Pricing.UtilizationBreakEven(co); err == nil && ok && be.Found {
					pl.Reasons = append(pl.Reasons, p.T("rec.change_commit", be.Value.Mul(decimal.NewFromInt(100)).Round(0), p.Billing(string(b), b.Family())))
					break
				}
			}
		}
	}
	months := max(1, r.HorizonMonths)
	if o.Billing.IsCommitment() && r.service() && o.Billing.TermHours()/730 > months {
		// The whole term against on-demand for the horizon only.
		if od, ok := c.Offer(o.SiblingID(catalog.OnDemand)); ok {
			if h, err := e.toCur(od.EffectiveHourly().InexactFloat64(), od.Price.Currency, cur); err == nil && h > 0 {
				full := h * 730 * float64(months) * float64(pl.Instances)
				if be := pl.Cost / full; be >= 1 {
					pl.Reasons = append(pl.Reasons, p.T("rec.change_commit_never", money(full, cur), months))
				} else {
					pl.Reasons = append(pl.Reasons, p.T("rec.change_commit_below_horizon", fmt.Sprintf("%.0f", 100*be), months))
				}
			}
		}
	} else if o.Billing.IsCommitment() && r.service() {
		if be, ok, err := e.Pricing.UtilizationBreakEven(o); err == nil && ok && be.Found {
			pl.Reasons = append(pl.Reasons, p.T("rec.change_commit_below", be.Value.Mul(decimal.NewFromInt(100)).Round(0)))
		}
	}
}

// nextPow2 is the smallest power of two at least n: shard and tensor
// groups come in powers of two in practice.
func nextPow2(n int) int {
	p := 1
	for p < n {
		p *= 2
	}
	return p
}

// movedBy names the score term (time, risk, near) on which the winner
// beats the other candidate by the most. (A plan's cost may change after
// scoring, to its full bill; these terms do not depend on it.)
func (x *run) movedBy(win, other *cand) string {
	w, o := x.scale.terms(win), x.scale.terms(other)
	d := map[string]float64{"time": o.time - w.time, "risk": o.risk - w.risk, "near": o.near - w.near}
	best, bv := "risk", 0.0
	for _, k := range []string{"time", "risk", "near"} {
		if d[k] > bv {
			best, bv = k, d[k]
		}
	}
	return best
}
