package catalogtest

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io/fs"
	"strings"
	"testing/fstest"
)

// WithUndatedOffer copies the curated catalog in dir into memory and makes
// the offer id (provider/instance_type/region/billing) of offers/file
// undated: its as_of emptied and read_on, a column it adds, set to readOn.
func WithUndatedOffer(dir fs.FS, file, id, readOn string) (fs.FS, error) {
	m := fstest.MapFS{}
	err := fs.WalkDir(dir, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(dir, path)
		if err != nil {
			return err
		}
		m[path] = &fstest.MapFile{Data: b}
		return nil
	})
	if err != nil {
		return nil, err
	}
	path := "offers/" + file
	f, ok := m[path]
	if !ok {
		return nil, fmt.Errorf("%s: no such file", path)
	}
	recs, err := csv.NewReader(bytes.NewReader(f.Data)).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	recs[0] = append(recs[0], "read_on")
	found := false
	for i := 1; i < len(recs); i++ {
		r, day := recs[i], ""
		if strings.Join([]string{r[col["provider"]], r[col["instance_type"]], r[col["region"]], r[col["billing"]]}, "/") == id {
			r[col["as_of"]], day, found = "", readOn, true
		}
		recs[i] = append(r, day)
	}
	if !found {
		return nil, fmt.Errorf("%s: no offer %s", path, id)
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.WriteAll(recs); err != nil {
		return nil, err
	}
	m[path] = &fstest.MapFile{Data: buf.Bytes()}
	return m, nil
}
