package lineage

import (
	"fmt"
	"io/fs"
	"strings"
)

// notedSkypilot is a SkyPilot file whose rows carry a dating sentence other
// than the commit date (e.g. the day the pull request that added the
// version was opened) and extra notes every row needs (e.g. that the file
// shows no availability). It reuses skypilotFile's parsing and mapping.
type notedSkypilot struct {
	skypilotFile
	// Dating replaces the commit-date sentence at the end of every note;
	// empty keeps it.
	Dating string
	// Extra notes are added before the dating sentence.
	Extra []string
	// Keep, when set, is called for each generated row with all of them;
	// false leaves the row out.
	Keep func(r Row, all []Row) bool
}

func (n notedSkypilot) generate(excerpt fs.FS) ([]Row, error) {
	rows, err := n.skypilotFile.generate(excerpt)
	if err != nil {
		return nil, err
	}
	tail := n.skypilotFile.dating()
	var out []Row
	for _, r := range rows {
		if n.Keep != nil && !n.Keep(r, rows) {
			continue
		}
		base, ok := strings.CutSuffix(r.Notes, tail)
		if !ok {
			return nil, fmt.Errorf("%s/%s: notes do not end with the dating sentence", r.InstanceType, r.Region)
		}
		dating := n.Dating
		if dating == "" {
			dating = tail
		}
		notes := append(append([]string{}, n.Extra...), dating)
		r.Notes = base + strings.Join(notes, "; ")
		out = append(out, r)
	}
	return out, nil
}

// source is the lineage Source of a noted SkyPilot file.
func (n notedSkypilot) source() Source {
	return Source{
		Name:     "skypilot-" + n.Provider,
		Output:   "offers/" + n.Provider + "-skypilot.csv",
		Generate: n.generate,
	}
}
