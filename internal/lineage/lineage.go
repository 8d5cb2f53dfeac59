// Package lineage regenerates, by code, the curated offer rows that come
// from machine-readable third-party files (SkyPilot catalogs, instance-table
// exports, pricing builds, price dumps, rate tables).
//
// For each such source the project keeps an excerpt of the file it read
// (the GPU rows only) under testdata/<source name>/, with a SOURCE.md that
// names the repository, path and commit, the commit's date, which stored
// versions were considered and why this one was used, and how the excerpt
// was cut. A Source's Generate function runs the parsing code over that
// excerpt and returns the catalog rows; the rows are written to their own
// file under the curated data directory (Output), and a test requires that
// file to equal a fresh generation. `make catalog` rewrites every Output.
//
// Hand-typed rows remain only for sources that are pages or PDFs, in the
// providers' own offer files, and their notes say so.
package lineage

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

// Row is one offer row of the curated catalog (offers/*.csv), as text. Its
// fields are the file's columns; empty means "the source does not say".
type Row struct {
	Provider     string
	InstanceType string
	Region       string
	Billing      string
	Hourly       string
	Upfront      string
	Monthly      string
	Currency     string
	Notes        string
	SourceKind   string
	SourceRef    string
	// AsOf is a date the source shows or can honestly be attributed to
	// (for a file in a repository without a date of its own: the date of the
	// commit that produced the version read), YYYY-MM-DD.
	AsOf string
	// ReadOn is set, with AsOf empty, only for a source that carries no date
	// at all: the row is then undated, and ReadOn says when it was read.
	ReadOn string
}

// Header is the column order of a generated offer file.
var header = []string{"provider", "instance_type", "region", "billing", "hourly", "upfront", "monthly", "currency", "notes", "source_kind", "source_ref", "as_of", "read_on"}

func (r Row) fields() []string {
	return []string{r.Provider, r.InstanceType, r.Region, r.Billing, r.Hourly, r.Upfront, r.Monthly, r.Currency, r.Notes, r.SourceKind, r.SourceRef, r.AsOf, r.ReadOn}
}

// Source is one machine-readable third-party file and the code that turns
// its kept excerpt into catalog rows.
type Source struct {
	// Name is the excerpt's directory under testdata, e.g. "skypilot-runpod".
	Name string
	// Output is the generated file, relative to the curated data directory,
	// e.g. "offers/runpod-skypilot.csv".
	Output string
	// Generate reads the excerpt directory and returns the rows.
	Generate func(excerpt fs.FS) ([]Row, error)
}

// Render generates a source's rows from its excerpt and returns the CSV
// file: the header, then the rows sorted by provider, instance type,
// region and billing model. Two rows with the same key are an error.
func Render(src Source, excerpt fs.FS) ([]byte, error) {
	rows, err := src.Generate(excerpt)
	if err != nil {
		return nil, fmt.Errorf("lineage: %s: %w", src.Name, err)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("lineage: %s: the excerpt gave no rows", src.Name)
	}
	key := func(r Row) string {
		return strings.Join([]string{r.Provider, r.InstanceType, r.Region, r.Billing}, "\x00")
	}
	sort.SliceStable(rows, func(i, j int) bool { return key(rows[i]) < key(rows[j]) })
	for i := 1; i < len(rows); i++ {
		if key(rows[i]) == key(rows[i-1]) {
			r := rows[i]
			return nil, fmt.Errorf("lineage: %s: two rows for %s/%s/%s/%s", src.Name, r.Provider, r.InstanceType, r.Region, r.Billing)
		}
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	if err := w.Write(header); err != nil {
		return nil, err
	}
	for _, r := range rows {
		if err := w.Write(r.fields()); err != nil {
			return nil, fmt.Errorf("lineage: %s: %w", src.Name, err)
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return nil, fmt.Errorf("lineage: %s: %w", src.Name, err)
	}
	return b.Bytes(), nil
}
