package rightsize

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/output"
	"github.com/gpuscout/gpuscout/internal/pricing"
	"github.com/shopspring/decimal"
)

// Recommendation kinds.
const (
	KindFewerGPUs  = "fewer-gpus"
	KindCheaperGPU = "cheaper-gpu"
	KindCommitment = "commitment"
	KindSchedule   = "on-demand-schedule"
	KindSpot       = "spot"
	KindStop       = "stop"
)

// Advice thresholds.
const (
	// DefaultHeadroom is the memory margin over the observed peak.
	DefaultHeadroom = 1.1
	// targetUtil is the utilisation a resized fleet may run at.
	targetUtil = 90.0
	// minSavingShare: a recommendation must save at least this share of
	// the current bill.
	minSavingShare = 0.01
)

// Figure is one number behind a recommendation.
type Figure struct {
	// Name is the message key of the figure's name (rs.fig.*).
	Name  string
	Value float64
	// Unit is a message key (rs.unit.*) or a literal unit (GiB, h, %, a
	// currency code).
	Unit string
}

// Recommendation is one priced change.
type Recommendation struct {
	Kind string
	// Action says what to do in a line.
	Action i18n.Msg
	// Offer is what to move to (nil for "stop").
	Offer     *catalog.Offer
	Instances int
	// BilledShare is the share of the month the new offer is paid for
	// (pay-per-use offers; commitments are paid in full).
	BilledShare    float64
	Monthly        decimal.Decimal // in Advice.Currency
	CurrentMonthly decimal.Decimal
	Saving         decimal.Decimal // CurrentMonthly − Monthly (cost × time for a slower GPU)
	// Scope says how far the change moves: "same instance", "same
	// provider and region", "other region", "other provider".
	Scope string
	// Reason is the sentences that explain the change.
	Reason  []i18n.Msg
	Figures []Figure
	Caveats []i18n.Msg
}

// Text is the figure in p's language: name, value (two decimals at most)
// and unit.
func (f Figure) Text(p *i18n.Printer) string {
	return p.T(f.Name) + " " + decimal.NewFromFloat(f.Value).Round(2).String() + " " + p.Or(f.Unit, f.Unit)
}

// SavingShare is the saving as a share of the current bill.
func (r Recommendation) SavingShare() float64 {
	if !r.CurrentMonthly.IsPositive() {
		return 0
	}
	return r.Saving.Div(r.CurrentMonthly).InexactFloat64()
}

// Advice is what the statistics mean for an offer.
type Advice struct {
	Currency        string
	Offer           *catalog.Offer
	Instances       int
	GPUsPerInstance float64
	ObservedGPUs    int
	// BilledShare is the share of the month the current offer is paid for:
	// the log's coverage for pay-per-use offers, 1 for commitments.
	BilledShare     float64
	CurrentMonthly  decimal.Decimal
	Recommendations []Recommendation
	// BreakEven are the utilisation break-evens of the commitments for the
	// same instance and region (from the pricing engine's Compare).
	BreakEven []pricing.BreakEven
	Notes     []i18n.Msg
	// Currencies are the currencies of the offers shown (for FX notes).
	Currencies []string
}

// Advisor prices recommendations against a catalog.
type Advisor struct {
	Catalog  *catalog.Catalog
	Engine   *pricing.Engine
	Currency string
	// Headroom multiplies the observed memory peak (default 1.1).
	Headroom float64
}

// ctx is one advice run.
type adviceCtx struct {
	a        *Advisor
	off      *catalog.Offer
	it       *catalog.InstanceType
	st       *Stats
	inst     int
	perInst  int // 0 for fractional GPUs
	total    int
	billed   float64
	current  decimal.Decimal
	headroom float64
}

