// Package perf is gpuscout's performance model: how fast a workload runs on
// a GPU model, how it scales over GPUs and nodes, and how long a job takes.
// It is calibrated on published benchmark results (MLPerf, vendor tables),
// falls back to GPU specifications where no result exists, and reports with
// every estimate its uncertainty band, the data points and assumptions
// behind it, and a confidence level. Its error is measured by leave-one-out
// cross-validation on the embedded data.
package perf

import (
	_ "embed" // the benchmark tables
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gpuscout/gpuscout/internal/csvtext"
)

// The benchmark tables, embedded as text: a point's strings are views into
// it, so loading them copies none of it.
var (
	//go:embed data/benchmarks.csv
	benchmarksCSV string
	//go:embed data/benchmarks-extra.csv
	benchmarksExtraCSV string
	//go:embed data/benchmarks-llm.csv
	benchmarksLLMCSV string
	//go:embed data/benchmarks-training.csv
	benchmarksTrainingCSV string
)

// embeddedTable is one embedded benchmark table.
type embeddedTable struct{ name, text string }

// embeddedTables are the tables of data/, in name order
// (TestEveryTableIsEmbedded holds the list to the directory).
func embeddedTables() []embeddedTable {
	return []embeddedTable{
		{"benchmarks-extra.csv", benchmarksExtraCSV},
		{"benchmarks-llm.csv", benchmarksLLMCSV},
		{"benchmarks-training.csv", benchmarksTrainingCSV},
		{"benchmarks.csv", benchmarksCSV},
	}
}

// Point is one published benchmark result.
type Point struct {
	Benchmark   string
	Kind        string // throughput, training_time_minutes, ...
	Metric      string
	Unit        string // samples/s, tokens/s, minutes ...
	Value       float64
	Accelerator string // as the source spells it (H100-SXM-80GB, A100-SXM-80GB)
	GPU         string // catalog GPU ID it maps to
	Count       int
	Nodes       int
	PrecisionAs string    // precision as the source writes it
	Precision   Precision // canonical
	System      string
	Submitter   string
	Suite       string
	Source      string
	File        string
	Line        int
}

// IsTime reports whether the point is a time-to-train result (minutes).
func (p Point) IsTime() bool { return p.Unit == "minutes" }

// GPULookup resolves an accelerator name to catalog GPU IDs.
type GPULookup func(name string) (string, error)

var benchCols = []string{"benchmark", "workload_kind", "metric", "unit", "value", "accelerator", "accelerator_count", "nodes", "precision", "system", "submitter", "suite_version", "source"}

// LoadEmbedded reads the embedded benchmark tables. Results on
// accelerators the catalog does not know (so has no specifications for)
// are returned in skipped, each with the reason.
func LoadEmbedded(lookup GPULookup) (points []Point, skipped []string, err error) {
	tables := embeddedTables()
	rows := 0
	for _, t := range tables {
		rows += strings.Count(t.text, "\n")
	}
	// Sized once from the line counts: a row is a few hundred bytes and
	// the model is fitted on every advisor run.
	all := make([]Point, 0, rows)
	for _, t := range tables {
		pts, skip, err := parseBenchmarks(t.text, t.name, lookup, all[len(all):len(all):cap(all)])
		if err != nil {
			return nil, nil, err
		}
		all = append(all, pts...) // in place: parseBenchmarks appended to all's array
		skipped = append(skipped, skip...)
	}
	return all, skipped, nil
}

// ParseBenchmarks reads a benchmark table (the calibration CSV format).
// Errors name the file, line and column. Rows on accelerators that lookup
// does not know are skipped and listed, not fatal.
func ParseBenchmarks(r io.Reader, file string, lookup GPULookup) (out []Point, skipped []string, err error) {
	var b strings.Builder
	if _, err := io.Copy(&b, r); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", file, err)
	}
	return parseBenchmarks(b.String(), file, lookup, nil)
}

// parseBenchmarks is ParseBenchmarks of a table's text, appending the
// points to out. The points' strings are views into text.
func parseBenchmarks(text, file string, lookup GPULookup, out []Point) (_ []Point, skipped []string, err error) {
	cr := csvtext.New(text, 0)
	header, err := cr.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil, fmt.Errorf("%s: empty file", file)
		}
		return nil, nil, fmt.Errorf("%s: %w", file, err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))] = i
	}
	for _, c := range benchCols {
		if _, ok := col[c]; !ok {
			return nil, nil, fmt.Errorf("%s:1: missing column %q", file, c)
		}
	}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", file, err)
		}
		line := cr.Line()
		get := func(c string) string { return strings.TrimSpace(rec[col[c]]) }
		bad := func(c, msg string) error { return fmt.Errorf("%s:%d: field %s: %s", file, line, c, msg) }
		p := Point{Benchmark: get("benchmark"), Kind: get("workload_kind"), Metric: get("metric"), Unit: get("unit"),
			Accelerator: get("accelerator"), PrecisionAs: get("precision"), System: get("system"), Submitter: get("submitter"),
			Suite: get("suite_version"), Source: get("source"), File: file, Line: line}
		if p.Benchmark == "" {
			return nil, nil, bad("benchmark", "required")
		}
		if p.Value, err = strconv.ParseFloat(get("value"), 64); err != nil || p.Value <= 0 {
			return nil, nil, bad("value", fmt.Sprintf("%q is not a positive number", get("value")))
		}
		if p.Count, err = strconv.Atoi(get("accelerator_count")); err != nil || p.Count < 1 {
			return nil, nil, bad("accelerator_count", fmt.Sprintf("%q is not a positive whole number", get("accelerator_count")))
		}
		if p.Nodes, err = strconv.Atoi(get("nodes")); err != nil || p.Nodes < 1 || p.Nodes > p.Count {
			return nil, nil, bad("nodes", fmt.Sprintf("%q is not a whole number between 1 and the accelerator count", get("nodes")))
		}
		if p.Source == "" {
			return nil, nil, bad("source", "every result needs a source")
		}
		if p.Precision, err = ParsePrecisionLabel(p.PrecisionAs, p.Benchmark); err != nil {
			return nil, nil, bad("precision", err.Error())
		}
		if p.GPU, err = lookup(p.Accelerator); err != nil {
			skipped = append(skipped, fmt.Sprintf("%s:%d: %s (%v)", file, line, p.Accelerator, err))
			continue
		}
		out = append(out, p)
	}
	return out, skipped, nil
}
