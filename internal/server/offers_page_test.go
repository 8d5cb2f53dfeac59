package server

import (
	"fmt"
	"math/rand"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// TestPagedSearchAnswersAsAllRows holds runPaged (positions, a heap for
// column orders, only the page's rows priced) to runAll (every matching
// row priced, filtered, sorted, cut): the same rows, total and stale
// count for random searches over every filter, order, cut and page, on the
// embedded catalog stored and as a big catalog is held.
func TestPagedSearchAnswersAsAllRows(t *testing.T) {
	bothModes(t, func(t *testing.T, d *Data) {
		rng := rand.New(rand.NewSource(28))
		now := time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)
		paged, nonEmpty := 0, 0
		for i, q := range randomQueries(d, 400) {
			q.Limit = 0 // the server never sets the catalog's limit
			s := OfferSearch{Query: q, Scale: decimal.NewFromInt(1), Unit: "instance-hour", Now: now}
			s.Limit = []int{1, 7, 25, 100, maxOfferRows}[rng.Intn(5)]
			s.Offset = []int{0, 0, 0, 0, 3, 40, 1000, 1 << 20}[rng.Intn(8)]
			if rng.Intn(3) == 0 {
				s.Order = orderKeys[rng.Intn(len(orderKeys))]
				s.Desc = rng.Intn(2) == 0
			}
			s.OneRegion = rng.Intn(2) == 0
			if rng.Intn(4) == 0 {
				s.PerProvider = 1 + rng.Intn(5)
			}
			switch rng.Intn(8) {
			case 0:
				s.Interconnect = []string{"nvlink", "nvswitch", "pcie", "infinity"}[rng.Intn(4)]
			case 1:
				s.RDMA = true
			case 2:
				s.MinPrice = decimal.NewFromFloat([]float64{0.5, 2, 10}[rng.Intn(3)])
			case 3:
				s.MaxAgeMonths = []int{1, 6, 12, 24}[rng.Intn(4)]
			case 4:
				s.HideUndated = true
			}
			what := fmt.Sprintf("search %d %+v", i, s)
			wantRows, wantTotal, wantStale, err := d.runAll(s)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			rows, total, stale, ok := d.runPaged(s)
			if !ok {
				if s.Order != "" && s.PerProvider > 0 {
					continue // runAll's alone
				}
				t.Fatalf("%s: runPaged did not answer", what)
			}
			paged++
			if total != wantTotal || stale != wantStale {
				t.Fatalf("%s: total %d, stale %d; all rows give %d, %d", what, total, stale, wantTotal, wantStale)
			}
			if len(rows) == 0 && len(wantRows) == 0 {
				continue // nil or empty: every caller reads them alike
			}
			sameRows(t, what, rows, wantRows)
			if len(rows) > 0 {
				nonEmpty++
			}
		}
		if paged < 300 || nonEmpty < 120 {
			t.Fatalf("%d searches answered by runPaged, %d with rows: the test compares too little", paged, nonEmpty)
		}
	})
}
