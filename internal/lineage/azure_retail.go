package lineage

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/shopspring/decimal"
)

// azureRetailRef is the dump the excerpt was cut from (see
// testdata/azure-retail-westus/SOURCE.md).
const azureRetailRef = "jokamotonpi/azure-price-mirror prices/AzurePriceList_westus.csv@2129dd59f2ca435dc0d35ccbad80b31e06e728f9 " +
	"(nightly dump of the Azure Retail Prices API, https://prices.azure.com/api/retail/prices, for westus)"

// azureRetailTypes are the VM sizes of instances/azure.csv priced in westus
// from the dump.
var azureRetailTypes = []string{"Standard_NC12s_v3", "Standard_NC16as_T4_v3", "Standard_NC24ads_A100_v4", "Standard_NC24rs_v3",
	"Standard_NC24s_v3", "Standard_NC40ads_H100_v5", "Standard_NC48ads_A100_v4", "Standard_NC4as_T4_v3", "Standard_NC64as_T4_v3",
	"Standard_NC6s_v3", "Standard_NC80adis_H100_v5", "Standard_NC8as_T4_v3", "Standard_NC96ads_A100_v4", "Standard_ND96amsr_A100_v4",
	"Standard_ND96isr_H100_v5", "Standard_ND96isr_H200_v5", "Standard_ND96isr_MI300X_v5", "Standard_NV12ads_A10_v5",
	"Standard_NV18ads_A10_v5", "Standard_NV36adms_A10_v5", "Standard_NV36ads_A10_v5", "Standard_NV6ads_A10_v5", "Standard_NV72ads_A10_v5"}

// azureMeter is one row of the dump (the columns the mapping reads).
type azureMeter struct {
	Line                                 int
	Price                                decimal.Decimal
	Currency, Region, Start, Meter, Prod string
	Type, Unit, SKU                      string
}

// readAzureRetail reads the dump's CSV (the Retail Prices API's fields as
// columns); the header must name the columns read.
func readAzureRetail(r io.Reader) ([]azureMeter, error) {
	cr := csv.NewReader(r)
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("prices.csv: header: %w", err)
	}
	col := map[string]int{}
	for i, h := range head {
		col[h] = i
	}
	for _, h := range []string{"currencyCode", "retailPrice", "armRegionName", "effectiveStartDate", "meterName", "productName", "type", "unitOfMeasure", "armSkuName"} {
		if _, ok := col[h]; !ok {
			return nil, fmt.Errorf("prices.csv: no %s column", h)
		}
	}
	var out []azureMeter
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("prices.csv: %w", err)
		}
		line, _ := cr.FieldPos(0)
		m := azureMeter{Line: line, Currency: rec[col["currencyCode"]], Region: rec[col["armRegionName"]], Start: rec[col["effectiveStartDate"]],
			Meter: rec[col["meterName"]], Prod: rec[col["productName"]], Type: rec[col["type"]], Unit: rec[col["unitOfMeasure"]],
			SKU: strings.TrimSpace(rec[col["armSkuName"]])}
		if m.Price, err = decimal.NewFromString(rec[col["retailPrice"]]); err != nil || m.Price.IsNegative() {
			return nil, fmt.Errorf("prices.csv line %d: retailPrice %q is not a price", line, rec[col["retailPrice"]])
		}
		if len(m.Start) < 10 {
			return nil, fmt.Errorf("prices.csv line %d: effectiveStartDate %q", line, m.Start)
		}
		out = append(out, m)
	}
}

// azureRetailWestus generates the Linux pay-as-you-go and Spot rows of the
// kept sizes: per size, the one Consumption meter of a Linux product (the
// product name does not end in " Windows") that is neither Low Priority
// nor Spot, and its Spot sibling when that is below it. Reservations stay in offers/azure.csv:
// the dump has no term column (see SOURCE.md).
func azureRetailWestus() Source {
	return Source{
		Name:   "azure-retail-westus",
		Output: "offers/azure-retail.csv",
		Generate: func(excerpt fs.FS) ([]Row, error) {
			f, err := excerpt.Open("prices.csv")
			if err != nil {
				return nil, err
			}
			defer f.Close()
			meters, err := readAzureRetail(f)
			if err != nil {
				return nil, err
			}
			newest := ""
			for _, m := range meters {
				if m.Start[:10] > newest {
					newest = m.Start[:10]
				}
			}
			var rows []Row
			for _, typ := range azureRetailTypes {
				var od, spot []azureMeter
				for _, m := range meters {
					if m.SKU != typ || m.Type != "Consumption" || strings.HasSuffix(m.Prod, " Windows") || strings.Contains(m.Meter, "Low Priority") {
						continue
					}
					if m.Currency != "USD" || m.Region != "westus" || m.Unit != "1 Hour" {
						return nil, fmt.Errorf("prices.csv line %d: %s %s per %s: want USD per 1 Hour in westus", m.Line, m.Currency, m.Region, m.Unit)
					}
					if strings.HasSuffix(m.Meter, " Spot") {
						spot = append(spot, m)
					} else {
						od = append(od, m)
					}
				}
				if len(od) != 1 || len(spot) > 1 {
					return nil, fmt.Errorf("%s: %d Linux pay-as-you-go and %d Spot meters, want one of each at most", typ, len(od), len(spot))
				}
				dating := fmt.Sprintf("undated dump: as_of = the newest effectiveStartDate in the file (%s), so the price was in force on that day", newest)
				row := func(m azureMeter, billing, what string) Row {
					return Row{Provider: "azure", InstanceType: typ, Region: "westus", Billing: billing, Hourly: m.Price.String(), Currency: "USD",
						Notes:      fmt.Sprintf("%s meter %s, effectiveStartDate %s (prices.csv line %d); %s", what, m.Meter, m.Start[:10], m.Line, dating),
						SourceKind: "third-party", SourceRef: azureRetailRef, AsOf: newest}
				}
				rows = append(rows, row(od[0], "on-demand", "Linux pay-as-you-go (Consumption)"))
				// A Spot meter at the pay-as-you-go price (ND96isr H200 v5 in this
				// dump) is no discount to model: it is left out.
				if len(spot) == 1 && spot[0].Price.LessThan(od[0].Price) {
					rows = append(rows, row(spot[0], "spot", "Azure Spot (Linux); spot prices move, so treat as indicative;"))
				}
			}
			return rows, nil
		},
	}
}
