package cli

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/gpuscout/gpuscout/internal/output"
	"github.com/gpuscout/gpuscout/internal/sqlite"
	"github.com/shopspring/decimal"
	"github.com/spf13/cobra"
)

// localError is an error people read in their language: report renders
// the message key with its arguments (and the hint key, when set) through
// the printer. Error is the English text.
type localError struct {
	key  string
	args []any
	hint string // a message key, or ""
	exit int
	err  error // the underlying error, for errors.As/Is
}

func (e *localError) Error() string { return i18n.NewPrinter(i18n.EN).T(e.key, e.args...) }
func (e *localError) Unwrap() error { return e.err }

// checker validates an import's figures against the exchange-rate table
// (without --fx overrides: a currency only a flag knows would break every
// later read) and the catalog's GPU counts.
func (a *app) checker(ds *dataset, file string) importer.Checker {
	base := ds.baseFX
	if base == nil {
		base = ds.FX
	}
	toUSD := func(amount decimal.Decimal, cur string) (decimal.Decimal, bool) {
		v, err := base.Convert(amount, cur, "USD")
		return v, err == nil
	}
	gpuOf := func(provider, instance string) (string, decimal.Decimal, bool) {
		it, ok := ds.Catalog.Instance(provider + "/" + instance)
		if !ok || it.GPUID == "" {
			return "", decimal.Zero, false
		}
		return it.GPUID, it.GPUCount, true
	}
	return importer.Checker{
		File:       file,
		ToUSD:      toUSD,
		Currencies: base.Currencies(),
		GPUs: func(provider, instance string) int {
			it, ok := ds.Catalog.Instance(provider + "/" + instance)
			if !ok || it.GPUCount.LessThan(decimal.NewFromInt(1)) {
				return 0
			}
			return int(it.GPUCount.IntPart())
		},
		GPUOf:     gpuOf,
		Reference: importer.NewPriceReference(ds.Catalog.Offers(), gpuOf, toUSD),
		ResolveGPU: func(name string) []string {
			gs, err := ds.Catalog.LookupGPU(name)
			if err != nil {
				return nil
			}
			ids := make([]string, len(gs))
			for i, g := range gs {
				ids[i] = g.ID
			}
			return ids
		},
		Described: map[[2]string]importer.DescribedGPU{},
	}
}

// importError turns a failed parse, check or store of source from file
// (a path or URL) into the error people read: it names the file, the
// record and the field, and says that nothing was stored.
func importError(source, file string, err error) *localError {
	var pe *importer.ParseError
	if errors.As(err, &pe) && pe.File == "" {
		pe.File = file
	}
	var ce *importer.CheckError
	var ee *sqlite.EmptyError
	var se *sqlite.ShrinkError
	var fe *importer.FailureError
	var le *sqlite.LockedError
	var be *importer.BelowReferenceError
	switch {
	case errors.As(err, &be):
		return &localError{key: "import.err.below_reference", args: []any{source, file, be.Skipped, be.Offers, importer.ReferenceDivisor, strings.Join(be.Examples, ", ")},
			hint: "import.hint.below_reference", exit: ExitData, err: err}
	case errors.As(err, &le):
		return &localError{key: "import.err.locked", args: []any{source, le.Path, le.Waited.Round(time.Second).String()}, hint: "import.hint.locked", exit: ExitFailure, err: err}
	case errors.As(err, &ce):
		return &localError{key: "import.err.currency", args: []any{source, file, ce.Record, ce.Field, ce.Value, strings.Join(ce.Known, ", ")},
			hint: "import.hint.currency", exit: ExitData, err: err}
	case errors.As(err, &ee):
		return &localError{key: "import.err.empty", args: []any{source, file, ee.Skipped}, hint: "import.hint.empty", exit: ExitData, err: err}
	case errors.As(err, &se):
		return &localError{key: "import.err.shrink", args: []any{source, file, se.After, se.Before, se.Previous, int(sqlite.MinShare * 100)},
			hint: "import.hint.shrink", exit: ExitData, err: err}
	case errors.As(err, &fe):
		return &localError{key: "import.err.fetch", args: []any{source, file, fe.Failed, fe.Requests, fe.First.Error()}, hint: "import.hint.fetch",
			exit: ExitFailure, err: err}
	}
	msg := err.Error()
	if pe == nil && !strings.Contains(msg, file) {
		msg = file + ": " + msg
	}
	return &localError{key: "import.err.parse", args: []any{source, msg}, hint: "import.hint.parse", exit: ExitData, err: err}
}

