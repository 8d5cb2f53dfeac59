package curated

import (
	"encoding/csv"
	"io"
	"strings"
)

// records reads a catalog file's records as encoding/csv does with
// Comment '#', ReuseRecord and FieldsPerRecord 0: each record's fields, the
// line it starts on, and the same *csv.ParseError values.
type records interface {
	// Read returns the next record, valid until the next call.
	Read() ([]string, error)
	// Line is the line of the record Read last returned.
	Line() int
	// Views reports whether the fields are views into the file's text,
	// which a value kept past the load must copy (strings.Clone).
	Views() bool
}

// newRecords reads text: a file with no double quote is split by lines
// and commas here (no allocation per record); any other goes through
// encoding/csv, which handles quoted fields and reports their errors.
func newRecords(text string) records {
	if strings.IndexByte(text, '"') < 0 {
		return &plainRecords{text: text}
	}
	r := csv.NewReader(strings.NewReader(text))
	r.Comment = '#'
	r.ReuseRecord = true // each record's values are copied or interned before the next
	return &csvRecords{r}
}

// csvRecords are records read by encoding/csv.
type csvRecords struct{ r *csv.Reader }

func (c *csvRecords) Read() ([]string, error) { return c.r.Read() }
func (c *csvRecords) Line() int {
	line, _ := c.r.FieldPos(0)
	return line
}
func (c *csvRecords) Views() bool { return false }

// plainRecords are the records of a text with no double quote: every
// field is unquoted, so a record is one line split at its commas, and
// only the field count can be wrong (encoding/csv's ErrFieldCount).
type plainRecords struct {
	text   string
	off    int // where the next line starts
	line   int // lines read so far
	recAt  int // line of the last record
	fields int // fields per record, set by the first record (0 before)
	rec    []string
}

func (p *plainRecords) Line() int   { return p.recAt }
func (p *plainRecords) Views() bool { return true }

func (p *plainRecords) Read() ([]string, error) {
	for {
		if p.off >= len(p.text) {
			return nil, io.EOF
		}
		rest := p.text[p.off:]
		line := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, p.off = rest[:i], p.off+i+1
		} else {
			p.off = len(p.text)
		}
		p.line++
		// encoding/csv reads "\r\n" as "\n" and drops a "\r" before the
		// end of the text.
		line = strings.TrimSuffix(line, "\r")
		if line == "" || line[0] == '#' {
			continue // empty lines and comments
		}
		p.recAt = p.line
		p.rec = p.rec[:0]
		for {
			i := strings.IndexByte(line, ',')
			if i < 0 {
				p.rec = append(p.rec, line)
				break
			}
			p.rec = append(p.rec, line[:i])
			line = line[i+1:]
		}
		if p.fields == 0 {
			p.fields = len(p.rec)
		} else if len(p.rec) != p.fields {
			return p.rec, &csv.ParseError{StartLine: p.recAt, Line: p.recAt, Column: 1, Err: csv.ErrFieldCount}
		}
		return p.rec, nil
	}
}
