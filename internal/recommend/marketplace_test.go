package recommend_test

import (
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/perf"
	"github.com/gpuscout/gpuscout/internal/recommend"
)

// TestMarketplacePlansSayso checks that a plan on a marketplace (Vast.ai)
// says, in English and Chinese, that its price is one host's asking price
// with no SLA, and that a plan on a cloud with list prices does not.
func TestMarketplacePlansSayso(t *testing.T) {
	e := engine(t)
	job := recommend.Workload{Job: &perf.Job{Kind: perf.TransformerTrain, Params: 1e9, Tokens: 1e9}}
	for _, tt := range []struct {
		provider, want string
		p              *i18n.Printer
		marketplace    bool
	}{
		{"vast", "vast is a marketplace", en, true},
		{"vast", "vast 为 GPU 租赁市场", i18n.NewPrinter(i18n.ZH), true},
		{"nebius", "marketplace", en, false},
	} {
		res, err := e.Recommend(recommend.Requirements{Workload: job, MaxGPUs: 1, Providers: []string{tt.provider}}, tt.p)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Plans) == 0 {
			t.Fatalf("%s: no plans", tt.provider)
		}
		for _, pl := range res.Plans {
			all := strings.Join(pl.Reasons, "\n")
			if strings.Contains(all, tt.want) != tt.marketplace {
				t.Errorf("%s plan %s: marketplace note present = %v, want %v:\n%s", tt.provider, pl.Offer.ID(), !tt.marketplace, tt.marketplace, all)
			}
		}
	}
}
