package catalog_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/catalog/catalogtest"
	"github.com/shopspring/decimal"
)

var D = catalogtest.D

func TestEffectiveHourly(t *testing.T) {
	tests := []struct {
		name    string
		billing catalog.Billing
		price   catalog.Price
		want    string
	}{
		{"on-demand is its hourly price", catalog.OnDemand, catalog.Price{Hourly: D("32.7726")}, "32.7726"},
		{"all upfront 1y spreads over 8760 h", catalog.Reserved1yAll, catalog.Price{Upfront: D("87600")}, "10"},
		{"partial upfront 3y adds both parts", catalog.Reserved3yPart, catalog.Price{Hourly: D("5"), Upfront: D("26280")}, "6"},
		{"包月 monthly over 730 h", catalog.Subscription1m, catalog.Price{Monthly: D("7300")}, "10"},
		{"包年 upfront over a year", catalog.Subscription1y, catalog.Price{Upfront: D("17520")}, "2"},
		{"3-year subscription", catalog.Subscription3y, catalog.Price{Upfront: D("26280")}, "1"},
		{"all three parts", catalog.Savings1yPart, catalog.Price{Hourly: D("1"), Upfront: D("8760"), Monthly: D("730")}, "3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.price.EffectiveHourly(tt.billing.TermHours())
			if !got.Equal(D(tt.want)) {
				t.Errorf("EffectiveHourly = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestBillingCodes(t *testing.T) {
	for _, b := range catalog.BillingCodes() {
		got, err := catalog.ParseBilling(string(b))
		if err != nil || got != b {
			t.Errorf("ParseBilling(%q) = %q, %v", b, got, err)
		}
	}
	for in, want := range map[string]catalog.Billing{"按量付费": catalog.OnDemand, "抢占式": catalog.Spot, "竞价": catalog.Spot,
		"包月": catalog.Subscription1m, "包年": catalog.Subscription1y, "preemptible": catalog.Spot} {
		if got, err := catalog.ParseBilling(in); err != nil || got != want {
			t.Errorf("ParseBilling(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := catalog.ParseBilling("monthly"); err == nil {
		t.Error("ParseBilling(monthly) succeeded; want an error")
	}
	if !catalog.MatchBilling(catalog.Reserved3yAll, "reserved") || catalog.MatchBilling(catalog.Savings1yNo, "reserved") {
		t.Error("family filter 'reserved' must match reserved-* and nothing else")
	}
	if catalog.Spot.IsCommitment() || !catalog.Subscription1m.IsCommitment() || !catalog.Committed3y.IsCommitment() {
		t.Error("IsCommitment wrong")
	}
	if catalog.Committed3y.TermHours() != 26280 || catalog.OnDemand.TermHours() != 0 || catalog.Subscription1m.TermHours() != 730 {
		t.Error("TermHours wrong")
	}
}

func TestFixtureIsValid(t *testing.T) {
	c := catalogtest.New(t)
	if got := len(c.Offers()); got != 8 {
		t.Fatalf("offers = %d, want 8", got)
	}
	o, ok := c.Offer("acme/big8/us-east/reserved-1y-partial-upfront")
	if !ok {
		t.Fatal("offer not indexed by ID")
	}
	if o.Instance == nil || o.Region == nil || o.Instance.GPU == nil {
		t.Fatal("offer references not resolved")
	}
	// 6 + 61320/8760 = 13 per hour; per GPU 13/8.
	if !o.EffectiveHourly().Equal(D("13")) || !o.PerGPUHourly().Equal(D("1.625")) {
		t.Errorf("effective %s, per GPU %s", o.EffectiveHourly(), o.PerGPUHourly())
	}
}

// TestValidation breaks one field of a valid data set per case and checks
// that validation names the record and the field.
func TestValidation(t *testing.T) {
	tests := []struct {
		name   string
		break_ func(d *catalog.Data)
		record string
		field  string
		msg    string
	}{
		{"negative price", func(d *catalog.Data) { d.Offers[0].Price.Hourly = D("-1") }, "acme/big8/us-east/on-demand", "hourly", "negative"},
		{"no price at all", func(d *catalog.Data) { d.Offers[4].Price = catalog.Price{Currency: "USD"} }, "acme/small1/us-east/on-demand", "hourly", "positive"},
		{"spot above on-demand", func(d *catalog.Data) { d.Offers[1].Price.Hourly = D("20.01") }, "acme/big8/us-east/spot", "price", "above the on-demand"},
		{"reservation above on-demand", func(d *catalog.Data) { d.Offers[2].Price.Upfront = D("200000") }, "acme/big8/us-east/reserved-1y-partial-upfront", "price", "above the on-demand"},
		{"subscription above on-demand", func(d *catalog.Data) { d.Offers[7].Price.Monthly = D("110000") }, "panda/gpu.8x80/cn-north/subscription-1m", "price", "above the on-demand"},
		{"unknown instance", func(d *catalog.Data) { d.Offers[0].InstanceName = "nope" }, "acme/nope/us-east/on-demand", "instance_type", "unknown instance type"},
		{"unknown region", func(d *catalog.Data) { d.Offers[0].RegionCode = "mars-1" }, "acme/big8/mars-1/on-demand", "region", "unknown region"},
		{"bad billing", func(d *catalog.Data) { d.Offers[0].Billing = "monthly" }, "acme/big8/us-east/monthly", "billing", "canonical"},
		{"bad currency", func(d *catalog.Data) { d.Offers[0].Price.Currency = "usd" }, "acme/big8/us-east/on-demand", "currency", "ISO 4217"},
		{"upfront without term", func(d *catalog.Data) { d.Offers[1].Price.Upfront = D("1") }, "acme/big8/us-east/spot", "upfront", "no term"},
		{"duplicate offer", func(d *catalog.Data) { d.Offers = append(d.Offers, d.Offers[0]) }, "acme/big8/us-east/on-demand", "", "duplicate offer (the same price from"},
		// Which source is right when two give one offer different prices?
		// The problem names both, with their citations and dates.
		{"two sources disagree", func(d *catalog.Data) {
			o := *d.Offers[0]
			o.Price.Hourly = o.Price.Hourly.Add(D("1"))
			o.Source.Ref = "https://example.com/later-page"
			d.Offers = append(d.Offers, &o)
		}, "acme/big8/us-east/on-demand", "", "two sources disagree"},
		{"missing source", func(d *catalog.Data) { d.Offers[0].Source.Ref = "" }, "acme/big8/us-east/on-demand", "source_ref", "source"},
		{"missing as-of", func(d *catalog.Data) { d.Instances[0].Source.AsOf = time.Time{} }, "acme/big8", "as_of", "or read_on for an undated source"},
		{"as-of and read_on both set", func(d *catalog.Data) { d.Offers[0].Source.ReadOn = d.Offers[0].Source.AsOf }, "acme/big8/us-east/on-demand", "read_on", "only for an undated source"},
		{"bad source kind", func(d *catalog.Data) { d.GPUs[0].Source.Kind = "blog" }, "A100-SXM4-40GB", "source_kind", "not one of"},
		{"GPU memory inconsistent", func(d *catalog.Data) { d.Instances[0].GPUMemoryGB = D("640") }, "acme/big8", "gpu_memory_gb", "does not match"},
		{"unknown GPU with suggestion", func(d *catalog.Data) { d.Instances[1].GPUID = "A10G" }, "acme/small1", "gpu", "did you mean A10"},
		{"zero GPUs", func(d *catalog.Data) { d.Instances[1].GPUCount = D("0") }, "acme/small1", "gpu_count", "positive"},
		{"bad interconnect", func(d *catalog.Data) { d.Instances[0].GPUInterconnect = "infinity" }, "acme/big8", "gpu_interconnect", "not one of"},
		{"bad rdma", func(d *catalog.Data) { d.Instances[0].RDMA = "fast" }, "acme/big8", "rdma", "not one of"},
		{"bad status", func(d *catalog.Data) { d.Instances[0].Status = "gone" }, "acme/big8", "status", "not one of"},
		{"duplicate instance", func(d *catalog.Data) { d.Instances = append(d.Instances, d.Instances[0]) }, "acme/big8", "instance_type", "duplicate"},
		{"region residency disagrees", func(d *catalog.Data) { d.Regions[2].Residency = "cn" }, "panda/cn-north", "residency", "cn-mainland"},
		{"bad country", func(d *catalog.Data) { d.Regions[0].Country = "USA" }, "acme/us-east", "country", "ISO 3166"},
		{"duplicate region", func(d *catalog.Data) { d.Regions = append(d.Regions, d.Regions[0]) }, "acme/us-east", "code", "duplicate"},
		{"unknown provider", func(d *catalog.Data) { d.Regions[0].Provider = "zeta" }, "zeta/us-east", "provider", "unknown provider"},
		{"bad provider id", func(d *catalog.Data) { d.Providers[0].ID = "Acme Cloud" }, "Acme Cloud", "id", "lower-case"},
		{"GPU without memory", func(d *catalog.Data) { d.GPUs[2].MemoryGB = decimal.Zero }, "A10", "memory_gb", "positive"},
		// Where does a GPU's FP64 figure come from? A document a reader can
		// open, never the project's own research notes.
		{"FP64 source cites research notes", func(d *catalog.Data) {
			d.GPUs[0].FP64Source = "NVIDIA product page: FP64 1 TFLOPS (seed research rates it medium confidence)"
		}, "A100-SXM4-40GB", "fp64_source", "internal research notes"},
		{"negative TFLOPS", func(d *catalog.Data) { d.GPUs[2].FP16TFLOPS = D("-5") }, "A10", "fp16_tflops", "negative"},
		{"claim without evidence", func(d *catalog.Data) { d.Claims[0].Evidence = "" }, "c1", "evidence", "evidence"},
		{"claim with bad verdict", func(d *catalog.Data) { d.Claims[0].Verdict = "nonsense" }, "c1", "verdict", "not one of"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := catalogtest.Data()
			tt.break_(&d)
			_, err := catalog.New(d)
			var ve *catalog.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("New: err = %v, want a *ValidationError", err)
			}
			for _, p := range ve.Problems {
				if p.Record == tt.record && p.Field == tt.field && strings.Contains(p.Msg, tt.msg) {
					return
				}
			}
			t.Errorf("no problem for %s field %q containing %q; got:\n%v", tt.record, tt.field, tt.msg, err)
		})
	}
}

// TestUndatedSourceIsValid: a source with no as-of date but the day it was
// read is valid and undated.
func TestUndatedSourceIsValid(t *testing.T) {
	d := catalogtest.Data()
	d.Offers[0].Source.ReadOn, d.Offers[0].Source.AsOf = d.Offers[0].Source.AsOf, time.Time{}
	c, err := catalog.New(d)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	o, ok := c.Offer("acme/big8/us-east/on-demand")
	if !ok {
		t.Fatal("offer acme/big8/us-east/on-demand missing")
	}
	if !o.Source.Undated() || o.Source.AsOfString() != "" || o.Source.ReadOnString() == "" {
		t.Errorf("offer %s: Undated %v, as-of %q, read on %q; want undated with a read-on day", o.ID(), o.Source.Undated(), o.Source.AsOfString(), o.Source.ReadOnString())
	}
}

func TestValidationErrorNamesPosition(t *testing.T) {
	d := catalogtest.Data()
	d.Offers[0].Price.Hourly = D("-1")
	d.Positions = map[any]catalog.Position{d.Offers[0]: {File: "offers/acme.csv", Line: 7}}
	_, err := catalog.New(d)
	if err == nil || !strings.Contains(err.Error(), "offers/acme.csv:7: acme/big8/us-east/on-demand: field hourly: must not be negative") {
		t.Errorf("error = %v", err)
	}
}
