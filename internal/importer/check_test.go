package importer

import (
	"errors"
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/shopspring/decimal"
)

func offer(inst, region string, b catalog.Billing, hourly, upfront, cur string) *catalog.Offer {
	return &catalog.Offer{Provider: "aws", InstanceName: inst, RegionCode: region, Billing: b,
		Price: catalog.Price{Hourly: decimal.RequireFromString(hourly), Upfront: decimal.RequireFromString(upfront), Currency: cur}}
}

func checker() Checker {
	rates := map[string]decimal.Decimal{"USD": decimal.NewFromInt(1), "CNY": decimal.NewFromInt(7)}
	return Checker{
		File: "f.json",
		ToUSD: func(a decimal.Decimal, cur string) (decimal.Decimal, bool) {
			r, ok := rates[cur]
			if !ok {
				return decimal.Zero, false
			}
			return a.Div(r), true
		},
		Currencies: []string{"CNY", "USD"},
		GPUs: func(_, inst string) int {
			if inst == "p5.48xlarge" {
				return 8
			}
			return 0
		},
	}
}

func TestCheckSkipsBadFiguresAndCountsThem(t *testing.T) {
	res := &Result{Source: "aws", Offers: []*catalog.Offer{
		offer("p5.48xlarge", "us-east-1", catalog.OnDemand, "55.04", "0", "USD"),   // kept
		offer("p5.48xlarge", "", catalog.OnDemand, "55.04", "0", "USD"),            // no region
		offer("g5.xlarge", "us-east-1", catalog.OnDemand, "-1", "0", "USD"),        // negative
		offer("g5.xlarge", "us-west-2", catalog.OnDemand, "0", "0", "USD"),         // no price
		offer("g5.xlarge", "eu-west-1", catalog.OnDemand, "1", "100", "USD"),       // upfront, no term
		offer("p5.48xlarge", "us-west-2", catalog.OnDemand, "80000", "0", "USD"),   // 10,000/GPU-h
		offer("p5.48xlarge", "us-west-1", catalog.OnDemand, "80001", "0", "USD"),   // above
		offer("g5.xlarge", "cn-north-1", catalog.OnDemand, "70001", "0", "CNY"),    // 10,000.14 USD, 1 GPU
		offer("g5.xlarge", "us-east-2", catalog.Billing("lease"), "1", "0", "USD"), // billing
		offer("g5.xlarge", "us-east-1", catalog.Reserved1yAll, "0", "5000", "USD"), // kept
		offer("g5.2xlarge", "us-east-1", catalog.OnDemand, "1", "0", "USD"),        // duplicate, kept (the first)
		offer("g5.2xlarge", "us-east-1", catalog.OnDemand, "2", "0", "USD"),        // duplicate, dropped
	}}
	res.Bands = []*catalog.InterruptionBand{
		{Provider: "aws", InstanceName: "p5.48xlarge", Region: "us-east-1", LowPct: decimal.NewFromInt(5), HighPct: decimal.NewFromInt(10)},
		{Provider: "aws", InstanceName: "p5.48xlarge", Region: "us-west-2", LowPct: decimal.NewFromInt(20), HighPct: decimal.NewFromInt(120)},
	}
	if err := checker().Check(res); err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, o := range res.Offers {
		kept = append(kept, o.ID()+"="+o.Price.Hourly.String())
	}
	want := "aws/p5.48xlarge/us-east-1/on-demand=55.04 aws/p5.48xlarge/us-west-2/on-demand=80000 aws/g5.xlarge/us-east-1/reserved-1y-all-upfront=0 aws/g5.2xlarge/us-east-1/on-demand=1"
	if got := strings.Join(kept, " "); got != want {
		t.Errorf("kept %s\nwant %s", got, want)
	}
	if len(res.Bands) != 1 || res.Skipped.Total() != 9 {
		t.Errorf("%d bands, %d skipped: %v", len(res.Bands), res.Skipped.Total(), res.Skipped.Lines())
	}
	lines := strings.Join(res.Skipped.Lines(), "\n")
	for _, r := range []string{"2 " + SkipAbsurd, SkipNoRegion, SkipNegative, SkipNoPrice, SkipUpfrontNoTerm, SkipBadBilling, SkipDuplicate, SkipBadBand} {
		if !strings.Contains(lines, r) {
			t.Errorf("no %q in\n%s", r, lines)
		}
	}
}

func TestCheckRefusesAnUnknownCurrency(t *testing.T) {
	res := &Result{Source: "azure", Offers: []*catalog.Offer{offer("g5.xlarge", "us-east-1", catalog.OnDemand, "1", "0", "XYZ")}}
	err := checker().Check(res)
	var ce *CheckError
	if !errors.As(err, &ce) || ce.Value != "XYZ" || ce.Field != "currency" || ce.Record != "aws/g5.xlarge/us-east-1/on-demand" ||
		!strings.Contains(err.Error(), "f.json") {
		t.Fatalf("error %v", err)
	}
}

