// Command gensynth writes a synthetic GPU metrics log to stdout, for
// benchmarks: gensynth -format nvidia-smi -gpus 8 -rows 14000000 > big.csv
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/gpuscout/gpuscout/internal/rightsize/synth"
)

func main() {
	format := flag.String("format", "nvidia-smi", "nvidia-smi or dcgm")
	gpus := flag.Int("gpus", 8, "GPUs")
	rows := flag.Int("rows", 1_000_000, "nvidia-smi rows (one GPU's sample each) or DCGM scrapes × GPUs")
	interval := flag.Duration("interval", time.Second, "time between polls")
	scenario := flag.String("scenario", "", "a named scenario instead ("+names()+")")
	flag.Parse()
	var s synth.Spec
	if *scenario != "" {
		f, ok := synth.Scenarios[*scenario]
		if !ok {
			fmt.Fprintf(os.Stderr, "gensynth: unknown scenario %q (%s)\n", *scenario, names())
			os.Exit(2)
		}
		s = f()
	} else {
		polls := max(1, *rows / *gpus)
		s = synth.Spec{GPUs: *gpus, Start: synth.Week, Duration: time.Duration(polls) * *interval, Interval: *interval,
			MemTotalMiB: synth.TotalH100, Model: "NVIDIA H100 80GB HBM3", Seed: 42,
			Profile: synth.OfficeHours(9, 18, 85, 61440)}
	}
	var err error
	switch *format {
	case "nvidia-smi", "csv":
		err = synth.WriteNVSMI(os.Stdout, s, synth.CSVOptions{})
	case "dcgm":
		err = synth.WriteDCGM(os.Stdout, s, synth.DCGMOptions{Timestamps: true})
	default:
		err = fmt.Errorf("unknown format %q", *format)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gensynth:", err)
		os.Exit(1)
	}
}

func names() string {
	out := ""
	for k := range synth.Scenarios {
		if out != "" {
			out += ", "
		}
		out += k
	}
	return out
}
