package aws

import (
	"errors"

	"github.com/gpuscout/gpuscout/internal/importer"
)

func asParseError(err error, target **importer.ParseError) bool { return errors.As(err, target) }

// csvLine is the line of a CSV error, when it has one.
func csvLine(err error) int { return importer.CSVLine(err) }