func TestTally(t *testing.T) {
	var tl Tally
	for i := 0; i < 95; i++ {
		tl.Answered()
	}
	for i := 0; i < 5; i++ {
		tl.Declined(errors.New("not sold here"))
	}
	if err := tl.Err(); err != nil {
		t.Errorf("declines only: %v", err)
	}
	for i := 0; i < 5; i++ {
		if err := tl.Failed(errors.New("HTTP 500")); err != nil {
			t.Fatalf("stopped early after %d failures of 100: %v", i+1, err)
		}
	}
	if err := tl.Err(); err != nil {
		t.Errorf("5 of 105 failed (4.8%%): %v", err)
	}
	tl.Failed(errors.New("HTTP 503"))
	var fe *FailureError
	if err := tl.Err(); !errors.As(err, &fe) || fe.Requests != 106 || !strings.Contains(err.Error(), "HTTP 500") {
		t.Errorf("6 of 106 failed (5.7%%): %v", err)
	}
	var bad Tally
	var err error
	n := 0
	for err == nil {
		n++
		err = bad.Failed(errors.New("HTTP 502"))
	}
	if n != 10 {
		t.Errorf("stopped after %d failures, want 10", n)
	}
	var none Tally
	none.Declined(errors.New("InvalidParameter"))
	if none.Err() == nil {
		t.Error("no answer at all accepted")
	}
}

// A price of 1e-10 USD per hour would become the cheapest p5.48xlarge:
// below the plausibility floor it is skipped and counted, per GPU-hour
// when the GPU count is known, per instance-hour otherwise, in any
// currency.
func TestCheckSkipsImplausiblyLowPrices(t *testing.T) {
	res := &Result{Source: "aws", Offers: []*catalog.Offer{
		offer("p5.48xlarge", "us-east-1", catalog.OnDemand, "0.0000000001", "0", "USD"), // below
		offer("p5.48xlarge", "us-west-2", catalog.OnDemand, "0.07", "0", "USD"),         // 0.00875/GPU-h: below
		offer("p5.48xlarge", "us-west-1", catalog.OnDemand, "0.08", "0", "USD"),         // 0.01/GPU-h: kept
		offer("g5.xlarge", "cn-north-1", catalog.OnDemand, "0.06", "0", "CNY"),          // 0.0086 USD: below
		offer("g5.xlarge", "us-east-2", catalog.OnDemand, "0.009", "0", "USD"),          // per instance-hour: below
		offer("g5.xlarge", "us-east-1", catalog.OnDemand, "0.5", "0", "USD"),            // kept
	}}
	if err := checker().Check(res); err != nil {
		t.Fatal(err)
	}
	if len(res.Offers) != 2 || res.Offers[0].RegionCode != "us-west-1" || res.Offers[1].RegionCode != "us-east-1" {
		for _, o := range res.Offers {
			t.Errorf("kept %s", o.ID())
		}
	}
	if lines := strings.Join(res.Skipped.Lines(), "\n"); !strings.Contains(lines, "4 "+SkipImplausible) {
		t.Errorf("skipped:\n%s", lines)
	}
	// Without an exchange-rate table, the currency's own floor applies.
	res = &Result{Source: "alibaba", Offers: []*catalog.Offer{offer("g5.xlarge", "cn-north-1", catalog.OnDemand, "0.0000000001", "0", "CNY")}}
	if err := (Checker{}).Check(res); err != nil || len(res.Offers) != 0 {
		t.Errorf("no FX table: kept %d, err %v", len(res.Offers), err)
	}
}

// Imported identifiers follow the --catalog identifier rule: markup, path
// segments, terminal escapes and spreadsheet formulas are skipped and
// counted, and the skip examples print escaped.
func TestCheckSkipsHostileIdentifiers(t *testing.T) {
	res := &Result{Source: "skypilot", Offers: []*catalog.Offer{
		offer("<script>alert(1)</script>", "us-east-1", catalog.OnDemand, "1", "0", "USD"),
		offer("g5.xlarge", "../../etc", catalog.OnDemand, "1", "0", "USD"),
		offer("g5.xlarge", "us-east-1\x1b[2J", catalog.OnDemand, "1", "0", "USD"),
		offer("=cmd|' /C calc'!A0", "us-east-1", catalog.OnDemand, "1", "0", "USD"),
		offer("g5..xlarge", "us-east-1", catalog.OnDemand, "1", "0", "USD"),
		offer("g5.xlarge", "us-east-1", catalog.OnDemand, "1", "0", "USD"), // kept
	}}
	res.Bands = []*catalog.InterruptionBand{{Provider: "aws", InstanceName: "p5/../x", Region: "us-east-1", HighPct: decimal.NewFromInt(5)}}
	res.Instances = []*catalog.DiscoveredInstance{{Provider: "aws", Name: "g5.xlarge", GPUName: "A10G\x1b]0;pwned\x07"}, {Provider: "aws", Name: "g5.xlarge", GPUName: "A10G"}}
	if err := checker().Check(res); err != nil {
		t.Fatal(err)
	}
	if len(res.Offers) != 1 || res.Offers[0].ID() != "aws/g5.xlarge/us-east-1/on-demand" || len(res.Bands) != 0 || len(res.Instances) != 1 {
		t.Errorf("kept %d offers, %d bands, %d instances", len(res.Offers), len(res.Bands), len(res.Instances))
	}
	lines := strings.Join(res.Skipped.Lines(), "\n")
	if !strings.Contains(lines, "7 "+SkipBadIdentifier) || strings.ContainsRune(lines, 0x1b) {
		t.Errorf("skipped:\n%q", lines)
	}
}
