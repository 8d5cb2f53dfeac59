package httpapi

import (
	"errors"
	"io"
	"time"

	"github.com/gpuscout/gpuscout/internal/importer"
)

// ReadRecorded reads a recorded answer handed to catalog import, at most
// DefaultMaxBody bytes: a longer one is a *importer.ParseError of source
// (not an answer of the API), any other read error is returned as it is.
func ReadRecorded(source string, r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(importer.SizeLimit(r, DefaultMaxBody))
	if err != nil {
		var se *importer.SizeLimitError
		if errors.As(err, &se) {
			return nil, &importer.ParseError{Source: source, Err: err}
		}
		return nil, err
	}
	return b, nil
}

// RecordedAt is when a recorded answer counts as fetched: seen, the time
// the user says it was recorded, when set; else now (from now, or the
// clock when now is nil).
func RecordedAt(seen time.Time, now func() time.Time) time.Time {
	switch {
	case !seen.IsZero():
		return seen
	case now != nil:
		return now()
	}
	return time.Now()
}
