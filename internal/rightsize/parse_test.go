package rightsize_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/rightsize"
	"github.com/gpuscout/gpuscout/internal/rightsize/synth"
)

// collect parses input and returns the samples (copied) and the report.
func collect(t testing.TB, input string, opt rightsize.Options) ([]rightsize.Sample, *rightsize.ParseReport, error) {
	t.Helper()
	var out []rightsize.Sample
	rep, err := rightsize.Parse(strings.NewReader(input), "test.log", opt, func(s *rightsize.Sample) { out = append(out, *s) })
	return out, rep, err
}

func ms(s string) int64 {
	t, err := time.Parse("2006/01/02 15:04:05.000", s)
	if err != nil {
		panic(err)
	}
	return t.UnixMilli()
}

func TestNVSMIWithHeaderAndUnits(t *testing.T) {
	in := synth.CSVHeader + "\n" +
		"2026/11/30 10:00:00.123, 0, 97 %, 61 %, 70213 MiB, 81559 MiB\n" +
		"2026/11/30 10:00:00.125, 1, 3 %, 0 %, 512 MiB, 81559 MiB\r\n" +
		"2026/11/30 10:00:01.123, 0, [N/A], 61 %, 70300 MiB, 81559 MiB\n"
	got, rep, err := collect(t, in, rightsize.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Format != rightsize.FormatNVSMI || rep.Samples != 3 || rep.Skipped != 0 || len(rep.GPUs) != 2 || !rep.Timestamps {
		t.Fatalf("report %+v", rep)
	}
	s := got[0]
	if s.TimeMs != ms("2026/11/30 10:00:00.123") || s.Util != 97 || s.MemUtil != 61 || s.MemUsedMiB != 70213 || s.MemTotalMiB != 81559 || s.GPU != 0 {
		t.Errorf("sample %+v", s)
	}
	if got[1].GPU != 1 || got[1].MemUsedMiB != 512 {
		t.Errorf("CRLF row %+v", got[1])
	}
	if got[2].Has&rightsize.HasUtil != 0 || got[2].MemUsedMiB != 70300 || got[2].Seq != 1 {
		t.Errorf("[N/A] utilisation should be absent, not zero: %+v", got[2])
	}
}

func TestNVSMINoHeaderNoUnits(t *testing.T) {
	in := "2026/11/30 10:00:00.123, 0, 97, 61, 70213, 81559\n2026/11/30 10:00:00.124, 1, 5, 2, 1000, 81559\n"
	got, rep, err := collect(t, in, rightsize.Options{})
	if err != nil || len(got) != 2 || got[0].Util != 97 || got[1].MemUsedMiB != 1000 || rep.Columns[2] != "utilization.gpu" {
		t.Fatalf("%v %+v %+v", err, got, rep)
	}
	// A headerless CSV with other columns, described by --columns.
	in = "3, 45, 12000\n"
	got, _, err = collect(t, in, rightsize.Options{Format: rightsize.FormatNVSMI, Columns: []string{"index", "utilization.gpu", "memory.used"}})
	if err != nil || len(got) != 1 || got[0].Util != 45 || got[0].MemUsedMiB != 12000 || got[0].Has&rightsize.HasTime != 0 {
		t.Fatalf("%v %+v", err, got)
	}
}

func TestNVSMIColumnsInAnyOrder(t *testing.T) {
	// A real layout: index first, memory.free instead of a total, a name.
	in := "index, timestamp, name, utilization.gpu [%], utilization.memory [%], memory.free [MiB], memory.used [MiB]\n" +
		"0, 2020/11/12 13:48:11.412, Tesla V100-PCIE-32GB, 99 %, 52 %, 1486 MiB, 30994 MiB\n" +
		// a second run appended to the same file, with the brief's columns
		synth.CSVHeader + "\n" +
		"2020/11/12 14:00:00.000, 0, 10 %, 1 %, 100 MiB, 32480 MiB\n"
	got, rep, err := collect(t, in, rightsize.Options{})
	if err != nil || len(got) != 2 || rep.Ignored != 2 {
		t.Fatalf("%v %+v %+v", err, got, rep)
	}
	if got[0].Util != 99 || got[0].MemUsedMiB != 30994 || got[0].MemTotalMiB != 30994+1486 || got[0].TimeMs != ms("2020/11/12 13:48:11.412") {
		t.Errorf("%+v", got[0])
	}
	if got[1].Util != 10 || got[1].MemTotalMiB != 32480 || got[1].GPU != 0 {
		t.Errorf("after the repeated header: %+v", got[1])
	}
	if rep.GPUs[0].Model != "Tesla V100-PCIE-32GB" {
		t.Errorf("model %q", rep.GPUs[0].Model)
	}
}

func TestDCGM(t *testing.T) {
	in := `# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).
# TYPE DCGM_FI_DEV_GPU_UTIL gauge
DCGM_FI_DEV_GPU_UTIL{gpu="0", UUID="GPU-604ac76c-d9cf-fef3-62e9-d92044ab6e52",device="nvidia0",modelName="NVIDIA H100 80GB HBM3",Hostname="node-a"} 97
DCGM_FI_DEV_GPU_UTIL{gpu="1",UUID="GPU-2",device="nvidia1",modelName="NVIDIA H100 80GB HBM3",Hostname="node-a"} 0
DCGM_FI_DEV_SM_CLOCK{gpu="0",UUID="GPU-604ac76c-d9cf-fef3-62e9-d92044ab6e52"} 1980
DCGM_FI_DEV_FB_USED{gpu="0",UUID="GPU-604ac76c-d9cf-fef3-62e9-d92044ab6e52"} 70213
DCGM_FI_DEV_FB_FREE{gpu="0",UUID="GPU-604ac76c-d9cf-fef3-62e9-d92044ab6e52"} 11346
DCGM_FI_DEV_GPU_UTIL{gpu="0", UUID="GPU-604ac76c-d9cf-fef3-62e9-d92044ab6e52"} 95
DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu="1",UUID="GPU-2"} 0.5
`
	got, rep, err := collect(t, in, rightsize.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Format != rightsize.FormatDCGM || len(rep.GPUs) != 2 || rep.Ignored != 3 || rep.Timestamps {
		t.Fatalf("report %+v", rep)
	}
	// GPU 0: first scrape (util 97, 70213 of 81559 MiB) ends when its
	// utilisation repeats; GPU 1's first scrape carries both utilisations:
	// GPU_UTIL wins over the profiling ratio.
	want := []struct {
		gpu        int
		util, used float64
		total      float64
	}{{0, 97, 70213, 81559}, {0, 95, 0, 0}, {1, 0, 0, 0}}
	if len(got) != len(want) {
		t.Fatalf("samples %+v", got)
	}
	for i, w := range want {
		if got[i].GPU != w.gpu || got[i].Util != w.util || got[i].MemUsedMiB != w.used || got[i].MemTotalMiB != w.total {
			t.Errorf("sample %d: %+v, want %+v", i, got[i], w)
		}
	}
	if g := rep.GPUs[0]; g.UUID != "GPU-604ac76c-d9cf-fef3-62e9-d92044ab6e52" || g.Model != "NVIDIA H100 80GB HBM3" || g.Host != "node-a" || g.Index != 0 {
		t.Errorf("gpu %+v", g)
	}
	// GR_ENGINE_ACTIVE alone is a 0–1 ratio.
	got, _, _ = collect(t, `DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu="3"} 0.25 1795392000000`+"\n", rightsize.Options{})
	if len(got) != 1 || got[0].Util != 25 || got[0].TimeMs != 1795392000000 {
		t.Errorf("%+v", got)
	}
}

// The same log written both ways reads back the same.
func TestDCGMAndCSVAgree(t *testing.T) {
	for _, ts := range []bool{true, false} {
		var csv, prom bytes.Buffer
		synth.WriteNVSMI(&csv, synth.Scenarios["two-of-eight-a100"](), synth.CSVOptions{})
		synth.WriteDCGM(&prom, synth.Scenarios["two-of-eight-a100"](), synth.DCGMOptions{Timestamps: ts})
		a, ra, err := rightsize.Analyze(&csv, "csv", rightsize.Options{}, 0)
		if err != nil {
			t.Fatal(err)
		}
		b, rb, err := rightsize.Analyze(&prom, "prom", rightsize.Options{}, 5*60_000)
		if err != nil {
			t.Fatal(err)
		}
		if ra.Samples != rb.Samples || rb.Skipped != 0 || rb.Timestamps != ts {
			t.Fatalf("samples %d vs %d, skipped %d, timestamps %v", ra.Samples, rb.Samples, rb.Skipped, rb.Timestamps)
		}
		if a.Overall != b.Overall || a.ActiveGPUs != b.ActiveGPUs || a.SummedUtilP95 != b.SummedUtilP95 || math.Abs(a.BusyShare-b.BusyShare) > 1e-9 {
			t.Errorf("timestamps %v:\ncsv  %+v\ndcgm %+v", ts, a.Overall, b.Overall)
		}
		if ts && (b.SpanHours != a.SpanHours || b.HourProfile == nil) {
			t.Errorf("span %v vs %v", b.SpanHours, a.SpanHours)
		}
	}
}

// badLog is a CSV with malformed lines at known line numbers.
func badLog() (string, []int) {
	var b bytes.Buffer
	synth.WriteNVSMI(&b, synth.Scenarios["two-of-eight-a100"](), synth.CSVOptions{})
	lines := strings.SplitAfter(b.String(), "\n")
	junk := map[int]string{ // line number (1-based, after insertion) → content
		3:    "2026/11/23 00:00:00.010, 2, abc %, 0 %, 3 MiB, 40960 MiB\n",
		10:   "this is not a metrics line\n",
		11:   "2026/13/45 99:00:00.000, 0, 50 %, 0 %, 3 MiB, 40960 MiB\n",
		100:  "2026/11/23 01:00:00.000, 0, 140 %, 0 %, 3 MiB, 40960 MiB\n",
		101:  "2026/11/23 01:00:00.000, 0, 50 %\n",
		2000: "2026/11/23 01:00:00.000, x, 50 %, 0 %, 3 MiB, 40960 MiB\n",
		2001: "\x00\x01\x02,,,,,\n",
	}
	var out []string
	var at []int
	for _, l := range lines {
		for {
			n := len(out) + 1
			j, ok := junk[n]
			if !ok {
				break
			}
			out = append(out, j)
			at = append(at, n)
		}
		out = append(out, l)
	}
	return strings.Join(out, ""), at
}

func TestMalformedLinesAreSkippedAndCounted(t *testing.T) {
	in, at := badLog()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(in))
	zw.Close()
	for _, tc := range []struct {
		name string
		data []byte
	}{{"plain", []byte(in)}, {"gzip", gz.Bytes()}} {
		t.Run(tc.name, func(t *testing.T) {
			st, rep, err := rightsize.Analyze(bytes.NewReader(tc.data), "bad.csv", rightsize.Options{}, 0)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Gzip != (tc.name == "gzip") || rep.DataBytes != int64(len(in)) || rep.Bytes != int64(len(tc.data)) {
				t.Errorf("gzip %v, bytes %d/%d", rep.Gzip, rep.Bytes, rep.DataBytes)
			}
			if rep.Skipped != len(at) || rep.Samples != 2304 {
				t.Fatalf("skipped %d (want %d), samples %d", rep.Skipped, len(at), rep.Samples)
			}
			if len(rep.Bad) != 5 {
				t.Fatalf("bad lines reported: %d, want the first 5", len(rep.Bad))
			}
			reasons := []string{`utilization.gpu: "abc %" is not a number`, "1 field where the columns are 6", "timestamp: cannot read", "outside 0–100", "3 fields"}
			for i, b := range rep.Bad {
				if b.Line != at[i] || !strings.Contains(b.Reason, reasons[i]) {
					t.Errorf("bad line %d: %+v, want line %d (%s)", i, b, at[i], reasons[i])
				}
			}
			if st.ActiveGPUs != 2 {
				t.Errorf("active %d", st.ActiveGPUs)
			}
		})
	}
}

func TestLongLineIsSkipped(t *testing.T) {
	in := synth.CSVHeader + "\n" + "2026/11/30 10:00:00.000, 0, 50 %, 1 %, 10 MiB, 100 MiB\n" +
		strings.Repeat("x", 3*rightsize.MaxLineBytes) + "\n" + "2026/11/30 10:00:01.000, 0, 60 %, 1 %, 10 MiB, 100 MiB\n" +
		strings.Repeat("y", rightsize.MaxLineBytes+5) // no newline at the end
	got, rep, err := collect(t, in, rightsize.Options{})
	if err != nil || len(got) != 2 || rep.Skipped != 2 || rep.Bad[0].Line != 3 || rep.Bad[1].Line != 5 || rep.Lines != 5 {
		t.Fatalf("%v %d samples, report %+v", err, len(got), rep)
	}
}

func TestNothingParsesIsAnError(t *testing.T) {
	_, _, err := collect(t, synth.CSVHeader+"\nfoo, bar\nbaz\n", rightsize.Options{})
	var nd *rightsize.NoDataError
	if !errors.As(err, &nd) || !strings.Contains(err.Error(), "test.log: no GPU samples could be read (nvidia-smi CSV, 3 lines); first bad line 2: 2 fields where the columns are 6") {
		t.Fatalf("error %v", err)
	}
	for in, want := range map[string]string{
		"":                         "the file is empty",
		"\n\n  \n":                 "the file is empty",
		"hello world\n":            "not nvidia-smi CSV nor DCGM exporter metrics",
		"# HELP x y\nfoo_bar 1\n":  "no DCGM_FI_DEV_GPU_UTIL",
		"DCGM_FI_DEV_GPU_UTIL 5\n": "no gpu or UUID label",
		"\x1f\x8b\x08garbage-here": "gzip",
	} {
		_, _, err := collect(t, in, rightsize.Options{})
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "test.log") {
			t.Errorf("%q: error %v, want %q", in, err, want)
		}
	}
}

