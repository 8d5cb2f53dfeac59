package rightsize

import (
	"fmt"
	"io"
	"math"
	"slices"
	"time"

	"github.com/gpuscout/gpuscout/internal/i18n"
)

// Thresholds of the analysis.
const (
	// IdleBelow is the utilisation (percent) under which a GPU counts as idle.
	IdleBelow = 5.0
	// ActiveP95 and ActiveMean: a GPU does substantial work when its P95
	// utilisation reaches ActiveP95 or its mean reaches ActiveMean.
	ActiveP95  = 20.0
	ActiveMean = 10.0
	// memBinMiB is the memory histogram's bin width.
	memBinMiB = 16
	// maxMemBins caps the memory histogram (1 TiB at 16 MiB bins).
	maxMemBins = 1 << 16
	// utilBins are the utilisation histogram's bins: 0.1 % each.
	utilBins = 1001
)

// maxSlots caps the minute map (2M entries, about 4 years of minutes);
// beyond it slots double in width. A variable for tests.
var maxSlots = 1 << 21

// hist is a fixed-bin histogram of non-negative values.
type hist struct {
	bins  []uint64
	width float64
	n     uint64
	limit int // maximum number of bins
}

func (h *hist) add(v float64) {
	i := int(v / h.width)
	if i < 0 {
		i = 0
	}
	if i >= len(h.bins) {
		if i >= h.limit {
			i = h.limit - 1
		}
		if i >= len(h.bins) {
			h.bins = append(h.bins, make([]uint64, i+1-len(h.bins))...)
		}
	}
	h.bins[i]++
	h.n++
}

func (h *hist) merge(o *hist) {
	if len(o.bins) > len(h.bins) {
		h.bins = append(h.bins, make([]uint64, len(o.bins)-len(h.bins))...)
	}
	for i, c := range o.bins {
		h.bins[i] += c
	}
	h.n += o.n
}

// quantile is the lower edge of the bin holding the q-quantile (nearest
// rank), so a value on a bin edge reads back exactly.
func (h *hist) quantile(q float64) float64 {
	if h.n == 0 {
		return 0
	}
	rank := uint64(math.Ceil(q * float64(h.n)))
	if rank < 1 {
		rank = 1
	}
	var cum uint64
	for i, c := range h.bins {
		cum += c
		if cum >= rank {
			return float64(i) * h.width
		}
	}
	return float64(len(h.bins)-1) * h.width
}

// gpuAcc accumulates one GPU.
type gpuAcc struct {
	samples int64
	nUtil   int64
	sumUtil float64
	idle    int64
	util    hist
	nMem    int64
	memPeak float64
	mem     hist
	memTot  float64
	first   int64
	last    int64
	hasTime bool
	// the current minute slot
	slotSum float64
	slotN   int32
	slotAt  int64
}

// Slot flags.
const (
	slotSeen uint8 = 1 << iota
	slotBusy
)

// Analyzer accumulates samples into statistics with bounded memory: two
// fixed histograms per GPU and one byte per minute of the log's span.
type Analyzer struct {
	// IntervalMs is the sampling interval assumed for logs without
	// timestamps (default one minute).
	IntervalMs int64

	gpus     []*gpuAcc
	timeMode int8 // 0 undecided, 1 timestamps, -1 sequence
	slotMs   int64
	slots    map[int64]uint8
	cur      int64
	curOK    bool
	curBusy  bool
	touched  []int
	sum      hist // summed utilisation over GPUs per slot, percent of one GPU
	sumTotal float64
	sumN     int64
	deltas   [3602]uint32 // sampling interval histogram, seconds (last = longer)
}

// NewAnalyzer returns an empty analyzer.
func NewAnalyzer() *Analyzer {
	return &Analyzer{slotMs: 60_000, slots: map[int64]uint8{}, sum: hist{width: 1, limit: 1 << 20}}
}

func (a *Analyzer) gpu(id int) *gpuAcc {
	for len(a.gpus) <= id {
		a.gpus = append(a.gpus, &gpuAcc{util: hist{bins: make([]uint64, utilBins), width: 0.1, limit: utilBins},
			mem: hist{width: memBinMiB, limit: maxMemBins}, slotAt: math.MinInt64})
	}
	return a.gpus[id]
}

