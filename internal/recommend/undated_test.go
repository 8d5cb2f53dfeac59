package recommend_test

import (
	"os"
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/catalog/catalogtest"
	"github.com/gpuscout/gpuscout/internal/catalog/curated"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/perf"
	"github.com/gpuscout/gpuscout/internal/recommend"
)

// TestUndatedPriceInReasons: a plan whose price has no date says so in its
// reasons and risks, in English and Chinese, and never "as of".
func TestUndatedPriceInReasons(t *testing.T) {
	const id, readOn = "aws/p5.48xlarge/us-east-1/on-demand", "2026-12-01"
	cat, err := catalogtest.WithUndatedOffer(os.DirFS("../cli/testdata/catalog"), "aws.csv", id, readOn)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := curated.Load(cat, nil)
	if err != nil {
		t.Fatal(err)
	}
	e := engineOn(t, ds)
	req := recommend.Requirements{Workload: recommend.Workload{Job: &perf.Job{Kind: perf.TransformerTrain, Params: 1e9, Tokens: 1e10}},
		Regions: []string{"us-east-1"}, GPUs: []string{"H100"}, Providers: []string{"aws"}, Currency: "USD"}
	for _, tt := range []struct {
		p                 *i18n.Printer
		reason, risk, not string
	}{
		{en, "undated (read " + readOn + ")", "The price is undated (read " + readOn + ")", "as of"},
		{i18n.NewPrinter(i18n.ZH), "无日期（" + readOn + " 读取）", "价格无日期（" + readOn + " 读取）", "截至"},
	} {
		res, err := e.Recommend(req, tt.p)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, pl := range res.Plans {
			if pl.Offer.ID() != id {
				continue
			}
			found = true
			reasons, risks := strings.Join(pl.Reasons, "\n"), strings.Join(pl.Risks, "\n")
			if !strings.Contains(reasons, tt.reason) || strings.Contains(reasons, tt.not+" ") {
				t.Errorf("%s: reasons lack %q or say %q:\n%s", tt.p.Lang(), tt.reason, tt.not, reasons)
			}
			if !strings.Contains(risks, tt.risk) {
				t.Errorf("%s: risks lack %q:\n%s", tt.p.Lang(), tt.risk, risks)
			}
		}
		if !found {
			t.Fatalf("%s: no plan on %s", tt.p.Lang(), id)
		}
	}
}
