package alibaba

import (
	"strings"

	"github.com/gpuscout/gpuscout/internal/catalog"
)

// termBilling maps a DescribePrice answer's PriceUnit and Period to a
// billing code: Hour → on-demand (按量付费); Month × 1 → subscription-1m;
// Year × 1 (or Month × 12) → subscription-1y; Year × 3 (or Month × 36) →
// subscription-3y (包年包月). Other periods have no canonical code.
func termBilling(unit string, period int) (catalog.Billing, bool) {
	if period == 0 {
		period = 1
	}
	switch u := strings.ToLower(unit); {
	case (u == "hour" || u == "") && period == 1:
		return catalog.OnDemand, true
	case u == "month" && period == 1:
		return catalog.Subscription1m, true
	case u == "year" && period == 1, u == "month" && period == 12:
		return catalog.Subscription1y, true
	case u == "year" && period == 3, u == "month" && period == 36:
		return catalog.Subscription3y, true
	}
	return "", false
}
