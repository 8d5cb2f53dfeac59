package lineage

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"strconv"
	"strings"
)

// The Karpenter on-demand price table the excerpt under testdata/karpenter-aws
// was cut from.
const (
	karpenterRepo   = "aws/karpenter-provider-aws"
	karpenterPath   = "pkg/providers/pricing/zz_generated.pricing_aws.go"
	karpenterCommit = "6fc13b5236fd04fd16ff3f9dc7490d0813994099"
	karpenterFile   = "zz_generated.pricing_aws.go.txt"
)

// KarpenterPrices is Karpenter's generated table of initial on-demand prices
// (Linux, shared tenancy), per region and instance type.
type KarpenterPrices struct {
	// Generated is the generator's stamp, RFC 3339.
	Generated string
	// For is the region the stamp says the table was generated for.
	For string
	// Prices maps region code → instance type → hourly USD as written.
	Prices map[string]map[string]string
}

var (
	karpenterStamp  = regexp.MustCompile(`^// generated at (\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z) for ([a-z0-9-]+)$`)
	karpenterRegion = regexp.MustCompile(`^"([a-z0-9-]+)": \{$`)
	karpenterPair   = regexp.MustCompile(`^"([a-z0-9.-]+)": ([0-9]+\.[0-9]+)$`)
)

// ParseKarpenterPrices reads the generated Go source of Karpenter's initial
// on-demand price table. Errors name the line and what is wrong with it.
func ParseKarpenterPrices(r io.Reader) (*KarpenterPrices, error) {
	p := &KarpenterPrices{Prices: map[string]map[string]string{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	inTable, region, line := false, "", 0
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		switch {
		case karpenterStamp.MatchString(s):
			m := karpenterStamp.FindStringSubmatch(s)
			p.Generated, p.For = m[1], m[2]
		case strings.HasPrefix(s, "var InitialOnDemandPricesAWS = "):
			inTable = true
		case !inTable || s == "" || strings.HasPrefix(s, "//"):
		case s == "},":
			region = ""
		case s == "}":
			inTable = false
		case karpenterRegion.MatchString(s):
			region = karpenterRegion.FindStringSubmatch(s)[1]
			if p.Prices[region] != nil {
				return nil, fmt.Errorf("karpenter prices: line %d: region %s listed twice", line, region)
			}
			p.Prices[region] = map[string]string{}
		default:
			if region == "" {
				return nil, fmt.Errorf("karpenter prices: line %d: price outside a region block", line)
			}
			for _, pair := range strings.Split(strings.TrimSuffix(s, ","), ", ") {
				m := karpenterPair.FindStringSubmatch(pair)
				if m == nil {
					return nil, fmt.Errorf("karpenter prices: line %d: %q is not \"instance-type\": price", line, pair)
				}
				if f, err := strconv.ParseFloat(m[2], 64); err != nil || f <= 0 || f >= 1e6 {
					return nil, fmt.Errorf("karpenter prices: line %d: %s: price %s is not a positive hourly rate", line, m[1], m[2])
				}
				if _, dup := p.Prices[region][m[1]]; dup {
					return nil, fmt.Errorf("karpenter prices: line %d: %s listed twice in %s", line, m[1], region)
				}
				p.Prices[region][m[1]] = m[2]
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("karpenter prices: line %d: %w", line+1, err)
	}
	if p.Generated == "" {
		return nil, fmt.Errorf("karpenter prices: no \"// generated at <time> for <region>\" stamp")
	}
	if len(p.Prices) == 0 {
		return nil, fmt.Errorf("karpenter prices: no InitialOnDemandPricesAWS table")
	}
	return p, nil
}

// trimPrice drops trailing zeros from a decimal price ("3.468000" → "3.468").
func trimPrice(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// karpenterAWS regenerates the us-east-1 on-demand offers from Karpenter's
// price table.
func karpenterAWS() Source {
	return Source{Name: "karpenter-aws", Output: "offers/aws-karpenter.csv", Generate: generateKarpenterAWS}
}

func generateKarpenterAWS(excerpt fs.FS) ([]Row, error) {
	f, err := excerpt.Open(karpenterFile)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p, err := ParseKarpenterPrices(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", karpenterFile, err)
	}
	ref := fmt.Sprintf("%s %s@%s", karpenterRepo, karpenterPath, karpenterCommit)
	var rows []Row
	for region, prices := range p.Prices {
		for typ, price := range prices {
			if _, ok := awsCatalogTypes[typ]; !ok {
				continue
			}
			rows = append(rows, Row{
				Provider: "aws", InstanceType: typ, Region: region, Billing: "on-demand",
				Hourly: trimPrice(price), Currency: "USD",
				Notes: fmt.Sprintf("Linux on-demand hourly rate from Karpenter's InitialOnDemandPricesAWS table, generated from the AWS Price List API; "+
					"as_of = the generator's stamp \"generated at %s for %s\" (a date inside the file). Version read: commit %s, the newest of 105 stored versions",
					p.Generated, p.For, karpenterCommit[:12]),
				SourceKind: "official-api", SourceRef: ref, AsOf: p.Generated[:10],
			})
		}
	}
	return rows, nil
}
