package server_test

import (
	"regexp"
	"strings"
	"testing"
)

// TestEngineSentencesInChinese: the performance model's assumptions reach
// the Chinese /estimate page and the instance page's estimate tooltips in
// Chinese, not marked as English; the API answers in the requested
// language, as it does for the advisor's reasons, and keeps English
// otherwise.
func TestEngineSentencesInChinese(t *testing.T) {
	srv := newServer(t)
	est := get(t, srv, "/estimate?job=bench:bert-large-pretrain-seq128-throughput&gpu=A10&count=16&lang=zh").Body.String()
	list := regexp.MustCompile(`(?s)<ul data-assumptions>(.*?)</ul>`).FindStringSubmatch(est)
	if list == nil {
		t.Fatalf("no assumptions list (or still marked as English) on /estimate?lang=zh")
	}
	for _, want := range []string{"单卡吞吐由规格推算", "节点间全归约"} {
		if !strings.Contains(list[1], want) {
			t.Errorf("the assumptions do not say %q: %s", want, list[1])
		}
	}
	inst := get(t, srv, "/instances/aws/p4d.24xlarge?lang=zh").Body.String()
	if !strings.Contains(inst, "节点内全归约") {
		t.Errorf("the instance page's estimate tooltips are not in Chinese")
	}
	zh := get(t, srv, "/api/v1/estimate?benchmark=bert-large-pretrain-seq128-throughput&gpu=A10&count=16&lang=zh").Body.String()
	en := get(t, srv, "/api/v1/estimate?benchmark=bert-large-pretrain-seq128-throughput&gpu=A10&count=16").Body.String()
	if !strings.Contains(zh, "单卡吞吐由规格推算") || !strings.Contains(en, "per-GPU throughput from specs") {
		t.Errorf("API assumptions: zh %.300s\nen %.300s", zh, en)
	}
	// A form error of ours shows its detail in Chinese, not marked as English.
	bad := get(t, srv, "/estimate?job=transformer-train&params=7e9&tokens=1e11&gpu=H100&lang=zh").Body.String()
	if !strings.Contains(bad, `<span class="muted" data-error-detail>(--gpu H100 匹配到 `) || !strings.Contains(bad, "请指定其中一个型号。") {
		i := strings.Index(bad, "data-error-detail")
		t.Errorf("the estimate form's error detail is not in Chinese: %.300s", bad[max(0, i-100):])
	}
}
