package cli

import (
	"fmt"
	"strings"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/document"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/output"
	"github.com/spf13/cobra"
)

// instancesOptions are the flags of `gpuscout instances`.
type instancesOptions struct {
	providers []string
	gpus      []string
	families  []string
	minGPUs   float64
	rdma      bool
	status    []string
}

func (a *app) instancesCmd() *cobra.Command {
	o := &instancesOptions{}
	cmd := &cobra.Command{
		Use:   "instances",
		Short: "List GPU instance types: GPUs, vCPU, memory, interconnect, network and RDMA",
		Example: `  gpuscout instances --provider aws --gpu H100
  gpuscout instances --gpu A100 --min-gpus 8 --rdma
  gpuscout instances --provider alibaba --family gn7i -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return a.runInstances(o) },
	}
	f := cmd.Flags()
	f.StringSliceVar(&o.providers, "provider", nil, "providers; repeatable or comma-separated")
	f.StringSliceVar(&o.gpus, "gpu", nil, "GPU models or families; repeatable or comma-separated")
	f.StringSliceVar(&o.families, "family", nil, "instance families (p4d, gn7i, GN10Xp ...)")
	f.Float64Var(&o.minGPUs, "min-gpus", 0, "minimum GPUs per instance")
	f.BoolVar(&o.rdma, "rdma", false, "only instances with an RDMA network (EFA, InfiniBand, eRDMA, RoCE)")
	f.StringSliceVar(&o.status, "status", []string{"current", "previous"}, "statuses: current, previous, retired")
	return cmd
}

func (a *app) runInstances(o *instancesOptions) error {
	ds, err := a.data()
	if err != nil {
		return err
	}
	c := ds.Catalog
	providers, err := resolveProviders(c, o.providers)
	if err != nil {
		return err
	}
	gpus, err := resolveGPUs(c, o.gpus)
	if err != nil {
		return err
	}
	minGPUs, err := decFlag("min-gpus", o.minGPUs)
	if err != nil {
		return err
	}
	statuses := splitFlags(o.status)
	for _, s := range statuses {
		if s != catalog.StatusCurrent && s != catalog.StatusPrevious && s != catalog.StatusRetired {
			return usagef("statuses are current, previous and retired.", "unknown status %q", s)
		}
	}
	families := splitFlags(o.families)
	var list []*catalog.InstanceType
	for _, it := range c.Instances() {
		switch {
		case len(providers) > 0 && !contains(providers, it.Provider),
			len(gpus) > 0 && !contains(gpus, it.GPUID),
			len(families) > 0 && !containsFold(families, it.Family),
			minGPUs.IsPositive() && it.GPUCount.LessThan(minGPUs),
			o.rdma && (it.RDMA == "" || it.RDMA == catalog.RDMANone),
			!contains(statuses, it.Status):
			continue
		}
		list = append(list, it)
	}
	if a.out == output.JSON {
		return output.WriteJSON(a.io.Out, document.BuildInstances(list))
	}
	p := a.printer
	g := &output.Grid{
		Headers: []string{p.T("col.provider"), p.T("col.instance"), p.T("col.gpu"), p.T("col.vram_total"), p.T("col.vcpu"),
			p.T("col.ram"), p.T("col.interconnect"), p.T("col.network"), p.T("col.rdma"), p.T("col.status")},
		Align: []output.Align{output.Left, output.Left, output.Left, output.Right, output.Right, output.Right, output.Left,
			output.Right, output.Left, output.Left},
	}
	discovered := false
	for _, it := range list {
		link := enumLabel(p, "rec.link.", it.GPUInterconnect)
		if it.GPUInterconnectGBs.IsPositive() {
			link += " " + it.GPUInterconnectGBs.String() + " GB/s"
		}
		discovered = discovered || it.Discovered
		g.Add(it.Provider, discoveredMark(it), qty(it.GPUCount)+"× "+it.GPUID, qty(it.GPUMemoryGB)+" GB", qty(it.VCPU), qty(it.MemoryGiB),
			link, qty(it.NetworkGbps), rdmaLabel(p, orDash(it.RDMA)), enumLabel(p, "cli.status.", it.Status))
	}
	if len(list) == 0 && a.out == output.Table {
		fmt.Fprintln(a.io.Out, p.T("note.no_instances"))
		return nil
	}
	if err := output.Write(a.io.Out, a.out, g, a.tty()); err != nil {
		return err
	}
	if discovered && a.out == output.Table {
		fmt.Fprintln(a.io.Out, p.T("note.discovered"))
	}
	return nil
}

// discoveredMark is an instance type's name, marked † when it was
// discovered by import rather than curated.
func discoveredMark(it *catalog.InstanceType) string {
	if it.Discovered {
		return it.Name + " †"
	}
	return it.Name
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

func equalFold(a, b string) bool { return strings.EqualFold(a, b) }

// rdmaLabel renders an RDMA network for a Chinese reader: the fabric's own
// name (EFA, InfiniBand, eRDMA, RoCE), 无 for none; English keeps the code.
func rdmaLabel(p *i18n.Printer, rdma string) string {
	if rdma == catalog.RDMANone {
		return enumLabel(p, "cli.rdma.", rdma)
	}
	return enumLabel(p, "rec.fabric.", rdma)
}
