// Package csvtext reads the records of a CSV text held in memory as
// encoding/csv reads them (ReuseRecord, FieldsPerRecord 0, a Comment
// character or none), with the same records, lines and *csv.ParseError
// values, but without a string per record: each line is split where it
// lies, its fields views into the text (a quoted field too, unless it
// holds a doubled quote). Only a line that is not well formed goes
// through encoding/csv, for its error, and the whole text does when a
// quoted field may span lines. FuzzReadsAsEncodingCSV holds it to
// encoding/csv.
package csvtext

import (
	"encoding/csv"
	"io"
	"strings"
)

// Reader reads the records of one text.
type Reader struct {
	text    string
	comment byte
	whole   *csv.Reader // the whole text, when a quoted field may span lines

	off    int // where the next line starts
	line   int // lines read so far
	recAt  int // line of the last record
	fields int // fields per record, set by the first record (0 before)
	rec    []string

	// quoted lines: one csv.Reader for them all, fed a line at a time
	next   string
	quotes *csv.Reader
}

// Read gives the csv.Reader of quoted lines the line it is to read, then
// io.EOF until the next one.
type feed struct{ r *Reader }

func (f feed) Read(p []byte) (int, error) {
	if f.r.next == "" {
		return 0, io.EOF
	}
	n := copy(p, f.r.next)
	f.r.next = f.r.next[n:]
	return n, nil
}

// New returns a Reader of text. comment is the character that starts a
// comment line, as csv.Reader.Comment (0: none); it must be ASCII.
func New(text string, comment byte) *Reader {
	r := &Reader{text: text, comment: comment}
	if strings.IndexByte(text, '"') >= 0 && !quotesClosePerLine(text) {
		r.whole = csv.NewReader(strings.NewReader(text))
		r.whole.Comment = rune(comment)
		r.whole.ReuseRecord = true
	}
	return r
}

// quotesClosePerLine reports whether every line of text holds an even
// number of double quotes: then no quoted field runs on past its line
// (its opening quote, the doubled quotes inside and its closing quote
// make an even count; one left open, an odd one), so each record is one
// line.
func quotesClosePerLine(text string) bool {
	for text != "" {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		if strings.Count(line, `"`)%2 != 0 {
			return false
		}
	}
	return true
}

// Views reports whether fields may be views into the text, which a value
// kept past the next Read must copy (strings.Clone) if the text is not to
// be kept alive by it; false when encoding/csv reads the whole text.
func (r *Reader) Views() bool { return r.whole == nil }

// Line is the line on which the record Read returned last starts.
func (r *Reader) Line() int {
	if r.whole != nil {
		line, _ := r.whole.FieldPos(0)
		return line
	}
	return r.recAt
}

// Read returns the next record, valid until the next call, or io.EOF. A
// record with another number of fields than the first is returned with a
// *csv.ParseError wrapping csv.ErrFieldCount, as encoding/csv does; after
// any other error, reading stops.
func (r *Reader) Read() ([]string, error) {
	if r.whole != nil {
		return r.whole.Read()
	}
	for {
		if r.off >= len(r.text) {
			return nil, io.EOF
		}
		rest := r.text[r.off:]
		line, raw := rest, rest // raw: with its end of line
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, raw, r.off = rest[:i], rest[:i+1], r.off+i+1
		} else {
			r.off = len(r.text)
		}
		r.line++
		// encoding/csv reads "\r\n" as "\n" and drops a "\r" before the
		// end of the text.
		line = strings.TrimSuffix(line, "\r")
		if line == "" || (r.comment != 0 && line[0] == r.comment) {
			continue // empty lines and comments
		}
		r.recAt = r.line
		r.rec = r.rec[:0]
		if strings.IndexByte(line, '"') >= 0 {
			if !r.splitQuoted(line) {
				r.rec = r.rec[:0]
				if err := r.quoted(raw); err != nil {
					return nil, err
				}
			}
		} else {
			for {
				i := strings.IndexByte(line, ',')
				if i < 0 {
					r.rec = append(r.rec, line)
					break
				}
				r.rec = append(r.rec, line[:i])
				line = line[i+1:]
			}
		}
		if r.fields == 0 {
			r.fields = len(r.rec)
		} else if len(r.rec) != r.fields {
			return r.rec, &csv.ParseError{StartLine: r.recAt, Line: r.recAt, Column: 1, Err: csv.ErrFieldCount}
		}
		return r.rec, nil
	}
}

// splitQuoted splits a line with quoted fields into r.rec when it is well
// formed: each quoted field closed on the line and followed by a comma or
// the end of it, no quote in an unquoted field, no carriage return. A
// field is a view into the line unless it holds a doubled quote. false
// leaves the line to encoding/csv (quoted), which reads what else the
// line may be and reports its errors.
func (r *Reader) splitQuoted(line string) bool {
	if strings.IndexByte(line, '\r') >= 0 {
		return false
	}
	for {
		if line == "" || line[0] != '"' {
			field, rest, more := strings.Cut(line, ",")
			if strings.IndexByte(field, '"') >= 0 {
				return false
			}
			r.rec = append(r.rec, field)
			if !more {
				return true
			}
			line = rest
			continue
		}
		body := line[1:]
		end, doubled := 0, false // end: the closing quote's index in body
		for {
			k := strings.IndexByte(body[end:], '"')
			if k < 0 {
				return false // not closed on this line
			}
			end += k
			if end+1 < len(body) && body[end+1] == '"' {
				doubled, end = true, end+2
				continue
			}
			break
		}
		field := body[:end]
		if doubled {
			field = strings.ReplaceAll(field, `""`, `"`)
		}
		r.rec = append(r.rec, field)
		after := body[end+1:]
		if after == "" {
			return true
		}
		if after[0] != ',' {
			return false
		}
		line = after[1:]
	}
}

// quoted reads a line with quoted fields (as the text holds it, end of
// line included) through encoding/csv into r.rec, its errors moved to the
// line's place in the text.
func (r *Reader) quoted(line string) error {
	if r.quotes == nil {
		r.quotes = csv.NewReader(feed{r})
		r.quotes.FieldsPerRecord = -1 // counted by Read, over the whole text
		r.quotes.ReuseRecord = true
	}
	r.next = line
	rec, err := r.quotes.Read()
	r.next = ""
	if err != nil {
		if pe, ok := err.(*csv.ParseError); ok {
			// One line: the error is on it.
			moved := *pe
			moved.StartLine, moved.Line = r.recAt, r.recAt
			return &moved
		}
		return err
	}
	r.rec = append(r.rec, rec...)
	return nil
}