// Advise turns statistics into recommendations for the offer the log was
// taken on. instances is how many instances the log covers (0: as many as
// the GPUs seen need).
func (a *Advisor) Advise(off *catalog.Offer, st *Stats, instances int) (*Advice, error) {
	if off == nil || off.Instance == nil || off.Instance.GPU == nil {
		return nil, errors.New("rightsize: the offer has no instance type or GPU")
	}
	it := off.Instance
	c := &adviceCtx{a: a, off: off, it: it, st: st, headroom: a.Headroom}
	if c.headroom <= 0 {
		c.headroom = DefaultHeadroom
	}
	perInst := it.GPUCount.InexactFloat64()
	if it.GPUCount.IsInteger() && it.GPUCount.IntPart() >= 1 {
		c.perInst = int(it.GPUCount.IntPart())
	}
	adv := &Advice{Currency: a.Currency, Offer: off, GPUsPerInstance: perInst, ObservedGPUs: len(st.GPUs)}
	c.inst = instances
	if c.inst <= 0 {
		c.inst = 1
		if c.perInst > 0 && len(st.GPUs) > c.perInst {
			c.inst = (len(st.GPUs) + c.perInst - 1) / c.perInst
			adv.Notes = append(adv.Notes, i18n.M("rs.note.instances_counted",
				len(st.GPUs), it.Name, c.perInst, c.inst))
		}
	}
	adv.Instances = c.inst
	c.total = c.perInst * c.inst
	if c.perInst > 0 && len(st.GPUs) < c.total {
		adv.Notes = append(adv.Notes, i18n.M("rs.note.unused",
			len(st.GPUs), c.total, c.total-len(st.GPUs)))
	}
	adv.Notes = append(adv.Notes, c.checkModel()...)
	c.billed = 1
	if !off.Billing.IsCommitment() {
		c.billed = round4(st.Coverage)
		if !st.TimeKnown || c.billed <= 0 {
			c.billed = 1
		}
	}
	adv.BilledShare = c.billed
	cur, err := c.monthly(off, c.inst, c.billed)
	if err != nil {
		return nil, err
	}
	c.current = cur
	adv.CurrentMonthly = cur
	if st.TimeKnown && st.SpanHours < 24 {
		adv.Notes = append(adv.Notes, i18n.M("rs.note.short", st.SpanHours))
	}

	var recs []Recommendation
	if st.Pattern == "idle" {
		adv.Notes = append(adv.Notes, i18n.M("rs.note.idle"))
	} else {
		if r, note := c.fewerGPUs(); r != nil {
			recs = append(recs, *r)
		} else if note.Key != "" {
			adv.Notes = append(adv.Notes, note)
		}
		gpuRecs, note, err := c.cheaperGPU()
		if err != nil {
			return nil, err
		}
		for _, r := range gpuRecs {
			// a cheaper GPU that costs more than fewer of the same GPUs is noise
			if len(recs) == 1 && recs[0].Kind == KindFewerGPUs && !r.Monthly.LessThan(recs[0].Monthly) {
				continue
			}
			recs = append(recs, r)
		}
		if note.Key != "" {
			adv.Notes = append(adv.Notes, note)
		}
	}
	billRecs, bes, err := c.billing()
	if err != nil {
		return nil, err
	}
	recs = append(recs, billRecs...)
	adv.BreakEven = bes
	slices.SortStableFunc(recs, func(x, y Recommendation) int { return y.Saving.Cmp(x.Saving) })
	adv.Recommendations = recs
	// the currencies of the prices shown: the current offer's and the
	// recommended ones'
	used := map[string]bool{off.Price.Currency: true}
	for _, r := range recs {
		if r.Offer != nil {
			used[r.Offer.Price.Currency] = true
		}
	}
	for k := range used {
		adv.Currencies = append(adv.Currencies, k)
	}
	slices.Sort(adv.Currencies)
	return adv, nil
}

// checkModel compares the GPUs named in the log with the offer's GPU.
func (c *adviceCtx) checkModel() []i18n.Msg {
	var notes []i18n.Msg
	seen := map[string]bool{}
	for _, g := range c.st.GPUs {
		m := strings.TrimSpace(g.GPU.Model)
		if m == "" || seen[m] {
			continue
		}
		seen[m] = true
		gs, err := c.a.Catalog.LookupGPU(m)
		if err != nil || len(gs) == 0 {
			continue
		}
		match := false
		for _, x := range gs {
			if x.ID == c.it.GPUID {
				match = true
			}
		}
		if !match {
			notes = append(notes, i18n.M("rs.note.wrong_gpu", m, c.it.Name, c.it.GPUID))
		}
	}
	if tot := c.st.Overall.MemTotalMiB; tot > 0 {
		nominal := c.it.GPU.MemoryGB.InexactFloat64()
		if gib := tot / 1024; nominal > 0 && (gib > nominal*1.1 || gib < nominal*0.85) {
			notes = append(notes, i18n.M("rs.note.wrong_mem", gib, c.it.GPUID, nominal))
		}
	}
	return notes
}

