package importer

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// MaxCSVRecord is the longest CSV record (row) a parser accepts, in
// bytes. Real price-file rows are under 4 KiB.
const MaxCSVRecord = 1 << 20

// RecordLimitError is a CSV record longer than the limit.
type RecordLimitError struct {
	Offset int64 // where the record starts
	Max    int
}

func (e *RecordLimitError) Error() string {
	return fmt.Sprintf("a CSV record starting at byte %d is longer than %d bytes: not a price file", e.Offset, e.Max)
}

// UnterminatedError is a CSV file whose last line does not end with a
// newline. The price files this tool imports always end their last
// record with one, so a file without it was cut short: its last record
// may have lost fields or digits.
type UnterminatedError struct {
	Line int // the last, unterminated line
}

func (e *UnterminatedError) Error() string {
	return "the file ends without a newline: its last record is cut short (a truncated download?)"
}

// CSVLine is the line of a CSV reading error (an *encoding/csv.ParseError
// or an *UnterminatedError), 0 when it has none.
func CSVLine(err error) int {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return pe.Line
	}
	var ue *UnterminatedError
	if errors.As(err, &ue) {
		return ue.Line
	}
	return 0
}

// RecordLimit wraps a CSV stream so that a record (a line, or several
// when a quoted field spans them) longer than max bytes is a
// *RecordLimitError instead of memory: encoding/csv holds a whole record.
// A stream that does not end with a newline is an *UnterminatedError at
// its end: a price file cut short.
func RecordLimit(r io.Reader, max int) io.Reader {
	return &recordLimiter{r: r, max: max}
}

type recordLimiter struct {
	r      io.Reader
	max    int
	off    int64 // bytes read so far
	start  int64 // offset of the current record
	quoted bool
	lines  int  // newlines read so far
	last   byte // the last byte read
	err    error
}

func (l *recordLimiter) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	n, err := l.r.Read(p)
	for i, c := range p[:n] {
		switch {
		case c == '"':
			l.quoted = !l.quoted
		case c == '\n' && !l.quoted:
			l.start = l.off + int64(i) + 1
		}
		if c == '\n' {
			l.lines++
		}
		if l.off+int64(i)-l.start >= int64(l.max) {
			l.err = &RecordLimitError{Offset: l.start, Max: l.max}
			l.off += int64(i)
			return i, l.err
		}
	}
	l.off += int64(n)
	if n > 0 {
		l.last = p[n-1]
	}
	if errors.Is(err, io.EOF) && l.off > 0 && l.last != '\n' {
		l.err = &UnterminatedError{Line: l.lines + 1}
		return n, l.err
	}
	return n, err
}

// SizeLimitError is an input longer than its parser reads whole.
type SizeLimitError struct {
	Max int64
}

func (e *SizeLimitError) Error() string {
	return fmt.Sprintf("longer than %d MiB, far beyond any real file of this kind", e.Max>>20)
}

// SizeLimit wraps a source that is decoded whole, so that an input longer
// than max bytes is a *SizeLimitError instead of memory.
func SizeLimit(r io.Reader, max int64) io.Reader { return &sizeLimiter{r: r, left: max, max: max} }

type sizeLimiter struct {
	r         io.Reader
	left, max int64
}

func (l *sizeLimiter) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, &SizeLimitError{Max: l.max}
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

// SkipBOM drops a leading UTF-8 byte order mark, which editors and some
// Windows tools write at the start of JSON and CSV files.
func SkipBOM(r io.Reader) io.Reader {
	br := bufio.NewReader(r)
	if b, err := br.Peek(3); err == nil && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		br.Discard(3)
	}
	return br
}

// DecoderEnd checks that nothing but whitespace follows the JSON document
// dec has decoded: trailing data is a damaged or concatenated file.
func DecoderEnd(dec *json.Decoder) error {
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		if err != nil {
			return err
		}
		return errors.New("data after the end of the JSON document")
	}
	return nil
}

// MaxRecord is the most bytes one record (an API response item, a SKU, a
// recorded response) may take in a stream that is decoded record by
// record. Real records are a few KiB.
const MaxRecord = 16 << 20

// Window bounds the bytes a stream yields between two calls of Reset, so
// that a decoder that holds one record at a time holds at most Max bytes
// of it: the parser calls Reset before each record. Past Max, Read
// returns a *RecordSizeError.
type Window struct {
	R   io.Reader
	Max int64
	n   int64
}

// RecordSizeError is a record longer than a Window allows.
type RecordSizeError struct{ Max int64 }

func (e *RecordSizeError) Error() string {
	return fmt.Sprintf("a record longer than %d MiB: not a price file of this kind", e.Max>>20)
}

// Read implements io.Reader.
func (w *Window) Read(p []byte) (int, error) {
	if w.n >= w.Max {
		return 0, &RecordSizeError{Max: w.Max}
	}
	if int64(len(p)) > w.Max-w.n {
		p = p[:w.Max-w.n]
	}
	n, err := w.R.Read(p)
	w.n += int64(n)
	return n, err
}

// Reset starts a new record. A nil Window is allowed.
func (w *Window) Reset() {
	if w != nil {
		w.n = 0
	}
}
