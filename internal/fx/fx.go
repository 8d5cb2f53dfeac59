// Package fx converts money between currencies with a dated table of
// exchange rates. Prices keep their original currency in the catalog; fx is
// used only at the edge, for output, and every output names the rate it used
// and its date.
package fx

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"
)

// Rate is how many units of Currency one US dollar buys, as of a date.
type Rate struct {
	Currency string
	PerUSD   decimal.Decimal
	AsOf     time.Time
	Source   string // reference rate and publisher, or "user override"
}

// Table is a set of rates against USD. The zero value is unusable; use New.
type Table struct {
	rates map[string]Rate
}

var reCode = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Z]{3}$`) })

// New builds a table from rates. USD is always present at 1.
func New(rates []Rate) (*Table, error) {
	t := &Table{rates: map[string]Rate{"USD": {Currency: "USD", PerUSD: decimal.NewFromInt(1), Source: "base currency"}}}
	for _, r := range rates {
		if err := t.set(r); err != nil {
			return nil, err
		}
	}
	return t, nil
}

func (t *Table) set(r Rate) error {
	r.Currency = strings.ToUpper(strings.TrimSpace(r.Currency))
	if !reCode().MatchString(r.Currency) {
		return fmt.Errorf("currency %q is not an ISO 4217 code such as CNY", r.Currency)
	}
	if !r.PerUSD.IsPositive() {
		return fmt.Errorf("rate for %s must be positive, got %s", r.Currency, r.PerUSD)
	}
	if r.Currency == "USD" && !r.PerUSD.Equal(decimal.NewFromInt(1)) {
		return fmt.Errorf("USD is the base currency; its rate is always 1")
	}
	t.rates[r.Currency] = r
	return nil
}

// With returns a copy of t with overrides applied; t is unchanged.
func (t *Table) With(overrides ...Rate) (*Table, error) {
	n := &Table{rates: make(map[string]Rate, len(t.rates)+len(overrides))}
	for k, v := range t.rates {
		n.rates[k] = v
	}
	for _, r := range overrides {
		if err := n.set(r); err != nil {
			return nil, err
		}
	}
	return n, nil
}

// ParseOverride parses a --fx flag value "CUR=RATE", where RATE is units of
// CUR per US dollar (--fx CNY=7.1 means 1 USD = 7.1 CNY).
func ParseOverride(s string) (Rate, error) {
	cur, val, ok := strings.Cut(s, "=")
	if !ok {
		return Rate{}, fmt.Errorf("--fx %q: want CUR=RATE, e.g. CNY=7.1 (units of CUR per US dollar)", s)
	}
	d, err := decimal.NewFromString(strings.TrimSpace(val))
	if err != nil || !d.IsPositive() {
		return Rate{}, fmt.Errorf("--fx %q: rate %q is not a positive number", s, val)
	}
	cur = strings.ToUpper(strings.TrimSpace(cur))
	if !reCode().MatchString(cur) {
		return Rate{}, fmt.Errorf("--fx %q: %q is not a currency code such as CNY", s, cur)
	}
	return Rate{Currency: cur, PerUSD: d, Source: "user override (--fx)"}, nil
}

// Rate returns the rate for a currency.
func (t *Table) Rate(cur string) (Rate, bool) {
	r, ok := t.rates[strings.ToUpper(cur)]
	return r, ok
}

// Currencies lists the known currency codes, sorted.
func (t *Table) Currencies() []string {
	out := make([]string, 0, len(t.rates))
	for k := range t.rates {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// UnknownCurrencyError names a currency the table has no rate for.
type UnknownCurrencyError struct {
	Currency string
	Known    []string
}

func (e *UnknownCurrencyError) Error() string {
	return fmt.Sprintf("no exchange rate for %q (known: %s; add one with --fx %s=RATE)",
		e.Currency, strings.Join(e.Known, ", "), e.Currency)
}

// Convert converts amount from one currency to another through USD.
func (t *Table) Convert(amount decimal.Decimal, from, to string) (decimal.Decimal, error) {
	from, to = strings.ToUpper(from), strings.ToUpper(to)
	if from == to {
		return amount, nil
	}
	rf, ok := t.rates[from]
	if !ok {
		return decimal.Zero, &UnknownCurrencyError{Currency: from, Known: t.Currencies()}
	}
	rt, ok := t.rates[to]
	if !ok {
		return decimal.Zero, &UnknownCurrencyError{Currency: to, Known: t.Currencies()}
	}
	// Divide last with extra precision so that round trips stay exact to
	// well below a thousandth of a cent.
	return amount.Mul(rt.PerUSD).DivRound(rf.PerUSD, 12), nil
}

// Used describes the rates needed to show amounts from currencies in to:
// one entry per source currency other than to, for output ("1 USD = 7.1 CNY
// as of 2026-11-28").
func (t *Table) Used(from []string, to string) []Rate {
	seen := map[string]bool{}
	var out []Rate
	add := func(c string) {
		if c == "" || c == "USD" || seen[c] {
			return
		}
		if r, ok := t.rates[c]; ok {
			seen[c] = true
			out = append(out, r)
		}
	}
	for _, f := range from {
		if !strings.EqualFold(f, to) {
			add(strings.ToUpper(f))
			add(strings.ToUpper(to))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Currency < out[j].Currency })
	return out
}
