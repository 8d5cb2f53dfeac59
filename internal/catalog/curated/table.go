package curated

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/csvtext"
	"github.com/shopspring/decimal"
)

// row is one record of a CSV file; its accessors record problems in p.
type row struct {
	file string
	line int
	rec  []string       // the values, trimmed, in the header's order
	col  map[string]int // column name to index in rec, shared by the file's rows
	p    *problems
	c    *loadCache
	// copy[i] is set where rec[i] is a view into the file's text that a
	// value kept past the load must copy (not interned, not checked out).
	copy []bool
}

// loadCache holds one copy of the values a load repeats: identifiers and
// sources (interned text) and numbers (decimals are immutable, so one
// value serves every record that states it). Each map is bounded; past
// its bound, values are still copied or parsed, only not kept.
type loadCache struct {
	strs  map[string]string
	decs  map[string]decimal.Decimal
	dates map[string]time.Time
	// lastDate is the last date parsed (a copy) and lastTime its value.
	lastDate string
	lastTime time.Time
}

// maxCached bounds the distinct values each map of a loadCache keeps.
const maxCached = 1 << 18

func newLoadCache() *loadCache {
	return &loadCache{strs: map[string]string{}, decs: map[string]decimal.Decimal{}, dates: map[string]time.Time{}}
}

// intern returns one copy of v (never a slice of its row's text).
func (c *loadCache) intern(v string) string {
	if s, ok := c.strs[v]; ok {
		return s
	}
	v = strings.Clone(v)
	if len(c.strs) < maxCached {
		c.strs[v] = v
	}
	return v
}

// decimal parses v, once per distinct value.
func (c *loadCache) decimal(v string) (decimal.Decimal, error) {
	if d, ok := c.decs[v]; ok {
		return d, nil
	}
	d, err := decimal.NewFromString(v)
	if err == nil && len(c.decs) < maxCached {
		c.decs[strings.Clone(v)] = d
	}
	return d, err
}

// date parses v as a YYYY-MM-DD date, once per distinct value.
func (c *loadCache) date(v string) (time.Time, error) {
	if v == c.lastDate && v != "" {
		return c.lastTime, nil // most rows repeat the row above's date
	}
	t, ok := c.dates[v]
	if !ok {
		var err error
		if t, err = catalog.ParseDate(v); err != nil {
			return t, err
		}
		v = strings.Clone(v)
		if len(c.dates) < maxCached {
			c.dates[v] = t
		}
	} else {
		v = strings.Clone(v) // not a view into a file's text
	}
	c.lastDate, c.lastTime = v, t
	return t, nil
}

// get is the value of column col ("" when the file has no such column).
func (r row) get(col string) string {
	if i, ok := r.col[col]; ok {
		return r.rec[i]
	}
	return ""
}

// column is a column's name and its index in a file's rows (-1 when the
// file has none): looked up once per file, read by index in every row.
type column struct {
	name string
	i    int
}

// column looks up a column of r's file.
func (r row) column(name string) column {
	if i, ok := r.col[name]; ok {
		return column{name, i}
	}
	return column{name, -1}
}

// at is the value of column c ("" when the file has none).
func (r row) at(c column) string {
	if c.i < 0 {
		return ""
	}
	return r.rec[c.i]
}

// text is the value of column c, to keep (str by index).
func (r row) text(c column) string {
	if c.i < 0 {
		return ""
	}
	if v := r.rec[c.i]; v != "" && r.copy != nil && r.copy[c.i] {
		return strings.Clone(v)
	}
	return r.rec[c.i]
}

// needAt is need by index: a required string field.
func (r row) needAt(c column) string {
	v := r.text(c)
	if v == "" {
		r.p.add(r.file, r.line, c.name, "required")
	}
	return v
}

// decAt is dec by index: an optional decimal; empty is zero.
func (r row) decAt(c column) decimal.Decimal {
	v := r.at(c)
	if v == "" {
		return decimal.Zero
	}
	d, err := r.c.decimal(v)
	if err != nil {
		r.p.add(r.file, r.line, c.name, "%q is not a number", v)
		return decimal.Zero
	}
	return d
}

