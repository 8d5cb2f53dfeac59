package lineage

import (
	"context"
	"fmt"
	"io/fs"
	"strings"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer/skypilot"
	"github.com/shopspring/decimal"
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
	// Region maps the file's Region value to a catalog region code; nil
	// keeps it as is. Rows that map to the same code keep the lowest price.
	Region func(string) (string, error)
	// Regions, when set, are the catalog region codes kept (regions.csv);
	// offers elsewhere are left out.
	Regions []string
	// Lead, when set, gives the first note of every row, from all rows
	// kept (e.g. a marketplace's per-GPU price range).
	Lead func(rows []skypilotRow) []string
	// RegionWord names what the file's Region values are, for the note
	// on merged rows, e.g. "host locations".
	RegionWord string
	// DropSpot, when set, says why the SpotPrice column is not a spot
	// offer for this cloud; no spot rows are generated.
	DropSpot string
	// Uniform, when set, requires every row that maps to one catalog
	// region to have the same price (a price list repeated in every
	// region): a different price is an error, not a merge to the lowest.
	Uniform bool
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
	var rows []skypilotRow
	index := map[[3]string]int{}
	merged := map[int]int{}
	for _, o := range res.Offers {
		if !keep[o.InstanceName] {
			continue
		}
		var what string
		switch o.Billing {
		case catalog.OnDemand:
			what = "Price column"
			if f.DropSpot != "" {
				what += "; SpotPrice column not used: " + f.DropSpot
			}
		case catalog.Spot:
			if f.DropSpot != "" || !onDemand[[2]string{o.InstanceName, o.RegionCode}] {
				continue
			}
			what = "SpotPrice column (" + f.SpotMeaning + ")"
		default:
			return nil, fmt.Errorf("%s: unexpected billing %q", o.InstanceName, o.Billing)
		}
		region := o.RegionCode
		if f.Region != nil {
			if region, err = f.Region(o.RegionCode); err != nil {
				return nil, fmt.Errorf("%s: %w", o.InstanceName, err)
			}
		}
		if f.Regions != nil && !contains(f.Regions, region) {
			continue
		}
		key := [3]string{o.InstanceName, region, string(o.Billing)}
		if k, ok := index[key]; ok {
			merged[k]++
			if f.Uniform && !o.Price.Hourly.Equal(rows[k].price) {
				return nil, fmt.Errorf("%s %s: %s in one %s and %s in another: not one price list", o.InstanceName, o.Billing,
					rows[k].price, strings.TrimSuffix(f.RegionWord, "s"), o.Price.Hourly)
			}
			if o.Price.Hourly.LessThan(rows[k].price) {
				rows[k].price = o.Price.Hourly
			}
			continue
		}
		notes := []string{what}
		if o.Notes != "" {
			notes = append(notes, o.Notes)
		}
		index[key] = len(rows)
		rows = append(rows, skypilotRow{price: o.Price.Hourly, notes: notes, Row: Row{
			Provider:     f.Provider,
			InstanceType: o.InstanceName,
			Region:       region,
			Billing:      string(o.Billing),
			Currency:     o.Price.Currency,
			SourceKind:   string(catalog.SourceThirdParty),
			SourceRef:    f.ref(),
			AsOf:         f.AsOf,
			ReadOn:       readOn(f),
		}})
	}
	var lead []string
	if f.Lead != nil {
		lead = f.Lead(rows)
	}
	out := make([]Row, len(rows))
	for k, r := range rows {
		if lead != nil {
			r.notes = append([]string{lead[k]}, r.notes...)
		}
		if n := merged[k]; n > 0 && f.Uniform {
			r.notes = append(r.notes, fmt.Sprintf("the same price in all %d %s the file lists", n+1, f.RegionWord))
		} else if n > 0 {
			r.notes = append(r.notes, fmt.Sprintf("lowest of %d %s in this region", n+1, f.RegionWord))
		}
		r.notes = append(r.notes, f.dating())
		r.Hourly = r.price.String()
		r.Notes = strings.Join(r.notes, "; ")
		out[k] = r.Row
	}
	return out, nil
}

// skypilotRow is a row being built, with its price and notes.
type skypilotRow struct {
	Row
	price decimal.Decimal
	notes []string
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
	ReadOn:      "2026-12-03",
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
	ReadOn:      "2026-12-03",
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
	ReadOn:      "2026-12-03",
	Origin:      "the Hyperstack API",
	SpotMeaning: "none in this file",
	Instances: []string{"n3-A100x1", "n3-A100x8", "n3-A100x8-NVLink", "n3-H100x1", "n3-H100x8",
		"n3-H100x8-NVLink", "n3-H100-SXM5x8", "n3-L40x1", "n3-L40x8", "n3-RTX-A6000x1", "n3-RTX-A6000x8"},
}

