package lineage

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"time"

	"github.com/shopspring/decimal"
	"gopkg.in/yaml.v3"
)

// The Compute Engine GPU machine types priced from the calculator's
// pricing.yml (see testdata/cyclenerd-gcp/SOURCE.md).
const (
	cyclenerdRepo   = "Cyclenerd/google-cloud-pricing-cost-calculator"
	cyclenerdCommit = "fd66b26ff84fee5cdd94f341ea89206e76c06b99"
	// cyclenerdFork is the later build of a fork the rows were first typed
	// from; its on-demand and committed-use figures equal this build's.
	cyclenerdFork = "BetinMcFly/google-cloud-pricing-cost-calculator pricing.yml@0a176534 (2026-08-27 build)"
)

// cyclenerdListings are the two machine-type listings kept; a type is
// priced in a region only where both list it.
var cyclenerdListings = []string{"machinetyperegion-ccf1eea5.csv", "machinetyperegion-0026ae3a.csv"}

// cyclenerdPricedElsewhere are offers the catalog prices from a later dated
// source: the pricing.yml figure is left out for them.
var cyclenerdPricedElsewhere = map[string]string{
	"a3-highgpu-1g/us-central1/on-demand": "gcp-silybench (checked_at 2026-10-13)",
}

// cyclenerdHours is the hours per month the calculator's month figures are
// built on (its README: "1 month = 730 hours").
var cyclenerdHours = decimal.NewFromInt(730)

// cyclenerdCost is one region's cost block of a machine type, as the
// file's text (no float conversion).
type cyclenerdCost map[string]string

// parseCyclenerdPricing reads the excerpt's pricing.yml: the generated
// date and, per machine type and region, the cost fields as written.
func parseCyclenerdPricing(b []byte) (time.Time, map[string]map[string]cyclenerdCost, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(b, &root); err != nil {
		return time.Time{}, nil, fmt.Errorf("pricing.yml: %w", err)
	}
	if len(root.Content) != 1 || root.Content[0].Kind != yaml.MappingNode {
		return time.Time{}, nil, errors.New("pricing.yml: not a mapping")
	}
	doc := root.Content[0]
	gen := child(child(doc, "about"), "generated")
	if gen == nil {
		return time.Time{}, nil, errors.New("pricing.yml: no about.generated")
	}
	day, err := time.Parse("Mon Jan _2 15:04:05 2006", gen.Value)
	if err != nil {
		return time.Time{}, nil, fmt.Errorf("pricing.yml: about.generated %q: %w", gen.Value, err)
	}
	inst := child(child(doc, "compute"), "instance")
	if inst == nil || inst.Kind != yaml.MappingNode {
		return time.Time{}, nil, errors.New("pricing.yml: no compute.instance mapping")
	}
	out := map[string]map[string]cyclenerdCost{}
	for i := 0; i+1 < len(inst.Content); i += 2 {
		name := inst.Content[i].Value
		cost := child(inst.Content[i+1], "cost")
		if cost == nil || cost.Kind != yaml.MappingNode {
			return time.Time{}, nil, fmt.Errorf("pricing.yml: %s: no cost mapping", name)
		}
		regions := map[string]cyclenerdCost{}
		for j := 0; j+1 < len(cost.Content); j += 2 {
			fields := cost.Content[j+1]
			if fields.Kind != yaml.MappingNode {
				return time.Time{}, nil, fmt.Errorf("pricing.yml: %s/%s: not a mapping", name, cost.Content[j].Value)
			}
			c := cyclenerdCost{}
			for k := 0; k+1 < len(fields.Content); k += 2 {
				c[fields.Content[k].Value] = fields.Content[k+1].Value
			}
			regions[cost.Content[j].Value] = c
		}
		out[name] = regions
	}
	return day, out, nil
}

// child is the value node of key in a mapping node, or nil.
func child(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// readMachineTypeRegions reads one machine-type listing (NAME;...;ZONE,
// semicolon-separated; ZONE holds the region) into type → regions.
func readMachineTypeRegions(excerpt fs.FS, name string) (map[string]map[string]bool, error) {
	f, err := excerpt.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]map[string]bool{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		rec := strings.Split(sc.Text(), ";")
		if len(rec) != 6 {
			return nil, fmt.Errorf("%s line %d: %d fields, want 6", name, line, len(rec))
		}
		if line == 1 {
			if rec[0] != "NAME" || rec[5] != "ZONE" {
				return nil, fmt.Errorf("%s: header %q", name, sc.Text())
			}
			continue
		}
		if out[rec[0]] == nil {
			out[rec[0]] = map[string]bool{}
		}
		out[rec[0]][rec[5]] = true
	}
	return out, sc.Err()
}

// cyclenerdGCP generates the on-demand and committed-use rows of the GPU
// machine types from pricing.yml, in the regions both listings name. Spot
// figures are not generated: they move weekly, and the catalog keeps the
// later build's (offers/gcp.csv).
func cyclenerdGCP() Source {
	return Source{
		Name:   "cyclenerd-gcp",
		Output: "offers/gcp-pricingyml.csv",
		Generate: func(excerpt fs.FS) ([]Row, error) {
			b, err := fs.ReadFile(excerpt, "pricing.yml")
			if err != nil {
				return nil, err
			}
			day, prices, err := parseCyclenerdPricing(b)
			if err != nil {
				return nil, err
			}
			var listings []map[string]map[string]bool
			for _, name := range cyclenerdListings {
				l, err := readMachineTypeRegions(excerpt, name)
				if err != nil {
					return nil, err
				}
				listings = append(listings, l)
			}
			ref := fmt.Sprintf("%s pricing.yml@%s (generated %s from Cloud Billing Catalog SKUs)", cyclenerdRepo, cyclenerdCommit, day.Format("2006-01-02"))
			types := make([]string, 0, len(prices))
			for t := range prices {
				types = append(types, t)
			}
			sort.Strings(types)
			var rows []Row
			for _, typ := range types {
				for region, c := range prices[typ] {
					listed := true
					for _, l := range listings {
						listed = listed && l[typ][region]
					}
					if !listed {
						continue
					}
					for _, m := range []struct{ billing, field, how string }{
						{"on-demand", "hour", "hour (on-demand, USD per hour)"},
						{"committed-1y", "month_1y", "month_1y / 730 h (1-year CUD)"},
						{"committed-3y", "month_3y", "month_3y / 730 h (3-year CUD)"},
					} {
						text, ok := c[m.field]
						if !ok {
							continue
						}
						key := typ + "/" + region + "/" + m.billing
						if _, skip := cyclenerdPricedElsewhere[key]; skip {
							continue
						}
						v, err := decimal.NewFromString(text)
						if err != nil || !v.IsPositive() {
							return nil, fmt.Errorf("pricing.yml: %s/%s %s: %q is not a positive number", typ, region, m.field, text)
						}
						if m.field != "hour" {
							v = v.Div(cyclenerdHours)
						}
						rows = append(rows, Row{
							Provider: "gcp", InstanceType: typ, Region: region, Billing: m.billing,
							Hourly: v.Round(6).String(), Currency: "USD",
							Notes: fmt.Sprintf("%s, rounded to 6 decimals; offered in this region per both machine-type listings kept "+
								"(%s tools/machinetyperegion.csv@ccf1eea5 and @0026ae3a); as_of = the file's about.generated; "+
								"%s gives the same figure to 6 decimals", m.how, cyclenerdRepo, cyclenerdFork),
							SourceKind: "third-party", SourceRef: ref, AsOf: day.Format("2006-01-02"),
						})
					}
				}
			}
			return rows, nil
		},
	}
}
