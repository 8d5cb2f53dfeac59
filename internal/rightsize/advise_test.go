package rightsize_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/fx"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/pricing"
	"github.com/gpuscout/gpuscout/internal/rightsize"
	"github.com/gpuscout/gpuscout/internal/rightsize/synth"
	"github.com/gpuscout/gpuscout/internal/spot"
	"github.com/shopspring/decimal"
)

// The fixture catalog: a provider "acme" selling H100, A100, L40S, A10G and
// T4 instances in several sizes and billing models, and "bolt" selling a
// cheaper L40S elsewhere. GPU specs are the real ones; prices are fixtures
// (close to public list prices), labelled as such.
func src() catalog.Source {
	return catalog.Source{Kind: catalog.SourceUser, Ref: "rightsize test fixture", AsOf: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}
}

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func fixtureCatalog(t testing.TB) (*catalog.Catalog, *fx.Table) {
	t.Helper()
	gpu := func(id, fam, mem, memType, fp16 string, aliases ...string) *catalog.GPU {
		return &catalog.GPU{ID: id, Vendor: "NVIDIA", Family: fam, MemoryGB: d(mem), MemoryType: memType, FP16TFLOPS: d(fp16), Aliases: aliases, Source: src()}
	}
	inst := func(p, name, fam, g string, n int, memPer int) *catalog.InstanceType {
		return &catalog.InstanceType{Provider: p, Name: name, Family: fam, GPUID: g, GPUCount: decimal.NewFromInt(int64(n)),
			GPUMemoryGB: decimal.NewFromInt(int64(n * memPer)), VCPU: decimal.NewFromInt(int64(12 * n)), MemoryGiB: decimal.NewFromInt(int64(96 * n)),
			GPUInterconnect: catalog.LinkNone, Status: catalog.StatusCurrent, Source: src()}
	}
	off := func(p, it, region string, b catalog.Billing, hourly string) *catalog.Offer {
		return &catalog.Offer{Provider: p, InstanceName: it, RegionCode: region, Billing: b, Price: catalog.Price{Hourly: d(hourly), Currency: "USD"}, Source: src()}
	}
	data := catalog.Data{
		Providers: []*catalog.Provider{{ID: "acme", NameEN: "Acme Cloud", NameZH: "Acme 云", Source: src()},
			{ID: "bolt", NameEN: "Bolt GPU", NameZH: "Bolt", Source: src()}},
		Regions: []*catalog.Region{
			{Provider: "acme", Code: "us-east", NameEN: "US East", Country: "US", Residency: "us", Source: src()},
			{Provider: "acme", Code: "eu-west", NameEN: "EU West", Country: "DE", Residency: "eu", Source: src()},
			{Provider: "bolt", Code: "us-central", NameEN: "US Central", Country: "US", Residency: "us", Source: src()},
		},
		GPUs: []*catalog.GPU{
			gpu("H100-SXM-80GB", "H100", "80", "HBM3", "989.4", "NVIDIA H100 80GB HBM3"),
			gpu("A100-SXM4-40GB", "A100", "40", "HBM2", "312", "NVIDIA A100-SXM4-40GB"),
			gpu("A100-SXM4-80GB", "A100", "80", "HBM2e", "312", "NVIDIA A100-SXM4-80GB"),
			gpu("L40S", "L40S", "48", "GDDR6", "362", "NVIDIA L40S"),
			gpu("A10G", "A10G", "24", "GDDR6", "125", "NVIDIA A10G"),
			gpu("T4", "T4", "16", "GDDR6", "65", "Tesla T4"),
			{ID: "MI300X", Vendor: "AMD", Family: "MI300X", MemoryGB: d("192"), MemoryType: "HBM3", FP16TFLOPS: d("1307.4"), Source: src()},
		},
		Instances: []*catalog.InstanceType{
			inst("acme", "h100-1g", "h100", "H100-SXM-80GB", 1, 80), inst("acme", "h100-8g", "h100", "H100-SXM-80GB", 8, 80),
			inst("acme", "a100-1g", "a100", "A100-SXM4-40GB", 1, 40), inst("acme", "a100-2g", "a100", "A100-SXM4-40GB", 2, 40),
			inst("acme", "a100-4g", "a100", "A100-SXM4-40GB", 4, 40), inst("acme", "a100-8g", "a100", "A100-SXM4-40GB", 8, 40),
			inst("acme", "a100u-1g", "a100u", "A100-SXM4-80GB", 1, 80),
			inst("acme", "l40s-1g", "l40s", "L40S", 1, 48), inst("acme", "l40s-4g", "l40s", "L40S", 4, 48),
			inst("acme", "a10g-1g", "a10g", "A10G", 1, 24), inst("acme", "t4-1g", "t4", "T4", 1, 16),
			inst("acme", "mi300x-8g", "mi300x", "MI300X", 8, 192),
			inst("bolt", "l40s.1", "l40s", "L40S", 1, 48), inst("bolt", "l40s.2", "l40s", "L40S", 2, 48),
		},
		Offers: []*catalog.Offer{
			off("acme", "h100-8g", "us-east", catalog.OnDemand, "55.04"),
			off("acme", "h100-8g", "us-east", catalog.Reserved1yNo, "34.68"), // break-even 63 %
			off("acme", "h100-8g", "us-east", catalog.Reserved3yNo, "24.77"), // break-even 45 %
			off("acme", "h100-8g", "us-east", catalog.Spot, "22.0"),
			off("acme", "h100-1g", "us-east", catalog.OnDemand, "6.88"),
			off("acme", "h100-1g", "us-east", catalog.Reserved1yNo, "4.34"),
			off("acme", "h100-1g", "us-east", catalog.Reserved3yNo, "3.10"),
			off("acme", "h100-1g", "us-east", catalog.Spot, "2.75"),
			off("acme", "h100-1g", "eu-west", catalog.OnDemand, "7.50"),
			off("acme", "a100-1g", "us-east", catalog.OnDemand, "3.67"),
			off("acme", "a100-2g", "us-east", catalog.OnDemand, "7.35"),
			off("acme", "a100-4g", "us-east", catalog.OnDemand, "14.69"),
			off("acme", "a100-8g", "us-east", catalog.OnDemand, "29.39"),
			off("acme", "a100-8g", "us-east", catalog.Reserved1yNo, "18.50"),
			off("acme", "a100-8g", "us-east", catalog.Reserved3yNo, "13.20"),
			off("acme", "a100u-1g", "us-east", catalog.OnDemand, "5.07"),
			off("acme", "l40s-1g", "us-east", catalog.OnDemand, "1.861"),
			off("acme", "l40s-4g", "us-east", catalog.OnDemand, "10.49"),
			off("acme", "a10g-1g", "us-east", catalog.OnDemand, "1.006"),
			off("acme", "t4-1g", "us-east", catalog.OnDemand, "0.526"),
			// cheap and large, but another vendor: never proposed for NVIDIA logs
			off("acme", "mi300x-8g", "us-east", catalog.OnDemand, "30.00"),
			off("bolt", "l40s.1", "us-central", catalog.OnDemand, "1.20"),
			off("bolt", "l40s.2", "us-central", catalog.OnDemand, "2.40"),
		},
	}
	c, err := catalog.New(data)
	if err != nil {
		t.Fatalf("fixture catalog: %v", err)
	}
	rates, err := fx.New([]fx.Rate{{Currency: "CNY", PerUSD: d("7.1"), AsOf: src().AsOf, Source: "fixture"}})
	if err != nil {
		t.Fatal(err)
	}
	return c, rates
}

