package lineage

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// capacityBlocksRef cites the Capacity Block price table the excerpt under
// testdata/capacity-blocks-aws was cut from.
const (
	capacityBlocksRepo   = "koyakimu/ec2-capacity-blocks-for-ml-pricing-json"
	capacityBlocksPath   = "data/pricing.json"
	capacityBlocksCommit = "b3a54aee92b6ef6b3c50ea6cacbcc03536675c7e"
)

// CapacityBlockTable is a monthly scrape of the EC2 Capacity Blocks for ML
// pricing page, as JSON.
type CapacityBlockTable struct {
	// LastUpdated is the scrape time the file states, RFC 3339.
	LastUpdated string
	// SourceURL is the page that was scraped.
	SourceURL string
	// Rates lists one rate per instance type and region, sorted by
	// instance type then region code.
	Rates []CapacityBlockRate
}

// CapacityBlockRate is one instance type's Capacity Block rate in one region.
type CapacityBlockRate struct {
	InstanceType     string
	AcceleratorType  string
	AcceleratorCount int
	RegionName       string
	RegionCode       string
	// Hourly is the page's "Effective Instance Hourly Rate", as written.
	Hourly string
	// AcceleratorHourly is the page's per-accelerator hourly rate, as written.
	AcceleratorHourly string
}

var lastUpdatedRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$`) })

// ParseCapacityBlocks reads a Capacity Block price table. Errors name the
// instance type, the entry and the field at fault.
func ParseCapacityBlocks(r io.Reader) (*CapacityBlockTable, error) {
	var doc struct {
		Metadata *struct {
			LastUpdated string `json:"last_updated"`
			SourceURL   string `json:"source_url"`
		} `json:"metadata"`
		InstanceTypes map[string]*struct {
			AcceleratorType  string `json:"accelerator_type"`
			AcceleratorCount *int   `json:"accelerator_count"`
			Pricing          []*struct {
				Region            string       `json:"region"`
				RegionCode        string       `json:"region_code"`
				HourlyRate        *json.Number `json:"hourly_rate_usd"`
				AcceleratorHourly *json.Number `json:"accelerator_hourly_rate_usd"`
			} `json:"pricing"`
		} `json:"instance_types"`
	}
	dec := json.NewDecoder(r)
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("capacity blocks: %w", err)
	}
	if doc.Metadata == nil || !lastUpdatedRE().MatchString(doc.Metadata.LastUpdated) {
		return nil, fmt.Errorf("capacity blocks: metadata.last_updated: want YYYY-MM-DDThh:mm:ssZ")
	}
	if len(doc.InstanceTypes) == 0 {
		return nil, fmt.Errorf("capacity blocks: instance_types: empty")
	}
	t := &CapacityBlockTable{LastUpdated: doc.Metadata.LastUpdated, SourceURL: doc.Metadata.SourceURL}
	for name, it := range doc.InstanceTypes {
		if it == nil || !validToken(name) {
			return nil, fmt.Errorf("capacity blocks: instance_types[%q]: not an instance type", name)
		}
		if it.AcceleratorCount == nil || *it.AcceleratorCount < 1 || *it.AcceleratorCount > 1024 {
			return nil, fmt.Errorf("capacity blocks: %s: accelerator_count: missing or out of range", name)
		}
		if len(it.Pricing) == 0 {
			return nil, fmt.Errorf("capacity blocks: %s: pricing: empty", name)
		}
		for i, p := range it.Pricing {
			if p == nil || !validToken(p.RegionCode) {
				return nil, fmt.Errorf("capacity blocks: %s: pricing[%d].region_code: missing or malformed", name, i)
			}
			hourly, err := positivePrice(p.HourlyRate)
			if err != nil {
				return nil, fmt.Errorf("capacity blocks: %s: pricing[%d].hourly_rate_usd: %w", name, i, err)
			}
			acc, err := positivePrice(p.AcceleratorHourly)
			if err != nil {
				return nil, fmt.Errorf("capacity blocks: %s: pricing[%d].accelerator_hourly_rate_usd: %w", name, i, err)
			}
			t.Rates = append(t.Rates, CapacityBlockRate{
				InstanceType: name, AcceleratorType: it.AcceleratorType, AcceleratorCount: *it.AcceleratorCount,
				RegionName: p.Region, RegionCode: p.RegionCode, Hourly: hourly, AcceleratorHourly: acc,
			})
		}
	}
	sort.Slice(t.Rates, func(i, j int) bool {
		a, b := t.Rates[i], t.Rates[j]
		if a.InstanceType != b.InstanceType {
			return a.InstanceType < b.InstanceType
		}
		return a.RegionCode < b.RegionCode
	})
	for i := 1; i < len(t.Rates); i++ {
		if a, b := t.Rates[i-1], t.Rates[i]; a.InstanceType == b.InstanceType && a.RegionCode == b.RegionCode {
			return nil, fmt.Errorf("capacity blocks: %s: region_code %s listed twice", a.InstanceType, a.RegionCode)
		}
	}
	return t, nil
}

// validToken accepts instance-type and region names: lower-case letters,
// digits, dots and dashes, 1 to 64 characters.
func validToken(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// positivePrice checks a JSON number is a finite positive price below one
// million and returns it as written.
func positivePrice(n *json.Number) (string, error) {
	if n == nil {
		return "", fmt.Errorf("missing")
	}
	s := n.String()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f <= 0 || f >= 1e6 || strings.ContainsAny(s, "eE") {
		return "", fmt.Errorf("%q is not a positive decimal price", s)
	}
	return s, nil
}

// capacityBlocksAWS regenerates the AWS Capacity Block offers.
func capacityBlocksAWS() Source {
	return Source{Name: "capacity-blocks-aws", Output: "offers/aws-capacity-blocks.csv", Generate: generateCapacityBlocksAWS}
}

func generateCapacityBlocksAWS(excerpt fs.FS) ([]Row, error) {
	f, err := excerpt.Open("pricing.json")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	t, err := ParseCapacityBlocks(f)
	if err != nil {
		return nil, fmt.Errorf("pricing.json: %w", err)
	}
	asOf := t.LastUpdated[:10]
	ref := fmt.Sprintf("%s %s@%s", capacityBlocksRepo, capacityBlocksPath, capacityBlocksCommit)
	var rows []Row
	for _, r := range t.Rates {
		if !awsRegionCode().MatchString(r.RegionCode) {
			// Local Zones (us-east-1-dfw-2a) are not catalog regions.
			continue
		}
		if _, ok := awsCatalogTypes[r.InstanceType]; !ok {
			continue
		}
		rows = append(rows, Row{
			Provider: "aws", InstanceType: r.InstanceType, Region: r.RegionCode, Billing: "capacity-block",
			Hourly: r.Hourly, Currency: "USD",
			Notes: fmt.Sprintf("Effective Instance Hourly Rate of an EC2 Capacity Block for ML (%s; %s per %s accelerator-hour), from a scrape of %s; "+
				"as_of = the file's metadata.last_updated %s (a date inside the file). Reservation fee paid up front for the whole block, plus the OS fee while running (Linux: none); "+
				"rates follow supply and demand, so a live quote may differ. Version read: commit %s (%d stored versions, 2026-01-31 to 2026-07-22; the newest used)",
				r.RegionName, r.AcceleratorHourly, r.AcceleratorType, t.SourceURL, t.LastUpdated, capacityBlocksCommit[:12], 7),
			SourceKind: "third-party", SourceRef: ref, AsOf: asOf,
		})
	}
	return rows, nil
}

// awsRegionCode matches a whole AWS region code, not a Local Zone.
var awsRegionCode = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z]{2}(-gov)?-[a-z]+-\d$`) })
