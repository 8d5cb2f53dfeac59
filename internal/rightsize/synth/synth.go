// Package synth generates realistic, deterministic GPU metrics logs —
// nvidia-smi --query-gpu CSV and DCGM exporter Prometheus text — for tests
// and benchmarks of the rightsize package. The same Spec always produces
// the same bytes (its own PRNG, no dependence on math/rand).
package synth

import (
	"bufio"
	"io"
	"math"
	"strconv"
	"time"
)

// Rand is a small deterministic PRNG (splitmix64).
type Rand struct{ s uint64 }

// NewRand seeds a generator.
func NewRand(seed uint64) *Rand { return &Rand{s: seed} }

// Uint64 returns the next 64 random bits.
func (r *Rand) Uint64() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Float64 is uniform in [0, 1).
func (r *Rand) Float64() float64 { return float64(r.Uint64()>>11) / (1 << 53) }

// Noise is uniform in [-a, a].
func (r *Rand) Noise(a float64) float64 { return (2*r.Float64() - 1) * a }

// Profile gives one GPU's utilisation (percent) and memory used (MiB) at a
// time. State that spans samples (bursts) lives in the closure.
type Profile func(gpu int, t time.Time, r *Rand) (util, memMiB float64)

// Spec describes a log.
type Spec struct {
	GPUs        int
	Start       time.Time // wall clock written in the log
	Duration    time.Duration
	Interval    time.Duration
	MemTotalMiB float64
	Model       string // "NVIDIA H100 80GB HBM3"
	Seed        uint64
	Profile     Profile
}

// Samples is the number of polls (rows per GPU).
func (s Spec) Samples() int { return int(s.Duration / s.Interval) }

func clamp(v, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, v)) }

// Steady keeps every GPU at about util percent (±3) with memFrac of the
// memory in use (training).
func Steady(util, memFrac float64, total float64) Profile {
	return func(_ int, _ time.Time, r *Rand) (float64, float64) {
		return math.Round(clamp(util+r.Noise(3), 0, 100)), math.Round(total*memFrac + r.Noise(total*0.01))
	}
}

// PartialGPUs keeps the first active GPUs at about util percent with
// memMiB in use; the others idle at 0 % with a few MiB (the driver).
func PartialGPUs(active int, util, memMiB float64) Profile {
	return func(gpu int, _ time.Time, r *Rand) (float64, float64) {
		if gpu < active {
			return math.Round(clamp(util+r.Noise(3), 0, 100)), math.Round(memMiB + r.Noise(256))
		}
		return 0, 3
	}
}

// OfficeHours keeps every GPU busy at about util percent from hour from to
// hour to (log clock) with memMiB in use, idle with nothing loaded
// otherwise: the "idle nights" pattern.
func OfficeHours(from, to int, util, memMiB float64) Profile {
	return func(_ int, t time.Time, r *Rand) (float64, float64) {
		if h := t.Hour(); h >= from && h < to {
			return math.Round(clamp(util+r.Noise(8), 5, 100)), math.Round(memMiB + r.Noise(512))
		}
		return 0, 3
	}
}

// Bursty is an inference service: the model stays loaded (memMiB), the
// GPUs idle at 0–1 % and serve bursts — one every gapHours on average,
// lasting 10–30 minutes at 55–100 %.
func Bursty(gapHours, memMiB float64, seed uint64) Profile {
	r := NewRand(seed)
	var burstEnd, next time.Time
	return func(gpu int, t time.Time, rr *Rand) (float64, float64) {
		if next.IsZero() {
			next = t.Add(time.Duration(r.Float64() * gapHours * float64(time.Hour)))
		}
		if gpu == 0 && !t.Before(next) {
			burstEnd = t.Add(time.Duration(10+r.Float64()*20) * time.Minute)
			// exponential gap between bursts
			gap := -math.Log(1-r.Float64()) * gapHours
			next = burstEnd.Add(time.Duration(gap * float64(time.Hour)))
		}
		if t.Before(burstEnd) {
			return math.Round(55 + rr.Float64()*45), math.Round(memMiB + 1024*rr.Float64())
		}
		return math.Round(rr.Float64()), math.Round(memMiB)
	}
}

// MemoryBound holds most of the memory with little compute: util in
// [lo, hi] percent, memMiB in use.
func MemoryBound(lo, hi, memMiB float64) Profile {
	return func(_ int, _ time.Time, r *Rand) (float64, float64) {
		return math.Round(lo + r.Float64()*(hi-lo)), math.Round(memMiB + r.Noise(256))
	}
}

// CSVOptions shape nvidia-smi output.
type CSVOptions struct {
	// NoHeader and NoUnits are --format=csv,noheader,nounits.
	NoHeader, NoUnits bool
}

