package document

import (
	"encoding/json"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
)

// SchemaPriceHistory names the price-history document.
const SchemaPriceHistory = "gpuscout/price-history@v1"

// PricePoint is one price of an offer: the curated catalog's (snapshot 0)
// or an imported snapshot's.
type PricePoint struct {
	Snapshot  int64  `json:"snapshot"`
	FetchedAt string `json:"fetched_at,omitempty"`
	AsOf      string `json:"as_of"` // "" for an undated source
	// ReadOn is the day an undated source was read (absent when dated).
	ReadOn    string      `json:"read_on,omitempty"`
	Effective json.Number `json:"effective_hourly"`
	Currency  string      `json:"currency"`
	Source    string      `json:"source"`
}

// PriceHistory is the gpuscout/price-history@v1 document. Its fields are in
// the order the document has always printed them (alphabetical).
type PriceHistory struct {
	Offer  string       `json:"offer"`
	Points []PricePoint `json:"points"`
	Schema string       `json:"schema"`
}

// PriceRecord is an offer as one imported snapshot had it.
type PriceRecord struct {
	Snapshot  int64
	FetchedAt time.Time
	Offer     *catalog.Offer
}

// BuildPriceHistory lists an offer's prices: the curated catalog's first
// (when curated is not nil), then each snapshot's, oldest first. Points is
// empty when there is neither.
func BuildPriceHistory(offer string, curated *catalog.Offer, records []PriceRecord) PriceHistory {
	doc := PriceHistory{Schema: SchemaPriceHistory, Offer: offer, Points: []PricePoint{}}
	if curated != nil {
		doc.Points = append(doc.Points, PricePoint{AsOf: curated.Source.AsOfString(), ReadOn: curated.Source.ReadOnString(), Effective: Num(curated.EffectiveHourly()),
			Currency: curated.Price.Currency, Source: "curated: " + curated.Source.Ref})
	}
	for _, r := range records {
		doc.Points = append(doc.Points, PricePoint{Snapshot: r.Snapshot, FetchedAt: r.FetchedAt.Format(time.RFC3339), AsOf: r.Offer.Source.AsOfString(), ReadOn: r.Offer.Source.ReadOnString(),
			Effective: Num(r.Offer.EffectiveHourly()), Currency: r.Offer.Price.Currency, Source: r.Offer.Source.Ref})
	}
	return doc
}
