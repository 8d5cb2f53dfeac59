package rightsize_test

import (
	"bytes"
	"compress/gzip"
	"math"
	"testing"

	"github.com/gpuscout/gpuscout/internal/rightsize"
	"github.com/gpuscout/gpuscout/internal/rightsize/synth"
)

// check runs one parse and the analysis over it and asserts what must hold
// for any input: no panic, samples in range, the report consistent.
func check(t *testing.T, data []byte, opt rightsize.Options) {
	an := rightsize.NewAnalyzer()
	var n int64
	rep, err := rightsize.Parse(bytes.NewReader(data), "fuzz", opt, func(s *rightsize.Sample) {
		n++
		if s.Has&rightsize.HasUtil != 0 && (s.Util < 0 || s.Util > 100 || math.IsNaN(s.Util)) {
			t.Fatalf("utilisation %v out of range", s.Util)
		}
		if s.Has&rightsize.HasMemUsed != 0 && (s.MemUsedMiB < 0 || math.IsNaN(s.MemUsedMiB) || math.IsInf(s.MemUsedMiB, 0)) {
			t.Fatalf("memory %v", s.MemUsedMiB)
		}
		if s.Has&(rightsize.HasUtil|rightsize.HasMemUsed) == 0 {
			t.Fatal("a sample without utilisation or memory")
		}
		an.Add(s)
	})
	if rep == nil {
		t.Fatal("no report")
	}
	if n != rep.Samples || len(rep.Bad) > 5 || len(rep.Bad) > rep.Skipped || rep.Skipped+rep.Ignored > rep.Lines {
		t.Fatalf("samples %d/%d, bad %d, skipped %d, ignored %d, lines %d", n, rep.Samples, len(rep.Bad), rep.Skipped, rep.Ignored, rep.Lines)
	}
	for _, b := range rep.Bad {
		if b.Line < 1 || b.Line > rep.Lines {
			t.Fatalf("bad line %d of %d", b.Line, rep.Lines)
		}
	}
	if (err == nil) != (n > 0) {
		t.Fatalf("err %v with %d samples", err, n)
	}
	if n > 0 {
		st := an.Stats(rep.GPUs)
		if st.Overall.Samples != n || st.BusyShare < 0 || st.BusyShare > 1 || st.Coverage < 0 || st.Coverage > 1 ||
			st.Overall.P95 < st.Overall.P50 || st.Overall.Mean < 0 || st.Overall.Mean > 100 {
			t.Fatalf("stats %+v", st)
		}
	}
}

func seeds(f *testing.F, name string, dcgm bool) {
	var b bytes.Buffer
	s := synth.Scenarios[name]()
	s.Duration = s.Interval * 3
	if dcgm {
		synth.WriteDCGM(&b, s, synth.DCGMOptions{Timestamps: true})
	} else {
		synth.WriteNVSMI(&b, s, synth.CSVOptions{})
	}
	f.Add(b.Bytes())
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(b.Bytes())
	zw.Close()
	f.Add(z.Bytes())
}

func FuzzNVSMI(f *testing.F) {
	seeds(f, "two-of-eight-a100", false)
	for _, s := range []string{
		synth.CSVHeader + "\n2026/11/30 10:00:00.123, 0, 97 %, 61 %, 70213 MiB, 81559 MiB\n",
		"2026/11/30 10:00:00.123, 0, 97, 61, 70213, 81559\n",
		"index, name, utilization.gpu [%], memory.used [MiB], memory.free [MiB]\n0, A, [N/A], 5 GiB, 1 KiB\n",
		"timestamp, utilization.gpu [%]\n2026-11-30T10:00:00+08:00, 1e2 %\n,\n\n,,,,,,\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { check(t, data, rightsize.Options{Format: rightsize.FormatNVSMI}) })
}

func FuzzDCGM(f *testing.F) {
	seeds(f, "steady-8xa100", true)
	for _, s := range []string{
		`DCGM_FI_DEV_GPU_UTIL{gpu="0",UUID="GPU-1",modelName="NVIDIA H100 80GB HBM3"} 97 1795392000000` + "\n",
		`DCGM_FI_DEV_FB_USED{gpu="1", Hostname="a\"b"} 512` + "\n" + `DCGM_FI_DEV_FB_FREE{gpu="1"} 100` + "\n",
		`DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu="0",GPU_I_ID="3"} 0.5 -1` + "\n# HELP x\nDCGM_FI_DEV_GPU_UTIL{gpu=\"0\"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { check(t, data, rightsize.Options{Format: rightsize.FormatDCGM}) })
}

// FuzzDetect lets detection pick the parser.
func FuzzDetect(f *testing.F) {
	seeds(f, "bursty-h100", false)
	seeds(f, "bursty-h100", true)
	f.Fuzz(func(t *testing.T, data []byte) { check(t, data, rightsize.Options{}) })
}
