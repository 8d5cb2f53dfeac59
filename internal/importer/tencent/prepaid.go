package tencent

import "github.com/gpuscout/gpuscout/internal/catalog"

// prepaidBilling maps a PREPAID (包年包月) period in months to its billing
// code: 1 → subscription-1m (the month's price is a monthly fee), 12 →
// subscription-1y and 36 → subscription-3y (the term's price is paid
// upfront). Other periods (2-11, 24 ...) have no canonical code.
func prepaidBilling(period int) (b catalog.Billing, monthly bool, ok bool) {
	switch period {
	case 1:
		return catalog.Subscription1m, true, true
	case 12:
		return catalog.Subscription1y, false, true
	case 36:
		return catalog.Subscription3y, false, true
	}
	return "", false, false
}

// prepaidPeriods lists the PREPAID periods to ask InquiryPriceRunInstances
// for, from the billing models wanted.
func prepaidPeriods(wants func(catalog.Billing) bool) []int {
	var out []int
	for _, p := range []int{1, 12, 36} {
		if b, _, _ := prepaidBilling(p); wants(b) {
			out = append(out, p)
		}
	}
	return out
}
