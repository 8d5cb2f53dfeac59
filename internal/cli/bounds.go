package cli

import (
	"math"
	"strconv"

	"github.com/spf13/pflag"
)

// sizeBound is the largest value a size flag accepts: far beyond any real
// job, so a typo (1e30 for 1e13) is refused at the flag that holds it
// rather than failing deep in the engines. docs/advisor.md lists them.
type sizeBound struct {
	flag string
	max  float64
}

// sizeBounds are the bounds of the size flags of recommend and estimate.
// The largest published jobs, for scale: about 2e12 parameters, 3.6e13
// training tokens, 1e5 GPUs in one cluster, 4e26 training FLOPs.
func sizeBounds() []sizeBound {
	return []sizeBound{
		{"params", 1e15},            // 500× the largest published model
		{"active-params", 1e15},     // as --params
		{"tokens", 1e17},            // ~3,000× the largest published training run
		{"size", 1e18},              // samples of a benchmark
		{"samples", 1e18},           // estimate's name for it
		{"images", 1e13},            // 10,000× ImageNet-21k
		{"epochs", 1e5},             //
		{"flops", 1e30},             // ~2,500× the largest published training run
		{"gpu-hours", 1e9},          // 100,000 GPUs for a decade
		{"tokens-per-second", 1e10}, //
		{"qps", 1e7},                // 100× the busiest web services
		{"input-tokens", 1e8},       // 100× the longest context windows
		{"output-tokens", 1e8},      //
		{"ttft-ms", 3.6e6},          // an hour
		{"tpot-ms", 3.6e6},          //
		{"hours", 87600},            // ten years
		{"deadline-hours", 87600},   //
		{"start-within-days", 3650}, //
		{"mtbi", 87600},             //
		{"min-vram", 1e5},           // GB per GPU
		{"cluster-gpus", 1e6},       // 10× the largest clusters built
		{"min-gpus", 1e6},           //
		{"max-gpus", 1e6},           //
		{"count", 1e6},              // estimate --count
		{"nodes", 1e6},              //
		{"instances", 1e6},          //
		{"horizon-months", 120},     // ten years
		{"attention-heads", 1e5},    //
		{"max-batch", 1e7},          //
		{"gflops-per-image", 1e7},   //
		{"fabric-gbps", 1e5},        // 100 Tb/s per node
		{"budget", 1e15},            //
	}
}

// checkSizeFlags refuses a size flag the user set to a value no job has:
// above its bound, negative, or not a finite number. The error names the
// flag as the user wrote it and exits 2.
func checkSizeFlags(fs *pflag.FlagSet) error {
	for _, b := range sizeBounds() {
		f := fs.Lookup(b.flag)
		if f == nil || !f.Changed {
			continue
		}
		v, err := strconv.ParseFloat(f.Value.String(), 64)
		if err != nil {
			continue // not a number flag
		}
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v > b.max {
			return &localError{key: "cli.bound", args: []any{b.flag, f.Value.String(), strconv.FormatFloat(b.max, 'g', -1, 64)},
				hint: "cli.bound.hint", exit: ExitUsage}
		}
	}
	return nil
}
