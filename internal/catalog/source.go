package catalog

import (
	"fmt"
	"time"
)

// SourceKind says what kind of document a figure comes from.
type SourceKind string

// The kinds of source a figure may carry, from most to least authoritative.
const (
	SourceOfficialAPI SourceKind = "official-api" // a provider's machine-readable price or spec source
	SourceOfficialDoc SourceKind = "official-doc" // a provider's or vendor's published page or datasheet
	SourceThirdParty  SourceKind = "third-party"  // a catalog or dataset compiled by someone else
	SourceSeedClaim   SourceKind = "seed-claim"   // a figure from the seed articles, kept only as a claim
	SourceUser        SourceKind = "user"         // entered by the user (their own negotiated price)
	SourceEstimate    SourceKind = "estimate"     // an approximation, marked as such
)

// SourceKinds lists every valid SourceKind in order of authority.
var sourceKinds = []SourceKind{SourceOfficialAPI, SourceOfficialDoc, SourceThirdParty, SourceSeedClaim, SourceUser, SourceEstimate}

// SourceKinds returns every valid source kind, most authoritative first.
func SourceKinds() []SourceKind { return append([]SourceKind(nil), sourceKinds...) }

// Valid reports whether k is one of the known kinds.
func (k SourceKind) Valid() bool {
	for _, v := range sourceKinds {
		if k == v {
			return true
		}
	}
	return false
}

// Official reports whether the source is the provider's or vendor's own.
func (k SourceKind) Official() bool { return k == SourceOfficialAPI || k == SourceOfficialDoc }

// DateLayout is the layout of every date in the catalog (as_of).
const DateLayout = "2006-01-02"

// Source is the provenance of a record: what it comes from and as of when.
type Source struct {
	Kind SourceKind
	// Ref is a URL, a price-file name or a document (with commit or page date).
	Ref string
	// AsOf is the date the figure was published or observed.
	AsOf time.Time
	// FetchedAt is when an importer fetched it; zero for curated data.
	FetchedAt time.Time
	// ReadOn is the day an undated source was read. It is set only when the
	// source shows no date and none can honestly be attributed to it (AsOf is
	// then zero): such a figure is undated, never "as of" the day it was read.
	ReadOn time.Time
}

// Undated reports whether the figure's source shows no date: AsOf is zero
// and ReadOn says when it was read. An undated figure never counts as fresh
// and sorts after a dated one of equal value.
func (s Source) Undated() bool { return s.AsOf.IsZero() && !s.ReadOn.IsZero() }

// CompareAsOf orders sources by as-of date, oldest first, with undated
// sources (and those with no date at all) after every dated one.
func CompareAsOf(a, b Source) int {
	switch za, zb := a.AsOf.IsZero(), b.AsOf.IsZero(); {
	case za && zb:
		return 0
	case za:
		return 1
	case zb:
		return -1
	}
	return a.AsOf.Compare(b.AsOf)
}

// ReadOnString renders ReadOn as YYYY-MM-DD ("" when zero).
func (s Source) ReadOnString() string {
	if s.ReadOn.IsZero() {
		return ""
	}
	return s.ReadOn.Format(DateLayout)
}

// AsOfString renders AsOf as YYYY-MM-DD.
func (s Source) AsOfString() string {
	if s.AsOf.IsZero() {
		return ""
	}
	return s.AsOf.Format(DateLayout)
}

// ParseDate parses a catalog date (YYYY-MM-DD).
func ParseDate(s string) (time.Time, error) {
	t, err := time.Parse(DateLayout, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("date %q is not YYYY-MM-DD", s)
	}
	return t, nil
}
