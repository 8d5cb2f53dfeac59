package rightsize

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"math"
	"strconv"
	"sync"
)

// MaxLineBytes is the longest line a parser reads; a longer line is skipped
// and reported as malformed, never held in memory whole.
const MaxLineBytes = 1 << 20

// lineReader yields the lines of a stream one at a time with a bounded
// buffer (bufio.Scanner, 1 MiB). A line longer than MaxLineBytes is
// consumed without being buffered and returned empty with long set.
type lineReader struct {
	sc       *bufio.Scanner
	n        int  // number of the line last returned, from 1
	skipping bool // inside a line longer than the buffer
	long     bool // the token being returned was such a line
}

func newLineReader(r io.Reader) *lineReader {
	lr := &lineReader{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 256<<10), MaxLineBytes)
	sc.Split(lr.split)
	lr.sc = sc
	return lr
}

// split is bufio.ScanLines that skips over, instead of failing on, lines
// longer than the buffer.
func (lr *lineReader) split(data []byte, atEOF bool) (int, []byte, error) {
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		if lr.skipping {
			lr.skipping, lr.long = false, true
			return i + 1, data[:0], nil
		}
		return i + 1, dropCR(data[:i]), nil
	}
	if atEOF {
		if len(data) == 0 {
			return 0, nil, nil
		}
		if lr.skipping {
			lr.skipping, lr.long = false, true
			return len(data), data[:0], nil
		}
		return len(data), dropCR(data), nil
	}
	if len(data) >= MaxLineBytes {
		lr.skipping = true
		return len(data), nil, nil
	}
	return 0, nil, nil
}

func dropCR(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] == '\r' {
		return b[:len(b)-1]
	}
	return b
}

// next returns the next line (valid until the following call), whether it
// was too long to read, and false at the end of the input.
func (lr *lineReader) next() (line []byte, tooLong bool, ok bool) {
	if !lr.sc.Scan() {
		return nil, false, false
	}
	lr.n++
	long := lr.long
	lr.long = false
	return lr.sc.Bytes(), long, true
}

func (lr *lineReader) err() error { return lr.sc.Err() }

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// decompress returns r, or a gzip reader over it when the stream starts
// with the gzip magic bytes (1f 8b). Concatenated gzip members are read as
// one stream.
func decompress(br *bufio.Reader) (io.Reader, bool, error) {
	magic, err := br.Peek(2)
	if err != nil || magic[0] != 0x1f || magic[1] != 0x8b {
		return br, false, nil // short or plain input: let the parser decide
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, true, err
	}
	return zr, true, nil
}

// trimSpace trims ASCII spaces and tabs.
func trimSpace(b []byte) []byte {
	i, j := 0, len(b)
	for i < j && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	for j > i && (b[j-1] == ' ' || b[j-1] == '\t') {
		j--
	}
	return b[i:j]
}

var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18}

// parseFloat parses a finite decimal number without allocating in the
// common case (up to 15 significant digits, no exponent); anything else
// goes through strconv. NaN and infinities are rejected.
func parseFloat(b []byte) (float64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	i, neg := 0, false
	switch b[0] {
	case '-':
		neg, i = true, 1
	case '+':
		i = 1
	}
	var mant uint64
	digits, frac := 0, 0
	seenDot, any := false, false
	for ; i < len(b); i++ {
		c := b[i]
		switch {
		case c >= '0' && c <= '9':
			any = true
			if digits < 18 {
				if mant != 0 || c != '0' {
					digits++
				}
				mant = mant*10 + uint64(c-'0')
				if seenDot {
					frac++
				}
			} else {
				return slowFloat(b)
			}
		case c == '.' && !seenDot:
			seenDot = true
		default:
			return slowFloat(b)
		}
	}
	if !any {
		return 0, false
	}
	if digits > 15 || frac >= len(pow10) {
		return slowFloat(b)
	}
	v := float64(mant) / pow10[frac]
	if neg {
		v = -v
	}
	return v, true
}

func slowFloat(b []byte) (float64, bool) {
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

// parseInt parses a non-negative decimal integer of at most 18 digits.
func parseInt(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// parseSignedInt parses a decimal integer with an optional sign.
func parseSignedInt(b []byte) (int64, bool) {
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		n, ok := parseInt(b[1:])
		if b[0] == '-' {
			n = -n
		}
		return n, ok
	}
	return parseInt(b)
}

// daysFromCivil is the number of days from 1970-01-01 to y-m-d in the
// proleptic Gregorian calendar (Howard Hinnant's algorithm).
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era = (y - 399) / 400
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// truncate shortens s for an error report.
func truncate(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	// do not cut a UTF-8 sequence in half
	for n > 0 && b[n]&0xC0 == 0x80 {
		n--
	}
	return string(b[:n]) + "…"
}

// readAhead reads r in its own goroutine so that decompression and parsing
// run on two cores; at most raChunks chunks of raChunkSize are in memory.
type readAhead struct {
	ch    chan raChunk
	free  chan []byte
	stop  chan struct{}
	once  sync.Once
	cur   []byte
	owned []byte // the buffer cur points into, recycled when used up
	err   error
}

type raChunk struct {
	b   []byte
	err error
}

const (
	raChunks    = 4
	raChunkSize = 256 << 10
)

func newReadAhead(r io.Reader) *readAhead {
	ra := &readAhead{ch: make(chan raChunk, raChunks), free: make(chan []byte, raChunks+1), stop: make(chan struct{})}
	for range raChunks + 1 {
		ra.free <- make([]byte, raChunkSize)
	}
	go ra.fill(r)
	return ra
}

func (ra *readAhead) fill(r io.Reader) {
	defer close(ra.ch)
	for {
		var b []byte
		select {
		case b = <-ra.free:
		case <-ra.stop:
			return
		}
		n := 0
		var err error
		for n < len(b) && err == nil {
			var m int
			m, err = r.Read(b[n:])
			n += m
		}
		if n > 0 {
			select {
			case ra.ch <- raChunk{b: b[:n]}:
			case <-ra.stop:
				return
			}
		}
		if err != nil {
			select {
			case ra.ch <- raChunk{err: err}:
			case <-ra.stop:
			}
			return
		}
	}
}

func (ra *readAhead) Read(p []byte) (int, error) {
	for len(ra.cur) == 0 {
		if ra.err != nil {
			return 0, ra.err
		}
		if ra.owned != nil {
			ra.free <- ra.owned[:cap(ra.owned)]
			ra.owned = nil
		}
		c, ok := <-ra.ch
		switch {
		case !ok:
			ra.err = io.EOF
		case c.err != nil:
			ra.err = c.err
		default:
			ra.cur, ra.owned = c.b, c.b
		}
	}
	n := copy(p, ra.cur)
	ra.cur = ra.cur[n:]
	return n, nil
}

// Close stops the reading goroutine.
func (ra *readAhead) Close() { ra.once.Do(func() { close(ra.stop) }) }