func (a *app) catalogSnapshotsRmCmd() *cobra.Command {
	return &cobra.Command{
		Use:     "rm ID",
		Short:   "Remove an imported snapshot (its offers and bands) from the database",
		Example: `  gpuscout catalog snapshots rm 7`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := strconv.ParseInt(args[0], 10, 64)
			if err != nil || id <= 0 {
				return usagef("list snapshots with gpuscout catalog snapshots.", "snapshot ID %q is not a positive number", args[0])
			}
			db, err := a.snapshotDB(cmd.Context())
			if err != nil {
				return err
			}
			defer db.Close()
			s, err := db.DeleteSnapshot(cmd.Context(), id)
			if err != nil {
				return a.snapshotError(err, db.Path())
			}
			db.Close()
			a.warmOverlayCache(cmd.Context(), nil)
			if a.out == output.JSON {
				return output.WriteJSON(a.io.Out, map[string]any{"schema": "gpuscout/snapshot-removed@v1", "removed": s.ID, "source": s.Source, "database": db.Path()})
			}
			fmt.Fprintln(a.io.Out, a.printer.T("snapshots.removed", s.ID, s.Source, s.FetchedAt.Format(time.RFC3339), s.Offers, s.Bands))
			return nil
		},
	}
}

func (a *app) catalogSnapshotsRollbackCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "rollback SOURCE|SCOPE",
		Short: "Undo the newest import of a source (or of one scope): remove that snapshot so reads use the one before",
		Long: `Remove the newest snapshot of SOURCE (aws, azure, gcp ...), or of SCOPE as catalog snapshots
-o json lists it (aws:aws@eu-west-1, skypilot:lambda), so that reads use the previous snapshot of
the same scope again, or the curated catalog when none is left. Other scopes are untouched. To
remove any other snapshot, use gpuscout catalog snapshots rm ID.`,
		Example: `  gpuscout catalog snapshots rollback azure
  gpuscout catalog snapshots rollback aws:aws@eu-west-1`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			db, err := a.snapshotDB(cmd.Context())
			if err != nil {
				return err
			}
			defer db.Close()
			removed, current, err := db.Rollback(cmd.Context(), args[0])
			if err != nil {
				return a.snapshotError(err, db.Path())
			}
			db.Close()
			a.warmOverlayCache(cmd.Context(), nil)
			if a.out == output.JSON {
				doc := map[string]any{"schema": "gpuscout/snapshot-rollback@v1", "source": removed.Source, "scope": removed.Scope, "removed": removed.ID, "database": db.Path()}
				if current.ID > 0 {
					doc["current"] = current.ID
				}
				return output.WriteJSON(a.io.Out, doc)
			}
			if current.ID > 0 {
				fmt.Fprintln(a.io.Out, a.printer.T("snapshots.rolled_back", removed.Source, removed.ID, current.ID, current.FetchedAt.Format(time.RFC3339), current.Offers))
			} else {
				fmt.Fprintln(a.io.Out, a.printer.T("snapshots.rolled_back_none", removed.Source, removed.ID))
			}
			return nil
		},
	}
}

// snapshotDB opens the existing database for the snapshot commands.
func (a *app) snapshotDB(ctx context.Context) (*sqlite.DB, error) {
	db, err := a.openDB(ctx, false)
	if err != nil {
		return nil, err
	}
	if db == nil {
		return nil, usagef("import data first with gpuscout catalog import.", "no database at %s", a.dbPath())
	}
	return db, nil
}

func (a *app) snapshotError(err error, path string) error {
	var nf *sqlite.NotFoundError
	if !errors.As(err, &nf) {
		return err
	}
	if nf.Source != "" {
		return &localError{key: "snapshots.err.no_source", args: []any{nf.Source, path}, hint: "snapshots.hint.list", exit: ExitUsage, err: err}
	}
	return &localError{key: "snapshots.err.no_id", args: []any{nf.ID, path}, hint: "snapshots.hint.list", exit: ExitUsage, err: err}
}

// skipReason translates a skip reason that has a message ("skip." and
// the reason); others (the parsers' own, often quoting the file) stay as
// they are.
func (a *app) skipReason(reason string) string {
	key := "skip." + reason
	if t := a.printer.T(key); t != key {
		return t
	}
	return reason
}
