package tencent

import (
	"context"
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/catalog"
)

// TestPrepaidTerms parses 包月, 包年 and 3-year PREPAID answers in the
// documented InquiryPriceRunInstances shape (illustrative prices).
func TestPrepaidTerms(t *testing.T) {
	in := `[
	 {"action":"InquiryPriceRunInstances","region":"ap-guangzhou","instanceType":"GN7.2XLARGE32","chargeType":"PREPAID","period":1,"currency":"CNY",
	  "response":{"Response":{"Price":{"InstancePrice":{"OriginalPrice":4380,"DiscountPrice":4380,"Discount":100}}}}},
	 {"action":"InquiryPriceRunInstances","region":"ap-guangzhou","instanceType":"GN7.2XLARGE32","chargeType":"PREPAID","period":12,"currency":"CNY",
	  "response":{"Response":{"Price":{"InstancePrice":{"OriginalPrice":44676,"DiscountPrice":44676,"Discount":100}}}}},
	 {"action":"InquiryPriceRunInstances","region":"ap-guangzhou","instanceType":"GN7.2XLARGE32","chargeType":"PREPAID","period":36,"currency":"CNY",
	  "response":{"Response":{"Price":{"InstancePrice":{"OriginalPrice":78840,"DiscountPrice":78840,"Discount":100}}}}},
	 {"action":"InquiryPriceRunInstances","region":"ap-guangzhou","instanceType":"GN7.2XLARGE32","chargeType":"PREPAID","period":24,"currency":"CNY",
	  "response":{"Response":{"Price":{"InstancePrice":{"OriginalPrice":60000}}}}}
	]`
	res, err := (&Importer{}).Parse(context.Background(), strings.NewReader(in), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[catalog.Billing]catalog.Price{}
	for _, o := range res.Offers {
		got[o.Billing] = o.Price
	}
	if p := got[catalog.Subscription1m]; p.Monthly.String() != "4380" || !p.Upfront.IsZero() {
		t.Errorf("包月 = %+v", p)
	}
	if p := got[catalog.Subscription1y]; p.Upfront.String() != "44676" {
		t.Errorf("包年 = %+v", p)
	}
	if p := got[catalog.Subscription3y]; p.Upfront.String() != "78840" || p.Currency != "CNY" {
		t.Errorf("3 years = %+v", p)
	}
	if len(res.Offers) != 3 || res.Skipped.Total() != 1 {
		t.Errorf("%d offers, skips %v (24 months has no billing code)", len(res.Offers), res.Skipped.Lines())
	}
	if got := prepaidPeriods(func(b catalog.Billing) bool { return b != catalog.Subscription1m }); len(got) != 2 || got[0] != 12 || got[1] != 36 {
		t.Errorf("prepaidPeriods = %v", got)
	}
}
