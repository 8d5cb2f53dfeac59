package importer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// DecodeBundle reads a bundle of recorded API answers: one JSON array
// whose entries are decoded into E and handed to add in order, with the
// entry's index and byte offset. A UTF-8 BOM is skipped, no entry may
// exceed MaxRecord bytes, the context is checked between entries, and
// anything after the closing bracket is refused. records reports how
// many records add has made so far (for progress); once every entry is
// in, result makes the import's result and p hears the final count.
// Errors are ParseErrors of source naming the offset and the entry
// ("[3].response.Price").
func DecodeBundle[E any](ctx context.Context, source string, r io.Reader, p Progress, records func() int, add func(n int, off int64, e E) error, result func() *Result) (*Result, error) {
	cr := &CountingReader{R: SkipBOM(r), Progress: p, Records: records}
	win := &Window{R: cr, Max: MaxRecord}
	dec := json.NewDecoder(win)
	fail := func(field string, err error) error {
		return &ParseError{Source: source, Offset: dec.InputOffset(), Field: field, Err: err}
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, fail("", fmt.Errorf("reading bundle: %w", err))
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return nil, fail("", errors.New("a bundle is a JSON array of entries"))
	}
	for n := 0; dec.More(); n++ {
		win.Reset()
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		off := dec.InputOffset()
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, JSONDecodeError(source, off, fmt.Sprintf("[%d]", n), err)
		}
		// The decoder keeps the last of a repeated member: refuse it.
		if err := CheckDuplicateKeys(raw); err != nil {
			de := err.(*DuplicateKeyError)
			return nil, &ParseError{Source: source, Offset: off + de.Offset, Field: fmt.Sprintf("[%d]", n) + de.Path, Err: err}
		}
		var e E
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil, StreamDecodeError(source, dec, off, fmt.Sprintf("[%d]", n), err)
		}
		if err := add(n, off, e); err != nil {
			return nil, err
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, fail("", fmt.Errorf("reading end of bundle: %w", err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fail("", errors.New("data after the bundle's closing bracket"))
	}
	res := result()
	if p != nil {
		p(cr.N, len(res.Offers))
	}
	return res, nil
}

// StreamDecodeError turns an error of dec, reading a value of a streamed
// document that starts at off (0: not known) and whose path so far is
// field, into a ParseError of source: a syntax error at its offset, a type
// error at its offset within the value and with its field, a document cut
// short as io.ErrUnexpectedEOF where the decoder stopped, anything else at
// off or, when off is not known, where the decoder stopped.
func StreamDecodeError(source string, dec *json.Decoder, off int64, field string, err error) *ParseError {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off += te.Offset
		if te.Field != "" {
			field = strings.TrimPrefix(field+"."+te.Field, ".")
		}
	case err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF):
		err = io.ErrUnexpectedEOF
		off = dec.InputOffset()
	case off == 0:
		off = dec.InputOffset()
	}
	return &ParseError{Source: source, Offset: off, Field: field, Err: err}
}

// JSONDecodeError turns a JSON decoding error at offset off into a
// ParseError of source, keeping the offset and field the decoder reports
// (field is the path so far, such as "[3]").
func JSONDecodeError(source string, off int64, field string, err error) *ParseError {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		if te.Offset > 0 {
			off = te.Offset
		}
		if te.Field != "" {
			field += "." + te.Field
		}
	}
	return &ParseError{Source: source, Offset: off, Field: field, Err: err}
}
