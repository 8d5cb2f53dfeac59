package recommend_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/catalog/curated"
	"github.com/gpuscout/gpuscout/internal/perf"
	"github.com/gpuscout/gpuscout/internal/pricing"
	"github.com/gpuscout/gpuscout/internal/recommend"
	"github.com/gpuscout/gpuscout/internal/recommend/jobfile"
	"github.com/gpuscout/gpuscout/internal/spot"
)

// TestPrefilterGivesTheFullAnswer: loading only the offers of the
// instance types a Prefilter keeps, and reporting the others to it, gives
// the plans, the constraint counts and the rejections (same offers, same
// stages, same reasons, same order) of a load of every offer, for jobs
// whose instance-level filters remove many offers.
func TestPrefilterGivesTheFullAnswer(t *testing.T) {
	d, rates, err := curated.LoadData(curated.Embedded(), nil)
	if err != nil {
		t.Fatal(err)
	}
	build := func(c *catalog.Catalog, pf *recommend.Prefilter) *recommend.Engine {
		m, _, err := perf.New(c)
		if err != nil {
			t.Fatal(err)
		}
		return &recommend.Engine{Catalog: c, Perf: m, FX: rates, Now: time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC), Prefiltered: pf,
			Pricing: &pricing.Engine{Prices: c, FX: rates, Spot: spot.CostHook{Facts: c}}}
	}
	render := func(res *recommend.Result) string {
		s := fmt.Sprintf("feasible %d considered %d\n", res.Feasible, res.Considered)
		for _, p := range res.Plans {
			s += fmt.Sprintf("plan %s %.2f\n", p.ID(), p.Cost)
		}
		for _, c := range res.Constraints {
			s += fmt.Sprintf("constraint %s %q %d\n", c.Stage, c.Constraint, c.Removed)
		}
		for _, r := range res.Rejected {
			s += fmt.Sprintf("rejected %s %s %q\n", r.OfferID(), r.Stage, r.Reason)
		}
		return s
	}
	jobs := map[string]string{
		"nvswitch+rdma": `workload:
  job: {kind: transformer-train, params: 13e9, tokens: 300e9, precision: bf16}
deadline_hours: 336
gpu: {min_gpus: 16, max_gpus: 256, multi_node: true, rdma: true, interconnect: nvswitch}
`,
		"h100 on aws or gcp": `workload: {gpu_hours: 500}
gpu: {models: [H100], min_gpus: 8}
providers: [aws, gcp]
`,
	}
	for name, job := range jobs {
		t.Run(name, func(t *testing.T) {
			r, err := jobfile.Read(strings.NewReader(job))
			if err != nil {
				t.Fatal(err)
			}
			full, err := catalog.New(d)
			if err != nil {
				t.Fatal(err)
			}
			want, err := build(full, nil).Recommend(r, en)
			if err != nil {
				t.Fatal(err)
			}
			// The curated offers stand for imported ones: the prefilter
			// decides on the catalog without them.
			none := d
			none.Offers = nil
			base, err := catalog.New(none)
			if err != nil {
				t.Fatal(err)
			}
			pf, err := (&recommend.Engine{Catalog: base}).NewPrefilter(r, en)
			if err != nil {
				t.Fatal(err)
			}
			// Those of the types the prefilter rejects are left out.
			part := d
			part.Offers = nil
			left := map[[2]string][]string{}
			for _, o := range d.Offers {
				if pf.Keep(o.Provider, o.InstanceName) {
					part.Offers = append(part.Offers, o)
				} else {
					k := [2]string{o.Provider, o.InstanceName}
					left[k] = append(left[k], o.ID())
				}
			}
			for k, ids := range left { // in map order: LeaveOut sorts
				pf.LeaveOut(k[0], k[1], ids)
			}
			if pf.LeftOut() == 0 || len(part.Offers) == 0 {
				t.Fatalf("the prefilter left out %d offers and kept %d: the test needs both", pf.LeftOut(), len(part.Offers))
			}
			c, err := catalog.New(part)
			if err != nil {
				t.Fatal(err)
			}
			got, err := build(c, pf).Recommend(r, en)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := render(got), render(want); g != w {
				t.Errorf("prefiltered (%d offers left out):\n%s\nfull load:\n%s", pf.LeftOut(), g, w)
			}
		})
	}
}
