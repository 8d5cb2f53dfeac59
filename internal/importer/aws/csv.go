package aws

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer"
)

// parseCSV reads the CSV variant of an offer file: a few metadata lines
// ("Publication Date", ...), a header, then one row per price dimension.
func (o *Offers) parseCSV(ctx context.Context, r io.Reader, res *importer.Result) error {
	cr := csv.NewReader(importer.RecordLimit(r, importer.MaxCSVRecord))
	cr.FieldsPerRecord = -1
	var published time.Time
	var col map[string]int
	fields := 0 // the header's field count
	byKey := map[string]*catalog.Offer{}
	termOf := map[string]*madeBy{} // offer ID → the term that made it
	for n := 0; ; n++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return &importer.ParseError{Source: o.ref(), Line: csvLine(err), Err: err}
		}
		line, _ := cr.FieldPos(0)
		if n%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if col == nil {
			if len(rec) == 2 && rec[0] == "Publication Date" {
				published, _ = time.Parse(time.RFC3339, rec[1])
			}
			if len(rec) > 2 && rec[0] == "SKU" {
				col = map[string]int{}
				fields = len(rec)
				for i, h := range rec {
					col[h] = i
				}
				for _, need := range []string{"SKU", "OfferTermCode", "TermType", "Unit", "PricePerUnit", "Currency", "Instance Type",
					"Tenancy", "Operating System", "Region Code"} {
					if _, ok := col[need]; !ok {
						return &importer.ParseError{Source: o.ref(), Line: line, Field: need, Err: errors.New("missing column")}
					}
				}
			}
			continue
		}
		if len(rec) != fields {
			return &importer.ParseError{Source: o.ref(), Line: line, Err: fmt.Errorf("%d fields where the header has %d: a record cut short or damaged", len(rec), fields)}
		}
		get := func(name string) string {
			if i, ok := col[name]; ok && i < len(rec) {
				return rec[i]
			}
			return ""
		}
		pr := product{}
		a := &pr.Attributes
		a.InstanceType, a.RegionCode, a.Tenancy, a.OS = get("Instance Type"), get("Region Code"), get("Tenancy"), get("Operating System")
		a.PreInstalled, a.CapacityStatus, a.Operation, a.UsageType = get("Pre Installed S/W"), get("CapacityStatus"), get("operation"), get("usageType")
		a.LicenseModel = get("License Model")
		if why := filter(&pr); why != "" {
			if IsGPUType(a.InstanceType) || why == importer.SkipBadIdentifier {
				res.Skipped.Add(why, a.InstanceType)
			}
			continue
		}
		// Any currency goes on to the checker, which refuses one the
		// exchange-rate table does not know (the file, offer and field).
		t := term{EffectiveDate: get("EffectiveDate"), PriceDimensions: map[string]priceDimension{
			"d": {Unit: get("Unit"), PricePerUnit: map[string]string{get("Currency"): get("PricePerUnit")}}}}
		t.TermAttributes.LeaseContractLength = get("LeaseContractLength")
		t.TermAttributes.OfferingClass = get("OfferingClass")
		t.TermAttributes.PurchaseOption = get("PurchaseOption")
		if ed, err := time.Parse("2006-01-02", t.EffectiveDate); err == nil {
			t.EffectiveDate = ed.Format(time.RFC3339)
		}
		termType := get("TermType")
		if termType != "OnDemand" && termType != "Reserved" {
			continue
		}
		if err := o.addTerm(res, byKey, termOf, keptOf(&pr), termType, get("SKU")+"."+get("OfferTermCode"), t, published); err != nil {
			return &importer.ParseError{Source: o.ref(), Line: line, Field: "PricePerUnit", Err: err}
		}
	}
	if col == nil {
		return &importer.ParseError{Source: o.ref(), Line: 1, Err: fmt.Errorf("no header row starting with %q", "SKU")}
	}
	return nil
}
