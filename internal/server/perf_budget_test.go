package server_test

import (
	"os"
	"runtime"
	"testing"
)

// maxWindow is the most explorer rows in the DOM at once: the table is
// virtualised, so a sort, filter or page of thousands of rows renders a
// window of them. A bound on the work a paint does, which holds on any
// machine, where its time does not.
const maxWindow = 200

// paintBudgetMS is the interaction budget of the explorer (docs/web.md):
// a sort, filter or page paints within 100 ms.
const paintBudgetMS = 100

// perfBudget reports whether this is a budget run (GPUSCOUT_PERF_BUDGET=1
// go test ...): on a quiet machine, times are held to their budgets. In an
// ordinary run they are only logged, since a busy machine (other builds,
// a CI runner's neighbours) slows them without the code changing; the
// benchmarks report them (BenchmarkBrowserExplorerOn5000Rows).
func perfBudget() bool { return os.Getenv("GPUSCOUT_PERF_BUDGET") == "1" }

// checkBudget logs a paint time (the median of samples, in ms) and, in a
// budget run, fails when it is over paintBudgetMS.
func checkBudget(t *testing.T, what string, ms float64, samples []float64) {
	t.Helper()
	if perfBudget() && ms > paintBudgetMS {
		t.Errorf("%s took %.1f ms to paint, over the %d ms budget (median of %v)", what, ms, paintBudgetMS, samples)
		return
	}
	t.Logf("%s: %.1f ms to paint (median of %v)", what, ms, samples)
}

// allocBytes is the bytes f allocates, the least of three runs (after one
// unmeasured run), so that a one-off background allocation (the
// explorer's warm-up after a load) does not count. A bound on the work a
// request does, where a time would depend on how busy the machine is.
func allocBytes(f func()) uint64 {
	f()
	least := ^uint64(0)
	var before, after runtime.MemStats
	for range 3 {
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	return least
}

// leastAllocs is testing.AllocsPerRun(50, f), the least of five rounds: it
// counts every goroutine's allocations, and the explorer's warm-up after a
// load runs in the background for a while, so one round may include some
// of it; five rounds cannot all.
func leastAllocs(f func()) float64 {
	least := testing.AllocsPerRun(50, f)
	for range 4 {
		least = min(least, testing.AllocsPerRun(50, f))
	}
	return least
}