// horizon is the months over which an offer's monthly cost is averaged:
// its term, or one month.
func horizon(o *catalog.Offer) int {
	if h := o.Billing.TermHours(); h > 0 {
		return max(1, h/catalog.HoursPerMonth)
	}
	return 1
}

func usage(inst int, share float64) pricing.Usage {
	u := pricing.DefaultUsage()
	u.Instances = inst
	u.Utilization = decimal.NewFromFloat(math.Min(1, math.Max(0, share))).Round(4)
	return u
}

// monthly is an offer's average monthly cost in the advice currency over
// its term, through the pricing engine.
func (c *adviceCtx) monthly(o *catalog.Offer, inst int, share float64) (decimal.Decimal, error) {
	h := horizon(o)
	t, err := c.a.Engine.Compare([]pricing.Plan{{Name: o.ID(), Parts: []pricing.Part{{Offer: o, Usage: usage(inst, share)}}}}, h, c.a.Currency)
	if err != nil {
		return decimal.Zero, fmt.Errorf("pricing %s: %w", o.ID(), err)
	}
	return t.Plans[0].Total.Div(decimal.NewFromInt(int64(h))).Round(2), nil
}

// usableGiB is the memory of one GPU a job can use: nominal GB as GiB,
// less what GDDR boards keep back (nvidia-smi reports about 15/16 of the
// nominal size on them; HBM boards report about all of it).
func usableGiB(g *catalog.GPU, it *catalog.InstanceType) float64 {
	mem := g.MemoryGB
	if it != nil && it.GPUCount.IsPositive() && it.GPUMemoryGB.IsPositive() {
		if per := it.GPUMemoryGB.Div(it.GPUCount); per.LessThan(mem) {
			mem = per
		}
	}
	f := 0.9375
	if strings.HasPrefix(strings.ToUpper(g.MemoryType), "HBM") {
		f = 0.99
	}
	return mem.InexactFloat64() * f
}

func (c *adviceCtx) money(d decimal.Decimal) string {
	return output.Money(d) + " " + c.a.Currency
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }

func round4(v float64) float64 { return math.Round(v*10000) / 10000 }

// multiNodeGain is how much cheaper a plan spread over several instances
// must be to beat one on a single instance.
const multiNodeGain = 0.9

// preferable reports whether n instances at cost a beat m instances at
// cost b: a single instance wins unless several are clearly cheaper.
func preferable(n int, a decimal.Decimal, m int, b decimal.Decimal) bool {
	switch {
	case n == 1 && m > 1:
		return !b.LessThan(a.Mul(decimal.NewFromFloat(multiNodeGain)))
	case n > 1 && m == 1:
		return a.LessThan(b.Mul(decimal.NewFromFloat(multiNodeGain)))
	}
	return a.LessThan(b)
}

func gib(mib float64) float64 { return mib / 1024 }

func pct(v float64) string { return fmt.Sprintf("%.0f%%", v) }

// term is a billing model as a message argument: the code in English, the
// providers' own terms in Chinese.
func term(b catalog.Billing) i18n.BillingTerm {
	return i18n.BillingTerm{Code: string(b), Family: b.Family()}
}

func usable(it *catalog.InstanceType) bool {
	return it.Status == catalog.StatusCurrent || it.Status == catalog.StatusPrevious
}

// neededGPUs is how many GPUs of the current model the work needs.
func (c *adviceCtx) neededGPUs() (k, kActive, kSum, kMem int) {
	st := c.st
	kActive = st.ActiveGPUs
	kSum = max(1, int(math.Ceil(st.SummedUtilP95/targetUtil-0.01)))
	if st.HasMemory {
		per := usableGiB(c.it.GPU, c.it)
		if st.Overall.MemTotalMiB > 0 {
			per = gib(st.Overall.MemTotalMiB)
		}
		kMem = int(math.Ceil(gib(st.MemPeakSumMiB) * c.headroom / per))
	}
	k = max(min(kActive, kSum), kMem, 1)
	return
}

