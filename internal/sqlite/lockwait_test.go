package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// holdLock takes the write lock of the database at path from another
// connection, as a second gpuscout process importing would; release
// gives it back.
func holdLock(t *testing.T, path string) (release func()) {
	t.Helper()
	other, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := other.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), `BEGIN IMMEDIATE`); err != nil {
		t.Fatal(err)
	}
	done := false
	release = func() {
		if !done {
			done = true
			conn.ExecContext(context.Background(), `COMMIT`)
			conn.Close()
			other.Close()
		}
	}
	t.Cleanup(release)
	return release
}

// A second import into a database another process is writing waits for
// the lock (telling the user once), then stores; when the wait runs out
// the error says the database was locked, not that the file is bad.
func TestImportWaitsForTheLock(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "l.db")
	db := open(t, path)
	release := holdLock(t, path)
	waiting := make(chan struct{})
	go func() {
		<-waiting
		time.Sleep(300 * time.Millisecond)
		release()
	}()
	told := 0
	_, err := db.SaveImport(ctx, result(3, "1"), "a", "", time.Now(), SaveOptions{Waiting: func() { told++; close(waiting) }})
	if err != nil || told != 1 {
		t.Fatalf("import after the lock was released: told %d, err %v", told, err)
	}

	holdLock(t, path)
	start := time.Now()
	_, err = db.SaveImport(ctx, result(3, "2"), "b", "", time.Now(), SaveOptions{LockWait: 1500 * time.Millisecond})
	var le *LockedError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "locked by another process") || time.Since(start) < 1500*time.Millisecond {
		t.Errorf("wait ran out after %s: %v", time.Since(start), err)
	}
}
