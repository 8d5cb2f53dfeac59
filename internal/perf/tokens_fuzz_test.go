package perf_test

import (
	"math"
	"testing"

	"github.com/gpuscout/gpuscout/internal/perf"
)

// FuzzMoreTokensNeverLessTime: for a sized training job on any GPU count,
// more training tokens never take less time, at the middle or either end
// of the interval. Seeds span 7B-405B parameters, 1e9-1e15 tokens, 1-1024
// GPUs on several nodes with no fabric stated (the assumed published
// fabric) and LoRA.
func FuzzMoreTokensNeverLessTime(f *testing.F) {
	_, _, m := setup(f)
	gpus := []string{"H100-SXM-80GB", "A100-SXM4-80GB", "L40S", "MI300X", "B200-SXM-180GB", "T4"}
	for i, s := range []struct {
		params, tokens, more float64
		count                uint16
		method               uint8
	}{
		{7e9, 1e12, 1.5, 8, 0}, {70e9, 1e9, 10, 64, 0}, {405e9, 1.5e13, 2, 1024, 0}, {7e9, 1e15, 1.01, 32, 1},
		{13e9, 3e11, 3, 1, 2}, {1e9, 1e10, 1.0001, 16, 0},
	} {
		f.Add(s.params, s.tokens, s.more, s.count, uint8(i%len(gpus)), s.method)
	}
	f.Fuzz(func(t *testing.T, params, tokens, more float64, count uint16, gpu, method uint8) {
		if !(params >= 1e8 && params <= 1e13) || !(tokens >= 1e6 && tokens <= 1e16) || !(more > 1 && more <= 1e3) {
			t.Skip()
		}
		n := 1 + int(count)%2048
		methods := []perf.Method{perf.Full, "lora", "qlora"}
		q := perf.Query{GPU: gpus[int(gpu)%len(gpus)], Count: n}
		at := func(tok float64) *perf.Estimate {
			e, err := m.EstimateJob(perf.Job{Kind: perf.TransformerTrain, Params: params, Tokens: tok, Method: methods[int(method)%3]}, q)
			if err != nil {
				return nil
			}
			return e
		}
		a, b := at(tokens), at(tokens*more)
		if a == nil || b == nil {
			t.Skip() // a job the model does not fit (memory): nothing to compare
		}
		for _, c := range [][3]float64{{a.Minutes, b.Minutes, 0}, {a.MinutesLow, b.MinutesLow, 1}, {a.MinutesHigh, b.MinutesHigh, 2}} {
			if math.IsNaN(c[0]) || math.IsNaN(c[1]) || c[1] < c[0]*(1-1e-12) {
				t.Errorf("%.3g params on %d× %s: %.4g tokens take %.6g min, %.4g tokens %.6g min (%s)",
					params, n, q.GPU, tokens, c[0], tokens*more, c[1], []string{"P50", "P10", "P90"}[int(c[2])])
			}
		}
		if a.MinutesHigh < a.Minutes || a.Minutes < a.MinutesLow {
			t.Errorf("interval [%.6g, %.6g] does not hold the middle %.6g", a.MinutesLow, a.MinutesHigh, a.Minutes)
		}
	})
}
