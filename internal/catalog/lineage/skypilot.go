package lineage

import (
	"context"
	"fmt"
	"io/fs"
	"strings"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer/skypilot"
)

// skypilotRepo is the repository every SkyPilot excerpt was cut from.
const skypilotRepo = "skypilot-org/skypilot-catalog"

// skypilotFile is one cloud's vms.csv in the SkyPilot catalog, the version
// read, and which of its instance types the curated catalog describes.
type skypilotFile struct {
	// Provider is the catalog provider code, e.g. "verda".
	Provider string
	// Path is the file's path in the repository.
	Path string
	// Commit is the full hash of the version read.
	Commit string
	// AsOf is the commit's date, when it could be read; ReadOn is the day
	// the version was read, used only when AsOf is empty.
	AsOf, ReadOn string
	// Origin says where SkyPilot got the figures, e.g. "the Verda API".
	Origin string
	// SpotMeaning says what the SpotPrice column is for this cloud.
	SpotMeaning string
	// Instances are the catalog instance types kept (instances/<provider>.csv);
	// offers for other types are left out.
	Instances []string
}

// ref is the offers' source_ref.
func (f skypilotFile) ref() string {
	return fmt.Sprintf("%s %s@%s (from %s)", skypilotRepo, f.Path, f.Commit, f.Origin)
}

// dating is the notes' sentence on the row's date.
func (f skypilotFile) dating() string {
	if f.AsOf != "" {
		return fmt.Sprintf("as_of is the date of commit %.12s, which produced this version; the file carries no date", f.Commit)
	}
	return fmt.Sprintf("undated: the file carries no date and the date of commit %.12s could not be read (the repository's history was too large to bring here); read_on is the day this version was read", f.Commit)
}

// generate parses the excerpt vms.csv with the SkyPilot importer and maps
// its offers to catalog rows. A spot price without an on-demand price for
// the same instance type and region is left out (the catalog requires an
// on-demand sibling for every spot offer).
func (f skypilotFile) generate(excerpt fs.FS) ([]Row, error) {
	file, err := excerpt.Open("vms.csv")
	if err != nil {
		return nil, err
	}
	defer file.Close()
	imp := &skypilot.Importer{Cloud: f.Provider, File: f.Path + "@" + f.Commit}
	res, err := imp.Parse(context.Background(), file, nil)
	if err != nil {
		return nil, err
	}
	keep := map[string]bool{}
	for _, name := range f.Instances {
		keep[name] = true
	}
	onDemand := map[[2]string]bool{}
	for _, o := range res.Offers {
		if o.Billing == catalog.OnDemand {
			onDemand[[2]string{o.InstanceName, o.RegionCode}] = true
		}
	}
	var rows []Row
	for _, o := range res.Offers {
		if !keep[o.InstanceName] {
			continue
		}
		var what string
		switch o.Billing {
		case catalog.OnDemand:
			what = "Price column"
		case catalog.Spot:
			if !onDemand[[2]string{o.InstanceName, o.RegionCode}] {
				continue
			}
			what = "SpotPrice column (" + f.SpotMeaning + ")"
		default:
			return nil, fmt.Errorf("%s: unexpected billing %q", o.InstanceName, o.Billing)
		}
		notes := []string{what}
		if o.Notes != "" {
			notes = append(notes, o.Notes)
		}
		notes = append(notes, f.dating())
		rows = append(rows, Row{
			Provider:     f.Provider,
			InstanceType: o.InstanceName,
			Region:       o.RegionCode,
			Billing:      string(o.Billing),
			Hourly:       o.Price.Hourly.String(),
			Currency:     o.Price.Currency,
			Notes:        strings.Join(notes, "; "),
			SourceKind:   string(catalog.SourceThirdParty),
			SourceRef:    f.ref(),
			AsOf:         f.AsOf,
			ReadOn:       readOn(f),
		})
	}
	return rows, nil
}

func readOn(f skypilotFile) string {
	if f.AsOf != "" {
		return ""
	}
	return f.ReadOn
}

// skypilotSource is the lineage Source for one SkyPilot file.
func skypilotSource(f skypilotFile) Source {
	return Source{
		Name:     "skypilot-" + f.Provider,
		Output:   "offers/" + f.Provider + "-skypilot.csv",
		Generate: f.generate,
	}
}

// skypilotVerda is Verda's vms.csv (see testdata/skypilot-verda/SOURCE.md).
var skypilotVerda = skypilotFile{
	Provider:    "verda",
	Path:        "catalogs/v8/verda/vms.csv",
	Commit:      "000c1d0bf24621f4ac37cfa585f0897c1aa1d9cf",
	ReadOn:      "2026-12-04",
	Origin:      "the Verda API",
	SpotMeaning: "Verda spot instances",
	Instances: []string{"1H100.80S.32V", "1H200.141S.44V", "2H200.141S.88V", "1B200.30V",
		"8B200.240V", "1RTX6000ADA.10V", "2RTX6000ADA.20V"},
}

// skypilotNebius is Nebius's vms.csv (see testdata/skypilot-nebius/SOURCE.md).
var skypilotNebius = skypilotFile{
	Provider:    "nebius",
	Path:        "catalogs/v8/nebius/vms.csv",
	Commit:      "0082b0435f3912ae4c566856b272455cc78f4f61",
	ReadOn:      "2026-12-04",
	Origin:      "the Nebius API",
	SpotMeaning: "Nebius preemptible instances",
	Instances: []string{"gpu-h100-sxm_1gpu-16vcpu-200gb", "gpu-h100-sxm_8gpu-128vcpu-1600gb",
		"gpu-h200-sxm_1gpu-16vcpu-200gb", "gpu-h200-sxm_8gpu-128vcpu-1600gb", "gpu-b200-sxm_8gpu-160vcpu-1792gb",
		"gpu-l40s-a_1gpu-8vcpu-32gb", "gpu-l40s-d_1gpu-16vcpu-96gb", "gpu-l40s-d_4gpu-128vcpu-768gb"},
}

// skypilotHyperstack is Hyperstack's vms.csv (see
// testdata/skypilot-hyperstack/SOURCE.md).
var skypilotHyperstack = skypilotFile{
	Provider:    "hyperstack",
	Path:        "catalogs/v8/hyperstack/vms.csv",
	Commit:      "fdc9d908ab0b2af9f468f139fb3f662c8c6b3257",
	ReadOn:      "2026-12-04",
	Origin:      "the Hyperstack API",
	SpotMeaning: "none in this file",
	Instances: []string{"n3-A100x1", "n3-A100x8", "n3-A100x8-NVLink", "n3-H100x1", "n3-H100x8",
		"n3-H100x8-NVLink", "n3-H100-SXM5x8", "n3-L40x1", "n3-L40x8", "n3-RTX-A6000x1", "n3-RTX-A6000x8"},
}