// dateAt is date by index: an optional YYYY-MM-DD date.
func (r row) dateAt(c column) time.Time {
	v := r.at(c)
	if v == "" {
		return time.Time{}
	}
	t, err := r.c.date(v)
	if err != nil {
		r.p.add(r.file, r.line, c.name, "%v", err)
	}
	return t
}

// sourceColumns are the provenance columns of a file, looked up once.
type sourceColumns struct{ kind, ref, asOf, readOn column }

func (r row) sourceColumns() sourceColumns {
	return sourceColumns{r.column("source_kind"), r.column("source_ref"), r.column("as_of"), r.column("read_on")}
}

// sourceAt is source by index.
func (r row) sourceAt(c sourceColumns) catalog.Source {
	return catalog.Source{Kind: catalog.SourceKind(r.text(c.kind)), Ref: r.text(c.ref), AsOf: r.dateAt(c.asOf), ReadOn: r.dateAt(c.readOn)}
}

// problems collects every parse problem across files.
type problems struct{ list []catalog.Problem }

func (p *problems) add(file string, line int, field, format string, args ...any) {
	p.list = append(p.list, catalog.Problem{Pos: catalog.Position{File: file, Line: line}, Field: field, Msg: fmt.Sprintf(format, args...)})
}

// Bounds on what a catalog file may hold. A curated text field is at most
// a few hundred characters; identifiers name a provider's resource.
const (
	maxFileBytes = 64 << 20                 // one catalog file
	maxIDLen     = catalog.MaxIdentifierLen // an identifier column (see idColumns)
	maxTextLen   = 4096                     // any other column, in characters
)

// idColumns are the columns that hold identifiers: they become parts of
// IDs ("provider/instance_type/region/billing"), URLs and file names, so
// they are limited to letters, digits and . _ - + : (region may be * in
// ancillary.csv), with no "..", no path separators and no spaces.
var idColumns = map[string]bool{"id": true, "provider": true, "instance_type": true, "region": true, "code": true,
	"gpu": true, "billing": true, "currency": true, "item": true, "plan": true, "category": true, "status": true}

// internColumns are the other columns whose values repeat from row to row
// and are kept as text (a record's source).
var internColumns = map[string]bool{"source_kind": true, "source_ref": true}

// checkField returns why a field's value is not acceptable, or "".
func checkField(col, v string) string { return checkValue(col, idColumns[col], v) }

// checkValue is checkField given whether col holds identifiers. Most
// values are short ASCII: one pass over their bytes decides what the
// general checks would; any other byte sends the value through them.
func checkValue(col string, isID bool, v string) string {
	ctrl, ascii := -1, true
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
		if ctrl < 0 && (c < 0x20 && c != '\t' || c == 0x7f) {
			ctrl = int(c)
		}
	}
	switch {
	case !ascii:
		if !utf8.ValidString(v) {
			return "not valid UTF-8"
		}
		for _, r := range v {
			if r != '\t' && unicode.IsControl(r) {
				return fmt.Sprintf("contains the control character %U", r)
			}
		}
	case ctrl >= 0:
		return fmt.Sprintf("contains the control character %U", rune(ctrl))
	}
	if !isID {
		if len(v) > maxTextLen { // a rune takes at least one byte
			if n := utf8.RuneCountInString(v); n > maxTextLen {
				return fmt.Sprintf("is %d characters long; at most %d", n, maxTextLen)
			}
		}
		return ""
	}
	switch {
	case v == "" || (v == "*" && (col == "region" || col == "instance_type")):
		// "*" is the wildcard of provider-level rows (interruption priors,
		// provider-wide region facts); the loader checks where it may stand.
		return ""
	}
	return catalog.CheckIdentifier(v)
}

// clip shortens a value for an error message.
func clip(v string) string {
	const n = 40
	if utf8.RuneCountInString(v) <= n {
		return v
	}
	return string([]rune(v)[:n]) + "…"
}

