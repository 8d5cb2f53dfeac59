package lineage

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strings"
	"testing/fstest"

	"github.com/shopspring/decimal"
)

// skypilotAWS is SkyPilot's v8 AWS vms.csv (see
// testdata/skypilot-aws/SOURCE.md). Only its spot prices are used: the
// on-demand prices of the same types and regions come from the dated
// instance-table export (offers/aws-vantage.csv) and, for us-east-1, the
// AWS Price List table (offers/aws-karpenter.csv), which give the same
// figures.
var skypilotAWS = notedSkypilot{
	skypilotFile: skypilotFile{
		Provider:    "aws",
		Path:        "catalogs/v8/aws/vms.csv",
		Commit:      "00148f2af3672e2229b4f7bf8157d5a3f36e3c35",
		ReadOn:      "2026-12-03",
		Origin:      "SkyPilot's fetch_aws.py: AWS Price List API and EC2 spot price history",
		SpotMeaning: "Linux spot, a point-in-time price per availability zone",
		Instances: []string{"g4dn.xlarge", "g6e.8xlarge", "g6e.xlarge", "p3.16xlarge", "p4de.24xlarge",
			"p5.48xlarge", "p5en.48xlarge"},
	},
	Keep: func(r Row, _ []Row) bool { return r.Billing == "spot" },
	Extra: []string{
		"SkyPilot lists spot prices per availability zone, not per region: this is the lowest zone price of the region; " +
			"Local Zone rows (e.g. use1-atl2-az1) and zone rows whose spot price is the on-demand price are left out; " +
			"spot prices move, so treat it as indicative",
	},
}

// skypilotAWSSource generates the AWS spot rows: it drops Local Zone rows
// and non-discounted zone spot prices from the excerpt, parses the rest
// with the SkyPilot importer, leaves out the keys elsewhere.csv gives to
// another (dated) source and names the zone prices in each note.
func skypilotAWSSource() Source {
	return Source{
		Name:   "skypilot-aws",
		Output: "offers/aws-skypilot.csv",
		Generate: func(excerpt fs.FS) ([]Row, error) {
			prepared, zones, err := awsSpotZones(excerpt)
			if err != nil {
				return nil, err
			}
			elsewhere, err := readElsewhere(excerpt)
			if err != nil {
				return nil, err
			}
			all, err := skypilotAWS.generate(prepared)
			if err != nil {
				return nil, err
			}
			var rows []Row
			for _, r := range all {
				if !elsewhere[r.InstanceType+"/"+r.Region+"/"+r.Billing] {
					rows = append(rows, r)
				}
			}
			tail := skypilotAWS.skypilotFile.dating()
			for i, r := range rows {
				z := zones[r.InstanceType+"/"+r.Region]
				if len(z) == 0 {
					return nil, fmt.Errorf("%s/%s: no zone prices", r.InstanceType, r.Region)
				}
				note := "zone spot prices: " + strings.Join(z, ", ")
				rows[i].Notes = strings.Replace(r.Notes, "; "+tail, "; "+note+"; "+tail, 1)
			}
			return rows, nil
		},
	}
}

// localZone reports whether an AWS zone id names a Local Zone
// ("use1-atl2-az1") rather than an availability zone of the region
// ("use1-az1").
func localZone(id string) bool { return strings.Count(id, "-") != 1 }

// awsSpotZones rewrites the excerpt's vms.csv for spot use: rows of Local
// Zones are dropped, and a SpotPrice at or above the row's Price (within
// the SpotPrice column's 0.0001 step) is blanked, since it is no spot
// discount. It returns the rewritten file and, per "type/region", the
// zone prices kept.
func awsSpotZones(excerpt fs.FS) (fs.FS, map[string][]string, error) {
	f, err := excerpt.Open("vms.csv")
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	rd := csv.NewReader(f)
	header, err := rd.Read()
	if err != nil {
		return nil, nil, fmt.Errorf("vms.csv: %w", err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
	}
	for _, name := range []string{"InstanceType", "Price", "SpotPrice", "Region", "AvailabilityZone"} {
		if _, ok := col[name]; !ok {
			return nil, nil, fmt.Errorf("vms.csv: no %s column", name)
		}
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	if err := w.Write(header); err != nil {
		return nil, nil, err
	}
	zones := map[string][]string{}
	step := decimal.New(1, -4)
	for {
		rec, err := rd.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, fmt.Errorf("vms.csv: %w", err)
		}
		zone := rec[col["AvailabilityZone"]]
		if localZone(zone) {
			continue
		}
		if s := rec[col["SpotPrice"]]; s != "" {
			spot, err1 := decimal.NewFromString(s)
			price, err2 := decimal.NewFromString(rec[col["Price"]])
			switch {
			case err1 != nil || err2 != nil:
				return nil, nil, fmt.Errorf("vms.csv: %s %s: price %q or spot %q is not a number", rec[col["InstanceType"]], zone, rec[col["Price"]], s)
			case spot.GreaterThan(price.Sub(step)):
				rec[col["SpotPrice"]] = ""
			default:
				key := rec[col["InstanceType"]] + "/" + rec[col["Region"]]
				zones[key] = append(zones[key], zone+" "+s)
			}
		}
		if err := w.Write(rec); err != nil {
			return nil, nil, err
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return nil, nil, err
	}
	for _, z := range zones {
		sort.Strings(z)
	}
	return fstest.MapFS{"vms.csv": &fstest.MapFile{Data: b.Bytes()}}, zones, nil
}
