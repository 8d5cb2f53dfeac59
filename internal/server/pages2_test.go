package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/gpuscout/gpuscout/internal/document"
	"github.com/gpuscout/gpuscout/internal/output"
)

// TestClaimsPage lists every seed-article claim with its verdict in both
// languages, filters by ?verdict=, and answers an unknown verdict with a
// 400 page that says so in the page's language.
func TestClaimsPage(t *testing.T) {
	srv := newServer(t)
	d, err := loadEmbedded(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	all := d.Catalog.Claims()
	wrong := 0
	for _, c := range all {
		if c.Verdict == "wrong" {
			wrong++
		}
	}
	if len(all) == 0 || wrong == 0 {
		t.Fatalf("the catalog has %d claims, %d wrong: the test needs both", len(all), wrong)
	}
	for _, tc := range []struct{ lang, title, verdict string }{
		{"en", "The seed articles&#39; claims, checked", "Partly correct"},
		{"zh", "种子文章中的说法及核查结论", "部分正确"},
	} {
		rec := get(t, srv, "/claims?lang="+tc.lang)
		body := rec.Body.String()
		if rec.Code != 200 {
			t.Fatalf("%s: status %d: %s", tc.lang, rec.Code, trim(rec.Body.Bytes()))
		}
		for _, want := range []string{tc.title, tc.verdict, `href="/claims"`, all[0].ID} {
			if !strings.Contains(body, want) {
				t.Errorf("%s: the page lacks %q", tc.lang, want)
			}
		}
		if n := strings.Count(body, "data-claim="); n != len(all) {
			t.Errorf("%s: %d claims shown, the catalog has %d", tc.lang, n, len(all))
		}
		rec = get(t, srv, "/claims?verdict=wrong&lang="+tc.lang)
		body = rec.Body.String()
		if n := strings.Count(body, "data-claim="); n != wrong || strings.Count(body, `data-verdict="wrong"`) != wrong {
			t.Errorf("%s: ?verdict=wrong shows %d claims, want the %d wrong ones", tc.lang, n, wrong)
		}
	}
	for lang, msg := range map[string]string{"en": "Unknown verdict", "zh": "未知的结论"} {
		rec := get(t, srv, "/claims?verdict=maybe&lang="+lang)
		if rec.Code != 400 {
			t.Errorf("%s: ?verdict=maybe: status %d, want 400", lang, rec.Code)
		}
		if body := rec.Body.String(); !strings.Contains(body, msg) || !strings.Contains(body, `data-error-field="verdict"`) {
			t.Errorf("%s: ?verdict=maybe: the page does not say %q", lang, msg)
		}
	}
}

// TestEstimatePage answers the form with the figures of /api/v1/estimate
// (the document gpuscout estimate prints) in both languages, and bad input
// with a 400 page naming the field in the page's language.
func TestEstimatePage(t *testing.T) {
	srv := newServer(t)
	const q = "params=7e9&tokens=1e12&offer=aws/p5.48xlarge/us-east-1/on-demand&instances=8&currency=USD"
	rec := get(t, srv, "/api/v1/estimate?workload=transformer-train&"+q)
	if rec.Code != 200 {
		t.Fatalf("API: status %d: %s", rec.Code, trim(rec.Body.Bytes()))
	}
	var doc document.Estimate
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Cost == nil || doc.Time == nil {
		t.Fatalf("the API's estimate has no cost or time: %s", trim(rec.Body.Bytes()))
	}
	total, err := decimal.NewFromString(doc.Cost.Total.String())
	if err != nil {
		t.Fatal(err)
	}
	cost := output.Money(total) + " USD"
	for _, tc := range []struct{ lang, title, time string }{
		{"en", "How fast, how long, what it costs", "Time to finish"},
		{"zh", "多快、多久、花多少钱", "完成时间"},
	} {
		rec := get(t, srv, "/estimate?job=transformer-train&lang="+tc.lang+"&"+q)
		body := rec.Body.String()
		if rec.Code != 200 {
			t.Fatalf("%s: status %d: %s", tc.lang, rec.Code, trim(rec.Body.Bytes()))
		}
		for _, want := range []string{tc.title, tc.time, cost, "p5.48xlarge", `href="/api/v1/estimate?`} {
			if !strings.Contains(body, want) {
				t.Errorf("%s: the page lacks %q", tc.lang, want)
			}
		}
		if i := strings.Index(body, "%!"); i >= 0 {
			t.Errorf("%s: a broken message on the page: %s", tc.lang, body[max(0, i-80):i+20])
		}
		if !strings.Contains(body, `<option value="transformer-train" selected>`) {
			t.Errorf("%s: the form forgot the job", tc.lang)
		}
	}
	// A benchmark on a GPU shows its published basis.
	rec = get(t, srv, "/estimate?job=bench:resnet50-train-throughput&gpu=A100-SXM-80GB&count=8&lang=zh")
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "data-basis") {
		t.Errorf("benchmark estimate: status %d, basis shown %v", rec.Code, strings.Contains(rec.Body.String(), "data-basis"))
	}
	for _, tc := range []struct{ lang, query, field, msg string }{
		{"en", "job=transformer-train&gpu=H100-SXM-80GB&params=abc&tokens=1e12", "params", "is not a number"},
		{"zh", "job=transformer-train&gpu=H100-SXM-80GB&params=abc&tokens=1e12", "params", "请检查“模型参数量”"},
		{"zh", "job=transformer-train&params=7e9&tokens=1e12", "gpu", "请检查“GPU”"},
		{"en", "job=transformer-train&gpu=H100-SXM-80GB&offer=aws/p5.48xlarge/us-east-1/on-demand&params=7e9&tokens=1e12", "offer", "Choose a GPU or an offer, not both."},
		{"en", "job=transformer-train&params=7e9&tokens=1e12", "gpu", "Choose a GPU or an offer."},
		{"en", "job=transformer-train&params=7e9&tokens=1e12&gpu=H100", "gpu", "H100 matches H100-SXM-80GB"},
	} {
		rec := get(t, srv, "/estimate?lang="+tc.lang+"&"+tc.query)
		body := rec.Body.String()
		if rec.Code != 400 {
			t.Errorf("%s %s: status %d, want 400", tc.lang, tc.query, rec.Code)
		}
		if !strings.Contains(body, `data-error-field="`+tc.field+`"`) || !strings.Contains(body, tc.msg) {
			t.Errorf("%s %s: the page does not say %q about %s", tc.lang, tc.query, tc.msg, tc.field)
		}
		// A web user is told what to choose, never a command-line flag.
		if box := errorBox(body); strings.Contains(box, "--") {
			t.Errorf("%s %s: the error names a flag: %s", tc.lang, tc.query, box)
		}
	}
}

