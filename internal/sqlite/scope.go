package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"

	"github.com/gpuscout/gpuscout/internal/importer"
)

// regionalSources publish one file (or answer one request) per region:
// their snapshots are scoped by region set, so that one region's import
// does not hide another's. The others (the SkyPilot catalog, one file per
// cloud; the Spot Advisor feed and the GCP SKU catalog, global) are
// scoped by provider only.
var regionalSources = map[string]bool{
	"aws": true, "aws-savings-plans": true, "aws-spot-history": true,
	"azure": true, "alibaba": true, "tencent": true, "huawei": true, "baidu": true,
}

// Scope names what a snapshot covers: "source:providers" and, for a
// source published per region, "@regions" (sorted, comma-separated), e.g.
// "aws:aws@eu-west-1" or "skypilot:lambda". Reads use the newest snapshot
// of each scope; the shrink guard, diff and rollback compare snapshots of
// one scope.
func Scope(source string, providers, regions []string) string {
	s := source + ":" + strings.Join(sortedSet(providers), ",")
	if regionalSources[source] {
		s += "@" + strings.Join(sortedSet(regions), ",")
	}
	return s
}

// ScopeOf is the scope of an import.
func ScopeOf(res *importer.Result) string {
	var providers, regions []string
	for _, o := range res.Offers {
		providers, regions = append(providers, o.Provider), append(regions, o.RegionCode)
	}
	for _, b := range res.Bands {
		providers, regions = append(providers, b.Provider), append(regions, b.Region)
	}
	return Scope(res.Source, providers, regions)
}

func sortedSet(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	sort.Strings(out)
	return out
}

// backfillScopes gives the snapshots stored before scopes existed (scope
// ”) the scope their offers and bands imply.
func (db *DB) backfillScopes(ctx context.Context) error {
	rows, err := db.r.QueryContext(ctx, `SELECT id, source FROM snapshots WHERE scope = ''`)
	if err != nil {
		return err
	}
	type snap struct {
		id     int64
		source string
	}
	var todo []snap
	for rows.Next() {
		var s snap
		if err := rows.Scan(&s.id, &s.source); err != nil {
			rows.Close()
			return err
		}
		todo = append(todo, s)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(todo) == 0 {
		return err
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() // no-op after Commit
	for _, s := range todo {
		providers, err := column(ctx, tx, `SELECT DISTINCT provider FROM offers WHERE snapshot_id = ?1 UNION SELECT DISTINCT provider FROM bands WHERE snapshot_id = ?1`, s.id)
		if err != nil {
			return err
		}
		regions, err := column(ctx, tx, `SELECT DISTINCT region FROM offers WHERE snapshot_id = ?1 UNION SELECT DISTINCT region FROM bands WHERE snapshot_id = ?1`, s.id)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE snapshots SET scope = ? WHERE id = ?`, Scope(s.source, providers, regions), s.id); err != nil {
			return fmt.Errorf("snapshot %d: %w", s.id, err)
		}
	}
	return tx.Commit()
}

// column reads one text column.
func column(ctx context.Context, tx *sql.Tx, q string, args ...any) ([]string, error) {
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}
