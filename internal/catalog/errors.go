package catalog

import (
	"fmt"
	"strings"
)

// Position is where a record was defined: a file and a 1-based line. It is
// zero for records built in code.
type Position struct {
	File string
	Line int
}

// String renders "file:line", or "" when unknown.
func (p Position) String() string {
	switch {
	case p.File == "":
		return ""
	case p.Line == 0:
		return p.File
	}
	return fmt.Sprintf("%s:%d", p.File, p.Line)
}

// Problem is one thing wrong with one record.
type Problem struct {
	Pos    Position
	Record string // the record's ID, e.g. "aws/p4d.24xlarge"
	Field  string // the column or field, e.g. "gpu_count"
	Msg    string
}

// Error renders "file:line: record: field: message".
func (p Problem) Error() string {
	var parts []string
	if s := p.Pos.String(); s != "" {
		parts = append(parts, s)
	}
	if p.Record != "" {
		parts = append(parts, p.Record)
	}
	if p.Field != "" {
		parts = append(parts, "field "+p.Field)
	}
	parts = append(parts, p.Msg)
	return strings.Join(parts, ": ")
}

// ValidationError lists every problem found in a data set.
type ValidationError struct {
	Problems []Problem
}

// maxShown bounds how many problems Error prints.
const maxShown = 20

// Error lists the first problems, one per line.
func (e *ValidationError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d problem(s) in catalog data", len(e.Problems))
	for i, p := range e.Problems {
		if i == maxShown {
			fmt.Fprintf(&b, "\n  ... and %d more", len(e.Problems)-maxShown)
			break
		}
		b.WriteString("\n  ")
		b.WriteString(p.Error())
	}
	return b.String()
}
