package recommend_test

import (
	"math"
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/perf"
	"github.com/gpuscout/gpuscout/internal/recommend"
)

// TestDeadlineJobWeighsCapacityBlock checks that a deadline-bound H100
// training job on AWS is offered a Capacity Block beside on-demand and spot,
// that the block is charged in whole days up front, and that the reason says
// so in English and Chinese.
func TestDeadlineJobWeighsCapacityBlock(t *testing.T) {
	e := engine(t)
	r := recommend.Requirements{Workload: recommend.Workload{Job: &perf.Job{Kind: perf.TransformerTrain, Params: 7e9, Tokens: 2e10}},
		DeadlineHours: 240, GPUs: []string{"H100"}, MinGPUs: 8, MaxGPUs: 8, Providers: []string{"aws"}, Regions: []string{"us-east-1"},
		Interruptible: true, Priority: "cost", Limit: 50}
	for _, p := range []*i18n.Printer{en, i18n.NewPrinter(i18n.ZH)} {
		res, err := e.Recommend(r, p)
		if err != nil {
			t.Fatal(err)
		}
		byBilling := map[catalog.Billing]*recommend.Plan{}
		for _, pl := range res.Plans {
			if pl.Offer.InstanceName == "p5.48xlarge" && byBilling[pl.Offer.Billing] == nil {
				byBilling[pl.Offer.Billing] = pl
			}
		}
		cb, od := byBilling[catalog.CapacityBlock], byBilling[catalog.OnDemand]
		if cb == nil || od == nil {
			t.Fatalf("%s: want p5.48xlarge capacity-block and on-demand plans, got %v", p.Lang(), byBilling)
		}
		// The block covers the job's slow end (P90) and AWS's 30-minute
		// wind-down, in whole days.
		block, _ := catalog.CapacityBlockHours(cb.HoursHigh + 0.5)
		if block < cb.HoursHigh+0.5 || math.Mod(block, 24) != 0 || cb.BilledHours != block {
			t.Errorf("block %v h (billed %v h) does not cover the job's P90 %v h in whole days", block, cb.BilledHours, cb.HoursHigh)
		}
		want := cb.Offer.EffectiveHourly().InexactFloat64() * block * float64(cb.Instances)
		if math.Abs(cb.Cost-want) > 0.01 {
			t.Errorf("capacity-block cost %.2f, want %.2f (the whole %v-hour block)", cb.Cost, want, block)
		}
		if od.BilledHours >= block {
			t.Errorf("on-demand billed %v h, a block of %v h: the job is shorter than its block", od.BilledHours, block)
		}
		word := map[i18n.Lang]string{i18n.EN: "Capacity Block", i18n.ZH: "容量块"}[p.Lang()]
		if !strings.Contains(strings.Join(cb.Reasons, " "), word) {
			t.Errorf("%s: capacity-block plan reasons lack %q: %v", p.Lang(), word, cb.Reasons)
		}
	}
}

// TestFlexStartLimit checks that a job longer than 7 days gets no
// flex-start plan and a shorter one can.
func TestFlexStartLimit(t *testing.T) {
	e := engine(t)
	base := recommend.Requirements{GPUs: []string{"H100"}, MinGPUs: 8, MaxGPUs: 8, Providers: []string{"gcp"}, Regions: []string{"us-central1"},
		Priority: "cost", Limit: 50}
	for _, tt := range []struct {
		tokens float64
		want   bool
	}{{2e10, true}, {2e12, false}} {
		r := base
		r.Workload = recommend.Workload{Job: &perf.Job{Kind: perf.TransformerTrain, Params: 7e9, Tokens: tt.tokens}}
		res, err := e.Recommend(r, en)
		if err != nil {
			t.Fatal(err)
		}
		got := false
		for _, pl := range res.Plans {
			if pl.Offer.Billing == catalog.FlexStart {
				got = true
				if pl.HoursHigh > catalog.FlexStartMaxHours {
					t.Errorf("flex-start plan runs %v h, over the 7-day limit", pl.HoursHigh)
				}
			}
		}
		if got != tt.want {
			t.Errorf("tokens %g: flex-start plan present = %v, want %v", tt.tokens, got, tt.want)
		}
	}
}
