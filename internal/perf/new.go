package perf

import (
	"fmt"

	"github.com/gpuscout/gpuscout/internal/catalog"
)

// GPUCatalog is what the model needs from the catalog.
type GPUCatalog interface {
	GPUs() []*catalog.GPU
	LookupGPU(name string) ([]*catalog.GPU, error)
}

// Lookup resolves accelerator names (the calibration file's spellings or
// catalog names) to one catalog GPU ID.
func Lookup(c GPUCatalog) GPULookup {
	return func(name string) (string, error) {
		gs, err := c.LookupGPU(name)
		if err != nil {
			return "", err
		}
		if len(gs) != 1 {
			var ids []string
			for _, g := range gs {
				ids = append(ids, g.ID)
			}
			return "", fmt.Errorf("%q is ambiguous: %v", name, ids)
		}
		return gs[0].ID, nil
	}
}

// Specs reads every catalog GPU's specification.
func Specs(c GPUCatalog) map[string]Spec {
	out := map[string]Spec{}
	for _, g := range c.GPUs() {
		out[g.ID] = SpecOf(g)
	}
	return out
}

// New loads the embedded benchmark data, fits the model and sets its
// uncertainty bands from the recorded validation. skipped lists results on
// GPUs the catalog lacks.
func New(c GPUCatalog) (m *Model, skipped []string, err error) {
	pts, skipped, err := LoadEmbedded(Lookup(c))
	if err != nil {
		return nil, nil, err
	}
	m = Fit(pts, Specs(c))
	mfu, err := LoadMFU()
	if err != nil {
		return nil, nil, err
	}
	m.mfu = FitMFU(mfu, nil)
	m.Bands = ValidatedBands()
	return m, skipped, nil
}

// ValidatedBands are the 80th percentiles of |log(predicted/actual)| per
// confidence level from the leave-one-out validation of the embedded data
// (`gpuscout perf validate`). A test recomputes them and fails when they
// drift; update them with `go test ./internal/perf -run TestBands -update`.
func ValidatedBands() map[Confidence]float64 {
	return map[Confidence]float64{
		Measured:     0.115,
		Interpolated: 0.064,
		TimeToTrain:  0.282,
		Transferred:  0.141,
		SpecsOnly:    0.547,
		LLMRoofline:  0.229,
		MFUBand:      0.136,
	}
}
