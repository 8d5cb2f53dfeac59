package recommend_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/gpuscout/gpuscout/internal/catalog/curated"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/recommend"
)

// windowsEngine is the embedded catalog with a user's overlay of Windows
// rates. The figures are TEST DATA, not AWS prices: the embedded catalog
// has no Windows rate (none with a source and date could be found), and a
// user gets real ones with gpuscout catalog update aws.
func windowsEngine(t *testing.T, rows string) *recommend.Engine {
	t.Helper()
	ds, err := curated.Load(curated.Embedded(), fstest.MapFS{"offers/windows-test.csv": &fstest.MapFile{Data: []byte(
		"provider,instance_type,region,billing,hourly,upfront,monthly,currency,source_kind,source_ref,as_of,notes,os\n" + rows)}})
	if err != nil {
		t.Fatal(err)
	}
	return engineOn(t, ds)
}

// TestWindowsWorkstationPricedAtWindowsRate asks what a team would: "a
// g4dn-class (T4) Windows remote workstation, 200 hours a month, cheapest".
// With a Windows rate in the catalog the plan is priced at it and says so;
// plans known only by a Linux rate (a lower bound) rank after it, and the
// top plan names the cheaper lower bound it was ranked above.
func TestWindowsWorkstationPricedAtWindowsRate(t *testing.T) {
	e := windowsEngine(t, "aws,g4dn.xlarge,us-east-1,on-demand,0.71,,,USD,user,test data: an illustrative Windows rate,2026-11-01,,windows\n")
	r := recommend.Requirements{Name: "g4dn Windows remote workstation", Workload: recommend.Workload{GPUHours: 200},
		GPUs: []string{"T4"}, MaxGPUs: 1, Providers: []string{"aws"}, OS: "windows", Priority: "cost", Limit: 5}
	for _, tc := range []struct {
		lang                               i18n.Lang
		rate, lowerBelow, after, lb, first string
	}{
		{i18n.EN, "Windows rate, licence included", "known here only by its Linux rate", "Ranked after the 1 offer(s) priced at a Windows rate", "the price shown is the Linux rate",
			"Ranked first for priority cost among the 1 plan(s) priced at a Windows rate"},
		{i18n.ZH, "Windows 价格，含 Windows 许可证", "在此只有 Linux 价格", "排在 1 个按 Windows 价格计价的报价之后", "所示价格为 Linux 价格",
			"在 1 个按 Windows 价格计价的方案中排第一"},
	} {
		res, err := e.Recommend(r, i18n.NewPrinter(tc.lang))
		if err != nil {
			t.Fatal(err)
		}
		top := res.Plans[0]
		if got := top.Offer.ID(); got != "aws/g4dn.xlarge/us-east-1/on-demand/windows" {
			t.Fatalf("%s: top plan %s, want the Windows rate", tc.lang, got)
		}
		// 200 GPU-hours on one T4 at 0.71 USD/h (plus start-up).
		if top.Cost < 200*0.71 || top.Cost > 202*0.71 {
			t.Errorf("%s: top plan costs %.2f, want about %.2f (the Windows rate)", tc.lang, top.Cost, 200*0.71)
		}
		text := strings.Join(top.Reasons, "\n")
		for _, w := range []string{tc.rate, tc.lowerBelow, tc.first} {
			if !strings.Contains(text, w) {
				t.Errorf("%s: top plan lacks %q:\n%s", tc.lang, w, text)
			}
		}
		if strings.Contains(text, tc.lb) {
			t.Errorf("%s: a plan priced at a Windows rate calls its price the Linux rate:\n%s", tc.lang, text)
		}
		if len(res.Plans) < 2 {
			t.Fatalf("%s: %d plans", tc.lang, len(res.Plans))
		}
		for _, pl := range res.Plans[1:] {
			if pl.Offer.OS == "windows" {
				continue
			}
			s := strings.Join(pl.Reasons, "\n")
			if !strings.Contains(s, tc.lb) || !strings.Contains(s, tc.after) {
				t.Errorf("%s: lower-bound plan %s does not say so:\n%s", tc.lang, pl.Offer.ID(), s)
			}
			if pl.Cost < top.Cost && !strings.Contains(text, pl.Offer.Instance.ID()) {
				t.Errorf("%s: %s (%.2f) is below the top plan (%.2f) and the top plan does not name it", tc.lang, pl.Offer.ID(), pl.Cost, top.Cost)
			}
		}
	}
}

// TestWindowsRateIsEvidence: a Windows rate for an instance type outside
// the documented list lets the type through the os filter (the provider
// sells it with Windows), priced at that rate.
func TestWindowsRateIsEvidence(t *testing.T) {
	e := windowsEngine(t, "aws,p4d.24xlarge,us-east-1,on-demand,40.5,,,USD,user,test data: an illustrative Windows rate,2026-11-01,,windows\n")
	r := recommend.Requirements{Workload: recommend.Workload{GPUHours: 800}, GPUs: []string{"A100"}, Providers: []string{"aws"}, OS: "windows", Limit: 3}
	res, err := e.Recommend(r, i18n.NewPrinter(i18n.EN))
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Plans[0].Offer.ID(); got != "aws/p4d.24xlarge/us-east-1/on-demand/windows" {
		t.Errorf("top plan %s, want the p4d Windows rate", got)
	}
}
