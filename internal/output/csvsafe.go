package output

import (
	"encoding/csv"
	"io"
	"regexp"
	"sync"
)

// plainNumber matches a cell that is only a number, as gpuscout writes
// them: an optional sign, digits with optional thousands commas, optional
// decimals and exponent, an optional per cent sign ("-12.5", "-1,234",
// "+3%", "1e-05").
var plainNumber = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[-+]?[0-9][0-9,]*(\.[0-9]+)?([eE][-+]?[0-9]+)?%?$`) })

// SafeCell neutralises a CSV cell against formula injection (OWASP "CSV
// Injection"): a spreadsheet runs a cell that starts with = + - @, a tab
// or a carriage return as a formula, so such a cell gets a leading
// apostrophe, which spreadsheets show as a text marker and do not run.
// Numbers are left alone so that negative figures stay numbers ("-12.5"
// and "-1,234" are not formulas), and so is a lone "-" or "+" (gpuscout's
// "none"), which no spreadsheet evaluates.
//
// The same rule applies to every CSV gpuscout writes: the CLI's -o csv,
// the web /offers.csv download, and any client-side export of the
// explorer, which must prefix ' to a cell that starts with one of
// = + - @ \t \r unless the whole cell matches plainNumber above or is a
// lone - or +.
func SafeCell(s string) string {
	if s == "" || s == "-" || s == "+" {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		if plainNumber().MatchString(s) {
			return s
		}
		return "'" + s
	}
	return s
}

// CSVWriter is a csv.Writer that neutralises every cell with SafeCell.
type CSVWriter struct {
	w    *csv.Writer
	safe []string // the record being written, reused
}

// NewCSVWriter returns a CSVWriter writing to w.
func NewCSVWriter(w io.Writer) *CSVWriter { return &CSVWriter{w: csv.NewWriter(w)} }

// Write writes one record, each cell neutralised. rec may be reused once
// Write returns.
func (c *CSVWriter) Write(rec []string) error {
	c.safe = c.safe[:0]
	for _, s := range rec {
		c.safe = append(c.safe, SafeCell(s))
	}
	return c.w.Write(c.safe)
}

// Flush writes any buffered data and returns the first error, if any.
func (c *CSVWriter) Flush() error {
	c.w.Flush()
	return c.w.Error()
}