// rsPost sends the right-size form: fields, and the log as an uploaded
// file when file is not empty.
func rsPost(t *testing.T, h http.Handler, lang string, fields map[string]string, file string, data []byte) *httptest.ResponseRecorder {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	if file != "" {
		fw, err := mw.CreateFormFile("metrics_file", file)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(data)
	}
	mw.Close()
	req := httptest.NewRequest("POST", "/rightsize?lang="+lang, &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// TestRightsizePage: a log uploaded or pasted with the offer it ran on
// gives gpuscout rightsize's report (two of eight L40S busy: fewer GPUs)
// in both languages; bad input gives a 400 page with a translated message.
func TestRightsizePage(t *testing.T) {
	srv := newServer(t)
	data, err := os.ReadFile("../rightsize/testdata/two-of-eight-l40s.csv")
	if err != nil {
		t.Fatal(err)
	}
	const offer = "aws/g6e.48xlarge/us-east-1/on-demand"
	for _, tc := range []struct{ lang, title, kind, active string }{
		{"en", "Right-size from GPU metrics", "Fewer GPUs", "active"},
		{"zh", "按 GPU 监控数据优化配置", "减少 GPU", "在用"},
	} {
		rec := get(t, srv, "/rightsize?lang="+tc.lang)
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), tc.title) || !strings.Contains(rec.Body.String(), `enctype="multipart/form-data"`) ||
			!strings.Contains(rec.Body.String(), `<option value="dcgm">`) {
			t.Fatalf("%s: the empty form: status %d", tc.lang, rec.Code)
		}
		for how, rec := range map[string]*httptest.ResponseRecorder{
			"upload": rsPost(t, srv, tc.lang, map[string]string{"offer": offer, "currency": "USD"}, "gpu.csv", data),
			"paste":  rsPost(t, srv, tc.lang, map[string]string{"offer": offer, "currency": "USD", "metrics": string(data)}, "", nil),
		} {
			body := rec.Body.String()
			if rec.Code != 200 {
				t.Fatalf("%s %s: status %d: %s", tc.lang, how, rec.Code, trim(rec.Body.Bytes()))
			}
			if n := strings.Count(body, `<span class="badge fresh">`+tc.active+`</span>`); n != 2 {
				t.Errorf("%s %s: %d GPUs marked active, want 2 of 8", tc.lang, how, n)
			}
			if !strings.Contains(body, tc.kind) || !strings.Contains(body, `data-rec="1"`) {
				t.Errorf("%s %s: no fewer-GPUs recommendation", tc.lang, how)
			}
			if !strings.Contains(body, "g6e.48xlarge") {
				t.Errorf("%s %s: the current offer is not named", tc.lang, how)
			}
			if i := strings.Index(body, "%!"); i >= 0 {
				t.Errorf("%s %s: a broken message on the page: %s", tc.lang, how, body[max(0, i-80):i+20])
			}
		}
	}
	big := bytes.Repeat([]byte("x"), 2<<20)
	for _, tc := range []struct {
		name, lang string
		fields     map[string]string
		file       []byte
		status     int
		field, msg string
	}{
		{"no log", "zh", map[string]string{"offer": offer}, nil, 400, "metrics", "请粘贴监控日志或选择文件"},
		{"no offer", "en", map[string]string{"metrics": string(data)}, nil, 400, "offer", "Give the offer the log was taken on"},
		{"unknown offer", "zh", map[string]string{"offer": "aws/nope/us-east-1/on-demand", "metrics": string(data)}, nil, 400, "offer", "目录中没有报价"},
		{"unknown offer detail", "zh", map[string]string{"offer": "aws/p4d.24xlarge/us-east-1/on-demnd", "metrics": string(data)}, nil, 400, "offer", `<span class="muted" data-error-detail>(未知的报价 &#34;aws/p4d.24xlarge/us-east-1/on-demnd&#34;（您是不是要找 aws/p4d.24xlarge/us-east-1/on-demand`},
		{"not a log", "zh", map[string]string{"offer": offer, "metrics": "hello\nworld\n"}, nil, 400, "metrics", "无法从粘贴的文本中读取任何 GPU 样本"},
		// The parser's own detail is ours, so it is in Chinese too (not marked as English).
		{"not a log detail", "zh", map[string]string{"offer": offer, "metrics": "hello\nworld\n"}, nil, 400, "metrics", `<span class="muted" data-error-detail>(粘贴的文本：没有读到任何 GPU 样本：既不是 nvidia-smi CSV，也不是 dcgm-exporter 指标`},
		{"not a log", "en", map[string]string{"offer": offer}, []byte("hello\nworld\n"), 400, "metrics", "No GPU samples could be read from gpu.csv"},
		{"headroom", "en", map[string]string{"offer": offer, "metrics": string(data), "headroom": "9"}, nil, 400, "headroom", "Memory headroom must be"},
		{"too big", "zh", map[string]string{"offer": offer}, big, 413, "metrics", "上传内容超过了本服务器接受的大小"},
	} {
		file := ""
		if tc.file != nil {
			file = "gpu.csv"
		}
		rec := rsPost(t, srv, tc.lang, tc.fields, file, tc.file)
		body := rec.Body.String()
		if rec.Code != tc.status {
			t.Errorf("%s (%s): status %d, want %d", tc.name, tc.lang, rec.Code, tc.status)
		}
		if !strings.Contains(body, `data-error-field="`+tc.field+`"`) || !strings.Contains(body, tc.msg) {
			t.Errorf("%s (%s): the page does not say %q about %s", tc.name, tc.lang, tc.msg, tc.field)
		}
		if strings.Contains(body, "&lt;nil&gt;") || strings.Contains(body, "%!") {
			t.Errorf("%s (%s): a raw Go value on the page", tc.name, tc.lang)
		}
	}
}
