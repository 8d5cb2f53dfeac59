package perf

import (
	"encoding/binary"
	"hash"
	"hash/fnv"
	"math"
)

// The alpha grid search is most of the cost of fitting the model (some
// 180 solves of the linear terms). Its result on the embedded benchmark
// data and catalog is recorded at build time in alpha_fitted.go, keyed by
// a fingerprint of the prepared rows; Fit uses it when the rows are the
// same and searches otherwise (an overlay catalog with other GPU
// specifications, validation's leave-one-out fits). The fit is the same
// either way: the grid search is deterministic and the final solve
// starts from scratch. TestFittedAlphaIsCurrent recomputes it.

// alphaFitVersion changes when the fitting code changes in a way the
// fingerprint of the rows cannot see.
const alphaFitVersion = 1

// classAlpha is one class's fitted alpha.
type classAlpha struct {
	class Class
	alpha float64
}

// alphaFit is a recorded grid-search result.
type alphaFit struct {
	fingerprint uint64
	alpha       []classAlpha
}

// lookup returns the recorded alphas when fp is the recorded fingerprint.
func (f alphaFit) lookup(fp uint64) (map[Class]float64, bool) {
	if fp != f.fingerprint || len(f.alpha) == 0 {
		return nil, false
	}
	out := make(map[Class]float64, len(f.alpha))
	for _, a := range f.alpha {
		out[a.class] = a.alpha
	}
	return out, true
}

// fingerprint hashes what the grid search reads: the prepared rows, the
// GPU of each, the priors and the code version.
type fingerprint struct {
	h   hash.Hash64
	buf []byte
}

func newFingerprint() *fingerprint {
	f := &fingerprint{h: fnv.New64a()}
	f.buf = binary.AppendUvarint(f.buf, alphaFitVersion)
	for _, cl := range classes {
		f.str(string(cl))
		f.float(alphaPrior[cl])
	}
	return f
}

func (f *fingerprint) str(s string) {
	f.buf = append(binary.AppendUvarint(f.buf, uint64(len(s))), s...)
}

func (f *fingerprint) float(v float64) {
	f.buf = binary.LittleEndian.AppendUint64(f.buf, math.Float64bits(v))
}

func (f *fingerprint) row(r *prow, gpu string) {
	f.str(string(r.class))
	f.str(gpu)
	f.str(r.g.bench)
	f.str(string(r.g.prec))
	f.str(r.archKey)
	f.float(r.logPeak)
	f.float(r.logBW)
	f.float(r.y)
	f.float(r.logParams)
	if r.hasBW {
		f.buf = append(f.buf, 1)
	} else {
		f.buf = append(f.buf, 0)
	}
	if len(f.buf) > 4096 {
		f.flush()
	}
}

func (f *fingerprint) flush() {
	f.h.Write(f.buf)
	f.buf = f.buf[:0]
}

func (f *fingerprint) sum() uint64 {
	f.flush()
	return f.h.Sum64()
}
