package cli

import (
	"fmt"
	"math"
	"sort"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/document"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/output"
	"github.com/gpuscout/gpuscout/internal/perf"
	"github.com/spf13/cobra"
)

// estimateOptions are the flags of `gpuscout estimate`.
type estimateOptions struct {
	benchmark string
	workload  string
	gpu       string
	count     int
	nodes     int
	precision string
	offer     string
	instances int
	samples   float64
	params    float64
	tokens    float64
	images    float64
	epochs    float64
	gflops    float64
	flops     float64
	inTok     float64
	outTok    float64
	active    float64
	maxBatch  int
	fabric    string
	fabricBps float64
	layout    modelLayout
}

func (a *app) estimateCmd() *cobra.Command {
	o := &estimateOptions{}
	cmd := &cobra.Command{
		Use:   "estimate",
		Short: "How fast a benchmark or a sized job runs on a GPU or an offer, how long it takes and what it costs",
		Long: `Estimate throughput and time to finish, with an uncertainty band, the published results and
assumptions behind it, and a confidence level (measured, same-gpu-interpolated, transferred,
specs-only). The model is calibrated on MLPerf and vendor results and carried to other GPUs by
their specifications; its cross-validated error is printed by 'gpuscout perf validate'.

Benchmarks are the calibration data's names (gpuscout perf benchmarks). Sized jobs:
  --workload transformer-train --params 7e9 --tokens 1e12     (≈ 6·params·tokens FLOPs)
  --workload llm-inference --params 70e9 --tokens 1e9          (output tokens, batched; roofline:
      [--input-tokens 293 --output-tokens 293 --active-params 12.9e9 --max-batch 256], --precision fp16|fp8|int8|int4,
      the model's layout [--layers 80 --kv-heads 8 --head-dim 128 --hidden-size 8192 --experts 8 --experts-per-token 2];
      without it, the layout of a published Llama 3 model of that size is assumed and said)
  --workload cnn-train --images 1.28e6 --epochs 90 [--gflops-per-image 4.1]
  --workload flops --flops 1e18                                (an HPC job)
  --workload embedding --params 335e6 --tokens 1e9             (an encoder batch job: embeddings,
      classification, reranking; input tokens, timed from MLPerf BERT-Large scaled by parameters)
With --offer, the GPUs, count and fabric come from the instance type, and the time to finish is
priced through the cost engine.`,
		Example: `  # ResNet-50 training throughput on 8 A100s
  gpuscout estimate --benchmark resnet50-train-throughput --gpu A100-SXM-80GB --count 8

  # Llama-2-70B inference on 8 L40S, FP8
  gpuscout estimate --benchmark mlperf-inf-llama2-70b --gpu L40S --count 8 --precision fp8

  # A 32k-token prompt on a 70B model with its own layout, on 8 H100s
  gpuscout estimate --workload llm-inference --params 70e9 --tokens 1e8 --input-tokens 32000 \
      --output-tokens 500 --layers 80 --kv-heads 8 --head-dim 128 --gpu H100-SXM-80GB --count 8

  # Time and cost to train a 7B model on 1T tokens on 8 p5.48xlarge instances
  gpuscout estimate --workload transformer-train --params 7e9 --tokens 1e12 \
      --offer aws/p5.48xlarge/us-east-1/on-demand --instances 8`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkSizeFlags(cmd.Flags()); err != nil {
				return err
			}
			return a.runEstimate(o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.benchmark, "benchmark", "", "a calibration benchmark (mlperf-inf-resnet50, resnet50-train-throughput, ...)")
	f.StringVar(&o.workload, "workload", "", "a sized job: transformer-train, llm-inference, cnn-train, flops, embedding")
	f.StringVar(&o.gpu, "gpu", "", "GPU model (H100-SXM-80GB, A100-SXM-80GB, L4 ...)")
	f.IntVar(&o.count, "count", 1, "number of GPUs")
	f.IntVar(&o.nodes, "nodes", 0, "number of nodes (default: the fewest 8-GPU nodes that hold --count)")
	f.StringVar(&o.precision, "precision", "", "fp32, tf32, fp16, bf16, fp8, int8, int4 (int4: llm-inference weights) (default: the benchmark's usual)")
	f.StringVar(&o.offer, "offer", "", "an offer ID: GPUs, fabric and price come from it")
	f.IntVar(&o.instances, "instances", 1, "instances of --offer")
	f.Float64Var(&o.samples, "samples", 0, "with --benchmark: work to do, in the benchmark's unit (samples, tokens ...), for a time to finish")
	f.Float64Var(&o.params, "params", 0, "model parameters (transformer-train, llm-inference, embedding)")
	f.Float64Var(&o.tokens, "tokens", 0, "training tokens (transformer-train), output tokens (llm-inference) or input tokens (embedding)")
	f.Float64Var(&o.images, "images", 0, "images in the dataset (cnn-train)")
	f.Float64Var(&o.epochs, "epochs", 0, "epochs (cnn-train)")
	f.Float64Var(&o.gflops, "gflops-per-image", 0, "forward GFLOPs per image (cnn-train; ResNet-50 = 4.1)")
	f.Float64Var(&o.flops, "flops", 0, "total floating-point operations (flops)")
	f.Float64Var(&o.inTok, "input-tokens", 0, "mean prompt tokens per request (llm-inference; default 293)")
	f.Float64Var(&o.outTok, "output-tokens", 0, "mean generated tokens per request (llm-inference; default 293)")
	f.Float64Var(&o.active, "active-params", 0, "parameters active per token, for a mixture of experts (llm-inference)")
	f.IntVar(&o.maxBatch, "max-batch", 0, "cap on concurrent sequences per model copy (llm-inference; default: what memory holds)")
	f.StringVar(&o.fabric, "fabric", "", "network between nodes without --offer: tcp, efa, infiniband, roce, erdma (default: that of the GPU's published multi-node systems, else 100 Gb/s TCP)")
	o.layout.flags(f)
	f.Float64Var(&o.fabricBps, "fabric-gbps", 0, "the --fabric rate per node in Gb/s (default: 100 for tcp; one rail per GPU of the GPU's generation for RDMA)")
	cmd.MarkFlagsMutuallyExclusive("benchmark", "workload")
	cmd.MarkFlagsMutuallyExclusive("fabric", "offer")
	cmd.MarkFlagsMutuallyExclusive("gpu", "offer")
	return cmd
}

// perfModel builds the performance model over the loaded catalog.
func (a *app) perfModel(c *catalog.Catalog) (*perf.Model, error) {
	m, _, err := perf.New(c)
	if err != nil {
		return nil, fmt.Errorf("performance data: %w", err)
	}
	return m, nil
}

func (a *app) runEstimate(o *estimateOptions) error {
	ds, err := a.data()
	if err != nil {
		return err
	}
	c := ds.Catalog
	m, err := a.perfModel(c)
	if err != nil {
		return err
	}
	doc, est, err := document.AnswerEstimate(c, m, a.engine(c), a.rates, document.EstimateRequest{
		Benchmark: o.benchmark, Workload: o.workload, GPU: o.gpu, Offer: o.offer, Count: o.count, Nodes: o.nodes, Instances: o.instances,
		Precision: o.precision, Samples: o.samples, Params: o.params, Tokens: o.tokens, Images: o.images, Epochs: o.epochs,
		GFLOPsPerImage: o.gflops, FLOPs: o.flops, Currency: a.cur,
		InputTokens: o.inTok, OutputTokens: o.outTok, ActiveParams: o.active, MaxBatch: o.maxBatch, Lang: a.printer.Lang(),
		Fabric: o.fabric, FabricGbps: o.fabricBps,
		Layers: o.layout.layers, KVHeads: o.layout.kvHeads, HeadDim: o.layout.headDim, Hidden: o.layout.hidden,
		Experts: o.layout.experts, ExpertsPerToken: o.layout.perToken})
	if err != nil {
		return jobInputError(err)
	}
	if a.out == output.JSON {
		return output.WriteJSON(a.io.Out, doc)
	}
	return a.writeEstimate(doc, est)
}

func (a *app) writeEstimate(doc document.Estimate, est *perf.Estimate) error {
	p := a.printer
	g := &output.Grid{Headers: []string{p.T("col.metric"), p.T("col.value")}}
	what := doc.Benchmark
	if doc.Offer != nil {
		what = p.T("cli.est.on", what, fmt.Sprintf("%d× %s (%s)", doc.Instances, doc.Offer.InstanceType, doc.Offer.ID))
	}
	g.Add(p.T("est.workload"), what)
	g.Add(p.T("est.gpus"), p.T("cli.est.gpus", doc.Count, doc.GPU, doc.Nodes, doc.Precision))
	if t := doc.Throughput; t != nil {
		g.Add(p.T("est.throughput"), p.T("cli.est.throughput", sig(est.Throughput), t.Unit, sig(est.Low), sig(est.High), sig(est.PerGPU)))
	}
	if est.Minutes > 0 {
		g.Add(p.T("est.time"), p.T("cli.est.range", duration(p, est.Minutes), duration(p, est.MinutesLow), duration(p, est.MinutesHigh)))
	}
	if est.Efficiency > 0 && est.Efficiency != 1 {
		g.Add(p.T("est.efficiency"), fmt.Sprintf("%.1f%%", 100*est.Efficiency))
	}
	g.Add(p.T("est.confidence"), enumLabel(p, "web.instance.confidence.", doc.Confidence))
	if doc.Memory != nil {
		g.Add(p.T("est.memory"), memoryNote(p, doc.Memory))
	}
	if c := doc.Cost; c != nil {
		g.Add(p.T("est.cost"), fmt.Sprintf("%s %s (%s)", numMoney(c.Total), c.Currency, billingLabel(p, catalog.Billing(doc.Offer.Billing))))
	}
	if err := output.Write(a.io.Out, a.out, g, a.tty()); err != nil {
		return err
	}
	if a.out != output.Table {
		return nil
	}
	w := a.io.Out
	if len(doc.Basis) > 0 {
		fmt.Fprintln(w, "\n"+p.T("est.basis", len(doc.Basis)))
		basis := doc.Basis
		sort.SliceStable(basis, func(i, j int) bool { return basis[i].Accelerator < basis[j].Accelerator })
		for i, b := range basis {
			if i == 6 {
				fmt.Fprintln(w, "  "+p.T("cli.est.more", len(basis)-6))
				break
			}
			fmt.Fprintf(w, "  %s %d× %s: %s %s (%s)\n", b.Benchmark, b.Count, b.Accelerator, b.Value, p.Or("perf.unit."+b.Unit, b.Unit), b.Suite)
		}
	}
	if len(doc.Assumptions) > 0 {
		fmt.Fprintln(w, "\n"+p.T("est.assumptions"))
		for _, s := range doc.Assumptions {
			fmt.Fprintln(w, "  • "+s)
		}
	}
	return nil
}

// sig formats a number with about four significant digits.
func sig(v float64) string {
	switch {
	case v == 0:
		return "0"
	case math.Abs(v) >= 1e4:
		return thousands(fmt.Sprintf("%.0f", v))
	case math.Abs(v) >= 100:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

// duration renders minutes as minutes, hours or days.
func duration(p *i18n.Printer, min float64) string {
	switch {
	case min < 120:
		return p.T("cli.est.minutes", fmt.Sprintf("%.1f", min))
	case min < 48*60:
		return p.T("cli.est.hours", fmt.Sprintf("%.1f", min/60))
	}
	return p.T("cli.est.days", fmt.Sprintf("%.1f", min/1440))
}

// memoryNote is the memory check in the printer's language: the perf
// engine's note in English, a sentence built from its figures in Chinese.
func memoryNote(p *i18n.Printer, m *document.Memory) string {
	switch {
	case p.Lang() == i18n.EN:
		return m.Note
	case !m.Fits:
		return p.T("cli.est.mem.nofit", roundNum(m.NeedGB.String(), 0), roundNum(m.PerGPUGB.String(), 0))
	case m.Group > 1:
		return p.T("cli.est.mem.split", m.Group, roundNum(m.NeedGB.String(), 0))
	}
	need, _ := m.NeedGB.Float64()
	return p.T("cli.est.mem.fits", fmt.Sprintf("%.2g", need), roundNum(m.PerGPUGB.String(), 0))
}
