// Package jsonmoney decodes prices that price APIs give as JSON numbers or
// numeric strings, exactly (never through float64), for the importers of
// the signed price APIs.
package jsonmoney

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
)

// Money is a price in a JSON number or numeric string, kept exact. Set is
// false for null, an empty string or an absent field.
type Money struct {
	D   decimal.Decimal
	Set bool
}

// UnmarshalJSON accepts a number, a numeric string or null. Numbers longer
// than 40 characters or with an exponent beyond ±20 are refused, so that
// a hostile answer cannot make decimal arithmetic slow.
func (m *Money) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(string(b))
	if s == "null" {
		return nil
	}
	if strings.HasPrefix(s, `"`) {
		var str string
		if err := json.Unmarshal(b, &str); err != nil {
			return err
		}
		s = strings.TrimSpace(str)
		if s == "" {
			return nil
		}
	}
	if len(s) > 40 {
		return fmt.Errorf("number %.20q... is too long", s)
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return fmt.Errorf("%q is not a number", s)
	}
	if e := d.Exponent(); e < -20 || e > 20 {
		return fmt.Errorf("%q is out of range", s)
	}
	m.D, m.Set = d, true
	return nil
}
