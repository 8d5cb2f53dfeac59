package server_test

import (
	"html"

	"github.com/gpuscout/gpuscout/examples"
	"github.com/gpuscout/gpuscout/internal/i18n/zhcheck"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var (
	errorBoxRE = regexp.MustCompile(`(?s)<div class="error" role="alert"[^>]*>.*?</div>`)
	// englishSpan is a part of a page marked as English on purpose (an
	// error's detail passed through from elsewhere).
	englishSpan = regexp.MustCompile(`(?s)<span[^>]*translate="no"[^>]*>.*?</span>`)
	tags        = regexp.MustCompile(`<[^>]+>`)
)

// errorBox is the text of a page's error box ("" when it has none).
func errorBox(body string) string {
	return html.UnescapeString(tags.ReplaceAllString(errorBoxRE.FindString(body), " "))
}

// pageText is the text of a page's main part that a reader reads in the
// page's language: without scripts, job files, code and the parts marked
// as English.
func pageText(body string) string {
	if i := strings.Index(body, "<main"); i >= 0 {
		body = body[i:]
	}
	if i := strings.Index(body, "</main>"); i >= 0 {
		body = body[:i]
	}
	body = regexp.MustCompile(`(?s)<(script|style|code|pre|textarea)[^>]*>.*?</(script|style|code|pre|textarea)>`).ReplaceAllString(body, " ")
	body = englishSpan.ReplaceAllString(body, " ")
	return html.UnescapeString(tags.ReplaceAllString(body, " "))
}

// badRequests are wrong inputs to every page but the explorer, each
// answered with an error box.
var badRequests = []struct{ path, field string }{
	{"/instances/aws/no-such-type", ""},
	{"/instances/no-such-cloud/x", ""},
	{"/compare?offer=no/such/offer/x", "offer"},
	{"/compare?offer=aws/p5.48xlarge/us-east-1/on-demand&onprem=A100", "onprem"},
	{"/compare?offer=aws/p5.48xlarge/us-east-1/on-demand&months=abc", "months"},
	{"/compare?offer=aws/p5.48xlarge/us-east-1/on-demand&instances=0", "instances"},
	{"/spot?offer=aws/p5en.48xlarge/us-east-1/spot&work_hours=-1", "work_hours"},
	{"/spot?offer=aws/p5en.48xlarge/us-east-1/spot&checkpoint_minutes=x", "checkpoint_minutes"},
	{"/spot?offer=aws/nope/us-east-1/spot", "offer"},
	{"/estimate?job=transformer-train&params=abc&tokens=1e12&gpu=H100-SXM-80GB", "params"},
	{"/estimate?job=transformer-train&params=7e9&tokens=1e12", "gpu"},
	{"/estimate?job=transformer-train&params=7e9&tokens=1e12&gpu=H100", "gpu"},
	{"/estimate?job=transformer-train&params=7e9&gpu=H100-SXM-80GB", "tokens"},
	{"/estimate?job=bench:nope&gpu=H100-SXM-80GB", "benchmark"},
	{"/claims?verdict=maybe", "verdict"},
	{"/advisor?form=1&kind=train&size_b=x&tokens_b=1", "size_b"},
	{"/advisor?job=" + url.QueryEscape("foo: bar\n"), "job"},
	{"/advisor?job=" + url.QueryEscape("- a\n- b\n"), "job"},
	{"/advisor?job=" + url.QueryEscape("name: x\nworkload: 5\n"), "job"},
}

// TestErrorBoxesInPageLanguage: every page's error box is in the page's
// language: on a Chinese page no English word outside names, units and
// the parts marked as English; in both languages no command-line flag
// (--gpu) and no Go type name (jobfile.File) reaches a web user, and the
// box names the field that is wrong.
func TestErrorBoxesInPageLanguage(t *testing.T) {
	srv := newServer(t)
	names := catalogNames(t)
	for _, lang := range []string{"en", "zh"} {
		for _, br := range badRequests {
			sep := "?"
			if strings.Contains(br.path, "?") {
				sep = "&"
			}
			rec := get(t, srv, br.path+sep+"lang="+lang)
			body := rec.Body.String()
			box := errorBox(body)
			if rec.Code < 400 || box == "" {
				t.Errorf("%s %s: status %d, error box %q", lang, br.path, rec.Code, box)
				continue
			}
			if !strings.Contains(body, `data-error-field="`+br.field+`"`) {
				t.Errorf("%s %s: the box does not name the field %q: %s", lang, br.path, br.field, box)
			}
			for _, bad := range []string{"--", "jobfile.", "struct {", "%!", "web.", "err."} {
				if strings.Contains(box, bad) {
					t.Errorf("%s %s: the error box shows %q: %s", lang, br.path, bad, box)
				}
			}
			if lang == "zh" {
				shown := html.UnescapeString(tags.ReplaceAllString(englishSpan.ReplaceAllString(errorBoxRE.FindString(body), " "), " "))
				shown = regexp.MustCompile(`"[^"]*"|“[^”]*”`).ReplaceAllString(shown, " ") // the user's own input, quoted
				if w := englishWords(shown, names); len(w) > 0 {
					t.Errorf("zh %s: English in the error box: %v (%s)", br.path, w, box)
				}
			}
		}
	}
}

// TestFallbacksSaySo: an unknown currency or language is not dropped
// silently: the page says what it shows instead, in its language.
func TestFallbacksSaySo(t *testing.T) {
	srv := newServer(t)
	for _, tc := range []struct{ path, want string }{
		{"/gpus?currency=XYZ&lang=en", "There is no exchange rate for “XYZ”: prices are shown in USD."},
		{"/compare?offer=aws/p5.48xlarge/us-east-1/on-demand&currency=xyz&lang=zh", "没有“xyz”的汇率：价格以 CNY 显示。"},
		{"/claims?currency=XYZ&lang=zh", "没有“XYZ”的汇率：价格以 CNY 显示。"}, // the explorer refuses it as its CSV and API do (TestOneVerdictPerBadValue)
		{"/about?lang=xx", "There is no “xx” version of gpuscout: this page is in English"},
		{"/about?lang=fr", `lang="en"`},
	} {
		body := get(t, srv, tc.path).Body.String()
		if !strings.Contains(html.UnescapeString(body), tc.want) || !strings.Contains(body, "data-fallback") {
			t.Errorf("%s: no fallback notice %q", tc.path, tc.want)
		}
	}
	req := get(t, srv, "/about?lang=xx", "Accept-Language", "zh-CN").Body.String()
	if !strings.Contains(req, "gpuscout 没有“xx”语言版本：本页以中文显示") {
		t.Errorf("a Chinese reader asking for ?lang=xx is not told in Chinese")
	}
	for _, ok := range []string{"/gpus?currency=EUR", "/gpus?lang=zh", "/gpus"} {
		if body := get(t, srv, ok).Body.String(); strings.Contains(body, "data-fallback") {
			t.Errorf("%s: a fallback notice without a fallback", ok)
		}
	}
}

// TestProvidersLabelsInChinese: on the Chinese providers page every fact's
// label is Chinese, or a product name its Chinese text uses too (Vertex
// AI), never a generic English word (Regions, No SLA); every category and
// fabric is named in Chinese.
func TestProvidersLabelsInChinese(t *testing.T) {
	// products are labels that are product names as the providers write
	// them in Chinese too.
	products := map[string]bool{"Crusoe Managed Kubernetes (CMK)": true, "ONNX Runtime": true}
	srv := newServer(t)
	body := get(t, srv, "/providers?lang=zh").Body.String()
	facts := regexp.MustCompile(`(?s)<div class="fact"[^>]*><strong>(.*?)</strong><br>(.*?)</div>`).FindAllStringSubmatch(body, -1)
	if len(facts) < 50 {
		t.Fatalf("%d facts on the providers page", len(facts))
	}
	for _, f := range facts {
		label, value := html.UnescapeString(f[1]), html.UnescapeString(f[2])
		if products[label] {
			continue
		}
		if regexp.MustCompile(`\p{Han}`).MatchString(regexp.MustCompile(`[（(][^）)]*[）)]`).ReplaceAllString(label, "")) {
			// A Chinese label may keep the provider's own name in brackets:
			// 标准支持（Standard）.
			label = regexp.MustCompile(`[（(][^）)]*[）)]`).ReplaceAllString(label, "")
		}
		allowed := map[string]bool{}
		for _, w := range regexp.MustCompile(`[A-Za-z][A-Za-z0-9.\-]*`).FindAllString(value, -1) {
			allowed[strings.ToLower(w)] = true
		}
		if w := zhcheck.EnglishWords(label, zhAllowed, allowed); len(w) > 0 {
			t.Errorf("label %q shows English its Chinese text does not use: %v", label, w)
		}
	}
	for _, row := range regexp.MustCompile(`<tr data-category="[^"]*"><th scope="row">([^<]*)</th>`).FindAllStringSubmatch(body, -1) {
		if regexp.MustCompile(`^[a-z-]+$`).MatchString(row[1]) {
			t.Errorf("category shown as its code: %q", row[1])
		}
	}
	inst := pageText(get(t, srv, "/instances/aws/p5.48xlarge?lang=zh").Body.String())
	for _, raw := range []string{" nvswitch ", " efa ", "cnn-inference", "llm-training"} {
		if strings.Contains(" "+strings.Join(strings.Fields(inst), " ")+" ", raw) {
			t.Errorf("the instance page shows the raw code %q", strings.TrimSpace(raw))
		}
	}
	for _, want := range []string{"NVSwitch", "EFA（弹性结构适配器）", "CNN 推理"} {
		if !strings.Contains(inst, want) {
			t.Errorf("the Chinese instance page does not say %q", want)
		}
	}
}

// TestAdvisorFormJobs: the advisor form's GPU field narrows training,
// fine-tuning and serving to that GPU; fine-tuning writes a fine-tune job
// (LoRA by default, or the method chosen), not the training job; under
// "lowest cost" the plans are listed in non-decreasing cost.
func TestAdvisorFormJobs(t *testing.T) {
	srv := newServer(t)
	job := func(q string) string {
		body := get(t, srv, "/advisor?form=1&lang=en&"+q).Body.String()
		m := regexp.MustCompile(`(?s)<textarea id="job"[^>]*>(.*?)</textarea>`).FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("%s: no job written: %s", q, errorBox(body))
		}
		return html.UnescapeString(m[1])
	}
	for _, kind := range []string{"train", "finetune", "serve"} {
		if j := job("kind=" + kind + "&size_b=7&tokens_b=10&tps=100&gpu_model=A100"); !strings.Contains(j, "models: [A100]") {
			t.Errorf("%s: the GPU field is not in the job:\n%s", kind, j)
		}
	}
	if j := job("kind=train&size_b=7&tokens_b=10"); strings.Contains(j, "models:") || strings.Contains(j, "method:") {
		t.Errorf("a training job without a GPU names one, or a method:\n%s", j)
	}
	if j := job("kind=finetune&size_b=7&tokens_b=10"); !strings.Contains(j, "method: lora") {
		t.Errorf("fine-tuning writes no LoRA job:\n%s", j)
	}
	if j := job("kind=finetune&size_b=7&tokens_b=10&method=full"); !strings.Contains(j, "method: full") {
		t.Errorf("full fine-tuning not written:\n%s", j)
	}
	body := get(t, srv, "/advisor?form=1&lang=en&kind=train&size_b=7&tokens_b=100&priority=cost").Body.String()
	var prev float64
	totals := regexp.MustCompile(`<p class="big">([0-9,.]+) [A-Z]{3}`).FindAllStringSubmatch(body, -1)
	if len(totals) < 3 {
		t.Fatalf("%d plans under lowest cost", len(totals))
	}
	for i, m := range totals {
		v, err := strconv.ParseFloat(strings.ReplaceAll(m[1], ",", ""), 64)
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 && v < prev {
			t.Errorf("plan #%d costs %s, less than #%d (%.2f)", i+1, m[1], i, prev)
		}
		prev = v
	}
}

