// Package output renders gpuscout's documents for people and programs:
// aligned tables (TTY-aware), CSV, Markdown and indented JSON.
package output

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Format is an output format.
type Format string

// The output formats of -o/--output.
const (
	Table    Format = "table"
	JSON     Format = "json"
	CSV      Format = "csv"
	Markdown Format = "markdown"
)

// ParseFormat parses -o.
func ParseFormat(s string) (Format, error) {
	switch Format(s) {
	case Table, JSON, CSV, Markdown:
		return Format(s), nil
	case "md":
		return Markdown, nil
	}
	return "", fmt.Errorf("unknown output format %q (use table, json, csv or markdown)", s)
}

// Align is a column's alignment.
type Align int

// Column alignments.
const (
	Left Align = iota
	Right
)

// Grid is tabular output: headers, rows, per-column alignment.
type Grid struct {
	Headers []string
	Align   []Align // missing entries are Left
	Rows    [][]string
}

// Add appends a row.
func (g *Grid) Add(cells ...string) { g.Rows = append(g.Rows, cells) }

func (g *Grid) align(i int) Align {
	if i < len(g.Align) {
		return g.Align[i]
	}
	return Left
}

// WriteTable writes g as an aligned text table. On a terminal the header is
// bold; elsewhere the output is plain so that it diffs and greps well.
func WriteTable(w io.Writer, g *Grid, tty bool) error {
	widths := make([]int, len(g.Headers))
	for i, h := range g.Headers {
		widths[i] = Width(h)
	}
	for _, r := range g.Rows {
		for i, c := range r {
			if i < len(widths) {
				widths[i] = max(widths[i], Width(c))
			}
		}
	}
	var b strings.Builder
	line := func(cells []string, header bool) {
		var l strings.Builder
		for i := range widths {
			c := ""
			if i < len(cells) {
				c = cells[i]
			}
			pad := widths[i] - Width(c)
			if i > 0 {
				l.WriteString("  ")
			}
			if g.align(i) == Right {
				l.WriteString(strings.Repeat(" ", pad))
				l.WriteString(c)
			} else {
				l.WriteString(c)
				if i < len(widths)-1 {
					l.WriteString(strings.Repeat(" ", pad))
				}
			}
		}
		s := strings.TrimRight(l.String(), " ")
		if header && tty {
			s = "\x1b[1m" + s + "\x1b[0m"
		}
		b.WriteString(s)
		b.WriteByte('\n')
	}
	line(g.Headers, true)
	for _, r := range g.Rows {
		line(r, false)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteCSV writes g as RFC 4180 CSV with a header row, every cell
// neutralised against formula injection (see SafeCell).
func WriteCSV(w io.Writer, g *Grid) error {
	cw := NewCSVWriter(w)
	if err := cw.Write(g.Headers); err != nil {
		return err
	}
	for _, r := range g.Rows {
		if err := cw.Write(r); err != nil {
			return err
		}
	}
	return cw.Flush()
}

// WriteMarkdown writes g as a GitHub-flavoured Markdown table.
func WriteMarkdown(w io.Writer, g *Grid) error {
	esc := func(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ") }
	var b strings.Builder
	b.WriteString("|")
	for _, h := range g.Headers {
		b.WriteString(" " + esc(h) + " |")
	}
	b.WriteString("\n|")
	for i := range g.Headers {
		if g.align(i) == Right {
			b.WriteString("---:|")
		} else {
			b.WriteString("---|")
		}
	}
	b.WriteString("\n")
	for _, r := range g.Rows {
		b.WriteString("|")
		for i := range g.Headers {
			c := ""
			if i < len(r) {
				c = r[i]
			}
			b.WriteString(" " + esc(c) + " |")
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJSON writes v as indented JSON with a trailing newline. HTML
// characters are not escaped (URLs in sources stay readable).
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// Write renders g in a text format (table, csv or markdown).
func Write(w io.Writer, f Format, g *Grid, tty bool) error {
	switch f {
	case CSV:
		return WriteCSV(w, g)
	case Markdown:
		return WriteMarkdown(w, g)
	default:
		return WriteTable(w, g, tty)
	}
}
