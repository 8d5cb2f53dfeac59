package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// OpenReadOnly opens a published snapshot (see Publish) for reading only:
// no migration, no write-ahead log, nothing written beside the file, so
// the file may sit on a read-only volume that many servers share. A
// snapshot written by an older schema is refused with what to do.
func OpenReadOnly(ctx context.Context, path string) (*DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	dsn := "file:" + path + "?mode=ro&_pragma=busy_timeout(10000)&_pragma=query_only(1)"
	r, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	r.SetMaxOpenConns(4)
	db := &DB{path: path, w: r, r: r, readOnly: true}
	have, err := db.Version(ctx)
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("open %s read-only: %w", path, err)
	}
	want, err := newestMigration()
	if err != nil {
		r.Close()
		return nil, err
	}
	if have != want {
		r.Close()
		return nil, fmt.Errorf("open %s read-only: its schema is version %d and this gpuscout reads version %d; publish the snapshot again with this gpuscout (gpuscout catalog publish)", path, have, want)
	}
	return db, nil
}

// ReadOnly reports whether the database was opened with OpenReadOnly.
func (db *DB) ReadOnly() bool { return db.readOnly }

func newestMigration() (int, error) {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return 0, err
	}
	sort.Strings(names)
	if len(names) == 0 {
		return 0, errors.New("no migrations embedded")
	}
	base := filepath.Base(names[len(names)-1])
	return strconv.Atoi(strings.SplitN(base, "_", 2)[0])
}

// Publish writes a consistent copy of the database to path for servers to
// read (OpenReadOnly): a compacted file in rollback-journal mode, written
// beside path and renamed over it, so a reader sees the old snapshot or
// the new one, never half of one. The directory of path must exist.
func (db *DB) Publish(ctx context.Context, path string) error {
	if db.readOnly {
		return fmt.Errorf("publish %s: the database is open read-only", path)
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("publish %s: %w", path, err)
	}
	name := tmp.Name()
	tmp.Close()
	os.Remove(name) // VACUUM INTO wants a new file
	defer os.Remove(name)
	if _, err := db.w.ExecContext(ctx, `VACUUM INTO ?`, name); err != nil {
		return fmt.Errorf("publish %s: copy: %w", path, err)
	}
	c, err := sql.Open("sqlite", "file:"+name)
	if err != nil {
		return fmt.Errorf("publish %s: %w", path, err)
	}
	var mode string
	err = c.QueryRowContext(ctx, `PRAGMA journal_mode=DELETE`).Scan(&mode)
	if err == nil {
		var ok string
		err = c.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&ok)
		if err == nil && ok != "ok" {
			err = fmt.Errorf("integrity check: %s", ok)
		}
	}
	if cerr := c.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("publish %s: %w", path, err)
	}
	if mode != "delete" {
		return fmt.Errorf("publish %s: journal mode is %q, want delete", path, mode)
	}
	f, err := os.Open(name)
	if err == nil {
		err = f.Sync()
		f.Close()
	}
	if err != nil {
		return fmt.Errorf("publish %s: %w", path, err)
	}
	if err := os.Chmod(name, 0o644); err != nil {
		return fmt.Errorf("publish %s: %w", path, err)
	}
	if err := os.Rename(name, path); err != nil {
		return fmt.Errorf("publish %s: %w", path, err)
	}
	return nil
}