// fewerGPUs looks for an instance with fewer GPUs of the same model.
func (c *adviceCtx) fewerGPUs() (*Recommendation, i18n.Msg) {
	st := c.st
	if !st.HasUtil || c.perInst == 0 {
		return nil, i18n.Msg{}
	}
	k, kActive, kSum, kMem := c.neededGPUs()
	if k >= c.total {
		return nil, i18n.Msg{}
	}
	type cand struct {
		o       *catalog.Offer
		n       int
		monthly decimal.Decimal
	}
	var best *cand
	for _, it := range c.a.Catalog.Instances() {
		if it.Provider != c.it.Provider || it.GPUID != c.it.GPUID || it == c.it || !usable(it) ||
			!it.GPUCount.IsInteger() || it.GPUCount.IntPart() < 1 {
			continue
		}
		per := int(it.GPUCount.IntPart())
		n := (k + per - 1) / per
		if n*per >= c.total || (n > 1 && c.inst == 1) {
			continue // not smaller, or a single machine's work spread over several
		}
		o, ok := c.a.Catalog.Offer(it.Provider + "/" + it.Name + "/" + c.off.RegionCode + "/" + string(c.off.Billing))
		if !ok {
			continue
		}
		m, err := c.monthly(o, n, c.billed)
		if err != nil {
			continue
		}
		better := best == nil || preferable(n, m, best.n, best.monthly) ||
			(m.Equal(best.monthly) && n == best.n && it.Family == c.it.Family && best.o.Instance.Family != c.it.Family)
		if better {
			best = &cand{o: o, n: n, monthly: m}
		}
	}
	if best == nil {
		return nil, i18n.M("rs.note.no_smaller",
			k, c.total, c.it.Provider, c.it.GPUID, term(c.off.Billing), c.off.RegionCode)
	}
	saving := c.current.Sub(best.monthly)
	if saving.LessThanOrEqual(c.current.Mul(decimal.NewFromFloat(minSavingShare))) {
		return nil, i18n.Msg{}
	}
	bit := best.o.Instance
	per := int(bit.GPUCount.IntPart())
	r := &Recommendation{Kind: KindFewerGPUs, Offer: best.o, Instances: best.n, BilledShare: c.billed,
		Monthly: best.monthly, CurrentMonthly: c.current, Saving: saving, Scope: "same provider and region"}
	r.Action = i18n.M("rs.act.move", best.o.ID(), best.n*per, bit.GPUID, c.total)
	if best.n > 1 {
		r.Action = i18n.M("rs.act.move_n", best.n, best.o.ID(), best.n*per, bit.GPUID, c.total)
	}
	var why []i18n.Msg
	if kActive <= kSum || kActive == k {
		var act i18n.Seq
		for _, g := range st.GPUs {
			if g.Active {
				act = append(act, i18n.M("rs.why.gpu_mean", g.GPU.Label(st.MultiHost), pct(g.Mean)))
			}
		}
		idleMax := 0.0
		for _, g := range st.GPUs {
			if !g.Active {
				idleMax = max(idleMax, g.Mean)
			}
		}
		why = append(why, i18n.M("rs.why.only_active",
			kActive, c.total, act, idleMax))
	} else {
		why = append(why, i18n.M("rs.why.light",
			kActive, pct(st.SummedUtilP95), kSum))
		r.Caveats = append(r.Caveats, i18n.M("rs.cav.packing"))
	}
	if kMem == k && kMem > min(kActive, kSum) {
		why = append(why, i18n.M("rs.why.mem_floor",
			gib(st.MemPeakSumMiB), kMem, (c.headroom-1)*100))
	}
	why = append(why, i18n.M("rs.why.has_costs", bit.Name, per, bit.GPUID, c.money(best.monthly), c.money(c.current)))
	r.Reason = why
	if bit.Family != c.it.Family {
		r.Caveats = append(r.Caveats, i18n.M("rs.cav.family", bit.Family))
	}
	if best.n > 1 {
		r.Caveats = append(r.Caveats, i18n.M("rs.cav.spans", best.n))
	}
	r.Figures = []Figure{
		{"rs.fig.gpus_paid", float64(c.total), "rs.unit.gpus"},
		{"rs.fig.gpus_working", float64(kActive), "rs.unit.gpus"},
		{"rs.fig.summed_p95", round2(st.SummedUtilP95), "rs.unit.pct_one"},
		{"rs.fig.summed_mem", round2(gib(st.MemPeakSumMiB)), "GiB"},
		{"rs.fig.gpus_needed", float64(k), "rs.unit.gpus"},
		{"rs.fig.gpus_after", float64(best.n * per), "rs.unit.gpus"},
		{"rs.fig.current", c.current.Round(2).InexactFloat64(), c.a.Currency},
		{"rs.fig.new", best.monthly.Round(2).InexactFloat64(), c.a.Currency},
	}
	return r, i18n.Msg{}
}