// readTable reads a CSV file whose header must be a subset of allowed that
// contains every column in required, and calls each with every record, as
// it is read (no record is kept: a file of a million offers is never held
// whole, as parsed text, besides the records built from it). Lines
// starting with # are comments. The values of identifier columns
// (provider, region, billing ...) and sources are interned in c, so that a
// record built from a row keeps no reference to the row's text.
func readTable(fsys fs.FS, file string, required, allowed []string, p *problems, c *loadCache, each func(row)) error {
	f, err := fsys.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > maxFileBytes {
		p.add(file, 0, "", "file is %d bytes; at most %d MiB", st.Size(), maxFileBytes>>20)
		return nil
	}
	// The whole file is read (at most maxFileBytes): its lines with no
	// double quote are then split without a string per record (csvtext).
	var b strings.Builder
	if st, err := f.Stat(); err == nil && st.Size() > 0 {
		b.Grow(int(st.Size()) + 1)
	}
	if _, err := io.Copy(&b, io.LimitReader(f, maxFileBytes+1)); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	r := csvtext.New(b.String(), '#')
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		p.add(file, 1, "", "empty file: want a header row")
		return nil
	}
	if err != nil {
		p.add(file, csvLine(err, 1), "", "%s", csvMsg(err))
		return nil
	}
	header = append([]string(nil), header...) // the reader reuses its record
	for i, h := range header {
		header[i] = strings.Clone(h) // not a view into the file's text
	}
	header[0] = strings.TrimPrefix(header[0], "\ufeff")
	allowedSet := map[string]bool{}
	for _, a := range allowed {
		allowedSet[a] = true
	}
	seen := map[string]bool{}
	isID := make([]bool, len(header))
	interned := make([]bool, len(header))
	col := make(map[string]int, len(header))
	last := make([]string, len(header)) // the previous row's interned values
	var views []bool                    // columns whose values are views into the text
	if r.Views() {
		views = make([]bool, len(header))
	}
	for i, h := range header {
		h = strings.TrimSpace(h)
		header[i] = h
		isID[i] = idColumns[h]
		interned[i] = internColumns[h]
		if views != nil {
			views[i] = !isID[i] && !interned[i]
		}
		if _, dup := col[h]; !dup {
			col[h] = i
		}
		switch {
		case !allowedSet[h]:
			p.add(file, 1, clip(h), "unknown column %q (allowed: %s)", clip(h), strings.Join(allowed, ", "))
		case seen[h]:
			p.add(file, 1, h, "duplicate column")
		}
		seen[h] = true
	}
	for _, req := range required {
		if !seen[req] {
			p.add(file, 1, req, "missing required column")
		}
	}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			p.add(file, csvLine(err, 0), "", "%s", csvMsg(err))
			var pe *csv.ParseError
			if errors.As(err, &pe) && pe.Err == csv.ErrFieldCount {
				continue
			}
			break
		}
		line := r.Line()
		for i, h := range header {
			v := strings.TrimSpace(rec[i])
			if msg := checkValue(h, isID[i], v); msg != "" {
				p.add(file, line, h, "%s", msg)
				v = clip(strings.Map(printable, v)) // later messages must not echo the bad value whole
			} else if isID[i] || interned[i] {
				// Most rows repeat the row above in these columns.
				if v == last[i] {
					v = last[i]
				} else {
					v = c.intern(v)
					last[i] = v
				}
			}
			rec[i] = v
		}
		each(row{file: file, line: line, rec: rec, col: col, p: p, c: c, copy: views})
	}
	return nil
}

// printable maps control characters to U+FFFD, for error messages.
func printable(r rune) rune {
	if unicode.IsControl(r) {
		return utf8.RuneError
	}
	return r
}

func csvLine(err error, def int) int {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return pe.Line
	}
	return def
}

func csvMsg(err error) string {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		if pe.Err == csv.ErrFieldCount {
			return "wrong number of fields (quote any field that contains a comma)"
		}
		return "malformed CSV: " + pe.Err.Error()
	}
	return err.Error()
}

