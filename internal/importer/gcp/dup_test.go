package gcp

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/importer"
)

// TestDuplicateSKUsKeepTheFirst (issue 25 item 9): two SKUs alike for one
// region and component are duplicates under the one rule (the first kept,
// the rest counted as duplicate offers); a SKU for fewer regions still
// supersedes a broader one, counted as superseded.
func TestDuplicateSKUsKeepTheFirst(t *testing.T) {
	sku := func(id, price string, regions ...string) string {
		return fmt.Sprintf(`{"skuId":%q,"description":"A2 Instance Core running in Americas","category":{"resourceFamily":"Compute","resourceGroup":"CPU","usageType":"OnDemand"},`+
			`"serviceRegions":["%s"],"pricingInfo":[{"pricingExpression":{"usageUnit":"h","tieredRates":[{"startUsageAmount":0,"unitPrice":{"currencyCode":"USD","units":"0","nanos":%s}}]}}]}`,
			id, strings.Join(regions, `","`), price)
	}
	input := `{"skus":[` + strings.Join([]string{
		sku("A", "31611000", "us-central1", "us-east1"),
		sku("B", "10000000", "us-central1", "us-east1"), // a cheaper copy: a duplicate
		sku("C", "20000000", "us-central1", "us-east1"), // another
		sku("D", "30000000", "us-central1"),             // fewer regions: supersedes A for us-central1
	}, ",") + `]}`
	res, err := newImporter().Parse(context.Background(), strings.NewReader(input), nil)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Join(res.Skipped.Lines(), "\n")
	for _, want := range []string{"4 " + importer.SkipDuplicate, "1 " + skipSuperseded} {
		if !strings.Contains(lines, want) {
			t.Errorf("skipped:\n%s\nwant %q", lines, want)
		}
	}
}
