package lineage

import (
	"fmt"
	"io/fs"
	"strconv"

	"github.com/gpuscout/gpuscout/internal/importer/priceserver"
)

const (
	priceserverAlibabaRef    = "cloudpilot-ai/priceserver pkg/client/builtin-data/alibabacloud_price.json@93dab418095a0191a4a1e166c287307629c98c50"
	priceserverAlibabaAsOf   = "2024-10-09"
	priceserverAlibabaNotes  = "pay-as-you-go (按量付费) Linux list price, field onDemandPricePerHour, which the repo's builder took from Alibaba's China-site price file (instancePrice.json, Linux, hours[0]); the type is listed in the region because DescribeAvailableResource offered it there when the file was built; currency CNY (China-site price file); instance only (no disk/bandwidth); version read: commit 93dab41 (unchanged through the newest commit de6fe92); dated by the commit that produced this version (2024-10-09); the file carries no date"
	priceserverAlibabaOutput = "offers/alibaba-priceserver.csv"
)

// priceserverAlibabaUnlisted are GPU types in the file that the catalog has
// no instance row for: the file gives GPU counts but no GPU model or vGPU
// share, so no instance row can be derived from it.
var priceserverAlibabaUnlisted = map[string]bool{
	"ecs.sgn6i-vws-m2.xlarge":  true,
	"ecs.sgn6i-vws-m4.2xlarge": true,
	"ecs.sgn6i-vws-m8.4xlarge": true,
}

// priceserverAlibaba turns the kept excerpt of the price server's built-in
// Alibaba Cloud price file into on-demand offer rows: one per GPU instance
// type per region with a price above zero.
func priceserverAlibaba() Source {
	return Source{
		Name:   "priceserver-alibaba",
		Output: priceserverAlibabaOutput,
		Generate: func(excerpt fs.FS) ([]Row, error) {
			f, err := excerpt.Open("alibabacloud_price.json")
			if err != nil {
				return nil, err
			}
			defer f.Close()
			offers, err := priceserver.Parse(f)
			if err != nil {
				return nil, fmt.Errorf("alibabacloud_price.json: %w", err)
			}
			var rows []Row
			for _, o := range offers {
				if o.GPUs == 0 || priceserverAlibabaUnlisted[o.InstanceType] {
					continue
				}
				p, err := strconv.ParseFloat(o.OnDemandHourly, 64)
				if err != nil {
					return nil, fmt.Errorf("alibabacloud_price.json: %s/%s: %w", o.Region, o.InstanceType, err)
				}
				if p == 0 { // the builder found no price for the type
					continue
				}
				rows = append(rows, Row{
					Provider:     "alibaba",
					InstanceType: o.InstanceType,
					Region:       o.Region,
					Billing:      "on-demand",
					Hourly:       o.OnDemandHourly,
					Currency:     "CNY",
					Notes:        priceserverAlibabaNotes,
					SourceKind:   "third-party",
					SourceRef:    priceserverAlibabaRef,
					AsOf:         priceserverAlibabaAsOf,
				})
			}
			return rows, nil
		},
	}
}
