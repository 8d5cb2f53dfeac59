package curated_test

import (
	"encoding/csv"
	"io/fs"
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/catalog/curated"
)

// TestNoRowDatedByTheDayItWasRead: a figure's as_of is a date its source
// shows (or one it can honestly be attributed to), never the day the file
// was read. An undated source leaves as_of empty and sets read_on; no row
// gives the same day for both, and no note says the as-of date is the
// reading date.
func TestNoRowDatedByTheDayItWasRead(t *testing.T) {
	const readPhrase = "as_of is the date it was read"
	cat := curated.Embedded()
	bad := 0
	err := fs.WalkDir(cat, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".csv") {
			return err
		}
		f, err := cat.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		r := csv.NewReader(f)
		r.Comment = '#'
		r.FieldsPerRecord = -1
		header, err := r.Read()
		if err != nil {
			return nil // an empty file
		}
		col := map[string]int{}
		for i, h := range header {
			col[h] = i
		}
		field := func(rec []string, name string) string {
			if i, ok := col[name]; ok && i < len(rec) {
				return rec[i]
			}
			return ""
		}
		for {
			rec, err := r.Read()
			if err != nil {
				break // the end, or a parse error the loader reports
			}
			line, _ := r.FieldPos(0)
			asOf, readOn := field(rec, "as_of"), field(rec, "read_on")
			if asOf != "" && asOf == readOn {
				t.Errorf("%s:%d: as_of %s is the day it was read (read_on): leave as_of empty for an undated source", path, line, asOf)
				bad++
			}
			for _, v := range rec {
				if strings.Contains(strings.ToLower(v), readPhrase) {
					t.Errorf("%s:%d: says %q; date it from the source or mark it undated (read_on)", path, line, readPhrase)
					bad++
					break
				}
			}
			if bad > 50 {
				return fs.SkipAll
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