// TestAdvisorExamplesInChinese: on the Chinese advisor page every example
// job's header comment is Chinese (the job itself unchanged), as is the
// line the form writes; the English page keeps the file as it is.
func TestAdvisorExamplesInChinese(t *testing.T) {
	srv := newServer(t)
	han := regexp.MustCompile(`\p{Han}`)
	textarea := regexp.MustCompile(`(?s)<textarea id="job"[^>]*>(.*?)</textarea>`)
	for _, e := range examples.Jobs() {
		zh := textarea.FindStringSubmatch(get(t, srv, "/advisor?lang=zh&example="+e.Name).Body.String())
		en := textarea.FindStringSubmatch(get(t, srv, "/advisor?lang=en&example="+e.Name).Body.String())
		if zh == nil || en == nil {
			t.Fatalf("%s: no job shown", e.Name)
		}
		if html.UnescapeString(en[1]) != e.YAML {
			t.Errorf("%s: the English page changed the file", e.Name)
		}
		job := html.UnescapeString(zh[1])
		comments := 0
		for _, line := range strings.Split(job, "\n") {
			if strings.HasPrefix(line, "#") {
				comments++
				if !han.MatchString(line) {
					t.Errorf("%s: an English comment on the Chinese page: %q", e.Name, line)
				}
			}
		}
		if comments == 0 {
			t.Errorf("%s: the Chinese page's job has no header comment", e.Name)
		}
		strip := func(s string) string { return regexp.MustCompile(`(?m)^#.*\n`).ReplaceAllString(s, "") }
		if strip(job) != strip(e.YAML) {
			t.Errorf("%s: the Chinese page changed the job itself", e.Name)
		}
	}
	form := textarea.FindStringSubmatch(get(t, srv, "/advisor?form=1&lang=zh&kind=train&size_b=7&tokens_b=10").Body.String())
	if form == nil || !strings.HasPrefix(html.UnescapeString(form[1]), "# 由选型建议表单生成") {
		t.Errorf("the form's job is not introduced in Chinese: %v", form)
	}
}