func TestParseFormatAndColumns(t *testing.T) {
	for in, want := range map[string]rightsize.Format{"": rightsize.FormatAuto, "auto": rightsize.FormatAuto, "nvidia-smi": rightsize.FormatNVSMI, "DCGM": rightsize.FormatDCGM} {
		if got, err := rightsize.ParseFormat(in); err != nil || got != want {
			t.Errorf("%q: %v %v", in, got, err)
		}
	}
	if _, err := rightsize.ParseFormat("xml"); err == nil {
		t.Error("xml accepted")
	}
	if err := rightsize.ValidateColumns([]string{"index", "utilization.gpu [%]"}); err != nil {
		t.Error(err)
	}
	if err := rightsize.ValidateColumns([]string{"index", "power.draw"}); err == nil {
		t.Error("unknown column accepted")
	}
	if err := rightsize.ValidateColumns([]string{"index", "timestamp"}); err == nil {
		t.Error("columns without a value accepted")
	}
}

func TestStatistics(t *testing.T) {
	// One GPU, one sample a minute for 100 minutes at 0, 1, ..., 99 %.
	var b strings.Builder
	b.WriteString(synth.CSVHeader + "\n")
	start := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	for i := range 100 {
		fmt.Fprintf(&b, "%s, 0, %d %%, 0 %%, %d MiB, 1000 MiB\n", start.Add(time.Duration(i)*time.Minute).Format("2006/01/02 15:04:05.000"), i, 10*i)
	}
	st, _, err := rightsize.Analyze(strings.NewReader(b.String()), "x", rightsize.Options{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	o := st.Overall
	if o.Samples != 100 || o.Mean != 49.5 || o.P50 != 49 || o.P95 != 94 || o.IdleShare != 0.05 || o.MemPeakMiB != 990 || o.MemTotalMiB != 1000 {
		t.Errorf("%+v", o)
	}
	if o.MemP95MiB < 940 || o.MemP95MiB > 960 {
		t.Errorf("memory P95 %v, want 940 within a 16 MiB bin", o.MemP95MiB)
	}
	if st.SpanHours != 100.0/60 || st.BusyShare != 0.95 || st.Coverage != 1 || st.IntervalSeconds != 60 || st.BusyRuns != 1 || st.SlotSeconds != 60 {
		t.Errorf("span %v busy %v coverage %v interval %v runs %d", st.SpanHours, st.BusyShare, st.Coverage, st.IntervalSeconds, st.BusyRuns)
	}
	if st.HourProfile[10] != 55.0/60 || st.HourProfile[11] != 1 || st.HourProfile[9] != -1 {
		t.Errorf("hour profile %v", st.HourProfile)
	}
}

// A log sampled every 10 minutes with a 3-hour gap: samples hold for their
// interval, the gap counts as uncovered.
func TestCoverageAndGaps(t *testing.T) {
	var b strings.Builder
	start := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	for i := range 48 { // 8 hours of 10-minute samples ...
		if i >= 12 && i < 30 { // ... with 3 hours missing
			continue
		}
		fmt.Fprintf(&b, "%s, 0, 50, 0, 10, 100\n", start.Add(time.Duration(i)*10*time.Minute).Format("2006/01/02 15:04:05.000"))
	}
	st, _, err := rightsize.Analyze(strings.NewReader(b.String()), "x", rightsize.Options{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if st.SpanHours != 8 || math.Abs(st.Coverage-5.0/8) > 1e-9 || math.Abs(st.BusyShare-5.0/8) > 1e-9 || st.BusyRuns != 2 || st.IntervalSeconds != 600 {
		t.Errorf("span %v coverage %v busy %v runs %d interval %v", st.SpanHours, st.Coverage, st.BusyShare, st.BusyRuns, st.IntervalSeconds)
	}
}

func TestDailyPatternAcrossMidnight(t *testing.T) {
	s := synth.Spec{GPUs: 1, Start: synth.Week, Duration: 72 * time.Hour, Interval: 10 * time.Minute, MemTotalMiB: 1000,
		Profile: func(_ int, tm time.Time, _ *synth.Rand) (float64, float64) {
			if h := tm.Hour(); h >= 22 || h < 6 {
				return 90, 500
			}
			return 0, 0
		}}
	var b bytes.Buffer
	synth.WriteNVSMI(&b, s, synth.CSVOptions{})
	st, _, err := rightsize.Analyze(&b, "x", rightsize.Options{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if st.Pattern != "daily" || st.DailyWindow != "22:00–06:00" {
		t.Errorf("pattern %q window %q", st.Pattern, st.DailyWindow)
	}
}

// A gzip file cut short (a copy of a log still being written) keeps the
// samples before the cut and says so.
func TestTruncatedGzipKeepsWhatWasRead(t *testing.T) {
	var b, z bytes.Buffer
	synth.WriteNVSMI(&b, synth.Scenarios["two-of-eight-a100"](), synth.CSVOptions{})
	zw := gzip.NewWriter(&z)
	zw.Write(b.Bytes())
	zw.Close()
	cut := z.Bytes()[:z.Len()*6/10]
	st, rep, err := rightsize.Analyze(bytes.NewReader(cut), "cut.csv.gz", rightsize.Options{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Samples < 1000 || rep.Samples >= 2304 || st.ActiveGPUs != 2 || len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0].String(), "reading stopped after line") {
		t.Errorf("samples %d, notes %v", rep.Samples, rep.Notes)
	}
}
