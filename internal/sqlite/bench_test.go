package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/shopspring/decimal"
)

// BenchmarkLatestImports reads 50,000 stored offers of one snapshot (1,087
// instance types): from its pack, from its pack keeping one instance type
// in five (filtered, as `offers --gpu` does), from its pack listing the
// IDs of the offers left out (filtered-listed, as `recommend` does), from
// a snapshot whose pack is the gob format of older databases (gob: read
// from its offer rows, as reads no longer decode that format) and from its
// offer rows (rows).
func BenchmarkLatestImports(b *testing.B) {
	ctx := context.Background()
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	res := &importer.Result{Source: "skypilot"}
	for i := 0; i < 50000; i++ {
		res.Offers = append(res.Offers, &catalog.Offer{Provider: "aws", InstanceName: fmt.Sprintf("bench-%d.xlarge", i/46), RegionCode: fmt.Sprintf("r-%d", i%23),
			Billing: []catalog.Billing{catalog.OnDemand, catalog.Spot}[i%2], Price: catalog.Price{Hourly: decimal.New(int64(1000+i%977), -4), Currency: "USD"},
			Source: catalog.Source{Kind: catalog.SourceThirdParty, Ref: "vms.csv", AsOf: at}})
	}
	for _, mode := range []string{"pack", "filtered", "filtered-listed", "gob", "rows"} {
		b.Run(mode, func(b *testing.B) {
			db, err := Open(ctx, filepath.Join(b.TempDir(), "b.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			if _, err := db.SaveImport(ctx, res, "x", "vms.csv", at, SaveOptions{}); err != nil {
				b.Fatal(err)
			}
			switch mode {
			case "rows":
				if _, err := db.w.ExecContext(ctx, `DELETE FROM snapshot_packs`); err != nil {
					b.Fatal(err)
				}
			case "gob":
				if _, err := db.w.ExecContext(ctx, `UPDATE snapshot_packs SET format = ?, offers = ?`, packGob, packGobForTest(b, res.Offers)); err != nil {
					b.Fatal(err)
				}
			}
			opt := ReadOptions{ListLeftOut: mode == "filtered-listed"}
			want := len(res.Offers)
			if strings.HasPrefix(mode, "filtered") {
				opt.Choose = func([]*catalog.DiscoveredInstance) OfferFilter {
					return func(_, inst string) bool {
						return strings.HasSuffix(inst, "0.xlarge") || strings.HasSuffix(inst, "8.xlarge")
					}
				}
				want = 0
				for _, o := range res.Offers {
					if opt.Choose(nil)(o.Provider, o.InstanceName) {
						want++
					}
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				im, err := db.LatestImportsWith(ctx, opt)
				left := 0
				for _, g := range im.LeftOut {
					left += len(g.Offers)
				}
				if err != nil || len(im.Offers) != want || opt.ListLeftOut && left != len(res.Offers)-want {
					b.Fatalf("%d offers, %d left out, %v", len(im.Offers), left, err)
				}
			}
		})
	}
}

// BenchmarkSaveStream writes a 100,000-offer import (2,174 instance types
// in 23 regions, on demand and spot) into a new database as a stream:
// the write side of a streamed SkyPilot import (rows in batches, the pack
// built as they come, one transaction).
//
//	go test ./internal/sqlite -run '^$' -bench SaveStream -benchmem
func BenchmarkSaveStream(b *testing.B) {
	ctx := context.Background()
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	const n = 100000
	names := make([]string, n/46+1)
	for i := range names {
		names[i] = fmt.Sprintf("bench-%05d.xlarge", i)
	}
	regions := make([]string, 23)
	for i := range regions {
		regions[i] = fmt.Sprintf("r-%02d", i)
	}
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		db, err := Open(ctx, filepath.Join(b.TempDir(), "b.db"))
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		_, _, err = db.SaveStream(ctx, StreamImport{Source: "skypilot", Ref: "vms.csv", FetchedAt: at,
			Run: func(emit func(*catalog.Offer) error) (*importer.Result, string, error) {
				o := &catalog.Offer{Provider: "aws", Price: catalog.Price{Currency: "USD"}, Source: catalog.Source{Kind: catalog.SourceThirdParty, Ref: "vms.csv", AsOf: at}}
				for i := 0; i < n; i++ {
					o.InstanceName, o.RegionCode, o.Billing = names[i/46], regions[(i/2)%23], []catalog.Billing{catalog.OnDemand, catalog.Spot}[i%2]
					o.Price.Hourly = decimal.New(int64(1000+i%977), -4)
					if err := emit(o); err != nil {
						return nil, "", err
					}
				}
				return &importer.Result{Source: "skypilot"}, "x", nil
			}}, SaveOptions{})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		db.Close()
		b.StartTimer()
	}
}