func advisor(t testing.TB, currency string) *rightsize.Advisor {
	c, rates := fixtureCatalog(t)
	return &rightsize.Advisor{Catalog: c, Engine: &pricing.Engine{Prices: c, FX: rates, Spot: spot.CostHook{Facts: c}}, Currency: currency}
}

// advise runs a scenario through parse, statistics and advice.
func advise(t *testing.T, scenario, offerID string) (*rightsize.Stats, *rightsize.Advice) {
	t.Helper()
	var buf bytes.Buffer
	if err := synth.WriteNVSMI(&buf, synth.Scenarios[scenario](), synth.CSVOptions{}); err != nil {
		t.Fatal(err)
	}
	st, _, err := rightsize.Analyze(&buf, scenario, rightsize.Options{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	a := advisor(t, "USD")
	off, ok := a.Catalog.Offer(offerID)
	if !ok {
		t.Fatalf("no offer %s", offerID)
	}
	adv, err := a.Advise(off, st, 0)
	if err != nil {
		t.Fatal(err)
	}
	return st, adv
}

func kinds(adv *rightsize.Advice) []string {
	var out []string
	for _, r := range adv.Recommendations {
		id := "-"
		if r.Offer != nil {
			id = r.Offer.ID()
		}
		out = append(out, r.Kind+" "+id)
	}
	return out
}

func find(adv *rightsize.Advice, kind string) []rightsize.Recommendation {
	var out []rightsize.Recommendation
	for _, r := range adv.Recommendations {
		if r.Kind == kind {
			out = append(out, r)
		}
	}
	return out
}

func money(t *testing.T, got decimal.Decimal, want string) {
	t.Helper()
	if !got.Round(2).Equal(d(want)) {
		t.Errorf("amount %s, want %s", got.Round(2), want)
	}
}

func TestSteadyTrainingRecommendsACommitment(t *testing.T) {
	st, adv := advise(t, "steady-8xh100", "acme/h100-8g/us-east/on-demand")
	if st.Pattern != "steady" || st.ActiveGPUs != 8 || st.BusyShare < 0.99 {
		t.Fatalf("pattern %s, active %d, busy %.3f", st.Pattern, st.ActiveGPUs, st.BusyShare)
	}
	money(t, adv.CurrentMonthly, "40179.20") // 55.04 × 730
	if len(adv.Recommendations) != 1 {
		t.Fatalf("recommendations %v, want one commitment", kinds(adv))
	}
	r := adv.Recommendations[0]
	if r.Kind != rightsize.KindCommitment || r.Offer.Billing != catalog.Reserved3yNo {
		t.Fatalf("got %v, want the 3-year reservation", kinds(adv))
	}
	money(t, r.Monthly, "18082.10")              // 24.77 × 730
	money(t, r.Saving, "22097.10")               // 40179.20 − 18082.10
	if !strings.Contains(reasonText(r), "45%") { // break-even 24.77 / 55.04
		t.Errorf("reason should name the break-even: %s", reasonText(r))
	}
	if len(adv.BreakEven) != 2 {
		t.Errorf("break-evens %v, want both reservations", adv.BreakEven)
	}
}

func TestTwoOfEightGPUsRecommendsATwoGPUInstance(t *testing.T) {
	st, adv := advise(t, "two-of-eight-a100", "acme/a100-8g/us-east/on-demand")
	if st.ActiveGPUs != 2 {
		t.Fatalf("active GPUs %d, want 2", st.ActiveGPUs)
	}
	fewer := find(adv, rightsize.KindFewerGPUs)
	if len(fewer) != 1 || fewer[0].Offer.ID() != "acme/a100-2g/us-east/on-demand" || fewer[0].Instances != 1 {
		t.Fatalf("recommendations %v, want acme/a100-2g", kinds(adv))
	}
	r := fewer[0]
	money(t, r.CurrentMonthly, "21454.70") // 29.39 × 730
	money(t, r.Monthly, "5365.50")         // 7.35 × 730
	money(t, r.Saving, "16089.20")
	if !strings.Contains(reasonText(r), "Only 2 of the 8 GPUs") {
		t.Errorf("reason: %s", reasonText(r))
	}
	// 30 GiB per GPU fits an L40S (45 GiB usable), faster at FP16: acme's
	// 4-GPU L40S costs more than its 2-GPU A100 (not shown), bolt's 2-GPU
	// L40S less (shown, labelled as another provider). Two 1-GPU machines
	// would split one machine's work: not offered.
	gpus := find(adv, rightsize.KindCheaperGPU)
	if len(gpus) != 1 || gpus[0].Offer.ID() != "bolt/l40s.2/us-central/on-demand" || gpus[0].Scope != "other provider" || gpus[0].Instances != 1 {
		t.Fatalf("cheaper GPU recommendations %v", kinds(adv))
	}
	money(t, gpus[0].Monthly, "1752.00")
}

func TestIdleNightsRecommendsOnDemandNotAReservation(t *testing.T) {
	st, adv := advise(t, "idle-nights-8xh100", "acme/h100-8g/us-east/on-demand")
	if st.Pattern != "daily" || st.DailyWindow != "09:00–18:00" || st.BusyClockHours != 63 || st.SpanClockHours != 168 {
		t.Fatalf("pattern %s %q, busy hours %d/%d", st.Pattern, st.DailyWindow, st.BusyClockHours, st.SpanClockHours)
	}
	if len(find(adv, rightsize.KindCommitment)) != 0 || len(find(adv, rightsize.KindSpot)) != 0 {
		t.Fatalf("recommendations %v: busy 37.5%% of hours is below every break-even", kinds(adv))
	}
	s := find(adv, rightsize.KindSchedule)
	if len(s) != 1 {
		t.Fatalf("recommendations %v, want an on-demand schedule", kinds(adv))
	}
	money(t, s[0].Monthly, "15067.20") // 55.04 × 730 × 0.375
	money(t, s[0].Saving, "25112.00")
	if !strings.Contains(s[0].Action.String(), "09:00–18:00") || !strings.Contains(reasonText(s[0]), "Not a commitment: reserved-3y-no-upfront would need") {
		t.Errorf("action %q reason %q", s[0].Action.String(), reasonText(s[0]))
	}

	// The same log on a 3-year reservation: move to on-demand for the hours used.
	var buf bytes.Buffer
	synth.WriteNVSMI(&buf, synth.Scenarios["idle-nights-8xh100"](), synth.CSVOptions{})
	st, _, _ = rightsize.Analyze(&buf, "x", rightsize.Options{}, 0)
	a := advisor(t, "USD")
	off, _ := a.Catalog.Offer("acme/h100-8g/us-east/reserved-3y-no-upfront")
	adv, err := a.Advise(off, st, 0)
	if err != nil {
		t.Fatal(err)
	}
	s = find(adv, rightsize.KindSchedule)
	if len(s) != 1 || s[0].Offer.ID() != "acme/h100-8g/us-east/on-demand" {
		t.Fatalf("recommendations %v, want on-demand instead of the reservation", kinds(adv))
	}
	money(t, s[0].CurrentMonthly, "18082.10")
	money(t, s[0].Saving, "3014.90")
	if !strings.Contains(reasonText(s[0]), "below the 45% utilisation above which reserved-3y-no-upfront pays") {
		t.Errorf("reason: %s", reasonText(s[0]))
	}
}

func TestBurstyInferenceRecommendsSpotScheduleAndASmallerGPU(t *testing.T) {
	st, adv := advise(t, "bursty-h100", "acme/h100-1g/us-east/on-demand")
	if st.Pattern != "bursty" || st.BusyShare > 0.2 {
		t.Fatalf("pattern %s busy %.3f", st.Pattern, st.BusyShare)
	}
	if len(find(adv, rightsize.KindCommitment)) != 0 {
		t.Errorf("no commitment for a bursty load: %v", kinds(adv))
	}
	if len(find(adv, rightsize.KindSchedule)) != 1 || len(find(adv, rightsize.KindSpot)) != 1 {
		t.Errorf("want an on-demand schedule and spot: %v", kinds(adv))
	}
	// 20 GiB peak on an 80 GB GPU: a 48 GB L40S (or a 24 GB A10G) holds it.
	gpus := find(adv, rightsize.KindCheaperGPU)
	if len(gpus) == 0 {
		t.Fatalf("no cheaper GPU: %v", kinds(adv))
	}
	for _, r := range gpus {
		if mem := r.Offer.Instance.GPU.MemoryGB.IntPart(); mem != 24 && mem != 48 {
			t.Errorf("%s has %d GB; want a 24 or 48 GB GPU", r.Offer.ID(), mem)
		}
		if r.Saving.Sign() <= 0 || !strings.Contains(reasonText(r), "slower at FP16") {
			t.Errorf("%s: saving %s, reason %s", r.Offer.ID(), r.Saving, reasonText(r))
		}
	}
}

func TestMemoryBoundKeepsTheMemory(t *testing.T) {
	_, adv := advise(t, "memory-bound-h100", "acme/h100-1g/us-east/on-demand")
	if len(find(adv, rightsize.KindFewerGPUs)) != 0 {
		t.Errorf("recommendations %v", kinds(adv))
	}
	gpus := find(adv, rightsize.KindCheaperGPU)
	if len(gpus) != 1 || gpus[0].Offer.Instance.GPUID != "A100-SXM4-80GB" {
		t.Fatalf("recommendations %v, want the 80 GB A100 only", kinds(adv))
	}
	// 70 GiB in use: the A100's compute is a third of the H100's, but at
	// 10–25 % utilisation the work still fits without taking longer.
	if !strings.Contains(reasonText(gpus[0]), "should not take longer") {
		t.Errorf("reason: %s", reasonText(gpus[0]))
	}
	money(t, gpus[0].Monthly, "3701.10") // 5.07 × 730
	if len(find(adv, rightsize.KindCommitment)) != 1 {
		t.Errorf("always busy (at low utilisation): want a commitment too, got %v", kinds(adv))
	}
}

func TestIdleLogRecommendsStopping(t *testing.T) {
	s := synth.Spec{GPUs: 2, Start: synth.Week, Duration: 12 * time.Hour, Interval: time.Minute, MemTotalMiB: synth.TotalH100,
		Model: "NVIDIA H100 80GB HBM3", Profile: synth.PartialGPUs(0, 0, 0)}
	var buf bytes.Buffer
	synth.WriteNVSMI(&buf, s, synth.CSVOptions{})
	st, _, err := rightsize.Analyze(&buf, "idle", rightsize.Options{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	a := advisor(t, "CNY")
	off, _ := a.Catalog.Offer("acme/h100-8g/us-east/on-demand")
	adv, err := a.Advise(off, st, 0)
	if err != nil {
		t.Fatal(err)
	}
	if st.Pattern != "idle" || len(adv.Recommendations) != 1 || adv.Recommendations[0].Kind != rightsize.KindStop {
		t.Fatalf("pattern %s, %v", st.Pattern, kinds(adv))
	}
	money(t, adv.Recommendations[0].Saving, "285272.32") // 55.04 × 730 × 7.1 CNY
	if !strings.Contains(strings.Join(i18n.English(adv.Notes), "\n"), "the log shows 2 of the 8 GPUs") {
		t.Errorf("notes: %v", adv.Notes)
	}
}

func TestWrongOfferIsNoted(t *testing.T) {
	var buf bytes.Buffer
	synth.WriteDCGM(&buf, synth.Scenarios["steady-8xa100"](), synth.DCGMOptions{})
	st, _, err := rightsize.Analyze(&buf, "x", rightsize.Options{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	a := advisor(t, "USD")
	off, _ := a.Catalog.Offer("acme/h100-8g/us-east/on-demand")
	adv, err := a.Advise(off, st, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(i18n.English(adv.Notes), "\n"), "the log's GPUs are NVIDIA A100-SXM4-40GB but h100-8g has H100-SXM-80GB") {
		t.Errorf("notes: %v", adv.Notes)
	}
	if !strings.Contains(strings.Join(i18n.English(adv.Notes), "\n"), "the log's GPUs have 40.0 GiB of memory") {
		t.Errorf("notes: %v", adv.Notes)
	}
}

// DCGM scrapes appended without timestamps: times come from --interval and
// the billing advice says so.
func TestNoTimestampsUsesTheInterval(t *testing.T) {
	var buf bytes.Buffer
	synth.WriteDCGM(&buf, synth.Scenarios["idle-nights-8xh100"](), synth.DCGMOptions{})
	st, rep, err := rightsize.Analyze(&buf, "x", rightsize.Options{}, 10*60_000)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Timestamps || st.TimeKnown || st.HourProfile != nil || st.SpanHours != 168 || st.BusyClockHours != 63 {
		t.Fatalf("timestamps %v, span %v, busy hours %d", rep.Timestamps, st.SpanHours, st.BusyClockHours)
	}
	a := advisor(t, "USD")
	off, _ := a.Catalog.Offer("acme/h100-8g/us-east/on-demand")
	adv, err := a.Advise(off, st, 0)
	if err != nil {
		t.Fatal(err)
	}
	s := find(adv, rightsize.KindSchedule)
	if len(s) != 1 || !strings.Contains(strings.Join(i18n.English(s[0].Caveats), "\n"), "a sample every 600s (--interval)") {
		t.Fatalf("%v %v", kinds(adv), s)
	}
	money(t, s[0].Monthly, "15067.20")
}

// reasonText is a recommendation's reason in English.
func reasonText(r rightsize.Recommendation) string {
	return i18n.NewPrinter(i18n.EN).Sentences(r.Reason)
}
