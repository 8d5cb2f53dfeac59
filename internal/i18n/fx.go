package i18n

import (
	"regexp"
	"sync"
)

// ecbSource is how the exchange-rate table describes an ECB-derived rate.
var ecbSource = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^ECB euro foreign exchange reference rates (\S+) \((\S+)\): derived as (\S+) (\S+) divided by (\S+) (\S+)$`)
})

// ecbInverse is how the table describes the euro's own rate (the inverse
// of the ECB's dollars per euro).
var ecbInverse = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^ECB euro foreign exchange reference rates (\S+) \((\S+)\): 1 / (\S+) (\S+)$`)
})

// FXSource renders an exchange rate's source note in the printer's
// language; a note of another shape comes back as it is.
func (p *Printer) FXSource(src string) string {
	if p.lang == EN {
		return src
	}
	if m := ecbSource().FindStringSubmatch(src); m != nil {
		return p.T("fx.ecb", m[1], m[2], m[3], m[4], m[5], m[6])
	}
	if m := ecbInverse().FindStringSubmatch(src); m != nil {
		return p.T("fx.ecb_inverse", m[1], m[2], m[3], m[4])
	}
	switch src {
	case "base currency":
		return p.T("fx.base")
	}
	return p.Or("fxsrc."+src, src)
}