// Add accounts for one sample.
func (a *Analyzer) Add(s *Sample) {
	g := a.gpu(s.GPU)
	g.samples++
	if a.timeMode == 0 {
		a.timeMode = -1
		if s.Has&HasTime != 0 {
			a.timeMode = 1
		}
	}
	var t int64
	timed := true
	switch {
	case a.timeMode > 0 && s.Has&HasTime != 0:
		t = s.TimeMs
	case a.timeMode > 0: // a sample without time in a timed log: its GPU's last time
		t, timed = g.last, g.hasTime
	default:
		iv := a.IntervalMs
		if iv <= 0 {
			iv = 60_000
		}
		t = s.Seq * iv
	}
	if !timed {
		// nothing to place in time
	} else if g.hasTime {
		if d := t - g.last; d > 0 {
			sec := (d + 500) / 1000
			if sec >= int64(len(a.deltas)-1) {
				sec = int64(len(a.deltas) - 1)
			}
			a.deltas[sec]++
		}
		g.first, g.last = min(g.first, t), max(g.last, t)
	} else {
		g.first, g.last, g.hasTime = t, t, true
	}
	busy := false
	if s.Has&HasUtil != 0 {
		u := s.Util
		g.nUtil++
		g.sumUtil += u
		if u < IdleBelow {
			g.idle++
		} else {
			busy = true
		}
		g.util.add(u + 0.05) // round to the nearest bin
	}
	if s.Has&HasMemUsed != 0 {
		g.nMem++
		g.mem.add(s.MemUsedMiB)
		g.memPeak = max(g.memPeak, s.MemUsedMiB)
	}
	if s.Has&HasMemTotal != 0 {
		g.memTot = max(g.memTot, s.MemTotalMiB)
	}
	if !timed {
		return
	}
	key := floorDiv(t, a.slotMs)
	if !a.curOK || key != a.cur {
		a.finishSlot()
		key = floorDiv(t, a.slotMs) // finishing may have widened the slots
		a.cur, a.curOK = key, true
	}
	if busy {
		a.curBusy = true
	}
	if s.Has&HasUtil != 0 {
		if g.slotAt != key {
			g.slotAt, g.slotSum, g.slotN = key, 0, 0
			a.touched = append(a.touched, s.GPU)
		}
		g.slotSum += s.Util
		g.slotN++
	}
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// finishSlot records the current slot: seen, busy, and the summed
// utilisation of the GPUs in it.
func (a *Analyzer) finishSlot() {
	if !a.curOK {
		return
	}
	f := slotSeen
	if a.curBusy {
		f |= slotBusy
	}
	a.slots[a.cur] |= f
	if len(a.touched) > 0 {
		total := 0.0
		for _, id := range a.touched {
			g := a.gpus[id]
			total += g.slotSum / float64(g.slotN)
			g.slotAt = math.MinInt64
		}
		a.sum.add(total + 0.5)
		a.sumTotal += total
		a.sumN++
		a.touched = a.touched[:0]
	}
	a.curOK, a.curBusy = false, false
	if len(a.slots) > maxSlots {
		a.coarsen()
	}
}

// coarsen doubles the slot width, merging pairs of slots.
func (a *Analyzer) coarsen() {
	m := make(map[int64]uint8, len(a.slots)/2)
	for k, f := range a.slots {
		m[floorDiv(k, 2)] |= f
	}
	a.slots = m
	a.slotMs *= 2
}

// Summary is utilisation and memory over a set of samples.
type Summary struct {
	Samples int64
	// Utilisation, percent; UtilSamples is how many samples had one.
	UtilSamples int64
	Mean        float64
	P50         float64
	P95         float64
	// IdleShare is the share of samples under IdleBelow.
	IdleShare float64
	// Memory, MiB; MemSamples is how many samples had a reading.
	MemSamples int64
	MemPeakMiB float64
	MemP95MiB  float64
	// MemTotalMiB is the GPU's memory as the log reports it (largest seen).
	MemTotalMiB float64
}

// GPUStats is one GPU's summary.
type GPUStats struct {
	GPU GPUInfo
	Summary
	// Active: the GPU did substantial work (P95 ≥ ActiveP95 or mean ≥ ActiveMean).
	Active bool
}

// Stats is what a log says about how its GPUs were used.
type Stats struct {
	GPUs    []GPUStats
	Overall Summary
	// MultiHost is set when the GPUs come from more than one host.
	MultiHost bool

	// TimeKnown: the log has timestamps (else times are sample numbers
	// times an assumed interval, and there is no hour-of-day profile).
	TimeKnown bool
	Start     time.Time // in the log's clock
	End       time.Time
	SpanHours float64
	// IntervalSeconds is the median time between two samples of one GPU.
	IntervalSeconds float64
	// SlotSeconds is the resolution of the duty cycle (a minute unless the
	// span is very long).
	SlotSeconds int64
	// Coverage is the share of the span with samples (sample-and-hold over
	// the sampling interval): the rest is gaps in the log.
	Coverage float64
	// BusyShare is the share of the span in which at least one GPU was at
	// or above IdleBelow utilisation: the duty cycle.
	BusyShare float64
	// BusyHourShare is the share of the span's clock hours with any busy
	// minute: what an instance started and stopped on the hour would run.
	BusyHourShare  float64
	SpanClockHours int64
	BusyClockHours int64
	// HourProfile is the busy share by hour of day (log clock); an hour
	// never observed is -1. Nil without timestamps.
	HourProfile []float64
	// Busy runs: stretches of consecutive busy slots.
	BusyRuns           int
	MeanBusyRunMinutes float64
	// Pattern is "idle", "steady", "daily", "bursty" or "mixed".
	Pattern string
	// DailyWindow is the busy window of a daily pattern, "09:00–18:00".
	DailyWindow string
	// DailyWindows are DailyWindow's ranges, for a sentence in any language.
	DailyWindows []string
	// ActiveGPUs counts the GPUs doing substantial work.
	ActiveGPUs int
	// SummedUtilP95 and SummedUtilMean are the utilisation of all GPUs
	// added up, per slot, in percent of one GPU: 190 means two GPUs' worth.
	SummedUtilP95  float64
	SummedUtilMean float64
	// MemPeakSumMiB adds up every GPU's peak memory.
	MemPeakSumMiB float64
	HasUtil       bool
	HasMemory     bool
}

// Stats computes the statistics of what was added. gpus are the GPUs of
// the parse report (same ids as the samples).
func (a *Analyzer) Stats(gpus []GPUInfo) *Stats {
	a.finishSlot()
	st := &Stats{TimeKnown: a.timeMode > 0, SlotSeconds: a.slotMs / 1000}
	overall := hist{bins: make([]uint64, utilBins), width: 0.1, limit: utilBins}
	overallMem := hist{width: memBinMiB, limit: maxMemBins}
	hosts := map[string]bool{}
	first, last := int64(math.MaxInt64), int64(math.MinInt64)
	for id, g := range a.gpus {
		info := GPUInfo{Key: fmt.Sprint(id), Index: id}
		if id < len(gpus) {
			info = gpus[id]
		}
		hosts[info.Host] = true
		sm := summary(g)
		gs := GPUStats{GPU: info, Summary: sm, Active: sm.UtilSamples > 0 && (sm.P95 >= ActiveP95 || sm.Mean >= ActiveMean)}
		st.GPUs = append(st.GPUs, gs)
		if gs.Active {
			st.ActiveGPUs++
		}
		o := &st.Overall
		o.Samples += g.samples
		o.UtilSamples += g.nUtil
		o.MemSamples += g.nMem
		o.Mean += g.sumUtil
		o.IdleShare += float64(g.idle)
		o.MemPeakMiB = max(o.MemPeakMiB, g.memPeak)
		o.MemTotalMiB = max(o.MemTotalMiB, g.memTot)
		st.MemPeakSumMiB += g.memPeak
		overall.merge(&g.util)
		overallMem.merge(&g.mem)
		if g.hasTime {
			first, last = min(first, g.first), max(last, g.last)
		}
	}
	st.MultiHost = len(hosts) > 1
	o := &st.Overall
	if o.UtilSamples > 0 {
		o.Mean /= float64(o.UtilSamples)
		o.IdleShare /= float64(o.UtilSamples)
		o.P50, o.P95 = overall.quantile(0.5), overall.quantile(0.95)
		st.HasUtil = true
	}
	if o.MemSamples > 0 {
		o.MemP95MiB = min(o.MemPeakMiB, overallMem.quantile(0.95)+memBinMiB)
		st.HasMemory = true
	}
	slices.SortStableFunc(st.GPUs, func(x, y GPUStats) int {
		if x.GPU.Host != y.GPU.Host {
			if x.GPU.Host < y.GPU.Host {
				return -1
			}
			return 1
		}
		if x.GPU.Index != y.GPU.Index {
			return x.GPU.Index - y.GPU.Index
		}
		if x.GPU.Key < y.GPU.Key {
			return -1
		}
		if x.GPU.Key > y.GPU.Key {
			return 1
		}
		return 0
	})
	if a.sumN > 0 {
		st.SummedUtilP95 = a.sum.quantile(0.95)
		st.SummedUtilMean = a.sumTotal / float64(a.sumN)
	}
	if first <= last {
		st.Start, st.End = time.UnixMilli(first).UTC(), time.UnixMilli(last).UTC()
	}
	st.IntervalSeconds = a.medianInterval()
	a.timeline(st, first, last)
	classify(st)
	return st
}

func summary(g *gpuAcc) Summary {
	s := Summary{Samples: g.samples, UtilSamples: g.nUtil, MemSamples: g.nMem, MemPeakMiB: g.memPeak, MemTotalMiB: g.memTot}
	if g.nUtil > 0 {
		s.Mean = g.sumUtil / float64(g.nUtil)
		s.IdleShare = float64(g.idle) / float64(g.nUtil)
		s.P50, s.P95 = g.util.quantile(0.5), g.util.quantile(0.95)
	}
	if g.nMem > 0 {
		// upper edge of the bin, never above the peak
		s.MemP95MiB = min(g.memPeak, g.mem.quantile(0.95)+memBinMiB)
	}
	return s
}

func (a *Analyzer) medianInterval() float64 {
	var n uint64
	for _, c := range a.deltas {
		n += uint64(c)
	}
	if n == 0 {
		if a.timeMode < 0 {
			iv := a.IntervalMs
			if iv <= 0 {
				iv = 60_000
			}
			return float64(iv) / 1000
		}
		return 0
	}
	var cum uint64
	for i, c := range a.deltas {
		cum += uint64(c)
		if cum*2 >= n {
			return float64(i)
		}
	}
	return 0
}

// timeline computes the duty cycle, coverage, clock hours, hour-of-day
// profile and busy runs from the slot map. A slot's state holds until the
// next sample when the gap is within 1.5 sampling intervals.
func (a *Analyzer) timeline(st *Stats, first, last int64) {
	if len(a.slots) == 0 {
		return
	}
	keys := make([]int64, 0, len(a.slots))
	for k := range a.slots {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	slotMs := a.slotMs
	// A sample stands for its sampling interval; across a gap of up to 1.5
	// intervals the state holds until the next sample.
	ivSlots, hold := int64(1), int64(1)
	if st.IntervalSeconds > 0 {
		ivSlots = max(1, int64(math.Round(st.IntervalSeconds*1000/float64(slotMs))))
		hold = max(1, int64(math.Ceil(1.5*st.IntervalSeconds*1000/float64(slotMs))))
	}
	lo, hi := keys[0], keys[len(keys)-1]
	hi += ivSlots - 1 // the last sample holds for its interval too
	spanSlots := hi - lo + 1
	st.SpanHours = float64(spanSlots*slotMs) / 3.6e6
	var seen, busy int64
	var hourSeen, hourBusy [24]int64
	clock := map[int64]bool{} // clock hour → busy
	runs, runSlots := 0, int64(0)
	inRun := false
	hourMs := int64(3_600_000)
	visit := func(k int64, f uint8) {
		seen++
		b := f&slotBusy != 0
		t := k * slotMs
		h := floorDiv(t, hourMs)
		if b {
			busy++
			clock[h] = true
			if !inRun {
				runs++
				inRun = true
			}
			runSlots++
		} else {
			if _, ok := clock[h]; !ok {
				clock[h] = false
			}
			inRun = false
		}
		if st.TimeKnown {
			hod := ((h % 24) + 24) % 24
			hourSeen[hod]++
			if b {
				hourBusy[hod]++
			}
		}
	}
	for i, k := range keys {
		f := a.slots[k]
		visit(k, f)
		next := hi + 1
		if i+1 < len(keys) {
			next = keys[i+1]
		}
		gap := next - k
		switch {
		case gap <= 1:
		case gap <= hold:
			for j := k + 1; j < next; j++ {
				visit(j, f)
			}
		default:
			for j := k + 1; j < min(next, k+ivSlots); j++ {
				visit(j, f)
			}
			inRun = false
		}
	}
	st.Coverage = float64(seen) / float64(spanSlots)
	st.BusyShare = float64(busy) / float64(spanSlots)
	if st.Coverage > 1 {
		st.Coverage = 1
	}
	startH, endH := floorDiv(lo*slotMs, hourMs), floorDiv(hi*slotMs, hourMs)
	st.SpanClockHours = endH - startH + 1
	for _, b := range clock {
		if b {
			st.BusyClockHours++
		}
	}
	st.BusyHourShare = float64(st.BusyClockHours) / float64(st.SpanClockHours)
	st.BusyRuns = runs
	if runs > 0 {
		st.MeanBusyRunMinutes = float64(runSlots*slotMs) / 60_000 / float64(runs)
	}
	if st.TimeKnown {
		st.HourProfile = make([]float64, 24)
		for h := range 24 {
			st.HourProfile[h] = -1
			if hourSeen[h] > 0 {
				st.HourProfile[h] = float64(hourBusy[h]) / float64(hourSeen[h])
			}
		}
	}
}

// classify names the usage pattern.
func classify(st *Stats) {
	switch {
	case !st.HasUtil:
		st.Pattern = "unknown"
		return
	case st.BusyShare < 0.02:
		st.Pattern = "idle"
		return
	case st.BusyShare >= 0.9:
		st.Pattern = "steady"
		return
	}
	if w, ok := dailyWindow(st); ok {
		st.Pattern, st.DailyWindow, st.DailyWindows = "daily", joinAnd(w), w
		return
	}
	if st.BusyShare < 0.5 && st.MeanBusyRunMinutes < 120 {
		st.Pattern = "bursty"
		return
	}
	st.Pattern = "mixed"
}

// dailyWindow finds a daily pattern: over at least two days, some hours of
// the day busy most of the time and the others nearly never.
func dailyWindow(st *Stats) ([]string, bool) {
	if st.HourProfile == nil || st.SpanHours < 48 {
		return nil, false
	}
	var busyH []int
	var inSum, outSum float64
	var nIn, nOut int
	for h, v := range st.HourProfile {
		if v < 0 {
			return nil, false // not every hour of the day observed
		}
		if v >= 0.5 {
			busyH = append(busyH, h)
			inSum += v
			nIn++
		} else {
			outSum += v
			nOut++
		}
	}
	if nIn < 1 || nOut < 4 || inSum/float64(nIn) < 0.7 || outSum/float64(nOut) > 0.15 {
		return nil, false
	}
	// render the busy hours as ranges, joining across midnight
	isBusy := func(h int) bool { return slices.Contains(busyH, (h+24)%24) }
	start := 0
	for isBusy(start) && start < 24 {
		start++ // begin the scan at an idle hour
	}
	var parts []string
	for i := 0; i < 24; i++ {
		h := (start + i) % 24
		if isBusy(h) && !isBusy(h-1) {
			e := h
			for isBusy(e + 1) {
				e = (e + 1) % 24
			}
			parts = append(parts, fmt.Sprintf("%02d:00–%02d:00", h, (e+1)%24))
		}
	}
	return parts, true
}

func joinAnd(p []string) string {
	switch len(p) {
	case 0:
		return ""
	case 1:
		return p[0]
	}
	out := p[0]
	for _, s := range p[1 : len(p)-1] {
		out += ", " + s
	}
	return out + " and " + p[len(p)-1]
}

// Analyze parses a log and computes its statistics in one streaming pass.
func Analyze(r io.Reader, name string, opt Options, intervalMs int64) (*Stats, *ParseReport, error) {
	an := NewAnalyzer()
	an.IntervalMs = intervalMs
	rep, err := Parse(r, name, opt, an.Add)
	if err != nil {
		return nil, rep, err
	}
	st := an.Stats(rep.GPUs)
	if !rep.Timestamps {
		iv := float64(intervalMs) / 1000
		if iv <= 0 {
			rep.Notes = append(rep.Notes, i18n.M("rs.note.no_ts_minute"))
		} else {
			rep.Notes = append(rep.Notes, i18n.M("rs.note.no_ts_every", iv))
		}
	}
	return st, rep, nil
}
