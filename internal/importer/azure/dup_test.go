package azure

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/importer"
)

// TestDuplicateMetersKeepTheFirst (issue 25 item 9): two meters for one
// offer that the API ranks the same (both primary, same start date) are
// duplicates: the first is kept and the rest counted, so a cheaper copy
// appended to a file never wins silently. A later effectiveStartDate still
// supersedes an earlier one.
func TestDuplicateMetersKeepTheFirst(t *testing.T) {
	item := func(price, start string) string {
		return fmt.Sprintf(`{"currencyCode":"USD","retailPrice":%s,"unitPrice":%s,"armRegionName":"westeurope","effectiveStartDate":%q,
"meterName":"NV6ads A10 v5","productName":"Virtual Machines NVadsA10v5 Series","skuName":"NV6ads A10 v5","serviceName":"Virtual Machines",
"unitOfMeasure":"1 Hour","type":"Consumption","isPrimaryMeterRegion":true,"armSkuName":"Standard_NV6ads_A10_v5"}`, price, price, start)
	}
	page := func(items ...string) string {
		return `{"BillingCurrency":"USD","Items":[` + strings.Join(items, ",") + `],"NextPageLink":null,"Count":` + fmt.Sprint(len(items)) + `}`
	}
	for _, c := range []struct {
		name, input, price, reason string
	}{
		{"cheaper copy after", page(item("0.454", "2023-01-01T00:00:00Z"), item("0.01", "2023-01-01T00:00:00Z"), item("0.02", "2023-01-01T00:00:00Z")), "0.454", "2 " + importer.SkipDuplicate},
		{"later start after", page(item("0.454", "2023-01-01T00:00:00Z"), item("0.5", "2024-01-01T00:00:00Z")), "0.5", "1 " + skipSuperseded},
		{"earlier start after", page(item("0.5", "2024-01-01T00:00:00Z"), item("0.454", "2023-01-01T00:00:00Z")), "0.5", "1 " + skipSuperseded},
	} {
		res, err := newImporter().Parse(context.Background(), strings.NewReader(c.input), nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(res.Offers) != 1 || res.Offers[0].Price.Hourly.String() != c.price {
			t.Fatalf("%s: offers %v, want one at %s", c.name, res.Offers, c.price)
		}
		if lines := strings.Join(res.Skipped.Lines(), "\n"); !strings.Contains(lines, c.reason) {
			t.Errorf("%s: skipped %q, want %q", c.name, lines, c.reason)
		}
	}
}
