package i18n

import "strings"

// componentNames maps the cost engine's component names to message keys; a
// name's parenthesised detail (a billing code, a plan) is kept.
var componentNames = map[string]string{
	"Compute": "comp.compute", "Commitment, hourly": "comp.commit_hourly", "Commitment, monthly": "comp.commit_monthly",
	"Commitment, upfront": "comp.commit_upfront", "Block storage": "comp.block", "Object storage": "comp.object",
	"Internet egress": "comp.egress", "Inter-region transfer": "comp.transfer", "Load balancers": "comp.lb",
	"Support": "comp.support", "Volume discount": "comp.discount", "Spot interruption overhead": "comp.spot_overhead",
	"Hardware (GPU servers)": "comp.hardware", "Network and installation": "comp.network", "Power": "comp.power",
	"Colocation": "comp.colo", "Maintenance and support contracts": "comp.maintenance", "Staff": "comp.staff",
	"Resale value at the end of the horizon": "comp.resale",
}

// Component translates a cost component's name (Compute (on-demand),
// Power) for tables and charts; a parenthesised detail is kept as written.
func (p *Printer) Component(name string) string {
	base, detail := name, ""
	if i := strings.Index(name, " ("); i > 0 && strings.HasSuffix(name, ")") && componentNames[name] == "" {
		base, detail = name[:i], name[i:]
	}
	if k, ok := componentNames[base]; ok {
		return p.T(k) + detail
	}
	return name
}

// ComponentWeb is Component for a page: a detail that is a billing code is
// named in the page's language too (计算（按量付费）).
func (p *Printer) ComponentWeb(name string) string {
	base, detail := name, ""
	if i := strings.Index(name, " ("); i > 0 && strings.HasSuffix(name, ")") && componentNames[name] == "" {
		base, detail = name[:i], name[i+2:len(name)-1]
	}
	if detail == "" {
		return p.Component(name)
	}
	open, close := " (", ")"
	if p.lang == ZH {
		open, close = "（", "）"
	}
	return p.Component(base) + open + p.BillingCode(detail) + close
}
