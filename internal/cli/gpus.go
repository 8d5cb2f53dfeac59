package cli

import (
	"fmt"
	"strings"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/document"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/output"
	"github.com/shopspring/decimal"
	"github.com/spf13/cobra"
)

// gpusOptions are the flags of `gpuscout gpus`.
type gpusOptions struct {
	names  []string
	vendor string
}

func (a *app) gpusCmd() *cobra.Command {
	o := &gpusOptions{}
	cmd := &cobra.Command{
		Use:   "gpus [NAME...]",
		Short: "List GPU models with their specifications and sources",
		Long: `List GPU models: memory, bandwidth and dense tensor throughput per precision (no sparsity),
with the datasheet or other source of each row. Names are matched by family (A100 lists every
A100 variant), canonical ID or alias; a typo gets a suggestion.`,
		Example: `  gpuscout gpus
  gpuscout gpus A100 H100
  gpuscout gpus nvidia-tesla-t4 -o json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.names = args
			return a.runGPUs(o)
		},
	}
	cmd.Flags().StringVar(&o.vendor, "vendor", "", "only this vendor (NVIDIA, AMD)")
	return cmd
}

func (a *app) runGPUs(o *gpusOptions) error {
	ds, err := a.data()
	if err != nil {
		return err
	}
	c := ds.Catalog
	list := c.GPUs()
	if len(o.names) > 0 {
		seen := map[string]bool{}
		list = nil
		for _, n := range splitFlags(o.names) {
			gs, err := c.LookupGPU(n)
			if err != nil {
				return err
			}
			for _, g := range gs {
				if !seen[g.ID] {
					seen[g.ID] = true
					list = append(list, g)
				}
			}
		}
	}
	if o.vendor != "" {
		var kept []*catalog.GPU
		for _, g := range list {
			if equalFold(g.Vendor, o.vendor) {
				kept = append(kept, g)
			}
		}
		list = kept
	}
	if a.out == output.JSON {
		return output.WriteJSON(a.io.Out, document.BuildGPUs(list))
	}
	p := a.printer
	g := &output.Grid{
		Headers: []string{p.T("col.id"), p.T("col.vendor"), p.T("col.arch"), p.T("col.memory"), p.T("col.bandwidth"),
			p.T("col.fp32"), p.T("col.tf32"), p.T("col.fp16"), p.T("col.fp8"), p.T("col.int8"), p.T("col.tdp"),
			p.T("col.ml"), p.T("col.source"), p.T("col.as_of")},
		Align: []output.Align{output.Left, output.Left, output.Left, output.Right, output.Right, output.Right, output.Right,
			output.Right, output.Right, output.Right, output.Right, output.Left, output.Left, output.Left},
	}
	for _, x := range list {
		g.Add(x.ID, x.Vendor, x.Architecture, qty(x.MemoryGB)+" GB", qty(x.BandwidthGBs), spec(x.FP32TFLOPS), spec(x.TF32TFLOPS),
			spec(x.FP16TFLOPS), spec(x.FP8TFLOPS), spec(x.INT8TOPS), qty(x.TDPW), mlLabel(p, x), enumLabel(p, "source.", string(x.Source.Kind)), p.SourceDate(x.Source.AsOfString(), x.Source.ReadOnString()))
	}
	if err := output.Write(a.io.Out, a.out, g, a.tty()); err != nil {
		return err
	}
	if a.out == output.Table {
		fmt.Fprintln(a.io.Out, "\n"+p.T("cli.gpus.note"))
	}
	return nil
}

func spec(d decimal.Decimal) string {
	if d.IsZero() {
		return "-"
	}
	return d.Round(1).String()
}

// mlLabel is a GPU's ML software support in a few words: CUDA and its
// compute capability, ROCm and its LLVM target, or none (catalog.GPU.MLStack).
func mlLabel(p *i18n.Printer, g *catalog.GPU) string {
	f := strings.Fields(g.MLStackDetail)
	switch g.MLStack {
	case catalog.MLStackCUDA:
		if len(f) >= 3 && f[0] == "compute" {
			return "CUDA " + f[2]
		}
		return "CUDA"
	case catalog.MLStackROCm:
		if len(f) >= 3 && f[0] == "LLVM" {
			return "ROCm " + f[2]
		}
		return "ROCm"
	case catalog.MLStackNone:
		return p.T("gpus.ml.none")
	}
	return "—"
}
