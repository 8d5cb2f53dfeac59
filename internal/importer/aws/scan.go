package aws

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// scanner is a minimal streaming JSON reader for the EC2 offer files: it
// walks objects key by key, skips values it does not need without
// decoding them, and captures the raw bytes of the ones it does, so that
// memory stays bounded whatever the file size.
type scanner struct {
	r   io.Reader
	buf []byte
	pos int
	end int
	off int64 // file offset of buf[0]
	eof bool
	err error
}

// Limits of the scanner. An EC2 offer file's keys are SKU codes and
// attribute names, and a product or a SKU's terms are a few KiB; anything
// far larger is not an offer file, and holding it would cost memory in
// proportion to the input.
const (
	maxString = 64 << 10 // a key or a string value read with str
	maxValue  = 4 << 20  // a captured value (a product, a SKU's terms)
)

// bufSize is the read buffer of a large input; a scanner starts with
// 64 KiB and grows to it on the first full read.
const bufSize = 1 << 20

func newScanner(r io.Reader) *scanner { return &scanner{r: r, buf: make([]byte, 64<<10)} }

// offset is the file offset of the next byte.
func (s *scanner) offset() int64 { return s.off + int64(s.pos) }

// fill reads more input, keeping unread bytes; false at EOF or error.
func (s *scanner) fill() bool {
	if s.eof {
		return false
	}
	if s.pos > 0 {
		copy(s.buf, s.buf[s.pos:s.end])
		s.off += int64(s.pos)
		s.end -= s.pos
		s.pos = 0
	}
	if s.end == len(s.buf) {
		nb := make([]byte, 2*len(s.buf))
		copy(nb, s.buf[:s.end])
		s.buf = nb
	}
	n, err := s.r.Read(s.buf[s.end:])
	if n == len(s.buf)-s.end && len(s.buf) < bufSize {
		// A large input: read it in bigger chunks (small inputs, such as
		// the fuzzer's, never pay for the large buffer).
		nb := make([]byte, bufSize)
		copy(nb, s.buf[:s.end+n])
		s.buf = nb
	}
	s.end += n
	if err != nil {
		s.eof = true
		if !errors.Is(err, io.EOF) {
			s.err = err
		}
	}
	return n > 0 || !s.eof
}

func (s *scanner) errorf(format string, args ...any) error {
	if s.err != nil {
		return s.err
	}
	return fmt.Errorf(format, args...) // the caller's ParseError gives the offset
}

// end checks that nothing but whitespace follows the document: trailing
// data is a damaged or concatenated file, not something to ignore.
func (s *scanner) atEnd() error {
	if _, err := s.ws(); err == nil {
		return errors.New("data after the end of the JSON document")
	}
	return s.err
}

// ws skips whitespace and returns the next byte without consuming it.
func (s *scanner) ws() (byte, error) {
	for {
		for s.pos < s.end {
			switch c := s.buf[s.pos]; c {
			case ' ', '\n', '\r', '\t':
				s.pos++
			default:
				return c, nil
			}
		}
		if !s.fill() {
			return 0, s.errorf("unexpected end of input")
		}
	}
}

func (s *scanner) expect(c byte) error {
	b, err := s.ws()
	if err != nil {
		return err
	}
	if b != c {
		return s.errorf("expected %q, found %q", c, b)
	}
	s.pos++
	return nil
}

// str reads a JSON string.
func (s *scanner) str() (string, error) {
	if err := s.expect('"'); err != nil {
		return "", err
	}
	start := s.pos
	escaped := false
	for {
		for s.pos < s.end {
			c := s.buf[s.pos]
			if c == '\\' {
				escaped = true
				s.pos += 2
				continue
			}
			if c == '"' {
				raw := s.buf[start:min(s.pos, s.end)]
				s.pos++
				if !escaped {
					return string(raw), nil
				}
				v, err := strconv.Unquote(`"` + string(raw) + `"`)
				if err != nil {
					return "", s.errorf("bad string escape")
				}
				return v, nil
			}
			s.pos++
		}
		// Keep the string's start in the buffer while refilling.
		rel := s.pos - start
		if rel > maxString {
			return "", s.errorf("string longer than %d bytes", maxString)
		}
		s.pos = start
		if !s.fill() {
			return "", s.errorf("unterminated string")
		}
		start = s.pos
		s.pos += rel
	}
}

// value skips one value, or appends its raw bytes to dst when capture is true.
func (s *scanner) value(dst []byte, capture bool) ([]byte, error) {
	c, err := s.ws()
	if err != nil {
		return dst, err
	}
	depth := 0
	inStr := false
	start := s.pos
	flush := func() {
		if capture {
			dst = append(dst, s.buf[start:s.pos]...)
		}
	}
	scalar := c != '{' && c != '[' && c != '"'
	for {
		for s.pos < s.end {
			b := s.buf[s.pos]
			if inStr {
				switch b {
				case '\\':
					s.pos++
				case '"':
					inStr = false
					if depth == 0 {
						s.pos++
						flush()
						return dst, nil
					}
				}
				s.pos++
				continue
			}
			if scalar {
				switch b {
				case ',', '}', ']', ' ', '\n', '\r', '\t':
					flush()
					return dst, nil
				}
				s.pos++
				continue
			}
			switch b {
			case '"':
				inStr = true
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					s.pos++
					flush()
					return dst, nil
				}
			}
			s.pos++
		}
		// Buffer exhausted: keep what is captured so far and refill. A pending
		// escape (pos beyond end) carries over.
		over := s.pos - s.end
		s.pos = s.end
		flush()
		if capture && len(dst) > maxValue {
			return dst, s.errorf("value longer than %d bytes", maxValue)
		}
		if !s.fill() {
			if scalar {
				return dst, nil
			}
			return dst, s.errorf("unexpected end of input inside a value")
		}
		start = s.pos
		s.pos += over
		if over > 0 && capture {
			dst = append(dst, s.buf[start:s.pos]...)
			start = s.pos
		}
	}
}

// object calls fn for each key of an object; fn must consume the value.
func (s *scanner) object(fn func(key string) error) error {
	if err := s.expect('{'); err != nil {
		return err
	}
	c, err := s.ws()
	if err != nil {
		return err
	}
	if c == '}' {
		s.pos++
		return nil
	}
	for {
		key, err := s.str()
		if err != nil {
			return err
		}
		if err := s.expect(':'); err != nil {
			return err
		}
		if err := fn(key); err != nil {
			return err
		}
		c, err := s.ws()
		if err != nil {
			return err
		}
		s.pos++
		switch c {
		case ',':
			continue
		case '}':
			return nil
		default:
			return s.errorf("expected ',' or '}' after a value, found %q", c)
		}
	}
}

// contains reports whether raw contains sub.
func contains(raw []byte, sub string) bool { return bytes.Contains(raw, []byte(sub)) }
