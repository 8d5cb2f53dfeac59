package rightsize_test

import (
	"bytes"
	"compress/gzip"
	"sync"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/rightsize"
	"github.com/gpuscout/gpuscout/internal/rightsize/synth"
)

// benchLogs are generated once per process: 2 million nvidia-smi rows
// (8 GPUs, 250,000 polls a second apart, about 115 MB) and 25,000 DCGM
// scrapes of the same GPUs (7 metrics each: 1.75 million lines, 256 MB).
var benchLogs = sync.OnceValue(func() map[string][]byte {
	spec := func(polls int) synth.Spec {
		return synth.Spec{GPUs: 8, Start: synth.Week, Duration: time.Duration(polls) * time.Second, Interval: time.Second,
			MemTotalMiB: synth.TotalH100, Model: "NVIDIA H100 80GB HBM3", Seed: 42, Profile: synth.OfficeHours(9, 18, 85, 61440)}
	}
	out := map[string][]byte{}
	var csv, prom, gz bytes.Buffer
	synth.WriteNVSMI(&csv, spec(250_000), synth.CSVOptions{})
	synth.WriteDCGM(&prom, spec(25_000), synth.DCGMOptions{Timestamps: true})
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestSpeed)
	zw.Write(csv.Bytes())
	zw.Close()
	out["nvidia-smi"], out["dcgm"], out["nvidia-smi.gz"] = csv.Bytes(), prom.Bytes(), gz.Bytes()
	return out
})

func benchAnalyze(b *testing.B, name string) {
	data := benchLogs()[name]
	lines := bytes.Count(data, []byte("\n"))
	b.ReportAllocs()
	b.ResetTimer()
	var rep *rightsize.ParseReport
	for b.Loop() {
		var err error
		_, rep, err = rightsize.Analyze(bytes.NewReader(data), name, rightsize.Options{}, 0)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(rep.DataBytes) // MB/s of log text, uncompressed
	if name == "nvidia-smi.gz" {
		lines = rep.Lines
	}
	b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mlines/s")
}

// BenchmarkAnalyzeNVSMI streams 2 million nvidia-smi rows through the
// parser and the statistics.
func BenchmarkAnalyzeNVSMI(b *testing.B) { benchAnalyze(b, "nvidia-smi") }

// BenchmarkAnalyzeNVSMIGzip is the same log gzip-compressed.
func BenchmarkAnalyzeNVSMIGzip(b *testing.B) { benchAnalyze(b, "nvidia-smi.gz") }

// BenchmarkAnalyzeDCGM streams 1.75 million lines of DCGM exporter text.
func BenchmarkAnalyzeDCGM(b *testing.B) { benchAnalyze(b, "dcgm") }