// vastCountry maps a Vast Region value ("Texas, US, NA": place, ISO
// country, continent) to the catalog's region code, the country.
func vastCountry(region string) (string, error) {
	parts := strings.Split(region, ",")
	if len(parts) != 3 || len(strings.TrimSpace(parts[1])) != 2 {
		return "", fmt.Errorf("region %q is not \"place, CC, continent\"", region)
	}
	return strings.TrimSpace(parts[1]), nil
}

// skypilotVast is Vast.ai's vms.csv (see testdata/skypilot-vast/SOURCE.md).
var skypilotVast = skypilotFile{
	Provider:    "vast",
	Path:        "catalogs/v8/vast/vms.csv",
	Commit:      "01b8cdda287814b30ff0acb49746cca19fbd4355",
	ReadOn:      "2026-12-03",
	Origin:      "snapshot of Vast.ai marketplace offers",
	SpotMeaning: "not used: 0.00 throughout",
	Region:      vastCountry,
	Lead:        vastMarketplace,
	RegionWord:  "host locations",
	Regions:     []string{"US", "CA", "DE", "FR", "FI", "BG", "SI", "HR", "TW", "JP", "VN", "TH", "AU"},
	Instances: []string{"1x-H100_SXM-32-65536", "2x-H100_SXM-32-65536", "4x-H100_SXM-32-65536", "8x-H100_SXM-32-65536",
		"1x-H100_NVL-32-65536", "2x-H100_NVL-32-65536", "1x-RTX_4090-32-65536", "2x-RTX_4090-32-65536",
		"4x-RTX_4090-32-65536", "8x-RTX_4090-32-65536", "1x-L40S-32-65536", "2x-L40S-32-65536", "4x-L40S-32-65536",
		"1x-A100_SXM4-32-65536", "2x-A100_SXM4-32-65536", "4x-A100_SXM4-32-65536", "1x-A100_PCIE-32-65536",
		"1x-RTX_6000Ada-32-65536", "1x-A40-32-65536", "2x-A40-32-65536", "2x-B200-32-65536", "4x-B200-32-65536"},
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// vastGPU names the catalog GPU of each Vast instance family (the type
// name without its "<n>x-" count), as instances/vast.csv does.
var vastGPU = map[string]string{
	"H100_SXM": "H100-SXM-80GB", "H100_NVL": "H100-NVL-94GB", "RTX_4090": "RTX-4090", "L40S": "L40S",
	"A100_SXM4": "A100-SXM4-40GB", "A100_PCIE": "A100-PCIe-80GB", "RTX_6000Ada": "RTX-6000-Ada", "A40": "A40",
	"B200": "B200-SXM-180GB",
}

// vastMarketplace says, for each row, that it is one host's asking price
// and gives the range of per-GPU-hour prices of the kept offers of the
// same GPU in this snapshot.
func vastMarketplace(rows []skypilotRow) []string {
	type span struct{ lo, hi decimal.Decimal }
	family := func(r skypilotRow) (string, decimal.Decimal) {
		n, name, _ := strings.Cut(r.InstanceType, "x-")
		fam := name[:strings.LastIndex(name[:strings.LastIndex(name, "-")], "-")]
		count, err := decimal.NewFromString(n)
		if err != nil || !count.IsPositive() {
			count = decimal.NewFromInt(1)
		}
		return fam, count
	}
	spans := map[string]*span{}
	for _, r := range rows {
		fam, count := family(r)
		per := r.price.Div(count).Round(4)
		sp := spans[fam]
		if sp == nil {
			spans[fam] = &span{per, per}
			continue
		}
		if per.LessThan(sp.lo) {
			sp.lo = per
		}
		if per.GreaterThan(sp.hi) {
			sp.hi = per
		}
	}
	out := make([]string, len(rows))
	for k, r := range rows {
		fam, _ := family(r)
		sp := spans[fam]
		rng := sp.lo.String()
		if !sp.hi.Equal(sp.lo) {
			rng += "-" + sp.hi.String()
		}
		gpu := vastGPU[fam]
		if gpu == "" {
			gpu = fam
		}
		out[k] = fmt.Sprintf("MARKETPLACE: asking price of one host's offer in this snapshot, not a fixed list price; "+
			"across this snapshot %s offers ranged %s USD per GPU-hour (price / GPU count of each offer kept here); "+
			"no SLA; prices, hosts and availability change continuously", gpu, rng)
	}
	return out
}
