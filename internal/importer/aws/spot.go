package aws

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/shopspring/decimal"
)

// SpotHistory imports EC2 DescribeSpotPriceHistory responses (JSON, as the
// AWS CLI prints them): for each GPU instance type and region, the latest
// Linux/UNIX price of each availability zone, and the lowest of those as
// the region's spot price; Windows prices ("Windows", "Windows (Amazon
// VPC)") likewise, as Windows offers (catalog.OSWindows). Other products
// (SUSE, Red Hat) are skipped and counted.
type SpotHistory struct {
	Ref string
	Now func() time.Time
}

// Name implements importer.Importer.
func (*SpotHistory) Name() string { return "aws-spot-history" }

// azRegion strips the zone letter (us-east-1a → us-east-1); local and
// wavelength zones (us-east-1-bos-1a) are not regions and are skipped.
var azRegion = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([a-z]{2}(?:-gov)?-[a-z]+-\d)[a-z]$`) })

// maxWholeFile bounds the spot files, which are decoded whole: the Spot
// Advisor feed is a few MiB, a spot price history a few more.
const maxWholeFile = 32 << 20

// Parse implements importer.Importer.
func (h *SpotHistory) Parse(ctx context.Context, r io.Reader, p importer.Progress) (*importer.Result, error) {
	ref := h.Ref
	if ref == "" {
		ref = "EC2 DescribeSpotPriceHistory"
	}
	var doc struct {
		SpotPriceHistory []struct {
			AvailabilityZone   string `json:"AvailabilityZone"`
			InstanceType       string `json:"InstanceType"`
			ProductDescription string `json:"ProductDescription"`
			SpotPrice          string `json:"SpotPrice"`
			Timestamp          string `json:"Timestamp"`
		} `json:"SpotPriceHistory"`
	}
	dec := json.NewDecoder(importer.SizeLimit(&importer.CountingReader{R: importer.SkipBOM(r), Progress: p}, maxWholeFile))
	if err := dec.Decode(&doc); err != nil {
		return nil, &importer.ParseError{Source: ref, Offset: dec.InputOffset(), Err: err}
	}
	if err := importer.DecoderEnd(dec); err != nil {
		return nil, &importer.ParseError{Source: ref, Offset: dec.InputOffset(), Err: err}
	}
	if doc.SpotPriceHistory == nil {
		return nil, &importer.ParseError{Source: ref, Field: "SpotPriceHistory", Err: fmt.Errorf("missing")}
	}
	res := &importer.Result{Source: h.Name()}
	type zoneKey struct{ inst, az, os string }
	type point struct {
		price decimal.Decimal
		at    time.Time
	}
	latest := map[zoneKey]point{}
	for i, e := range doc.SpotPriceHistory {
		if i%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		switch {
		case !IsGPUType(e.InstanceType):
			res.Skipped.Add("not a GPU instance", e.InstanceType)
			continue
		}
		var os string
		switch e.ProductDescription {
		case "Linux/UNIX", "Linux/UNIX (Amazon VPC)":
			os = catalog.OSLinux
		case "Windows", "Windows (Amazon VPC)":
			os = catalog.OSWindows
		default:
			res.Skipped.Add("product "+e.ProductDescription, e.InstanceType)
			continue
		}
		price, err := decimal.NewFromString(e.SpotPrice)
		if err != nil || !price.IsPositive() {
			return nil, &importer.ParseError{Source: ref, Field: fmt.Sprintf("SpotPriceHistory[%d].SpotPrice", i), Err: fmt.Errorf("%q is not a positive price", e.SpotPrice)}
		}
		at, err := time.Parse(time.RFC3339, e.Timestamp)
		if err != nil {
			return nil, &importer.ParseError{Source: ref, Field: fmt.Sprintf("SpotPriceHistory[%d].Timestamp", i), Err: err}
		}
		k := zoneKey{e.InstanceType, e.AvailabilityZone, os}
		if cur, ok := latest[k]; !ok || at.After(cur.at) {
			latest[k] = point{price, at}
		}
	}
	type regionKey struct{ inst, region, os string }
	best := map[regionKey]point{}
	for k, pt := range latest {
		m := azRegion().FindStringSubmatch(k.az)
		if m == nil {
			res.Skipped.Add("not a regional availability zone", k.az)
			continue
		}
		rk := regionKey{k.inst, m[1], k.os}
		if cur, ok := best[rk]; !ok || pt.price.LessThan(cur.price) {
			best[rk] = pt
		}
	}
	now := time.Now
	if h.Now != nil {
		now = h.Now
	}
	var keys []regionKey
	for k := range best {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.inst+a.region != b.inst+b.region {
			return a.inst+a.region < b.inst+b.region
		}
		return a.os < b.os
	})
	for _, k := range keys {
		pt := best[k]
		res.Offers = append(res.Offers, &catalog.Offer{Provider: "aws", InstanceName: k.inst, RegionCode: k.region, Billing: catalog.Spot, OS: k.os,
			Price:  catalog.Price{Hourly: pt.price, Currency: "USD"},
			Source: importer.Source(catalog.SourceOfficialAPI, ref+" (lowest zone, latest price)", pt.at, now())})
	}
	return res, nil
}

// SpotAdvisor imports the Spot Instance Advisor feed
// (spot-advisor-data.json): the monthly interruption-frequency band of each
// instance type per region, for Linux.
type SpotAdvisor struct {
	Ref string
	Now func() time.Time
}

// Name implements importer.Importer.
func (*SpotAdvisor) Name() string { return "aws-spot-advisor" }

// Parse implements importer.Importer.
func (a *SpotAdvisor) Parse(ctx context.Context, r io.Reader, p importer.Progress) (*importer.Result, error) {
	ref := a.Ref
	if ref == "" {
		ref = "https://spot-bid-advisor.s3.amazonaws.com/spot-advisor-data.json"
	}
	var doc struct {
		Ranges []struct {
			Index int    `json:"index"`
			Label string `json:"label"`
			Max   int    `json:"max"`
		} `json:"ranges"`
		SpotAdvisor map[string]map[string]map[string]struct {
			S int `json:"s"`
			R int `json:"r"`
		} `json:"spot_advisor"`
	}
	dec := json.NewDecoder(importer.SizeLimit(&importer.CountingReader{R: importer.SkipBOM(r), Progress: p}, maxWholeFile))
	if err := dec.Decode(&doc); err != nil {
		return nil, &importer.ParseError{Source: ref, Offset: dec.InputOffset(), Err: err}
	}
	if err := importer.DecoderEnd(dec); err != nil {
		return nil, &importer.ParseError{Source: ref, Offset: dec.InputOffset(), Err: err}
	}
	if len(doc.Ranges) == 0 {
		return nil, &importer.ParseError{Source: ref, Field: "ranges", Err: fmt.Errorf("missing")}
	}
	// Bounds come from the labels ("<5%", "5-10%", ">20%"): the ranges'
	// "max" fields (5, 11, 16, 22, 100) are display scales, not bounds.
	bands := map[int][2]decimal.Decimal{}
	labels := map[int]string{}
	for i, rg := range doc.Ranges {
		lo, hi, err := parseBand(rg.Label)
		if err != nil {
			return nil, &importer.ParseError{Source: ref, Field: fmt.Sprintf("ranges[%d].label", i), Err: err}
		}
		labels[rg.Index] = rg.Label
		bands[rg.Index] = [2]decimal.Decimal{lo, hi}
	}
	now := time.Now
	if a.Now != nil {
		now = a.Now
	}
	res := &importer.Result{Source: a.Name()}
	var regions []string
	for region := range doc.SpotAdvisor {
		regions = append(regions, region)
	}
	sort.Strings(regions)
	for _, region := range regions {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		linux := doc.SpotAdvisor[region]["Linux"]
		var types []string
		for t := range linux {
			types = append(types, t)
		}
		sort.Strings(types)
		for _, t := range types {
			if !IsGPUType(t) {
				continue
			}
			v := linux[t]
			if v.S < 0 || v.S > 100 {
				res.Skipped.Add("saving outside 0-100%", t+" "+region)
				continue
			}
			b, ok := bands[v.R]
			if !ok {
				return nil, &importer.ParseError{Source: ref, Field: "spot_advisor." + region + ".Linux." + t + ".r", Err: fmt.Errorf("unknown range %d", v.R)}
			}
			res.Bands = append(res.Bands, &catalog.InterruptionBand{Provider: "aws", InstanceName: t, Region: region, Band: labels[v.R],
				LowPct: b[0], HighPct: b[1], SavingsPct: decimal.NewFromInt(int64(v.S)), Period: "month",
				Source: importer.Source(catalog.SourceOfficialAPI, ref, time.Time{}, now())})
		}
	}
	return res, nil
}

// parseBand reads "<5%", "5-10%" or ">20%" (high zero when open-ended).
func parseBand(label string) (lo, hi decimal.Decimal, err error) {
	l := strings.TrimSuffix(strings.TrimSpace(label), "%")
	switch {
	case strings.HasPrefix(l, "<"):
		hi, err = decimal.NewFromString(strings.TrimPrefix(l, "<"))
		return decimal.Zero, hi, err
	case strings.HasPrefix(l, ">"):
		lo, err = decimal.NewFromString(strings.TrimPrefix(l, ">"))
		return lo, decimal.Zero, err
	}
	a, b, ok := strings.Cut(l, "-")
	if !ok {
		return lo, hi, fmt.Errorf("band %q is not <N%%, N-M%% or >N%%", label)
	}
	if lo, err = decimal.NewFromString(a); err != nil {
		return lo, hi, fmt.Errorf("band %q: %w", label, err)
	}
	if hi, err = decimal.NewFromString(b); err != nil {
		return lo, hi, fmt.Errorf("band %q: %w", label, err)
	}
	return lo, hi, nil
}