// TestNamesNotCodes: residency choices are names (Iceland, 挪威), never
// the raw codes (IS, NO, VN), on the advisor and the explorer; a TCO of
// one-GPU plans says "1 GPU" (1 块 GPU), not "1 GPUs".
func TestNamesNotCodes(t *testing.T) {
	srv := newServer(t)
	sel := regexp.MustCompile(`(?s)<select name="residency">(.*?)</select>`)
	opt := regexp.MustCompile(`<option value="([^"]+)"[^>]*>([^<]*)</option>`)
	for _, lang := range []string{"en", "zh"} {
		for _, page := range []string{"/advisor", "/offers"} {
			m := sel.FindStringSubmatch(get(t, srv, page+"?lang="+lang).Body.String())
			if m == nil {
				t.Fatalf("%s %s: no residency choice", lang, page)
			}
			opts := opt.FindAllStringSubmatch(m[1], -1)
			if len(opts) < 20 {
				t.Errorf("%s %s: %d residency choices", lang, page, len(opts))
			}
			for _, o := range opts {
				if strings.EqualFold(o[1], o[2]) || regexp.MustCompile(`^[A-Z-]+$`).MatchString(o[2]) {
					t.Errorf("%s %s: residency %q shown as %q", lang, page, o[1], o[2])
				}
			}
		}
	}
	const one = "/compare?tab=tco&offer=lambda/gpu_1x_h100_sxm5/ANY/on-demand&offer=aws/g5.xlarge/us-east-1/on-demand&months=12"
	for lang, want := range map[string]string{"en": "compared at 1 GPU;", "zh": "按 1 块 GPU 对比"} {
		body := get(t, srv, one+"&lang="+lang).Body.String()
		if !strings.Contains(body, want) || strings.Contains(body, "1 GPUs") {
			t.Errorf("%s: the one-GPU comparison does not say %q", lang, want)
		}
	}
}

