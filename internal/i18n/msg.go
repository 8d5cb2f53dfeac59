package i18n

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
