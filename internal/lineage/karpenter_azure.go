package lineage

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// karpenterAzureCommit is the version of
// Azure/karpenter-provider-azure pkg/providers/pricing/zz_generated.pricing.go
// whose excerpt is kept in testdata/karpenter-azure (the newest of the 8
// stored versions; committed 2026-07-16, stamped "generated at
// 2026-06-18T03:43:41Z").
const karpenterAzureCommit = "2b431da153a6a92b705c18046512c60b1631b682"

// karpenterAzureRegions are the regions whose GPU rows are taken from the
// table. Other regions' Azure offers still come from other sources.
var karpenterAzureRegions = []string{"eastus", "eastus2", "swedencentral", "westeurope", "westus2", "westus3"}

// karpenterAzureDeferred lists westus3 sizes whose on-demand offer is still
// carried by the SkyPilot-derived rows of offers/azure.csv (the two sources
// agree to the cent wherever both price a pair); the table's figure for them
// is left out so that each offer appears once. Drop an entry when the
// SkyPilot-derived row goes.
var karpenterAzureDeferred = map[string]bool{
	"westus3/Standard_NC12s_v3":         true,
	"westus3/Standard_NC16as_T4_v3":     true,
	"westus3/Standard_NC24ads_A100_v4":  true,
	"westus3/Standard_NC24rs_v3":        true,
	"westus3/Standard_NC24s_v3":         true,
	"westus3/Standard_NC40ads_H100_v5":  true,
	"westus3/Standard_NC48ads_A100_v4":  true,
	"westus3/Standard_NC4as_T4_v3":      true,
	"westus3/Standard_NC64as_T4_v3":     true,
	"westus3/Standard_NC6s_v3":          true,
	"westus3/Standard_NC80adis_H100_v5": true,
	"westus3/Standard_NC8as_T4_v3":      true,
	"westus3/Standard_NC96ads_A100_v4":  true,
	"westus3/Standard_NV36adms_A10_v5":  true,
	"westus3/Standard_NV36ads_A10_v5":   true,
	"westus3/Standard_NV72ads_A10_v5":   true,
}

// KarpenterAzureTable is the content of karpenter-provider-azure's generated
// on-demand price table.
type KarpenterAzureTable struct {
	// GeneratedAt is the file's own stamp ("// generated at ...").
	GeneratedAt time.Time
	// Prices maps region -> VM size -> USD per hour, as written (decimal).
	Prices map[string]map[string]decimal.Decimal
}

var (
	karpGenerated = regexp.MustCompile(`^// generated at (\S+)$`)
	karpRegion    = regexp.MustCompile(`^initialOnDemandPrices\["([a-z0-9]+)"\] = map\[string\]float64\{$`)
	karpPrice     = regexp.MustCompile(`^"([A-Za-z0-9_]+)":\s*([0-9]+(?:\.[0-9]+)?),$`)
)

// ParseKarpenterAzure reads zz_generated.pricing.go (or an excerpt of it
// that keeps its lines). Any line inside a region block that is not a
// `"size": price,` entry, a price that is not a positive decimal, a size
// listed twice in one region, or a missing "generated at" stamp is an error
// naming the line.
func ParseKarpenterAzure(r io.Reader) (*KarpenterAzureTable, error) {
	t := &KarpenterAzureTable{Prices: map[string]map[string]decimal.Decimal{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	var region string
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if region != "" {
			if line == "}" {
				region = ""
				continue
			}
			m := karpPrice.FindStringSubmatch(line)
			if m == nil {
				return nil, fmt.Errorf("line %d: expected `\"size\": price,` in region %s, got %q", n, region, line)
			}
			p, err := decimal.NewFromString(m[2])
			if err != nil || !p.IsPositive() {
				return nil, fmt.Errorf("line %d: %s in %s: price %q is not a positive number", n, m[1], region, m[2])
			}
			if _, dup := t.Prices[region][m[1]]; dup {
				return nil, fmt.Errorf("line %d: %s listed twice in %s", n, m[1], region)
			}
			t.Prices[region][m[1]] = p
			continue
		}
		if m := karpGenerated.FindStringSubmatch(line); m != nil {
			at, err := time.Parse(time.RFC3339, m[1])
			if err != nil {
				return nil, fmt.Errorf("line %d: generated-at stamp %q: %w", n, m[1], err)
			}
			t.GeneratedAt = at
			continue
		}
		if m := karpRegion.FindStringSubmatch(line); m != nil {
			region = m[1]
			if _, dup := t.Prices[region]; dup {
				return nil, fmt.Errorf("line %d: region %s appears twice", n, region)
			}
			t.Prices[region] = map[string]decimal.Decimal{}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w", n, err)
	}
	if region != "" {
		return nil, fmt.Errorf("line %d: region %s is not closed", n, region)
	}
	if t.GeneratedAt.IsZero() {
		return nil, fmt.Errorf("no \"// generated at\" stamp")
	}
	return t, nil
}

// KarpenterAzure is the on-demand table generated into
// Azure/karpenter-provider-azure from the Azure Retail Prices API.
var KarpenterAzure = Source{
	Name:     "karpenter-azure",
	Output:   "offers/azure-karpenter.csv",
	Generate: generateKarpenterAzure,
}

func generateKarpenterAzure(excerpt fs.FS) ([]Row, error) {
	const file = "zz_generated.pricing.go.excerpt"
	b, err := fs.ReadFile(excerpt, file)
	if err != nil {
		return nil, err
	}
	t, err := ParseKarpenterAzure(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	stamp := t.GeneratedAt.UTC().Format(time.RFC3339)
	var rows []Row
	for _, region := range karpenterAzureRegions {
		sizes := t.Prices[region]
		if len(sizes) == 0 {
			return nil, fmt.Errorf("%s: no prices for region %s", file, region)
		}
		names := make([]string, 0, len(sizes))
		for s := range sizes {
			names = append(names, s)
		}
		sort.Strings(names)
		for _, size := range names {
			if karpenterAzureDeferred[region+"/"+size] {
				continue
			}
			rows = append(rows, Row{
				Provider:     "azure",
				InstanceType: size,
				Region:       region,
				Billing:      "on-demand",
				Hourly:       sizes[size].String(),
				Currency:     "USD",
				Notes: "Linux pay-as-you-go price from the table generated from the Azure Retail Prices API " +
					"(Consumption meters, non-Windows, not Spot/Low Priority); a size is listed only in regions whose price list carries it; " +
					"as_of = the file's own stamp \"generated at " + stamp + "\"; version read: commit " + karpenterAzureCommit[:8] + " (2026-07-16), the newest of 8",
				SourceKind: "official-api",
				SourceRef:  "Azure/karpenter-provider-azure pkg/providers/pricing/zz_generated.pricing.go@" + karpenterAzureCommit,
				AsOf:       t.GeneratedAt.UTC().Format("2006-01-02"),
			})
		}
	}
	return rows, nil
}
