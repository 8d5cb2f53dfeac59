package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/shopspring/decimal"
)

// offerColumn is a column of the offer rows and how an offer fills it.
type offerColumn struct {
	name string
	// shared: usually the same for every offer of an import (its
	// provider, its source). A batch whose rows agree on every shared
	// column binds them once.
	shared bool
	value  func(o *catalog.Offer) any
}

// offerColumns are the columns of an offer row, in insert order: a column
// added to the offers table (by a migration) is added here, and every
// import writes it. snapshot_id comes first and is not listed.
var offerColumns = []offerColumn{
	{"provider", true, func(o *catalog.Offer) any { return o.Provider }},
	{"instance_type", false, func(o *catalog.Offer) any { return o.InstanceName }},
	{"region", false, func(o *catalog.Offer) any { return o.RegionCode }},
	{"billing", false, func(o *catalog.Offer) any { return string(o.Billing) }},
	{"os", true, func(o *catalog.Offer) any { return o.OS }},
	{"hourly", false, func(o *catalog.Offer) any { return decimalText(o.Price.Hourly) }},
	{"upfront", true, func(o *catalog.Offer) any { return decimalText(o.Price.Upfront) }},
	{"monthly", true, func(o *catalog.Offer) any { return decimalText(o.Price.Monthly) }},
	{"currency", true, func(o *catalog.Offer) any { return o.Price.Currency }},
	{"source_kind", true, func(o *catalog.Offer) any { return string(o.Source.Kind) }},
	{"source_ref", true, func(o *catalog.Offer) any { return o.Source.Ref }},
	{"as_of", true, func(o *catalog.Offer) any { return o.Source.AsOfString() }},
	{"stock", false, func(o *catalog.Offer) any { return stockState(o.Stock) }},
	{"stock_seen", true, func(o *catalog.Offer) any { return stockSeen(o.Stock) }},
}

// stockState is the stored form of an offer's stock reading (” for none).
func stockState(s *catalog.Stock) string {
	if s == nil {
		return ""
	}
	return string(s.State)
}

// stockSeen is when a stock reading was taken, RFC 3339 (” for none).
func stockSeen(s *catalog.Stock) string {
	if s == nil || s.Seen.IsZero() {
		return ""
	}
	return s.Seen.UTC().Format(time.RFC3339)
}

// readStock is the stock reading of stored columns: nil when there is
// none, or when the stored text is not one (reads never fail on stored
// data: a damaged reading is no reading).
func readStock(state, seen string) *catalog.Stock {
	st, err := catalog.ParseStockState(state)
	if err != nil || st == "" {
		return nil
	}
	at, err := time.Parse(time.RFC3339, seen)
	if err != nil {
		return nil
	}
	return &catalog.Stock{State: st, Seen: at.UTC()}
}

// offerBatch is the rows one INSERT statement writes: a statement per row
// costs more in the driver than SQLite spends storing the row.
const offerBatch = 128

// offerWriter writes an import's offer rows in batches of offerBatch. A
// full batch whose rows agree on the shared columns (offerColumn.shared)
// binds those once and only the others per row, with one prepared
// statement; other batches bind every value. Batches are executed by a
// goroutine of their own (the only user of the transaction while the
// writer is open), so that reading and checking the next offers overlaps
// with SQLite storing the last ones.
type offerWriter struct {
	ctx      context.Context
	tx       *sql.Tx
	snapshot int64
	verb     string    // INSERT, or INSERT OR REPLACE (a later duplicate replaces the row)
	short    *sql.Stmt // a full batch, shared columns bound once
	long     *sql.Stmt // a full batch, every value bound
	rows     [][]any   // the pending rows' values, in offerColumns order
	added    int       // rows handed to add
	hook     func(rows int)

	batches chan [][]any  // to the writing goroutine
	free    chan [][]any  // rows it has written, for reuse
	done    chan struct{} // closed when it has stopped
	failed  atomic.Bool   // it has met an error: add stops
	// Set by the writing goroutine, read once done is closed.
	written int
	err     error
}

func newOfferWriter(ctx context.Context, tx *sql.Tx, snapshot int64, replace bool, hook func(int)) *offerWriter {
	w := &offerWriter{ctx: ctx, tx: tx, snapshot: snapshot, verb: "INSERT", hook: hook, rows: make([][]any, 0, offerBatch),
		batches: make(chan [][]any, 2), free: make(chan [][]any, 4), done: make(chan struct{})}
	if replace {
		w.verb = "INSERT OR REPLACE"
	}
	go w.run(w.batches)
	return w
}

// run executes the batches until the channel is closed, stopping at the
// first error (the batches after it are dropped).
func (w *offerWriter) run(batches <-chan [][]any) {
	defer close(w.done)
	for rows := range batches {
		if w.err == nil {
			if w.err = w.exec(rows); w.err != nil {
				w.failed.Store(true)
			}
		}
		for _, row := range rows {
			clear(row) // no strings kept alive
		}
		select {
		case w.free <- rows[:0]:
		default:
		}
	}
}

// columnOrder is the order of the columns in the INSERT statements: the
// shared ones first, so that in the shared form the shared values are
// numbered parameters (?2 ... ?k) named before any row's own parameters,
// which are plain (numbered by SQLite from k+1 on, with no name to look
// up when binding).
var columnOrder = func() []int {
	var order []int
	for _, shared := range []bool{true, false} {
		for k, c := range offerColumns {
			if c.shared == shared {
				order = append(order, k)
			}
		}
	}
	return order
}()