// CSVHeader is nvidia-smi's header for
// --query-gpu=timestamp,index,utilization.gpu,utilization.memory,memory.used,memory.total.
const CSVHeader = "timestamp, index, utilization.gpu [%], utilization.memory [%], memory.used [MiB], memory.total [MiB]"

// WriteNVSMI writes s as nvidia-smi -l CSV output: one row per GPU per poll.
func WriteNVSMI(w io.Writer, s Spec, o CSVOptions) error {
	bw := bufio.NewWriterSize(w, 256<<10)
	if !o.NoHeader {
		bw.WriteString(CSVHeader + "\n")
	}
	r, deco := NewRand(s.Seed), NewRand(s.Seed^0x5eed)
	buf := make([]byte, 0, 128)
	n := s.Samples()
	for i := 0; i < n; i++ {
		t := s.Start.Add(time.Duration(i) * s.Interval)
		for g := 0; g < s.GPUs; g++ {
			util, mem := s.Profile(g, t, r)
			memUtil := math.Round(util * 0.6)
			tg := t.Add(time.Duration(g*3+int(deco.Uint64()%3)) * time.Millisecond)
			buf = appendRow(buf[:0], tg, g, util, memUtil, mem, s.MemTotalMiB, !o.NoUnits)
			if _, err := bw.Write(buf); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}

func appendRow(b []byte, t time.Time, gpu int, util, memUtil, mem, total float64, units bool) []byte {
	b = t.AppendFormat(b, "2006/01/02 15:04:05.000")
	b = append(b, ", "...)
	b = strconv.AppendInt(b, int64(gpu), 10)
	for i, v := range []float64{util, memUtil, mem, total} {
		b = append(b, ", "...)
		b = strconv.AppendInt(b, int64(v), 10)
		if units {
			if i < 2 {
				b = append(b, " %"...)
			} else {
				b = append(b, " MiB"...)
			}
		}
	}
	return append(b, '\n')
}

// DCGMOptions shape DCGM exporter output.
type DCGMOptions struct {
	// Timestamps appends each scrape's time in milliseconds to its samples.
	Timestamps bool
	Host       string
}

// dcgmOther are other metrics of a scrape, as dcgm-exporter writes them.
var dcgmOther = []struct {
	name, help string
	lo, span   int
}{
	{"DCGM_FI_DEV_SM_CLOCK", "SM clock frequency (in MHz).", 1000, 800},
	{"DCGM_FI_DEV_GPU_TEMP", "GPU temperature (in C).", 30, 50},
}

// WriteDCGM writes s as a sequence of dcgm-exporter scrapes (curl
// localhost:9400/metrics appended to a file): # HELP / # TYPE lines, then
// every GPU's sample of each metric.
func WriteDCGM(w io.Writer, s Spec, o DCGMOptions) error {
	bw := bufio.NewWriterSize(w, 256<<10)
	r, deco := NewRand(s.Seed), NewRand(s.Seed^0x5eed)
	host := o.Host
	if host == "" {
		host = "gpu-node-1"
	}
	n := s.Samples()
	util := make([]float64, s.GPUs)
	mem := make([]float64, s.GPUs)
	var b []byte
	for i := 0; i < n; i++ {
		t := s.Start.Add(time.Duration(i) * s.Interval)
		for g := range s.GPUs {
			util[g], mem[g] = s.Profile(g, t, r)
		}
		ts := ""
		if o.Timestamps {
			ts = " " + strconv.FormatInt(t.UnixMilli(), 10)
		}
		labels := func(g int) string {
			return "{gpu=\"" + strconv.Itoa(g) + "\",UUID=\"GPU-" + uuid(s.Seed, g) + "\",device=\"nvidia" + strconv.Itoa(g) +
				"\",modelName=\"" + s.Model + "\",Hostname=\"" + host + "\"}"
		}
		metric := func(name, help string, val func(g int) string) {
			b = append(b, "# HELP "+name+" "+help+"\n# TYPE "+name+" gauge\n"...)
			for g := range s.GPUs {
				b = append(b, name+labels(g)+" "+val(g)+ts+"\n"...)
			}
		}
		b = b[:0]
		for _, m := range dcgmOther {
			metric(m.name, m.help, func(int) string { return strconv.Itoa(m.lo + int(deco.Uint64()%uint64(m.span))) })
		}
		metric("DCGM_FI_DEV_GPU_UTIL", "GPU utilization (in %).", func(g int) string { return strconv.Itoa(int(util[g])) })
		metric("DCGM_FI_DEV_MEM_COPY_UTIL", "Memory utilization (in %).", func(g int) string { return strconv.Itoa(int(util[g] * 0.6)) })
		metric("DCGM_FI_DEV_FB_FREE", "Framebuffer memory free (in MiB).", func(g int) string { return strconv.Itoa(int(s.MemTotalMiB - mem[g])) })
		metric("DCGM_FI_DEV_FB_USED", "Framebuffer memory used (in MiB).", func(g int) string { return strconv.Itoa(int(mem[g])) })
		metric("DCGM_FI_PROF_GR_ENGINE_ACTIVE", "Ratio of time the graphics engine is active.", func(g int) string {
			return strconv.FormatFloat(util[g]/100*0.97, 'f', 6, 64)
		})
		if _, err := bw.Write(b); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// uuid is a stable fake GPU UUID.
func uuid(seed uint64, g int) string {
	r := NewRand(seed*31 + uint64(g) + 1)
	const hex = "0123456789abcdef"
	var b []byte
	for i, n := range []int{8, 4, 4, 4, 12} {
		if i > 0 {
			b = append(b, '-')
		}
		for range n {
			b = append(b, hex[r.Uint64()%16])
		}
	}
	return string(b)
}

// GPU memory as nvidia-smi reports it (memory.total, MiB).
const (
	TotalH100    = 81559 // NVIDIA H100 80GB HBM3
	TotalA100_40 = 40960 // NVIDIA A100-SXM4-40GB
	TotalL40S    = 46068 // NVIDIA L40S
)

// Week is the Monday the scenarios start on.
var Week = time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)

// Scenarios are the named logs the tests use; each call builds a fresh
// Spec (profiles keep state).
var Scenarios = map[string]func() Spec{
	// 8 GPUs training flat out for two days.
	"steady-8xh100": func() Spec {
		return Spec{GPUs: 8, Start: Week, Duration: 48 * time.Hour, Interval: 5 * time.Minute, MemTotalMiB: TotalH100,
			Model: "NVIDIA H100 80GB HBM3", Seed: 1, Profile: Steady(95, 0.86, TotalH100)}
	},
	"steady-8xa100": func() Spec {
		return Spec{GPUs: 8, Start: Week, Duration: 24 * time.Hour, Interval: 15 * time.Minute, MemTotalMiB: TotalA100_40,
			Model: "NVIDIA A100-SXM4-40GB", Seed: 2, Profile: Steady(96, 0.9, TotalA100_40)}
	},
	// 2 of 8 GPUs used, 30 GiB each.
	"two-of-eight-a100": func() Spec {
		return Spec{GPUs: 8, Start: Week, Duration: 24 * time.Hour, Interval: 5 * time.Minute, MemTotalMiB: TotalA100_40,
			Model: "NVIDIA A100-SXM4-40GB", Seed: 3, Profile: PartialGPUs(2, 95, 30720)}
	},
	"two-of-eight-l40s": func() Spec {
		return Spec{GPUs: 8, Start: Week, Duration: 24 * time.Hour, Interval: 5 * time.Minute, MemTotalMiB: TotalL40S,
			Model: "NVIDIA L40S", Seed: 4, Profile: PartialGPUs(2, 95, 30720)}
	},
	// Busy 09:00–18:00 every day of a week, idle nights.
	"idle-nights-8xh100": func() Spec {
		return Spec{GPUs: 8, Start: Week, Duration: 7 * 24 * time.Hour, Interval: 10 * time.Minute, MemTotalMiB: TotalH100,
			Model: "NVIDIA H100 80GB HBM3", Seed: 5, Profile: OfficeHours(9, 18, 85, 61440)}
	},
	"idle-nights-8xa100": func() Spec {
		return Spec{GPUs: 8, Start: Week, Duration: 7 * 24 * time.Hour, Interval: 10 * time.Minute, MemTotalMiB: TotalA100_40,
			Model: "NVIDIA A100-SXM4-40GB", Seed: 6, Profile: OfficeHours(9, 18, 85, 30720)}
	},
	// An inference service on one H100: ~19 GiB loaded, bursts every 3 h.
	"bursty-h100": func() Spec {
		return Spec{GPUs: 1, Start: Week, Duration: 7 * 24 * time.Hour, Interval: 2 * time.Minute, MemTotalMiB: TotalH100,
			Model: "NVIDIA H100 80GB HBM3", Seed: 7, Profile: Bursty(3, 19500, 77)}
	},
	// Little compute, most of the memory.
	"memory-bound-h100": func() Spec {
		return Spec{GPUs: 1, Start: Week, Duration: 48 * time.Hour, Interval: 5 * time.Minute, MemTotalMiB: TotalH100,
			Model: "NVIDIA H100 80GB HBM3", Seed: 8, Profile: MemoryBound(10, 25, 71680)}
	},
}
