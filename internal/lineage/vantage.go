package lineage

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"sort"
)

// The instance-table export the excerpt under testdata/vantage-aws was cut from.
const (
	vantageRepo   = "tsaol/aws-gpu"
	vantagePath   = "data/all_gpu_instances.js"
	vantageCommit = "7412fd256c5eda04a70a17742a68e8e44824b2cb"
	vantageFile   = "all_gpu_instances.js"
)

// VantageExport is a JavaScript file that assigns an array of GPU instance
// records, exported from instances.vantage.sh data, to one variable.
type VantageExport struct {
	// LastUpdated is the "// Last updated: YYYY-MM-DD" header, if present.
	LastUpdated string
	Instances   []VantageInstance
}

// VantageInstance is one instance type's record and its regional prices.
type VantageInstance struct {
	Name string
	// Pricing maps a region code to its Linux on-demand and 1-year
	// no-upfront reserved rates, as written ("" where absent).
	Pricing map[string]VantagePrice
}

// VantagePrice holds one region's hourly rates.
type VantagePrice struct {
	OnDemand string
	Reserved string
}

var (
	vantageUpdated = regexp.MustCompile(`(?m)^// Last updated: (\d{4}-\d{2}-\d{2})\s*$`)
	vantageAssign  = regexp.MustCompile(`(?m)^(?:const|var|let) [A-Za-z_$][A-Za-z0-9_$]* = \[`)
)

// ParseVantageJS reads an instance-table export. Errors name the record and
// field at fault.
func ParseVantageJS(r io.Reader) (*VantageExport, error) {
	b, err := io.ReadAll(io.LimitReader(r, 64<<20))
	if err != nil {
		return nil, fmt.Errorf("vantage export: %w", err)
	}
	loc := vantageAssign.FindIndex(b)
	if loc == nil {
		return nil, fmt.Errorf("vantage export: no \"const <name> = [\" assignment")
	}
	e := &VantageExport{}
	if m := vantageUpdated.FindSubmatch(b[:loc[0]]); m != nil {
		e.LastUpdated = string(m[1])
	}
	body := b[loc[1]-1:]
	var raw []*struct {
		Name    *string `json:"name"`
		Pricing map[string]*struct {
			OnDemand *json.Number `json:"onDemand"`
			Reserved *json.Number `json:"reserved"`
		} `json:"pricing"`
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("vantage export: array: %w", err)
	}
	if rest := bytes.TrimSpace(body[dec.InputOffset():]); len(rest) > 1 || len(rest) == 1 && rest[0] != ';' {
		return nil, fmt.Errorf("vantage export: text after the array")
	}
	seen := map[string]bool{}
	for i, it := range raw {
		if it == nil || it.Name == nil || !validToken(*it.Name) {
			return nil, fmt.Errorf("vantage export: record %d: name: missing or malformed", i)
		}
		if seen[*it.Name] {
			return nil, fmt.Errorf("vantage export: record %d: name %s listed twice", i, *it.Name)
		}
		seen[*it.Name] = true
		inst := VantageInstance{Name: *it.Name, Pricing: map[string]VantagePrice{}}
		for region, p := range it.Pricing {
			if p == nil || !validToken(region) {
				return nil, fmt.Errorf("vantage export: %s: pricing[%q]: not a region's prices", *it.Name, region)
			}
			var vp VantagePrice
			if p.OnDemand != nil {
				if vp.OnDemand, err = positivePrice(p.OnDemand); err != nil {
					return nil, fmt.Errorf("vantage export: %s: pricing[%s].onDemand: %w", *it.Name, region, err)
				}
			}
			if p.Reserved != nil {
				if vp.Reserved, err = positivePrice(p.Reserved); err != nil {
					return nil, fmt.Errorf("vantage export: %s: pricing[%s].reserved: %w", *it.Name, region, err)
				}
			}
			inst.Pricing[region] = vp
		}
		e.Instances = append(e.Instances, inst)
	}
	return e, nil
}

// vantageAWS regenerates the AWS on-demand (outside us-east-1) and 1-year
// no-upfront reserved offers from the instance-table export.
func vantageAWS() Source {
	return Source{Name: "vantage-aws", Output: "offers/aws-vantage.csv", Generate: generateVantageAWS}
}

func generateVantageAWS(excerpt fs.FS) ([]Row, error) {
	f, err := excerpt.Open(vantageFile)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	e, err := ParseVantageJS(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", vantageFile, err)
	}
	if e.LastUpdated == "" {
		return nil, fmt.Errorf("%s: no \"// Last updated:\" header to date the rows", vantageFile)
	}
	elsewhere, err := readElsewhere(excerpt)
	if err != nil {
		return nil, err
	}
	ref := fmt.Sprintf("%s %s@%s", vantageRepo, vantagePath, vantageCommit)
	version := fmt.Sprintf("as_of = the file's header \"Last updated: %s\" (a date inside the file). Version read: commit %s, the newest of the 6 versions in the fetched history",
		e.LastUpdated, vantageCommit[:12])
	var rows []Row
	for _, it := range e.Instances {
		if _, ok := awsCatalogTypes[it.Name]; !ok {
			continue
		}
		regions := make([]string, 0, len(it.Pricing))
		for r := range it.Pricing {
			regions = append(regions, r)
		}
		sort.Strings(regions)
		for _, region := range regions {
			if !awsRegionCode().MatchString(region) {
				continue // Local and Wavelength Zones are not catalog regions
			}
			p := it.Pricing[region]
			// us-east-1 on-demand comes from the karpenter-aws source, a table
			// generated from the AWS Price List API itself.
			if p.OnDemand != "" && region != "us-east-1" && !elsewhere[it.Name+"/"+region+"/on-demand"] {
				rows = append(rows, Row{
					Provider: "aws", InstanceType: it.Name, Region: region, Billing: "on-demand",
					Hourly: p.OnDemand, Currency: "USD", SourceKind: "third-party", SourceRef: ref, AsOf: e.LastUpdated,
					Notes: "Linux on-demand hourly rate (the export's pricing[region].onDemand = instances.vantage.sh pricing[region].linux.ondemand); the region is listed because the export prices the type there. " + version,
				})
			}
			if p.Reserved != "" && !elsewhere[it.Name+"/"+region+"/reserved-1y-no-upfront"] {
				rows = append(rows, Row{
					Provider: "aws", InstanceType: it.Name, Region: region, Billing: "reserved-1y-no-upfront",
					Hourly: p.Reserved, Currency: "USD", SourceKind: "third-party", SourceRef: ref, AsOf: e.LastUpdated,
					Notes: "1-year Standard Reserved Instance, no upfront, Linux (the export's pricing[region].reserved = instances.vantage.sh yrTerm1Standard.noUpfront). " + version,
				})
			}
		}
	}
	return rows, nil
}

// readElsewhere reads elsewhere.csv: the instance/region/billing keys whose
// offer another source supplies (one offer per key in the catalog), so the
// export's price for them is not emitted.
func readElsewhere(excerpt fs.FS) (map[string]bool, error) {
	f, err := excerpt.Open("elsewhere.csv")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("elsewhere.csv: %w", err)
	}
	m := map[string]bool{}
	for i, r := range recs {
		if i == 0 {
			continue
		}
		if len(r) != 4 || r[3] == "" {
			return nil, fmt.Errorf("elsewhere.csv line %d: want instance_type,region,billing,offered_by", i+1)
		}
		m[r[0]+"/"+r[1]+"/"+r[2]] = true
	}
	return m, nil
}
