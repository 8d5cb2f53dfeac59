package document

import (
	"encoding/json"
	"sort"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/fx"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/perf"
)

// SchemaInstance names the one-instance document.
const SchemaInstance = "gpuscout/instance@v1"

// StandardBenchmarks are the calibration benchmarks the instance document
// estimates for every instance type: image and language models, inference
// and training, and a large language model.
var StandardBenchmarks = []string{
	"mlperf-inf-resnet50",
	"resnet50-train-throughput",
	"mlperf-inf-bert-99",
	"bert-large-pretrain-seq128-throughput",
	"mlperf-inf-llama2-70b",
}

// InstanceEstimate is the performance model's throughput estimate for a
// benchmark on all of an instance's GPUs, with its uncertainty band.
type InstanceEstimate struct {
	Benchmark   string      `json:"benchmark"`
	Class       string      `json:"class"`
	GPUs        int         `json:"gpus"`
	Precision   string      `json:"precision"`
	Throughput  Throughput  `json:"throughput"`
	Efficiency  json.Number `json:"scaling_efficiency"`
	Confidence  string      `json:"confidence"`
	MemoryFits  *bool       `json:"memory_fits,omitempty"`
	Assumptions []string    `json:"assumptions"`
	// AssumptionMsgs are the assumptions as messages, for a page in any
	// language (Assumptions is their English text).
	AssumptionMsgs []i18n.Msg `json:"-"`
}

// InstanceDetail is the gpuscout/instance@v1 document: one instance type
// with its specifications (the instances document's row), its GPU (the gpus
// document's row), every price in every region and billing model (the
// offers document's rows, in currency) and throughput estimates.
type InstanceDetail struct {
	Schema    string             `json:"schema"`
	Currency  string             `json:"currency"`
	FX        FX                 `json:"fx"`
	Instance  Instance           `json:"instance"`
	Notes     string             `json:"notes,omitempty"`
	GPU       GPU                `json:"gpu"`
	Offers    []Offer            `json:"offers"`
	Estimates []InstanceEstimate `json:"estimates"`
}

// EstimateInstance runs the performance model for each benchmark on all of
// the instance's GPUs over its own fabric, one node. Benchmarks the model
// cannot answer for this GPU are left out, as are instances with a fraction
// of a GPU (and a nil model).
func EstimateInstance(m *perf.Model, it *catalog.InstanceType, benchmarks []string) []*perf.Estimate {
	if m == nil || it == nil || !it.GPUCount.IsPositive() || !it.GPUCount.Equal(it.GPUCount.Truncate(0)) {
		return nil
	}
	n := int(it.GPUCount.IntPart())
	fabric := perf.Fabric{Link: it.GPUInterconnect, NetworkGbps: it.NetworkGbps.InexactFloat64(), RDMA: it.RDMA, Instance: true}
	var out []*perf.Estimate
	for _, b := range benchmarks {
		e, err := m.Estimate(perf.Query{Benchmark: b, GPU: it.GPUID, Count: n, Nodes: 1, GPUsPerNode: n, Fabric: fabric})
		if err != nil || e.Throughput <= 0 {
			continue
		}
		out = append(out, e)
	}
	return out
}

// BuildInstance builds the instance document. rows are the instance's
// offers priced in currency; they are listed by billing model (in the
// catalog's order), then cheapest first, then by region.
func BuildInstance(it *catalog.InstanceType, rows []catalog.OfferRow, currency string, t *fx.Table, ests []*perf.Estimate) InstanceDetail {
	order := map[catalog.Billing]int{}
	for i, b := range catalog.BillingCodes() {
		order[b] = i
	}
	rows = append([]catalog.OfferRow(nil), rows...)
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if order[a.Offer.Billing] != order[b.Offer.Billing] {
			return order[a.Offer.Billing] < order[b.Offer.Billing]
		}
		if c := a.EffectiveHourly.Cmp(b.EffectiveHourly); c != 0 {
			return c < 0
		}
		return a.Offer.RegionCode < b.Offer.RegionCode
	})
	offers := BuildOffers(rows, len(rows), currency, t)
	doc := InstanceDetail{Schema: SchemaInstance, Currency: currency, FX: offers.FX,
		Instance: BuildInstances([]*catalog.InstanceType{it}).Instances[0], Notes: it.Notes,
		Offers: offers.Offers, Estimates: []InstanceEstimate{}}
	if it.GPU != nil {
		doc.GPU = BuildGPUs([]*catalog.GPU{it.GPU}).GPUs[0]
	}
	for _, e := range ests {
		ie := InstanceEstimate{Benchmark: e.Benchmark, Class: string(e.Class), GPUs: e.Count, Precision: string(e.Precision),
			Throughput: Throughput{Value: fnum(e.Throughput), Unit: e.Unit, Low: fnum(e.Low), High: fnum(e.High), PerGPU: fnum(e.PerGPU)},
			Efficiency: fnum(e.Efficiency), Confidence: string(e.Confidence), Assumptions: i18n.English(e.Assumptions), AssumptionMsgs: e.Assumptions}
		if ie.Assumptions == nil {
			ie.Assumptions = []string{}
		}
		if e.Memory != nil {
			fits := e.Memory.Fits
			ie.MemoryFits = &fits
		}
		doc.Estimates = append(doc.Estimates, ie)
	}
	return doc
}