// TestCompareOnPremChoice: the buy-servers choice offers only GPUs whose
// servers the catalog can price, each of which prices without an error,
// and shows the one asked for (?onprem=H100) as chosen.
func TestCompareOnPremChoice(t *testing.T) {
	srv := newServer(t)
	body := get(t, srv, "/compare?tab=tco&offer=aws/p5.48xlarge/us-east-1/on-demand&onprem=H100&lang=en").Body.String()
	m := regexp.MustCompile(`(?s)<select name="onprem">(.*?)</select>`).FindStringSubmatch(body)
	if m == nil {
		t.Fatal("no buy-servers choice")
	}
	opts := regexp.MustCompile(`<option value="([^"]+)"( selected)?>`).FindAllStringSubmatch(m[1], -1)
	if len(opts) == 0 {
		t.Fatal("no GPU to buy servers of")
	}
	selected := 0
	for _, o := range opts {
		if o[2] != "" {
			selected++
		}
		rec := get(t, srv, "/compare?tab=tco&offer=aws/p5.48xlarge/us-east-1/on-demand&onprem="+url.QueryEscape(o[1]))
		if rec.Code != 200 {
			t.Errorf("buying %s servers: status %d: %s", o[1], rec.Code, errorBox(rec.Body.String()))
		}
	}
	if selected != 1 {
		t.Errorf("%d choices selected for ?onprem=H100", selected)
	}
}
