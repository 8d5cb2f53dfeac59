package aws

import (
	"encoding/csv"
	"errors"

	"github.com/gpuscout/gpuscout/internal/importer"
)

func asParseError(err error, target **importer.ParseError) bool { return errors.As(err, target) }

// csvLine is the line of a CSV error, when it has one.
func csvLine(err error) int {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return pe.Line
	}
	return 0
}
