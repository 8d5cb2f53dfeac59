package i18n

import "strings"

// Billing renders a billing-model code (reserved-1y-no-upfront,
// subscription-1m ...) whose family is family (reserved, subscription ...):
// the code itself in English, the providers' own Chinese terms in Chinese.
func (p *Printer) Billing(code, family string) string {
	if p.lang == EN {
		return code
	}
	switch code {
	case "subscription-1m":
		return "包月"
	case "subscription-1y":
		return "包年"
	case "subscription-3y":
		return "包3年"
	}
	label := p.T("billing." + family)
	if family == code {
		return label
	}
	rest := strings.TrimPrefix(code, family+"-")
	for _, r := range [][2]string{{"1y", "1年"}, {"3y", "3年"}, {"-no-upfront", " 无预付"}, {"-partial-upfront", " 部分预付"}, {"-all-upfront", " 全预付"}} {
		rest = strings.Replace(rest, r[0], r[1], 1)
	}
	return label + " " + rest
}

// BillingModel renders a coverage column: a billing family ("spot") or a
// family with its term ("reserved-1y", "subscription-1m"), as produced by
// catalog.CoverageModel: the key itself in English, the providers' own
// Chinese terms in Chinese.
func (p *Printer) BillingModel(model string) string {
	if p.lang == EN {
		return model
	}
	family, term := model, ""
	for _, t := range []string{"-1m", "-1y", "-3y"} {
		if strings.HasSuffix(model, t) {
			family, term = strings.TrimSuffix(model, t), t
		}
	}
	if family == "subscription" {
		return p.Billing(model, family)
	}
	label := p.T("billing." + family)
	switch term {
	case "-1y":
		label += " 1年"
	case "-3y":
		label += " 3年"
	}
	return label
}

// BillingCode renders a billing-model code, working out its family
// (reserved-1y-no-upfront is of the reserved family).
func (p *Printer) BillingCode(code string) string {
	for _, f := range []string{"reserved", "savings-plan", "committed", "subscription"} {
		if strings.HasPrefix(code, f+"-") {
			return p.Billing(code, f)
		}
	}
	return p.Billing(code, code)
}
