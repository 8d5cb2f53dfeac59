package alibaba

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/catalog"
)

// TestSubscriptionTerms parses 包月, 包年 and 3-year DescribePrice answers
// in the documented response shape (illustrative prices).
func TestSubscriptionTerms(t *testing.T) {
	entry := func(unit string, period int, price string) string {
		return `{"action":"DescribePrice","region":"cn-hangzhou","instanceType":"ecs.gn7i-c8g1.2xlarge","priceUnit":"` + unit +
			`","period":` + itoa(period) + `,"response":{"RequestId":"x","PriceInfo":{"Price":{"OriginalPrice":` + price +
			`,"DiscountPrice":0,"TradePrice":` + price + `,"Currency":"CNY"}}}}`
	}
	in := "[" + strings.Join([]string{
		entry("Month", 1, "4152"), entry("Year", 1, "49824"), entry("Year", 3, "124560"), entry("Month", 36, "124560"), entry("Week", 1, "1000"),
	}, ",") + "]"
	res, err := testImporter().Parse(context.Background(), strings.NewReader(in), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[catalog.Billing]catalog.Price{}
	for _, o := range res.Offers {
		got[o.Billing] = o.Price
	}
	if p := got[catalog.Subscription1m]; p.Monthly.String() != "4152" {
		t.Errorf("包月 = %+v", p)
	}
	if p := got[catalog.Subscription1y]; p.Upfront.String() != "49824" {
		t.Errorf("包年 = %+v", p)
	}
	if p := got[catalog.Subscription3y]; p.Upfront.String() != "124560" {
		t.Errorf("3 years = %+v", p)
	}
	if res.Skipped.Total() < 1 {
		t.Errorf("a weekly price must be skipped: %v", res.Skipped.Lines())
	}
	for _, tt := range []struct {
		unit   string
		period int
		want   catalog.Billing
		ok     bool
	}{{"Hour", 0, catalog.OnDemand, true}, {"Month", 12, catalog.Subscription1y, true}, {"year", 3, catalog.Subscription3y, true}, {"Year", 2, "", false}, {"Month", 2, "", false}} {
		if b, ok := termBilling(tt.unit, tt.period); b != tt.want || ok != tt.ok {
			t.Errorf("termBilling(%s, %d) = %s, %v", tt.unit, tt.period, b, ok)
		}
	}
}

func itoa(n int) string {
	return strconv.Itoa(n)
}

func TestPlan(t *testing.T) {
	imp := &Importer{Regions: []string{"cn-hangzhou", "cn-beijing"}, InstanceTypes: []string{"ecs.a", "ecs.b", "ecs.c"}}
	plan := strings.Join(imp.Plan(), "\n")
	for _, s := range []string{"GET https://ecs.{region}.aliyuncs.com/ regions: cn-hangzhou, cn-beijing", "DescribePrice PriceUnit=Month",
		"DescribePrice PriceUnit=Year", "DescribeSpotPriceHistory", "at least 24 requests"} {
		if !strings.Contains(plan, s) {
			t.Errorf("plan lacks %q:\n%s", s, plan)
		}
	}
	imp.Billings = []catalog.Billing{catalog.OnDemand}
	if plan := strings.Join(imp.Plan(), "\n"); strings.Contains(plan, "Spot") || !strings.Contains(plan, "at least 6 requests") {
		t.Errorf("on-demand only:\n%s", plan)
	}
}
