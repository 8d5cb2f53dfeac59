package aws

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/shopspring/decimal"
)

// SavingsPlans imports a Savings Plans rate file (CSV): the rate of each
// GPU instance type under EC2 Instance and Compute Savings Plans, Linux
// (operation RunInstances) or Windows with the licence included
// (RunInstances:0002, a catalog.OSWindows offer) on shared tenancy. The rate is the plan's effective hourly price (AWS
// charges the commitment per hour; for partial and all upfront plans the
// upfront share is part of the rate), stored as the hourly part. Where a
// file has both plan types for the same instance, term and payment, the
// lower rate is kept.
type SavingsPlans struct {
	Ref string
	Now func() time.Time
}

// Name implements importer.Importer.
func (*SavingsPlans) Name() string { return "aws-savings-plans" }

// Parse implements importer.Importer.
func (s *SavingsPlans) Parse(ctx context.Context, r io.Reader, p importer.Progress) (*importer.Result, error) {
	ref := s.Ref
	if ref == "" {
		ref = "AWS Savings Plans rate file"
	}
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	cr := csv.NewReader(importer.RecordLimit(&importer.CountingReader{R: importer.SkipBOM(r), Progress: p}, importer.MaxCSVRecord))
	cr.FieldsPerRecord = -1
	res := &importer.Result{Source: s.Name()}
	var col map[string]int
	fields := 0 // the header's field count
	var published time.Time
	byKey := map[string]*catalog.Offer{}
	family := map[string]string{} // offer key → the plan type that made it
	for n := 0; ; n++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, &importer.ParseError{Source: ref, Line: csvLine(err), Err: err}
		}
		line, _ := cr.FieldPos(0)
		if n%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
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
				for _, need := range []string{"DiscountedRate", "Currency", "DiscountedUsageType", "DiscountedOperation", "PurchaseOption",
					"LeaseContractLength", "DiscountedRegionCode", "DiscountedInstanceType"} {
					if _, ok := col[need]; !ok {
						return nil, &importer.ParseError{Source: ref, Line: line, Field: need, Err: errors.New("missing column")}
					}
				}
			}
			continue
		}
		if len(rec) != fields {
			return nil, &importer.ParseError{Source: ref, Line: line, Err: fmt.Errorf("%d fields where the header has %d: a record cut short or damaged", len(rec), fields)}
		}
		get := func(name string) string {
			if i, ok := col[name]; ok && i < len(rec) {
				return rec[i]
			}
			return ""
		}
		inst := get("DiscountedInstanceType")
		switch {
		case !IsGPUType(inst):
			continue
		case !strings.Contains(get("DiscountedUsageType"), "BoxUsage:"):
			res.Skipped.Add("not shared tenancy", inst)
			continue
		case get("DiscountedOperation") != opLinux && get("DiscountedOperation") != opWindows:
			res.Skipped.Add("not plain Linux or licence-included Windows", inst)
			continue
		case get("Currency") != "USD":
			res.Skipped.Add("currency "+get("Currency"), inst)
			continue
		}
		years := map[string]string{"1": "1y", "3": "3y"}[get("LeaseContractLength")]
		opt := map[string]string{"No Upfront": "no", "Partial Upfront": "partial", "All Upfront": "all"}[get("PurchaseOption")]
		if years == "" || opt == "" {
			res.Skipped.Add("unknown term "+get("LeaseContractLength")+" "+get("PurchaseOption"), inst)
			continue
		}
		rate, err := decimal.NewFromString(get("DiscountedRate"))
		if err != nil || rate.IsNegative() {
			return nil, &importer.ParseError{Source: ref, Line: line, Field: "DiscountedRate", Err: fmt.Errorf("%q is not a price", get("DiscountedRate"))}
		}
		if !rate.IsPositive() {
			res.Skipped.Add("zero rate", inst)
			continue
		}
		billing := catalog.Billing("savings-plan-" + years + "-" + opt + "-upfront")
		region := get("DiscountedRegionCode")
		os := catalog.OSLinux
		if get("DiscountedOperation") == opWindows {
			os = catalog.OSWindows
		}
		key := inst + "/" + region + "/" + string(billing) + "/" + os
		asOf := published
		if ed, err := time.Parse(time.RFC3339, get("EffectiveDate")); err == nil && ed.After(asOf) {
			asOf = ed
		}
		if cur, ok := byKey[key]; ok {
			if family[key] == get("Product Family") {
				// The same plan type twice: the one duplicate rule.
				res.Skipped.Add(importer.SkipDuplicate, key)
				continue
			}
			// Compute and EC2 Instance Savings Plans both cover the
			// instance: the lower rate is the offer.
			res.Skipped.Add("both plan types: lower rate kept", inst)
			if rate.LessThan(cur.Price.Hourly) {
				cur.Price.Hourly = rate
			}
			continue
		}
		off := &catalog.Offer{Provider: "aws", InstanceName: inst, RegionCode: region, Billing: billing, OS: os,
			Price:  catalog.Price{Hourly: rate, Currency: "USD"},
			Source: importer.Source(catalog.SourceOfficialAPI, ref+" ("+get("Product Family")+")", asOf, now())}
		byKey[key] = off
		family[key] = get("Product Family")
		res.Offers = append(res.Offers, off)
	}
	if col == nil {
		return nil, &importer.ParseError{Source: ref, Line: 1, Err: fmt.Errorf("no header row starting with %q", "SKU")}
	}
	return res, nil
}