// cheaperGPU looks for offers with another GPU model that has enough
// memory and costs less, even after the slower compute is paid for.
func (c *adviceCtx) cheaperGPU() ([]Recommendation, i18n.Msg, error) {
	st := c.st
	switch {
	case !st.HasMemory:
		return nil, i18n.M("rs.note.no_mem"), nil
	case !st.HasUtil:
		return nil, i18n.M("rs.note.no_util"), nil
	case !c.it.GPU.FP16TFLOPS.IsPositive():
		return nil, i18n.M("rs.note.no_fp16", c.it.GPUID), nil
	}
	k, _, _, _ := c.neededGPUs()
	peak, peakGPU := 0.0, ""
	for _, g := range st.GPUs {
		if g.MemPeakMiB > peak {
			peak, peakGPU = g.MemPeakMiB, g.GPU.Label(st.MultiHost)
		}
	}
	perGPU := math.Max(peak, st.MemPeakSumMiB/float64(k))
	need := gib(perGPU) * c.headroom
	demand := st.SummedUtilP95 // percent of one current GPU
	curFP16 := c.it.GPU.FP16TFLOPS.InexactFloat64()
	type cand struct {
		o        *catalog.Offer
		n        int
		monthly  decimal.Decimal
		adjusted decimal.Decimal
		ratio    float64 // candidate FP16 / current FP16
		newUtil  float64
		factor   float64 // time factor
		scope    string
	}
	var bestHere, bestAny *cand
	for _, o := range c.a.Catalog.Offers() {
		it := o.Instance
		if o.Billing != c.off.Billing || it == nil || it.GPU == nil || it.GPUID == c.it.GPUID || !usable(it) ||
			it.GPU.Vendor != c.it.GPU.Vendor || // another vendor means another software stack (CUDA, ROCm)
			!it.GPUCount.IsInteger() || it.GPUCount.IntPart() < 1 || !it.GPU.FP16TFLOPS.IsPositive() {
			continue
		}
		if usableGiB(it.GPU, it) < need {
			continue
		}
		per := int(it.GPUCount.IntPart())
		n := (k + per - 1) / per
		if n > 1 && c.inst == 1 {
			continue // keep a single machine's work on one machine
		}
		ratio := it.GPU.FP16TFLOPS.InexactFloat64() / curFP16
		newUtil := demand / (ratio * float64(n*per))
		factor := math.Max(1, newUtil/targetUtil)
		m, err := c.monthly(o, n, c.billed)
		if err != nil {
			continue // an offer the engine cannot price is no candidate
		}
		adj := m.Mul(decimal.NewFromFloat(factor)).Round(2)
		if !adj.LessThan(c.current.Mul(decimal.NewFromFloat(1 - minSavingShare))) {
			continue
		}
		scope := "other provider"
		switch {
		case o.Provider == c.off.Provider && o.RegionCode == c.off.RegionCode:
			scope = "same provider and region"
		case o.Provider == c.off.Provider:
			scope = "other region"
		}
		x := &cand{o: o, n: n, monthly: m, adjusted: adj, ratio: ratio, newUtil: newUtil, factor: factor, scope: scope}
		if scope == "same provider and region" && (bestHere == nil || preferable(n, adj, bestHere.n, bestHere.adjusted)) {
			bestHere = x
		}
		if bestAny == nil || preferable(n, adj, bestAny.n, bestAny.adjusted) {
			bestAny = x
		}
	}
	var out []*cand
	if bestHere != nil {
		out = append(out, bestHere)
	}
	if bestAny != nil && bestAny != bestHere &&
		(bestHere == nil || bestAny.adjusted.LessThan(bestHere.adjusted.Mul(decimal.NewFromFloat(0.95)))) {
		out = append(out, bestAny)
	}
	var recs []Recommendation
	for _, x := range out {
		it := x.o.Instance
		per := int(it.GPUCount.IntPart())
		r := Recommendation{Kind: KindCheaperGPU, Offer: x.o, Instances: x.n, BilledShare: c.billed, Monthly: x.adjusted,
			CurrentMonthly: c.current, Saving: c.current.Sub(x.adjusted), Scope: x.scope}
		r.Action = i18n.M("rs.act.gpu", x.o.ID(), x.n*per, it.GPUID, it.GPU.MemoryGB)
		if x.n > 1 {
			r.Action = i18n.M("rs.act.gpu_n", x.n, x.o.ID(), x.n*per, it.GPUID, it.GPU.MemoryGB)
		}
		why := []i18n.Msg{i18n.M("rs.why.mem",
			gib(peak), peakGPU, (c.headroom-1)*100, need, it.GPUID, it.GPU.MemoryGB, usableGiB(it.GPU, it))}
		fp := i18n.M("rs.why.fp", it.GPU.FP16TFLOPS, c.it.GPU.FP16TFLOPS)
		load := i18n.M("rs.why.load", pct(demand), c.it.GPUID, pct(x.newUtil))
		switch {
		case x.factor <= 1 && x.ratio >= 1:
			why = append(why, i18n.M("rs.why.no_slower", fp))
		case x.factor <= 1:
			why = append(why, i18n.M("rs.why.slower_ok", 1/x.ratio, fp, load))
		case x.ratio >= 1:
			why = append(why, i18n.M("rs.why.no_slower_busy",
				fp, load, targetUtil, x.factor, c.money(x.adjusted), c.money(c.current)))
		default:
			why = append(why, i18n.M("rs.why.slower",
				1/x.ratio, fp, load, x.factor, c.money(x.adjusted), c.money(c.current)))
		}
		if x.factor <= 1 {
			why = append(why, i18n.M("rs.why.costs", c.money(x.monthly), c.money(c.current)))
		}
		r.Reason = why
		r.Caveats = append(r.Caveats, i18n.M("rs.cav.fp16"))
		switch x.scope {
		case "other region":
			r.Caveats = append(r.Caveats, i18n.M("rs.cav.region", x.o.RegionCode))
		case "other provider":
			r.Caveats = append(r.Caveats, i18n.M("rs.cav.provider", x.o.Provider, x.o.RegionCode))
		}
		if x.n > 1 {
			r.Caveats = append(r.Caveats, i18n.M("rs.cav.spans", x.n))
		}
		r.Figures = []Figure{
			{"rs.fig.peak_mem", round2(gib(peak)), "GiB"},
			{"rs.fig.mem_needed", round2(need), "GiB"},
			{"rs.fig.usable_new", round2(usableGiB(it.GPU, it)), "GiB"},
			{"rs.fig.fp16_speed", round2(x.ratio), "rs.unit.x_current"},
			{"rs.fig.new_util", round2(x.newUtil), "%"},
			{"rs.fig.time_factor", round2(x.factor), "×"},
			{"rs.fig.new", x.monthly.Round(2).InexactFloat64(), c.a.Currency},
			{"rs.fig.new_x_time", x.adjusted.Round(2).InexactFloat64(), c.a.Currency},
			{"rs.fig.current", c.current.Round(2).InexactFloat64(), c.a.Currency},
		}
		recs = append(recs, r)
	}
	return recs, i18n.Msg{}, nil
}

