package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/shopspring/decimal"
)

// BenchmarkLatestImports reads 50,000 stored offers of one snapshot, from
// its pack and (rows) from its offer rows.
func BenchmarkLatestImports(b *testing.B) {
	ctx := context.Background()
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	res := &importer.Result{Source: "skypilot"}
	for i := 0; i < 50000; i++ {
		res.Offers = append(res.Offers, &catalog.Offer{Provider: "aws", InstanceName: fmt.Sprintf("bench-%d.xlarge", i/46), RegionCode: fmt.Sprintf("r-%d", i%23),
			Billing: []catalog.Billing{catalog.OnDemand, catalog.Spot}[i%2], Price: catalog.Price{Hourly: decimal.New(int64(1000+i%977), -4), Currency: "USD"},
			Source: catalog.Source{Kind: catalog.SourceThirdParty, Ref: "vms.csv", AsOf: at}})
	}
	for _, mode := range []string{"pack", "rows"} {
		b.Run(mode, func(b *testing.B) {
			db, err := Open(ctx, filepath.Join(b.TempDir(), "b.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			if _, err := db.SaveImport(ctx, res, "x", "vms.csv", at, SaveOptions{}); err != nil {
				b.Fatal(err)
			}
			if mode == "rows" {
				if _, err := db.w.ExecContext(ctx, `DELETE FROM snapshot_packs`); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				im, err := db.LatestImports(ctx)
				if err != nil || len(im.Offers) != len(res.Offers) {
					b.Fatalf("%d offers, %v", len(im.Offers), err)
				}
			}
		})
	}
}
