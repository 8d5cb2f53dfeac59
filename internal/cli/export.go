package cli

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/export"
	"github.com/gpuscout/gpuscout/internal/pricing/planfile"
	"github.com/gpuscout/gpuscout/internal/recommend"
	"github.com/spf13/cobra"
)

// exportOptions are the flags of `gpuscout export TARGET`.
type exportOptions struct {
	offer string
	count int
	spot  bool
	kind  string
	file  string
}

func (a *app) exportCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Turn an offer into deployment configuration: Terraform, SkyPilot or dstack",
		Long: `Turn an offer into deployment configuration for the tool you launch with: a Terraform
configuration for the provider's official Terraform provider (AWS, Azure, Google Cloud, Alibaba
Cloud, Tencent Cloud), a SkyPilot task, or a dstack fleet or task (AWS, Azure, Google Cloud, OCI,
Lambda). Each names the offer, its effective price and the source and date of that price, sets
the billing model (spot, 包年包月 subscription, capacity block) where the tool can, and leaves
images, keys and networks as inputs for you to fill in. See docs/export.md.`,
		Example: `  gpuscout export terraform --offer aws/p5.48xlarge/us-east-1/on-demand --count 2 -o main.tf
  gpuscout export terraform --offer tencent/GT4.4XLARGE96/ap-guangzhou/subscription-1m
  gpuscout export skypilot --offer gcp/a3-highgpu-8g/us-central1/spot --count 4 -o task.yaml
  gpuscout export dstack --offer azure/Standard_ND96asr_v4/eastus/spot -o fleet.dstack.yml`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmd.Help()
			}
			return usagef("export targets: "+strings.Join(export.Targets(), ", ")+".", "unknown export target %q", args[0])
		},
	}
	cmd.AddCommand(a.exportTargetCmd(export.TargetTerraform, "Terraform configuration (HCL) for the provider's official Terraform provider",
		"-o main.tf"),
		a.exportTargetCmd(export.TargetSkyPilot, "SkyPilot task (YAML) with the offer's cloud, region, instance type, accelerators and spot setting",
			"-o task.yaml"),
		a.exportTargetCmd(export.TargetDstack, "dstack fleet or task (YAML) with the offer's GPU, backend, region, instance type and spot policy",
			"-o fleet.dstack.yml"))
	return cmd
}

func (a *app) exportTargetCmd(target, short, fileExample string) *cobra.Command {
	o := &exportOptions{}
	cmd := &cobra.Command{
		Use:     target + " --offer ID",
		Short:   short,
		Example: fmt.Sprintf("  gpuscout export %s --offer aws/p5.48xlarge/us-east-1/on-demand --count 2 %s", target, fileExample),
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return a.runExport(target, o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.offer, "offer", "", "offer ID (provider/instance_type/region/billing; see gpuscout offers)")
	f.IntVar(&o.count, "count", 1, "number of instances (nodes)")
	f.BoolVar(&o.spot, "spot", false, "use the spot market for an on-demand offer (spot offers export as spot anyway)")
	// -o names the output file here; it shadows the global output format,
	// which does not apply to exports.
	f.StringVarP(&o.file, "output", "o", "", "write to FILE instead of standard output")
	if target == export.TargetDstack {
		f.StringVar(&o.kind, "kind", "fleet", "dstack configuration type: fleet or task")
	}
	return cmd
}

func (a *app) runExport(target string, o *exportOptions) error {
	if o.offer == "" {
		return usagef("pick one with gpuscout offers; its ID is provider/instance_type/region/billing.", "--offer is required")
	}
	if o.count < 1 {
		return usagef("", "--count must be at least 1")
	}
	ds, err := a.data()
	if err != nil {
		return err
	}
	off, err := planfile.ResolveOffer(ds.Catalog, o.offer)
	if err != nil {
		return err
	}
	out, err := export.Render(target, off, export.Options{Count: o.count, Spot: o.spot, Kind: o.kind})
	if err != nil {
		return exportError(err)
	}
	if o.file == "" {
		_, err = a.io.Out.Write(out)
		return err
	}
	if err := os.WriteFile(o.file, out, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(a.io.Out, "Wrote %s: %s export of %d× %s.\n", o.file, target, o.count, off.ID())
	return nil
}

// exportError maps an export's refusal to a usage error with its hint.
func exportError(err error) error {
	var ue *export.UnsupportedError
	if errors.As(err, &ue) {
		return usagef(ue.Hint, "%v", ue)
	}
	return err
}

// exportRecommended writes the top-ranked plan of a recommendation as target
// (terraform, skypilot or dstack) to standard output: its offer and
// instance count. `gpuscout recommend --export TARGET` calls it.
func (a *app) exportRecommended(plans []*recommend.Plan, target string) error {
	if len(plans) == 0 {
		return usagef("relax the constraints.", "no plan to export")
	}
	top := plans[0]
	if top.Offer == nil {
		return fmt.Errorf("plan #%d has no offer", top.Rank)
	}
	out, err := a.exportOffer(top.Offer, target, top.Instances, fmt.Sprintf("Recommended plan #%d (gpuscout recommend).", top.Rank))
	if err != nil {
		return err
	}
	_, err = a.io.Out.Write(out)
	return err
}

// exportOffer renders off for target with count instances.
func (a *app) exportOffer(off *catalog.Offer, target string, count int, context string) ([]byte, error) {
	out, err := export.Render(target, off, export.Options{Count: count, Context: context})
	if err != nil {
		return nil, exportError(err)
	}
	return out, nil
}
