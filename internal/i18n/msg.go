package i18n

import (
	"fmt"
	"strings"
)

// Msg is a sentence an engine returns instead of text: a message key and
// its typed arguments (numbers stay numbers, so each language's format
// decides how they read). A Printer renders it; an argument that is itself
// a Msg or a BillingTerm renders in the same language.
type Msg struct {
	Key  string
	Args []any
}

// M builds a Msg.
func M(key string, args ...any) Msg { return Msg{Key: key, Args: args} }

// String is the message in English (logs, errors, the stable English text
// of JSON documents).
func (m Msg) String() string { return NewPrinter(EN).M(m) }

// M renders a Msg in the printer's language.
func (p *Printer) M(m Msg) string { return p.T(m.Key, m.Args...) }

// Ms renders Msgs in the printer's language, in order (nil for none).
func (p *Printer) Ms(ms []Msg) []string {
	if len(ms) == 0 {
		return nil
	}
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = p.M(m)
	}
	return out
}

// English renders Msgs in English.
func English(ms []Msg) []string { return NewPrinter(EN).Ms(ms) }

// List is a message argument that renders as a list in the printer's
// language ("a, b and c"; "a、b 和 c"). Items are strings or Msgs.
type List []any

// Seq is a message argument that renders as items separated the way the
// printer's language separates them ("a, b, c"; "a、b、c"), with no "and".
type Seq []any

// List renders a List.
func (p *Printer) List(l List) string {
	items := p.items(l)
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return p.T("list.and", strings.Join(items[:len(items)-1], p.T("list.sep")), items[len(items)-1])
}

// Semi is a message argument whose items are separated by semicolons
// ("a; b"; "a；b").
type Semi []any

// Text is a message that shows s as it is: data or another component's
// text that has no translation.
func Text(s string) Msg { return M("text", s) }

// Semi renders a Semi.
func (p *Printer) Semi(s Semi) string { return strings.Join(p.items(s), p.T("list.semi")) }

// Seq renders a Seq.
func (p *Printer) Seq(s Seq) string { return strings.Join(p.items(s), p.T("list.sep")) }

func (p *Printer) items(l []any) []string {
	items := make([]string, len(l))
	for i, x := range l {
		switch v := x.(type) {
		case Msg:
			items[i] = p.M(v)
		case string:
			items[i] = v
		default:
			items[i] = fmt.Sprint(v)
		}
	}
	return items
}

// Sentences joins sentences the way the printer's language does: a space
// after each English full stop, none after a Chinese one.
func (p *Printer) Sentences(ms []Msg) string {
	sep := " "
	if p.lang == ZH {
		sep = ""
	}
	return strings.Join(p.Ms(ms), sep)
}