// insert is the statement that writes n rows, binding every value, or
// (shared) binding the snapshot and the shared columns once as ?1 ... ?k.
func (w *offerWriter) insert(n int, shared bool) string {
	var b strings.Builder
	b.WriteString(w.verb + " INTO offers (snapshot_id")
	for _, k := range columnOrder {
		b.WriteString(", " + offerColumns[k].name)
	}
	b.WriteString(") VALUES ")
	var row strings.Builder
	row.WriteString("(?1")
	num := 2
	for _, k := range columnOrder {
		if shared && offerColumns[k].shared {
			fmt.Fprintf(&row, ", ?%d", num)
			num++
		} else {
			row.WriteString(", ?")
		}
	}
	row.WriteString(")")
	for r := 0; r < n; r++ {
		if r > 0 {
			b.WriteString(", ")
		}
		b.WriteString(row.String())
	}
	return b.String()
}

// add writes an offer (it keeps no reference to o). An error is the
// writing goroutine's, from an earlier batch.
func (w *offerWriter) add(o *catalog.Offer) error {
	if w.failed.Load() {
		return w.wait()
	}
	if cap(w.rows) == 0 {
		select {
		case w.rows = <-w.free:
		default:
			w.rows = make([][]any, 0, offerBatch)
		}
	}
	var row []any
	if n := len(w.rows); n < cap(w.rows) && cap(w.rows[:n+1][n]) > 0 {
		row = w.rows[:n+1][n][:0] // a row of a reused batch
	} else {
		row = make([]any, 0, len(offerColumns))
	}
	for _, c := range offerColumns {
		row = append(row, c.value(o))
	}
	w.rows = append(w.rows, row)
	w.added++
	if w.hook != nil {
		w.hook(w.added)
	}
	if len(w.rows) == offerBatch {
		w.send()
	}
	return nil
}

// send hands the pending rows to the writing goroutine.
func (w *offerWriter) send() {
	if len(w.rows) == 0 {
		return
	}
	select {
	case w.batches <- w.rows:
	case <-w.done:
	}
	w.rows = nil
}

// flush writes the pending rows and waits until every row is written;
// the writer takes no more rows.
func (w *offerWriter) flush() error {
	w.send()
	return w.wait()
}

// wait stops the writing goroutine (once the batches sent are written)
// and returns its error.
func (w *offerWriter) wait() error {
	if w.batches != nil {
		close(w.batches)
		w.batches = nil
	}
	<-w.done
	return w.err
}

// exec writes one batch of rows.
func (w *offerWriter) exec(rows [][]any) error {
	n := len(rows)
	shared := n == offerBatch
	for _, row := range rows[1:] {
		for k, c := range offerColumns {
			if shared && c.shared && row[k] != rows[0][k] {
				shared = false
			}
		}
	}
	args := make([]any, 0, 1+n*len(offerColumns))
	args = append(args, w.snapshot)
	if shared {
		for _, k := range columnOrder {
			if offerColumns[k].shared {
				args = append(args, rows[0][k])
			}
		}
	}
	for _, row := range rows {
		for _, k := range columnOrder {
			if !shared || !offerColumns[k].shared {
				args = append(args, row[k])
			}
		}
	}
	var err error
	switch st := &w.long; {
	case n < offerBatch:
		_, err = w.tx.ExecContext(w.ctx, w.insert(n, false), args...)
	default:
		if shared {
			st = &w.short
		}
		if *st == nil {
			if *st, err = w.tx.PrepareContext(w.ctx, w.insert(offerBatch, shared)); err != nil {
				return fmt.Errorf("save offers: %w", w.cause(err))
			}
		}
		_, err = (*st).ExecContext(w.ctx, args...)
	}
	if err != nil {
		return fmt.Errorf("save offers %d to %d: %w", w.written+1, w.written+n, w.cause(err))
	}
	w.written += n
	return nil
}

// cause is the reason a statement failed: the import's cancellation when
// it was cancelled (database/sql then closes the transaction and its
// statements, and says only that), else err.
func (w *offerWriter) cause(err error) error {
	if cerr := w.ctx.Err(); cerr != nil {
		return cerr
	}
	return err
}

// close stops the writing goroutine if it runs and releases the prepared
// statements.
func (w *offerWriter) close() {
	if w.batches != nil {
		w.wait()
	}
	for _, st := range []*sql.Stmt{w.short, w.long} {
		if st != nil {
			st.Close()
		}
	}
}

// decimalText is d.String() (exact decimal text, no exponent), written
// without big-number arithmetic for the usual prices: a coefficient that
// fits 64 bits and a small negative or zero exponent.
func decimalText(d decimal.Decimal) string {
	e := d.Exponent()
	if d.IsZero() {
		return "0"
	}
	if e > 0 || e < -18 || d.NumDigits() > 18 {
		return d.String()
	}
	c := d.CoefficientInt64()
	neg := c < 0
	if neg {
		c = -c
	}
	var buf [48]byte
	digits := strconv.AppendInt(buf[24:24], c, 10)
	frac := int(-e)
	// Trailing zeros of the fraction are not written.
	for frac > 0 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
		frac--
	}
	var out []byte
	if neg {
		out = append(buf[:0:24], '-')
	} else {
		out = buf[:0:24]
	}
	if frac == 0 {
		return string(append(out, digits...))
	}
	if len(digits) > frac {
		out = append(out, digits[:len(digits)-frac]...)
	} else {
		out = append(out, '0')
	}
	out = append(out, '.')
	for k := len(digits); k < frac; k++ {
		out = append(out, '0')
	}
	if len(digits) > frac {
		return string(append(out, digits[len(digits)-frac:]...))
	}
	return string(append(out, digits...))
}
