package cli

import (
	"fmt"
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

// money formats an amount for a table: more decimals for small amounts,
// thousands separators for large ones.
func money(d decimal.Decimal) string {
	a := d.Abs()
	switch {
	case d.IsZero():
		return "0"
	case a.LessThan(decimal.NewFromInt(1)):
		return d.StringFixed(4)
	case a.LessThan(decimal.NewFromInt(100)):
		return d.StringFixed(3)
	case a.LessThan(decimal.NewFromInt(10000)):
		return d.StringFixed(2)
	}
	return thousands(d.StringFixed(0))
}

// thousands inserts commas into an integer string.
func thousands(s string) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// qty formats a count or size without trailing zeros; fractions of a GPU
// show as 1/n when they are one.
func qty(d decimal.Decimal) string {
	if d.IsZero() {
		return "-"
	}
	if d.LessThan(decimal.NewFromInt(1)) {
		inv := decimal.NewFromInt(1).Div(d).Round(2)
		if inv.Equal(inv.Truncate(0)) {
			return "1/" + inv.String()
		}
	}
	return d.Round(2).String()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// billingLabel shows a billing code; in Chinese it uses the providers'
// terms (按量付费, 包月, 预留实例 1年 无预付 ...).
func billingLabel(p *i18n.Printer, b catalog.Billing) string {
	if p.Lang() == i18n.EN {
		return string(b)
	}
	switch b {
	case catalog.Subscription1m:
		return "包月"
	case catalog.Subscription1y:
		return "包年"
	case catalog.Subscription3y:
		return "包3年"
	}
	fam := b.Family()
	label := p.T("billing." + fam)
	if fam == string(b) {
		return label
	}
	rest := strings.TrimPrefix(string(b), fam+"-")
	for _, r := range [][2]string{{"1y", "1年"}, {"3y", "3年"}, {"-no-upfront", " 无预付"}, {"-partial-upfront", " 部分预付"}, {"-all-upfront", " 全预付"}} {
		rest = strings.Replace(rest, r[0], r[1], 1)
	}
	return label + " " + rest
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
		parts = append(parts, p.T("note.rate", document.Num(r.PerUSD).String(), r.Currency, rateSource(r.Source), asOf))
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

func fmtErr(format string, args ...any) error { return fmt.Errorf(format, args...) }
