package catalog

import (
	"fmt"
	"strings"
)

// Billing is a canonical billing-model code, e.g. "on-demand",
// "reserved-1y-partial-upfront" or "subscription-1m" (包月).
type Billing string

// The canonical billing codes.
const (
	OnDemand      Billing = "on-demand"
	Spot          Billing = "spot"
	CapacityBlock Billing = "capacity-block"
	// FlexStart is GCP's Dynamic Workload Scheduler flex-start model: a
	// queued request for capacity, billed per hour at a discount, running
	// at most 7 days.
	FlexStart      Billing = "flex-start"
	Committed1y    Billing = "committed-1y"
	Committed3y    Billing = "committed-3y"
	Subscription1m Billing = "subscription-1m"
	Subscription1y Billing = "subscription-1y"
	Subscription3y Billing = "subscription-3y"
	Reserved1yNo   Billing = "reserved-1y-no-upfront"
	Reserved1yPart Billing = "reserved-1y-partial-upfront"
	Reserved1yAll  Billing = "reserved-1y-all-upfront"
	Reserved3yNo   Billing = "reserved-3y-no-upfront"
	Reserved3yPart Billing = "reserved-3y-partial-upfront"
	Reserved3yAll  Billing = "reserved-3y-all-upfront"
	Savings1yNo    Billing = "savings-plan-1y-no-upfront"
	Savings1yPart  Billing = "savings-plan-1y-partial-upfront"
	Savings1yAll   Billing = "savings-plan-1y-all-upfront"
	Savings3yNo    Billing = "savings-plan-3y-no-upfront"
	Savings3yPart  Billing = "savings-plan-3y-partial-upfront"
	Savings3yAll   Billing = "savings-plan-3y-all-upfront"
)

var billingCodes = []Billing{
	OnDemand, Spot, CapacityBlock, FlexStart,
	Reserved1yNo, Reserved1yPart, Reserved1yAll, Reserved3yNo, Reserved3yPart, Reserved3yAll,
	Savings1yNo, Savings1yPart, Savings1yAll, Savings3yNo, Savings3yPart, Savings3yAll,
	Committed1y, Committed3y,
	Subscription1m, Subscription1y, Subscription3y,
}

// BillingCodes returns every canonical billing code in display order.
func BillingCodes() []Billing { return append([]Billing(nil), billingCodes...) }

// ParseBilling returns the canonical code for s. Besides the codes themselves
// it accepts family prefixes used on the command line ("reserved" is not a
// code; use BillingFamily for that) and a few common synonyms.
func ParseBilling(s string) (Billing, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	switch s {
	case "ondemand", "on_demand", "payg", "pay-as-you-go", "按量付费", "按量计费":
		return OnDemand, nil
	case "preemptible", "抢占式", "竞价":
		return Spot, nil
	case "包月":
		return Subscription1m, nil
	case "包年":
		return Subscription1y, nil
	case "dws", "flex", "flexstart", "flex_start", "灵活启动":
		return FlexStart, nil
	case "capacity-blocks", "capacityblock", "容量块":
		return CapacityBlock, nil
	}
	for _, b := range billingCodes {
		if string(b) == s {
			return b, nil
		}
	}
	return "", fmt.Errorf("unknown billing model %q", s)
}

// Valid reports whether b is a canonical code.
func (b Billing) Valid() bool {
	for _, v := range billingCodes {
		if b == v {
			return true
		}
	}
	return false
}

// Family is the billing family: "on-demand", "spot", "reserved",
// "savings-plan", "committed", "subscription", "capacity-block" or
// "flex-start".
func (b Billing) Family() string {
	s := string(b)
	for _, f := range []string{"reserved", "savings-plan", "committed", "subscription"} {
		if strings.HasPrefix(s, f+"-") {
			return f
		}
	}
	return s
}

// IsCommitment reports whether the price binds the buyer to a term whether
// the instance is used or not (reserved, savings plans, committed use,
// subscriptions).
func (b Billing) IsCommitment() bool {
	switch b.Family() {
	case "reserved", "savings-plan", "committed", "subscription":
		return true
	}
	return false
}

// TermHours is the length of the billing term in hours: 730 for a month,
// 8760 for a year, 26280 for three years, and 0 for models without a term
// (on-demand, spot, capacity blocks and flex-start, which are billed by the
// hour).
func (b Billing) TermHours() int {
	if b == OnDemand || b == Spot { // most offers: no substring search
		return 0
	}
	s := string(b)
	switch {
	case strings.Contains(s, "-1m"):
		return HoursPerMonth
	case strings.Contains(s, "-1y"):
		return HoursPerYear
	case strings.Contains(s, "-3y"):
		return HoursPer3Year
	}
	return 0
}

// BillingFamilies are the families accepted by --billing besides full codes.
var billingFamilies = []string{"reserved", "savings-plan", "committed", "subscription"}

// MatchBilling reports whether b matches the user's filter f, which may be a
// full code ("reserved-1y-no-upfront"), a family ("reserved") or a synonym.
func MatchBilling(b Billing, f string) bool {
	f = strings.ToLower(strings.TrimSpace(f))
	for _, fam := range billingFamilies {
		if f == fam {
			return b.Family() == fam
		}
	}
	c, err := ParseBilling(f)
	return err == nil && c == b
}

// ValidBillingFilter reports whether f names a code, a family or a synonym.
func ValidBillingFilter(f string) bool {
	f = strings.ToLower(strings.TrimSpace(f))
	for _, fam := range billingFamilies {
		if f == fam {
			return true
		}
	}
	_, err := ParseBilling(f)
	return err == nil
}