func (r row) pos() catalog.Position { return catalog.Position{File: r.file, Line: r.line} }

func (r row) str(col string) string { return r.text(r.column(col)) }

// need returns a required string field.
func (r row) need(col string) string {
	v := r.str(col)
	if v == "" {
		r.p.add(r.file, r.line, col, "required")
	}
	return v
}

// osAt parses an offer's optional operating system: empty or linux is
// Linux, windows is Windows (licence included).
func (r row) osAt(c column) string {
	v := r.at(c)
	os, ok := catalog.ParseOS(v)
	if !ok {
		r.p.add(r.file, r.line, c.name, "%q is not an operating system gpuscout prices: leave it empty (Linux) or write linux or windows", v)
	}
	return os
}

// dec parses an optional decimal; empty is zero.
func (r row) dec(col string) decimal.Decimal {
	v := r.get(col)
	if v == "" {
		return decimal.Zero
	}
	d, err := r.c.decimal(v)
	if err != nil {
		r.p.add(r.file, r.line, col, "%q is not a number", v)
		return decimal.Zero
	}
	return d
}

// count parses a GPU count: an integer, a decimal or a fraction "1/12".
func (r row) count(col string) decimal.Decimal {
	v := r.get(col)
	if v == "" {
		r.p.add(r.file, r.line, col, "required")
		return decimal.Zero
	}
	if num, den, ok := strings.Cut(v, "/"); ok {
		n, err1 := decimal.NewFromString(strings.TrimSpace(num))
		d, err2 := decimal.NewFromString(strings.TrimSpace(den))
		if err1 != nil || err2 != nil || !d.IsPositive() {
			r.p.add(r.file, r.line, col, "%q is not a count or a fraction such as 1/4", v)
			return decimal.Zero
		}
		return n.DivRound(d, 16)
	}
	d, err := decimal.NewFromString(v)
	if err != nil {
		r.p.add(r.file, r.line, col, "%q is not a count or a fraction such as 1/4", v)
		return decimal.Zero
	}
	return d
}

// integer parses an optional integer; empty is zero.
func (r row) integer(col string) int {
	d := r.dec(col)
	if !d.Equal(d.Truncate(0)) {
		r.p.add(r.file, r.line, col, "%q is not a whole number", r.get(col))
	}
	return int(d.IntPart())
}

// date parses an optional YYYY-MM-DD date.
func (r row) date(col string) time.Time {
	v := r.get(col)
	if v == "" {
		return time.Time{}
	}
	t, err := r.c.date(v)
	if err != nil {
		r.p.add(r.file, r.line, col, "%v", err)
	}
	return t
}

// source reads the provenance columns: kind, reference, as-of date and, for
// an undated source, the day it was read.
func (r row) source() catalog.Source {
	return catalog.Source{Kind: catalog.SourceKind(r.str("source_kind")), Ref: r.str("source_ref"), AsOf: r.date("as_of"), ReadOn: r.date("read_on")}
}

// coords parses an optional latitude/longitude pair: both or neither,
// within ±90 and ±180 degrees.
func (r row) coords(latCol, lonCol string) (lat, lon float64, ok bool) {
	a, b := r.get(latCol), r.get(lonCol)
	if a == "" && b == "" {
		return 0, 0, false
	}
	if a == "" || b == "" {
		col := latCol
		if a != "" {
			col = lonCol
		}
		r.p.add(r.file, r.line, col, "give both %s and %s, or neither", latCol, lonCol)
		return 0, 0, false
	}
	la, lo := r.dec(latCol).InexactFloat64(), r.dec(lonCol).InexactFloat64()
	if la < -90 || la > 90 {
		r.p.add(r.file, r.line, latCol, "%q is outside -90..90 degrees", a)
		return 0, 0, false
	}
	if lo < -180 || lo > 180 {
		r.p.add(r.file, r.line, lonCol, "%q is outside -180..180 degrees", b)
		return 0, 0, false
	}
	return la, lo, true
}