// billing compares the billing models of the same instance in the same
// region at the observed duty cycle.
func (c *adviceCtx) billing() ([]Recommendation, []pricing.BreakEven, error) {
	st := c.st
	if !st.HasUtil {
		return nil, nil, nil
	}
	recs, bes, err := c.billingModels()
	if !st.TimeKnown {
		for i := range recs {
			recs[i].Caveats = append(recs[i].Caveats, i18n.M("rs.cav.no_times", st.IntervalSeconds))
		}
	}
	return recs, bes, err
}

func (c *adviceCtx) billingModels() ([]Recommendation, []pricing.BreakEven, error) {
	st := c.st
	busy := round4(st.BusyHourShare)
	if st.BusyClockHours == 0 {
		r := Recommendation{Kind: KindStop, Action: i18n.M("rs.act.stop"), Instances: c.inst,
			Monthly: decimal.Zero, CurrentMonthly: c.current, Saving: c.current, Scope: "same instance",
			Reason: []i18n.Msg{i18n.M("rs.why.stop", IdleBelow, st.SpanHours)},
			Figures: []Figure{{"rs.fig.hours", round2(st.SpanHours), "rs.unit.h"}, {"rs.fig.busy_hours", 0, "rs.unit.h"},
				{"rs.fig.current", c.current.Round(2).InexactFloat64(), c.a.Currency}}}
		return []Recommendation{r}, nil, nil
	}
	type plan struct {
		o    *catalog.Offer
		name string
	}
	var plans []pricing.Plan
	var ps []plan
	h := horizon(c.off)
	plans = append(plans, pricing.Plan{Name: "current", Parts: []pricing.Part{{Offer: c.off, Usage: usage(c.inst, c.billed)}}})
	ps = append(ps, plan{c.off, "current"})
	for _, o := range c.a.Catalog.Offers() {
		if o.Provider != c.off.Provider || o.InstanceName != c.off.InstanceName || o.RegionCode != c.off.RegionCode ||
			o.Billing == catalog.CapacityBlock || (o == c.off && o.Billing.IsCommitment()) {
			continue
		}
		name := o.ID()
		if !o.Billing.IsCommitment() {
			name += " (scheduled)"
		}
		if _, err := c.monthly(o, c.inst, busy); err != nil {
			continue // an offer the engine cannot price is left out
		}
		plans = append(plans, pricing.Plan{Name: name, Parts: []pricing.Part{{Offer: o, Usage: usage(c.inst, busy)}}})
		ps = append(ps, plan{o, name})
		h = max(h, horizon(o))
	}
	if len(plans) == 1 {
		return nil, nil, nil
	}
	t, err := c.a.Engine.Compare(plans, h, c.a.Currency)
	if err != nil {
		return nil, nil, fmt.Errorf("pricing billing models: %w", err)
	}
	monthly := map[string]decimal.Decimal{}
	for _, r := range t.Plans {
		monthly[r.Name] = r.Total.Div(decimal.NewFromInt(int64(h))).Round(2)
	}
	var bes []pricing.BreakEven
	beOf := map[string]pricing.BreakEven{}
	for _, be := range t.BreakEven {
		if be.Kind == "utilization" {
			beOf[be.Plan] = be
			if be.Plan == "current" {
				be.Plan = c.off.ID()
			}
			bes = append(bes, be)
		}
	}
	cur := c.current
	worth := func(m decimal.Decimal) bool {
		return m.LessThan(cur.Mul(decimal.NewFromFloat(1 - minSavingShare)))
	}
	var commit, od, sp *plan
	var bestRejected *plan
	for i := range ps[1:] {
		p := &ps[i+1]
		m := monthly[p.name]
		switch {
		case p.o.Billing.IsCommitment():
			be, ok := beOf[p.name]
			if !ok || !be.Found || busy < be.Value.InexactFloat64() {
				if ok && (bestRejected == nil || be.Value.LessThan(beOf[bestRejected.name].Value)) {
					bestRejected = p
				}
				continue
			}
			if commit == nil || m.LessThan(monthly[commit.name]) {
				commit = p
			}
		case p.o.Billing == catalog.OnDemand:
			od = p
		case p.o.Billing == catalog.Spot:
			sp = p
		}
	}
	var recs []Recommendation
	base := func(kind string, p *plan, share float64) Recommendation {
		m := monthly[p.name]
		return Recommendation{Kind: kind, Offer: p.o, Instances: c.inst, BilledShare: share, Monthly: m, CurrentMonthly: cur,
			Saving: cur.Sub(m), Scope: "same instance"}
	}
	dutyFigures := []Figure{
		{"rs.fig.hours", round2(st.SpanHours), "rs.unit.h"},
		{"rs.fig.busy_share", round2(st.BusyShare * 100), "%"},
		{"rs.fig.busy_hours", round2(busy * 100), "%"},
	}
	switch {
	case commit != nil && (od == nil || monthly[commit.name].LessThan(monthly[od.name])) && worth(monthly[commit.name]):
		be := beOf[commit.name]
		r := base(KindCommitment, commit, 1)
		r.Action = i18n.M("rs.act.switch", commit.o.ID())
		r.Reason = []i18n.Msg{i18n.M("rs.why.commit",
			pct(busy*100), pct(st.BusyShare*100), pct(be.Value.InexactFloat64()*100), term(commit.o.Billing), c.money(r.Monthly), c.money(cur))}
		r.Caveats = append(r.Caveats, i18n.M("rs.cav.commit", term(commit.o.Billing), st.SpanHours/24))
		if commit.o.Price.Upfront.IsPositive() {
			r.Caveats = append(r.Caveats, i18n.M("rs.cav.upfront"))
		}
		r.Figures = append(dutyFigures, Figure{"rs.fig.break_even", round2(be.Value.InexactFloat64() * 100), "%"},
			Figure{"rs.fig.current", cur.Round(2).InexactFloat64(), c.a.Currency},
			Figure{"rs.fig.new", r.Monthly.Round(2).InexactFloat64(), c.a.Currency})
		recs = append(recs, r)
	case od != nil && worth(monthly[od.name]):
		r := base(KindSchedule, od, busy)
		r.Action = i18n.M("rs.act.when_busy", od.o.ID())
		var why []i18n.Msg
		var how i18n.Msg
		switch st.Pattern {
		case "daily":
			window := i18n.List{}
			for _, w := range st.DailyWindows {
				window = append(window, w)
			}
			r.Action = i18n.M("rs.act.schedule", od.o.ID(), window)
			why = append(why, i18n.M("rs.why.daily",
				window, pct(busy*100)))
			how = i18n.M("rs.how.daily")
		case "bursty":
			why = append(why, i18n.M("rs.why.bursty",
				st.BusyRuns, st.MeanBusyRunMinutes, pct(busy*100)))
			how = i18n.M("rs.how.bursty")
		default:
			why = append(why, i18n.M("rs.why.low", pct(busy*100), pct(st.BusyShare*100)))
			how = i18n.M("rs.how.idle")
		}
		if be, ok := beOf["current"]; ok && c.off.Billing.IsCommitment() {
			why = append(why, i18n.M("rs.why.below_be",
				pct(be.Value.InexactFloat64()*100), term(c.off.Billing), how))
		} else {
			why = append(why, i18n.M("rs.why.payg", how))
		}
		why = append(why, i18n.M("rs.why.costs2", c.money(r.Monthly), c.money(cur)))
		if bestRejected != nil {
			be := beOf[bestRejected.name]
			why = append(why, i18n.M("rs.why.not_commit",
				term(bestRejected.o.Billing), pct(be.Value.InexactFloat64()*100)))
			r.Figures = append(r.Figures, Figure{"rs.fig.lowest_be", round2(be.Value.InexactFloat64() * 100), "%"})
		}
		r.Reason = why
		r.Caveats = append(r.Caveats, i18n.M("rs.cav.stop"))
		r.Figures = append(append(dutyFigures, r.Figures...), Figure{"rs.fig.current", cur.Round(2).InexactFloat64(), c.a.Currency},
			Figure{"rs.fig.new", r.Monthly.Round(2).InexactFloat64(), c.a.Currency})
		recs = append(recs, r)
	}
	bursty := st.Pattern == "bursty" || (busy < 0.5 && st.Pattern != "daily")
	if sp != nil && bursty {
		m := monthly[sp.name]
		floor := cur
		if od != nil {
			floor = decimal.Min(floor, monthly[od.name])
		}
		if m.LessThan(floor.Mul(decimal.NewFromFloat(1 - minSavingShare))) {
			r := base(KindSpot, sp, busy)
			r.Action = i18n.M("rs.act.spot", sp.o.ID())
			r.Reason = []i18n.Msg{i18n.M("rs.why.spot",
				pct(busy*100), c.money(m), c.money(cur))}
			r.Caveats = append(r.Caveats, i18n.M("rs.cav.spot"))
			r.Figures = append(dutyFigures, Figure{"rs.fig.current", cur.Round(2).InexactFloat64(), c.a.Currency},
				Figure{"rs.fig.new", m.Round(2).InexactFloat64(), c.a.Currency})
			recs = append(recs, r)
		}
	}
	return recs, bes, nil
}
