package perf

import (
	"embed"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/gpuscout/gpuscout/internal/i18n"
)

//go:embed mfudata/mfu.csv
var mfuFS embed.FS

// MFUPoint is a published model-FLOPs utilisation of a large transformer
// training run: 6·parameters·tokens per second over the GPUs' dense peak.
type MFUPoint struct {
	Model     string
	Params    float64
	Arch      string // GPU architecture family (Ampere, Hopper ...)
	Peak      float64
	GPUs      int
	Precision string
	Fabric    string
	MFU       float64
	Source    string
	Note      string
	Line      int
}

var mfuCols = []string{"model", "params", "gpu_arch", "peak_tflops", "gpus", "precision", "fabric", "mfu", "source", "note"}

// ParseMFU reads an MFU table; errors name the file, line and field.
func ParseMFU(r io.Reader, file string) ([]MFUPoint, error) {
	cr := csv.NewReader(r)
	header, err := cr.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: empty file", file)
		}
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))] = i
	}
	for _, c := range mfuCols {
		if _, ok := col[c]; !ok {
			return nil, fmt.Errorf("%s:1: missing column %q", file, c)
		}
	}
	var out []MFUPoint
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		line, _ := cr.FieldPos(0)
		get := func(c string) string { return strings.TrimSpace(rec[col[c]]) }
		bad := func(c string) error { return fmt.Errorf("%s:%d: field %s: %q is not valid", file, line, c, get(c)) }
		p := MFUPoint{Model: get("model"), Arch: get("gpu_arch"), Precision: get("precision"), Fabric: get("fabric"),
			Source: get("source"), Note: get("note"), Line: line}
		if p.Params, err = strconv.ParseFloat(get("params"), 64); err != nil || !(p.Params > 0) {
			return nil, bad("params")
		}
		if p.Peak, err = strconv.ParseFloat(get("peak_tflops"), 64); err != nil || !(p.Peak > 0) {
			return nil, bad("peak_tflops")
		}
		if p.GPUs, err = strconv.Atoi(get("gpus")); err != nil || p.GPUs < 1 {
			return nil, bad("gpus")
		}
		if p.MFU, err = strconv.ParseFloat(get("mfu"), 64); err != nil || !(p.MFU > 0 && p.MFU <= 1) {
			return nil, bad("mfu")
		}
		if p.Source == "" {
			return nil, bad("source")
		}
		out = append(out, p)
	}
	return out, nil
}

// LoadMFU reads the embedded MFU table.
func LoadMFU() ([]MFUPoint, error) {
	f, err := mfuFS.Open("mfudata/mfu.csv")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseMFU(f, "mfu.csv")
}

// mfuArchShrink is the pseudo-count pulling an architecture's MFU toward
// the all-GPU mean.
const mfuArchShrink = 2.0

// MFUFit is the fitted BF16/FP16 MFU of large transformer training.
type MFUFit struct {
	All    float64            // geometric mean of all published figures
	ByArch map[string]float64 // per architecture, shrunk toward All
	N      map[string]int
	Total  int
}

// FitMFU fits the MFU on points (skip leaves some out).
func FitMFU(points []MFUPoint, skip func(i int) bool) MFUFit {
	f := MFUFit{ByArch: map[string]float64{}, N: map[string]int{}}
	sum, asum := 0.0, map[string]float64{}
	for i, p := range points {
		if skip != nil && skip(i) {
			continue
		}
		l := math.Log(p.MFU)
		sum += l
		asum[p.Arch] += l
		f.N[p.Arch]++
		f.Total++
	}
	if f.Total == 0 {
		return f
	}
	mean := sum / float64(f.Total)
	f.All = math.Exp(mean)
	for a, s := range asum {
		n := float64(f.N[a])
		f.ByArch[a] = math.Exp((s + mfuArchShrink*mean) / (n + mfuArchShrink))
	}
	return f
}

// For is the MFU for a GPU architecture and where it comes from.
func (f MFUFit) For(arch string) (float64, i18n.Msg) {
	if v, ok := f.ByArch[arch]; ok {
		return v, i18n.M("perf.as.mfu_fitted", f.N[arch], arch, f.Total, 100*f.All)
	}
	return f.All, i18n.M("perf.as.mfu_mean", f.Total, arch)
}

// ValidateMFU predicts each published MFU from the other publications
// (runs from the same paper are left out with it): the error of a sized
// training job's time.
func ValidateMFU(points []MFUPoint) []Result {
	var out []Result
	for i, p := range points {
		f := FitMFU(points, func(j int) bool { return j == i || points[j].Source == p.Source })
		if f.Total == 0 {
			continue
		}
		pred, _ := f.For(p.Arch)
		out = append(out, Result{Point: Point{Benchmark: p.Model, GPU: p.Arch, Count: p.GPUs, Value: p.MFU, Source: p.Source},
			Predicted: pred, Confidence: Transferred, Err: pred/p.MFU - 1})
	}
	return out
}
