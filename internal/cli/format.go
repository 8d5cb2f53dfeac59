package cli

import (
	"github.com/gpuscout/gpuscout/internal/output"
	"strings"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/document"
	"github.com/gpuscout/gpuscout/internal/fx"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/shopspring/decimal"
)

// staleMonths is the age after which a price is flagged as stale.
const staleMonths = 12

// money formats an amount for a table (see output.Money).
func money(d decimal.Decimal) string { return output.Money(d) }

// thousands inserts commas into an integer string.
func thousands(s string) string { return output.Thousands(s) }

// qty formats a count or size (see output.Qty).
func qty(d decimal.Decimal) string { return output.Qty(d) }

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// billingLabel shows a billing code; in Chinese it uses the providers'
// terms (按量付费, 包月, 预留实例 1年 无预付 ...).
func billingLabel(p *i18n.Printer, b catalog.Billing) string {
	return p.Billing(string(b), b.Family())
}

// ratesNote renders "Prices in CNY; converted at 1 USD = 6.80 CNY (ECB..., 2026-05-08)."
func ratesNote(p *i18n.Printer, t *fx.Table, from []string, to string) string {
	used := t.Used(from, to)
	if len(used) == 0 {
		return ""
	}
	var parts []string
	for _, r := range used {
		asOf := "-"
		if !r.AsOf.IsZero() {
			asOf = r.AsOf.Format(catalog.DateLayout)
		}
		src := rateSource(r.Source)
		parts = append(parts, p.T("note.rate", document.Num(r.PerUSD).String(), r.Currency, p.Or("cli.ratesrc."+src, src), asOf))
	}
	return p.T("note.currency", to, strings.Join(parts, "; "))
}

// rateSource keeps the publisher part of a rate's source ("ECB euro foreign
// exchange reference rates"), without the URL, derivation or date.
func rateSource(s string) string {
	if i := strings.Index(s, " ("); i > 0 {
		s = s[:i]
	}
	if f := strings.Fields(s); len(f) > 1 {
		if _, err := time.Parse(catalog.DateLayout, f[len(f)-1]); err == nil {
			s = strings.Join(f[:len(f)-1], " ")
		}
	}
	return shortRef(s)
}

// shortRef shortens a long source reference for a table cell.
func shortRef(s string) string {
	const n = 48
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// stale reports whether a date is older than staleMonths before now.
func stale(asOf, now time.Time) bool {
	return !asOf.IsZero() && asOf.Before(now.AddDate(0, -staleMonths, 0))
}

// splitFlags splits repeatable, comma-separated flag values.
func splitFlags(vals []string) []string {
	var out []string
	for _, v := range vals {
		for _, s := range strings.Split(v, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

func decFlag(name string, v float64) (decimal.Decimal, error) {
	if v < 0 {
		return decimal.Zero, usagef("", "--%s must not be negative", name)
	}
	return decimal.NewFromFloat(v), nil
}

func unitLabel(p *i18n.Printer, u catalog.PriceUnit, cur string) string {
	switch u {
	case catalog.PerGPUHour:
		return p.T("unit.per_gpu_hour", cur)
	case catalog.PerMonth:
		return p.T("unit.per_month", cur)
	}
	return p.T("unit.per_hour", cur)
}

// enumLabel renders a catalog code (a source kind, status, RDMA or
// interconnect value) for a Chinese reader: the message prefix+v when one
// exists, else the code as it is. English tables keep the code itself.
func enumLabel(p *i18n.Printer, prefix, v string) string {
	if p.Lang() == i18n.EN {
		return v
	}
	return p.Or(prefix+v, v)
}
