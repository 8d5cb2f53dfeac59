package server_test

import (
	"html"
	"os"
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
	tt := get(t, srv, "/estimate?job=bench:mlperf-train-bert&gpu=H100-SXM-80GB&count=64&lang=zh").Body.String()
	if i := strings.Index(tt, "data-basis"); i < 0 || strings.Contains(tt[i:], " minutes<") || !strings.Contains(tt[i:], "分钟") {
		t.Errorf("a time-to-train result's unit is not in Chinese on /estimate?lang=zh")
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
	missing := get(t, srv, "/estimate?job=transformer-train&params=7e9&gpu=H100-SXM-80GB&lang=zh").Body.String()
	if !strings.Contains(missing, `data-error-detail>(transformer-train 作业此处需要正数。`) {
		t.Errorf("a missing job size is not explained in Chinese")
	}
	// A form error of ours shows its detail in Chinese, not marked as English.
	bad := get(t, srv, "/estimate?job=transformer-train&params=7e9&tokens=1e11&gpu=H100&lang=zh").Body.String()
	if !strings.Contains(bad, `<span class="muted" data-error-detail>(H100 匹配到 `) || !strings.Contains(bad, "请指定其中一个型号。") {
		i := strings.Index(bad, "data-error-detail")
		t.Errorf("the estimate form's error detail is not in Chinese: %.300s", bad[max(0, i-100):])
	}
}

// TestRightsizeReportInChinese posts a DCGM log with malformed lines to
// the Chinese right-size form: the report's bad-line reasons, actions,
// reasons, figures, caveats and notes show no English word outside the
// allowlist, and nothing in the report is marked as English.
func TestRightsizeReportInChinese(t *testing.T) {
	srv := newServer(t)
	data, err := os.ReadFile("../rightsize/testdata/steady-8xa100-malformed.prom.gz")
	if err != nil {
		t.Fatal(err)
	}
	rec := rsPost(t, srv, "zh", map[string]string{"offer": "aws/p4d.24xlarge/us-east-1/on-demand", "currency": "CNY"}, "gpu.prom.gz", data)
	body := rec.Body.String()
	if rec.Code != 200 || !strings.Contains(body, "data-bad-lines") || !strings.Contains(body, `data-rec="1"`) {
		t.Fatalf("status %d, no bad lines or recommendation:\n%.2000s", rec.Code, body)
	}
	main := body[strings.Index(body, "<main"):]
	main = main[:strings.Index(main, "</main>")]
	for _, want := range []string{"超出 0–100 %", "改为 aws/p4d.24xlarge/us-east-1/reserved-1y-no-upfront", "盈亏平衡利用率"} {
		if !strings.Contains(html.UnescapeString(main), want) {
			t.Errorf("the report does not say %q", want)
		}
	}
	if strings.Contains(main, `lang="en"`) {
		t.Errorf("part of the report is marked as English")
	}
	text := html.UnescapeString(regexp.MustCompile(`(?s)<(script|style|code|textarea)[^>]*>.*?</(script|style|code|textarea)>|<[^>]+>`).ReplaceAllString(main, " "))
	text = regexp.MustCompile(`"[^"\n]*"`).ReplaceAllString(text, `""`) // a bad line's quoted text is the user's data
	names := catalogNames(t)
	names["gzip"], names["prom"] = true, true // the uploaded file's name and compression
	if w := englishWords(text, names); len(w) > 0 {
		t.Errorf("the Chinese report shows English: %v", w)
	}
}
