package recommend_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/catalog/curated"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/perf"
	"github.com/gpuscout/gpuscout/internal/recommend"
)

// "Where can I run this on 8 A100s now?": of two plans a few cents apart,
// the one a provider's API last saw available ranks first and says how
// long ago; the cheaper one whose API listed no capacity keeps its price
// (no capacity is a risk, not a cost) and carries the risk, in English and
// Chinese.
func TestAdvisorPrefersCapacitySeen(t *testing.T) {
	ds, err := curated.Load(os.DirFS("../cli/testdata/catalog"), nil)
	if err != nil {
		t.Fatal(err)
	}
	e := engineOn(t, ds)
	req := recommend.Requirements{Workload: recommend.Workload{Job: &perf.Job{Kind: perf.TransformerTrain, Params: 1e9, Tokens: 1e10}},
		GPUs: []string{"A100-SXM4-40GB"}, Providers: []string{"aws"}, Regions: []string{"us-east-1", "us-west-2"}, Currency: "USD"}
	const avail, none = "aws/p4d.24xlarge/us-east-1/on-demand", "aws/p4d.24xlarge/us-west-2/on-demand"
	before, err := e.Recommend(req, en)
	if err != nil {
		t.Fatal(err)
	}
	costs := map[string]float64{}
	for _, pl := range before.Plans {
		costs[pl.Offer.ID()] = pl.Cost
	}
	seen := e.Now.Add(-12 * time.Minute)
	for _, o := range ds.Catalog.Offers() {
		switch o.ID() {
		case avail:
			o.Stock = &catalog.Stock{State: catalog.StockAvailable, Seen: seen}
		case none:
			o.Stock = &catalog.Stock{State: catalog.StockNone, Seen: seen}
		}
	}
	for _, tt := range []struct {
		p            *i18n.Printer
		reason, risk string
	}{
		{en, "Capacity: aws's own API listed it available 12 min ago", "No capacity now: aws's own API listed none 12 min ago"},
		{i18n.NewPrinter(i18n.ZH), "容量：aws 自身 API 在 12 分钟前显示有货", "当前无容量：aws 自身 API 在 12 分钟前显示无可用容量"},
	} {
		res, err := e.Recommend(req, tt.p)
		if err != nil {
			t.Fatal(err)
		}
		rank := map[string]int{}
		for _, pl := range res.Plans {
			if _, ok := rank[pl.Offer.ID()]; !ok {
				rank[pl.Offer.ID()] = pl.Rank
			}
			reasons, risks := strings.Join(pl.Reasons, "\n"), strings.Join(pl.Risks, "\n")
			switch pl.Offer.ID() {
			case avail:
				if !strings.Contains(reasons, tt.reason) {
					t.Errorf("%s: the plan seen available does not say so:\n%s", tt.p.Lang(), reasons)
				}
			case none:
				if !strings.Contains(risks, tt.risk) {
					t.Errorf("%s: the plan with no capacity lacks the risk:\n%s", tt.p.Lang(), risks)
				}
				if c, ok := costs[none]; ok && pl.Instances == 1 && c != pl.Cost {
					t.Errorf("%s: no capacity changed the cost %v to %v", tt.p.Lang(), c, pl.Cost)
				}
			}
		}
		ra, okA := rank[avail]
		rn, okN := rank[none]
		if !okA || !okN || ra > rn {
			t.Errorf("%s: ranks %v: the plan seen available should come before the one with no capacity", tt.p.Lang(), rank)
		}
	}
}
