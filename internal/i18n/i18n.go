// Package i18n holds gpuscout's user-facing messages in English and
// Simplified Chinese, and picks the language from a flag or the environment.
package i18n

import (
	"fmt"
	"strings"
	"sync"
)

// Lang is a supported language.
type Lang string

// Supported languages.
const (
	EN Lang = "en"
	ZH Lang = "zh"
)

// ParseLang accepts en, zh and locale forms such as zh_CN.UTF-8 or en-US.
func ParseLang(s string) (Lang, error) {
	l := strings.ToLower(strings.TrimSpace(s))
	switch {
	case l == "en" || strings.HasPrefix(l, "en_") || strings.HasPrefix(l, "en-"):
		return EN, nil
	case l == "zh" || strings.HasPrefix(l, "zh_") || strings.HasPrefix(l, "zh-"):
		return ZH, nil
	}
	return "", fmt.Errorf("unsupported language %q (use en or zh)", s)
}

// FromEnv picks the language from LC_ALL, LC_MESSAGES or LANG (in that
// order, as POSIX does); English when none names Chinese.
func FromEnv(getenv func(string) string) Lang {
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := getenv(k); v != "" && v != "C" && v != "POSIX" {
			if l, err := ParseLang(v); err == nil {
				return l
			}
			return EN
		}
	}
	return EN
}

// Printer renders messages in one language.
type Printer struct {
	lang Lang
	// variant is a key prefix tried first ("form.": the web's wording of
	// a message that names a CLI flag); "" for none.
	variant string
}

// Variant returns a printer in the same language that renders a key's
// variant (prefix+key) where the tables have one, else the key: the web's
// wording ("form.") names form fields and job-file keys where the CLI's
// names flags. A variant reads the same arguments as its key.
func (p *Printer) Variant(prefix string) *Printer { return &Printer{lang: p.lang, variant: prefix} }

// NewPrinter returns a printer for lang.
func NewPrinter(lang Lang) *Printer { return &Printer{lang: lang} }

// Lang is the printer's language.
func (p *Printer) Lang() Lang { return p.lang }

// T renders the message key with fmt-style args; it always formats, so a
// literal percent is written %% in every message. An unknown key renders as
// the key itself, so a missing translation is visible, never fatal.
func (p *Printer) T(key string, args ...any) string {
	msg, ok := "", false
	if p.variant != "" {
		msg, ok = lookup(p.lang, p.variant+key)
	}
	if !ok {
		msg, ok = lookup(p.lang, key)
	}
	if !ok {
		msg, ok = lookup(EN, key)
	}
	if !ok {
		msg = key
	}
	if len(args) == 0 && (!ok || strings.IndexByte(msg, '%') < 0) {
		return msg // nothing to format (an unknown key shows as itself)
	}
	copied := false
	for i, a := range args {
		var r string
		switch v := a.(type) {
		case BillingTerm:
			r = p.Billing(v.Code, v.Family)
		case Msg:
			r = p.M(v)
		case List:
			r = p.List(v)
		case Seq:
			r = p.Seq(v)
		case Semi:
			r = p.Semi(v)
		default:
			continue
		}
		if !copied {
			args, copied = append([]any(nil), args...), true
		}
		args[i] = r
	}
	return fmt.Sprintf(msg, args...)
}

// Format is the message key unformatted, its verbs left for a script to
// fill in (a page's data-msg attributes); T formats.
func (p *Printer) Format(key string) string {
	if msg, ok := lookup(p.lang, key); ok {
		return msg
	}
	if msg, ok := lookup(EN, key); ok {
		return msg
	}
	return key
}

// Or renders key when the language (or English) has it, else fallback:
// for data that may or may not have a translation (a source's name).
func (p *Printer) Or(key, fallback string) string {
	if _, ok := lookup(p.lang, key); ok {
		return p.T(key)
	}
	if _, ok := lookup(EN, key); ok {
		return p.T(key)
	}
	return fallback
}

// BillingTerm is a message argument that renders as a billing model in the
// printer's language (the code in English, the providers' terms in Chinese).
type BillingTerm struct{ Code, Family string }

// String is the code, as English shows it.
func (b BillingTerm) String() string { return b.Code }

// Keys lists every message key of a language (for tests).
func Keys(l Lang) []string {
	var out []string
	for _, t := range tables {
		for k := range t()[l] {
			out = append(out, k)
		}
	}
	return out
}

// table is a message table (language → key → message), built on first
// use: a command that prints few messages builds only the tables that
// hold them, and one that prints none (--help) builds none.
type table func() map[Lang]map[string]string

// lazy makes build a table built once, on first use.
func lazy(build func() map[Lang]map[string]string) table { return sync.OnceValue(build) }

// tables are the message tables in the order lookup searches them: the
// CLI's first, then the web UI's, one per area of the UI.
var tables = []table{messages, webMessages, cliMessages, webCatalogMessages, webJobMessages, advisorMessages, importMessages, freshnessMessages, capacityMessages, uiMessages, discoveryMessages, webPages2Messages, perfMessages, sentenceMessages, rightsizeMessages, pricingMessages, limitMessages, webErrorMessages, webTermMessages, inputMessages, explorerMessages, servingMessages, stockMessages, slowEndMessages, denseMessages, paramMessages, advisorWebMessages}

func lookup(l Lang, key string) (string, bool) {
	for _, t := range tables {
		if m, ok := t()[l][key]; ok {
			return m, true
		}
	}
	return "", false
}
