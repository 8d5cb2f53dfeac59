// Package sqlite stores gpuscout's imported price snapshots, their price
// history and the user's saved scenarios in a SQLite database
// (modernc.org/sqlite, pure Go). Migrations are numbered SQL files applied
// in a transaction; the database runs in WAL mode with foreign keys, one
// writer connection and a pool of readers. Every import is one
// transaction: a failed, cancelled or killed import leaves the previous
// state as it was.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	_ "modernc.org/sqlite" // the database/sql driver
)

//go:embed migrations/*.sql
var migrations embed.FS

// DB is an open gpuscout database.
type DB struct {
	path string
	w    *sql.DB // one writer connection
	r    *sql.DB // read pool
	// hook, when set (tests), is called after each row an import writes.
	hook func(rows int)
	// readOnly: opened with OpenReadOnly (w is the read pool).
	readOnly bool
}

// Open opens (creating if needed) the database at path and migrates it.
func Open(ctx context.Context, path string) (*DB, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("database directory: %w", err)
		}
	}
	// temp_store(2): statement journals (each INSERT OR REPLACE of an
	// import keeps one) stay in memory instead of a temporary file written
	// with one system call per page: they were most of a big import's time.
	dsn := "file:" + path + "?_pragma=foreign_keys(1)&_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=temp_store(2)"
	// Writes begin IMMEDIATE: a deferred transaction that reads first
	// fails at once with SQLITE_BUSY when another process writes, instead
	// of waiting for the lock.
	w, err := sql.Open("sqlite", dsn+"&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	r, err := sql.Open("sqlite", dsn+"&mode=ro")
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	r.SetMaxOpenConns(4)
	db := &DB{path: path, w: w, r: r}
	if err := db.migrate(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("migrate %s: %w", path, err)
	}
	if err := db.backfillScopes(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("migrate %s: snapshot scopes: %w", path, err)
	}
	return db, nil
}

// Close closes the database.
func (db *DB) Close() error {
	if db.readOnly {
		return db.r.Close()
	}
	return errors.Join(db.r.Close(), db.w.Close())
}

// Path is the database file.
func (db *DB) Path() string { return db.path }

// migrate applies the numbered migrations not yet applied, each in a transaction.
func (db *DB) migrate(ctx context.Context) error {
	// A database at the newest version (every read's case) is left as it
	// is without opening the writer connection: a read then costs one
	// query here.
	if have, err := db.Version(ctx); err == nil {
		if want, err := newestMigration(); err == nil && have == want {
			return nil
		}
	}
	if _, err := db.w.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')))`); err != nil {
		return err
	}
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	for _, name := range names {
		base := filepath.Base(name)
		v, err := strconv.Atoi(strings.SplitN(base, "_", 2)[0])
		if err != nil {
			return fmt.Errorf("migration %s: name must start with a number", base)
		}
		var n int
		if err := db.w.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations WHERE version = ?`, v).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			continue
		}
		body, err := migrations.ReadFile(name)
		if err != nil {
			return err
		}
		tx, err := db.w.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, string(body)); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %s: %w", base, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version) VALUES (?)`, v); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	return nil
}

// Version is the newest migration applied.
func (db *DB) Version(ctx context.Context) (int, error) {
	var v sql.NullInt64
	err := db.r.QueryRowContext(ctx, `SELECT max(version) FROM schema_migrations`).Scan(&v)
	return int(v.Int64), err
}

// IntegrityCheck runs SQLite's integrity check.
func (db *DB) IntegrityCheck(ctx context.Context) error {
	var s string
	if err := db.r.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&s); err != nil {
		return err
	}
	if s != "ok" {
		return fmt.Errorf("integrity check: %s", s)
	}
	return nil
}
