package recommend_test

import (
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/recommend"
)

// TestHAServiceStatesTencentSLA: "I run a production model service on
// Tencent Cloud sized N+1: what availability does Tencent commit to?" Each
// plan states the CVM SLA of the mainland site its offers are bought on
// (99.95% per instance, no figure across zones; the international site's
// 99.975%/99.995% is another contract) with its page, says that the page
// does not name GPU instance types, in English and Chinese, and carries no
// "SLA unknown" risk.
func TestHAServiceStatesTencentSLA(t *testing.T) {
	e := engine(t)
	for _, tt := range []struct {
		p          *i18n.Printer
		sla, gpu   string
		unknownSLA string
	}{
		{en, "SLA: tencent commits to 99.95% monthly uptime for each instance and states no higher figure for instances across zones",
			"does not exclude them", "No compute SLA is recorded here for tencent"},
		{i18n.NewPrinter(i18n.ZH), "服务等级协议：tencent 承诺每个实例每月可用性 99.95%，未给出跨可用区实例的更高承诺",
			"也未将其排除", "此处未记录 tencent 的计算服务等级协议"},
	} {
		inf := recommend.Inference{Params: 7e9, QPS: 1, InputTokens: 500, OutputTokens: 200}
		res, err := e.Recommend(recommend.Requirements{Workload: recommend.Workload{Inference: &inf}, HA: true,
			Providers: []string{"tencent"}, HorizonMonths: 1, Limit: 3}, tt.p)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Plans) == 0 {
			t.Fatal("no tencent plan for the service")
		}
		for _, pl := range res.Plans {
			reasons, risks := strings.Join(pl.Reasons, "\n"), strings.Join(pl.Risks, "\n")
			if !strings.Contains(reasons, tt.sla) || !strings.Contains(reasons, "cloud.tencent.com/document/product/301/1973") || !strings.Contains(reasons, tt.gpu) {
				t.Errorf("%s: the plan does not state Tencent's SLA, its page and its GPU coverage:\n%s", pl.Offer.ID(), reasons)
			}
			if strings.Contains(risks, tt.unknownSLA) {
				t.Errorf("%s: SLA still unknown:\n%s", pl.Offer.ID(), risks)
			}
			if pl.SLA == nil || pl.SLA.Single != 99.95 || pl.SLA.Zones != 0 {
				t.Errorf("%s: plan SLA %+v", pl.Offer.ID(), pl.SLA)
			}
		}
	}
}
