package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/shopspring/decimal"
)

// offerColumns are the columns of an offer row, in the order offerValues
// gives them: a column added to the offers table (by a migration) is added
// to both, and every import writes it.
var offerColumns = []string{"snapshot_id", "provider", "instance_type", "region", "billing", "hourly", "upfront", "monthly", "currency",
	"source_kind", "source_ref", "as_of"}

// offerValues appends an offer's row values, in offerColumns order.
func offerValues(args []any, snapshot int64, o *catalog.Offer) []any {
	p := o.Price
	return append(args, snapshot, o.Provider, o.InstanceName, o.RegionCode, string(o.Billing), decimalText(p.Hourly), decimalText(p.Upfront),
		decimalText(p.Monthly), p.Currency, string(o.Source.Kind), o.Source.Ref, o.Source.AsOfString())
}

// offerBatch is the rows one INSERT statement writes: a statement per row
// costs more in the driver than SQLite spends storing the row.
const offerBatch = 128

// offerWriter writes an import's offer rows in batches of offerBatch, with
// one prepared statement for full batches.
type offerWriter struct {
	ctx      context.Context
	tx       *sql.Tx
	snapshot int64
	verb     string // INSERT, or INSERT OR REPLACE (a later duplicate replaces the row)
	full     *sql.Stmt
	args     []any
	pending  int
	written  int
	hook     func(rows int)
}

func newOfferWriter(ctx context.Context, tx *sql.Tx, snapshot int64, replace bool, hook func(int)) *offerWriter {
	w := &offerWriter{ctx: ctx, tx: tx, snapshot: snapshot, verb: "INSERT", hook: hook,
		args: make([]any, 0, offerBatch*len(offerColumns))}
	if replace {
		w.verb = "INSERT OR REPLACE"
	}
	return w
}

// insert is the statement that writes n rows.
func (w *offerWriter) insert(n int) string {
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(offerColumns)), ", ") + ")"
	return w.verb + " INTO offers (" + strings.Join(offerColumns, ", ") + ") VALUES " + strings.TrimSuffix(strings.Repeat(row+", ", n), ", ")
}

// add writes an offer (it keeps no reference to o).
func (w *offerWriter) add(o *catalog.Offer) error {
	w.args = offerValues(w.args, w.snapshot, o)
	w.pending++
	if w.hook != nil {
		w.hook(w.written + w.pending)
	}
	if w.pending == offerBatch {
		return w.flush()
	}
	return nil
}

// flush writes the pending rows.
func (w *offerWriter) flush() error {
	if w.pending == 0 {
		return nil
	}
	var err error
	if w.pending == offerBatch {
		if w.full == nil {
			if w.full, err = w.tx.PrepareContext(w.ctx, w.insert(offerBatch)); err != nil {
				return fmt.Errorf("save offers: %w", err)
			}
		}
		_, err = w.full.ExecContext(w.ctx, w.args...)
	} else {
		_, err = w.tx.ExecContext(w.ctx, w.insert(w.pending), w.args...)
	}
	if err != nil {
		return fmt.Errorf("save offers %d to %d: %w", w.written+1, w.written+w.pending, err)
	}
	w.written += w.pending
	w.pending = 0
	clear(w.args) // no strings kept alive
	w.args = w.args[:0]
	return nil
}

// close releases the prepared statement.
func (w *offerWriter) close() {
	if w.full != nil {
		w.full.Close()
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
