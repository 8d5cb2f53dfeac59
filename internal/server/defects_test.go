package server_test

import (
	"bytes"
	"encoding/json"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// oneGPUPair are two offers of one GPU each: the TCO tab compares them at
// one GPU.
const oneGPUPair = "offer=aws/g4dn.xlarge/us-east-1/on-demand&offer=aws/g4dn.2xlarge/us-east-1/on-demand"

// TestTCOTabWithOneGPUPlans: when every plan has one GPU, the TCO tab says
// so in words, in both languages, with no formatting debris.
func TestTCOTabWithOneGPUPlans(t *testing.T) {
	srv := newServer(t)
	for lang, want := range map[string]string{"en": "Every plan is compared at 1 GPU", "zh": "所有方案均按 1 块 GPU 对比"} {
		rec := get(t, srv, "/compare?"+oneGPUPair+"&tab=tco&lang="+lang)
		body := rec.Body.String()
		if rec.Code != 200 || !strings.Contains(body, want) {
			t.Errorf("%s: status %d, %q missing", lang, rec.Code, want)
		}
		if i := strings.Index(body, "%!"); i >= 0 {
			t.Errorf("%s: formatting debris: %s", lang, body[i:min(i+40, len(body))])
		}
	}
}

// TestCompareTabsKeepTheirPlace: Apply on a tab stays on that tab, an
// empty "add an offer" box leaves no offer= in the address, and the
// specifications tab is headed, and links its JSON, as specifications.
func TestCompareTabsKeepTheirPlace(t *testing.T) {
	srv := newServer(t)
	tco := get(t, srv, "/compare?"+oneGPUPair+"&tab=tco&lang=en").Body.String()
	if !regexp.MustCompile(`<input type="hidden" name="tab" value="tco">`).MatchString(tco) {
		t.Error("the TCO tab's form does not carry tab=tco: Apply returns to the specifications")
	}
	// The form's empty "add an offer" box.
	rec := get(t, srv, "/compare?"+oneGPUPair+"&offer=&months=24&tab=tco")
	if loc := rec.Header().Get("Location"); rec.Code != http.StatusSeeOther || strings.Contains(loc, "offer=&") || strings.HasSuffix(loc, "offer=") ||
		!strings.Contains(loc, "tab=tco") || !strings.Contains(loc, "months=24") || !strings.Contains(loc, "g4dn.2xlarge") {
		t.Errorf("an empty offer= answers %d, Location %q; want 303 to the address without it", rec.Code, loc)
	}
	specs := get(t, srv, "/compare?"+oneGPUPair+"&lang=en").Body.String()
	h1 := regexp.MustCompile(`<h1>([^<]*)</h1>`).FindStringSubmatch(specs)
	if h1 == nil || strings.Contains(h1[1], "Total cost") {
		t.Errorf("the specifications tab is headed %q", h1)
	}
	if strings.Contains(specs, `href="/api/v1/tco?`) || !strings.Contains(specs, `href="/api/v1/offers/aws/g4dn.xlarge/us-east-1/on-demand"`) {
		t.Error("the specifications tab's JSON link goes to the TCO API, not the offers shown")
	}
	if !strings.Contains(specs, `class="table-wrap box full"`) {
		t.Error("the specifications table sits in a box of fixed height that hides its last rows")
	}
	if got := get(t, srv, "/api/v1/offers/aws/g4dn.xlarge/us-east-1/on-demand"); got.Code != 200 {
		t.Errorf("the specifications' JSON link answers %d", got.Code)
	}
}

// TestOffsetNoticeSaysWhatIsShown: a window past the end says there is
// nothing there, and one that shows every remaining row does not say
// rows were cut.
func TestOffsetNoticeSaysWhatIsShown(t *testing.T) {
	srv := newServer(t)
	past := html.UnescapeString(get(t, srv, "/offers?offset=999999999&lang=en").Body.String())
	if strings.Contains(past, "–999999999 of") || !strings.Contains(past, "offset=999999999 is past the last") {
		t.Error("offset past the end: the notice does not say that nothing is shown")
	}
	rest := html.UnescapeString(get(t, srv, "/offers?offset=100&lang=en").Body.String())
	if strings.Contains(rest, "a page carries at most") || !strings.Contains(rest, "from offset=100") {
		t.Error("offset=100 says rows were cut, or does not say where the rows start")
	}
	limited := html.UnescapeString(get(t, srv, "/offers?limit=10&lang=en").Body.String())
	if !strings.Contains(limited, "Showing offers 1–10 of") || !strings.Contains(limited, "a page carries at most 10.") {
		t.Error("limit=10: the notice does not say the page carries 10 rows")
	}
	zh := html.UnescapeString(get(t, srv, "/offers?offset=999999999&lang=zh").Body.String())
	if !strings.Contains(zh, "超出了最后一条") {
		t.Error("offset past the end: no Chinese notice")
	}
}

// TestOneVerdictPerBadValue: a value the explorer cannot use gets the same
// status, the same field and the same words from the page, its CSV export
// and the API.
func TestOneVerdictPerBadValue(t *testing.T) {
	srv := newServer(t)
	for _, tc := range []struct{ query, field string }{
		{"currency=XYZ", "currency"},
		{"cheapest_region=maybe", "cheapest_region"},
		{"page=abc", "page"},
		{"page=0", "page"},
		{"col=nope", "col"},
		{"cols=price,nope", "cols"},
		{"billing=foo", "billing"},
		{"order=colour", "order"},
	} {
		api := get(t, srv, "/api/v1/offers?"+tc.query)
		csv := get(t, srv, "/offers.csv?"+tc.query)
		page := get(t, srv, "/offers?lang=en&"+tc.query)
		var a, c struct {
			Error struct{ Field, Message string }
		}
		_ = json.Unmarshal(api.Body.Bytes(), &a)
		_ = json.Unmarshal(csv.Body.Bytes(), &c)
		m := regexp.MustCompile(`data-error-field="([^"]*)"`).FindStringSubmatch(page.Body.String())
		pageField := ""
		if m != nil {
			pageField = m[1]
		}
		if api.Code != 400 || csv.Code != 400 || page.Code != 400 {
			t.Errorf("%s: status API %d, CSV %d, page %d; want 400 from all three", tc.query, api.Code, csv.Code, page.Code)
		}
		if a.Error.Field != tc.field || c.Error.Field != tc.field || pageField != tc.field {
			t.Errorf("%s: field API %q, CSV %q, page %q; want %q", tc.query, a.Error.Field, c.Error.Field, pageField, tc.field)
		}
		if a.Error.Message == "" || c.Error.Message != a.Error.Message || !strings.Contains(html.UnescapeString(page.Body.String()), a.Error.Message) {
			t.Errorf("%s: messages differ: API %q, CSV %q, page without it", tc.query, a.Error.Message, c.Error.Message)
		}
	}
}

// TestBadBillingBoxInChinese: an unknown billing model is explained in
// the page's language, with no empty summary ("0 offers · ·"), no empty
// link and no export links that would fail the same way.
func TestBadBillingBoxInChinese(t *testing.T) {
	srv := newServer(t)
	body := get(t, srv, "/offers?billing=foo&lang=zh").Body.String()
	box := regexp.MustCompile(`(?s)<div class="error".*?</div>`).FindString(body)
	if !strings.Contains(box, "未知的计费方式") || strings.Contains(box, `lang="en"`) {
		t.Errorf("the error box is not Chinese: %s", box)
	}
	for _, bad := range []string{`href=""`, "· \n  ·", `data-export="csv"`, `data-export="json"`} {
		if strings.Contains(body, bad) {
			t.Errorf("the error page has %q", bad)
		}
	}
}

// TestColumnsOfTheCSV: the CSV opens in Excel as UTF-8 (a byte order
// mark, as the browser's export writes) and holds the columns asked for.
func TestColumnsOfTheCSV(t *testing.T) {
	srv := newServer(t)
	rec := get(t, srv, "/offers.csv?lang=zh&gpu=H100&col=provider,price")
	b := rec.Body.Bytes()
	if !bytes.HasPrefix(b, []byte("\ufeff")) {
		t.Errorf("no UTF-8 byte order mark: %q", b[:min(20, len(b))])
	}
	head, _, _ := strings.Cut(strings.TrimPrefix(string(b), "\ufeff"), "\n")
	if !strings.HasPrefix(head, "云厂商,") || strings.Count(head, ",") != 2 {
		t.Errorf("header %q: want the two columns asked for and the ID", head)
	}
}

// TestAdvisorPageNamesFormFieldsNotFlags: the web advisor tells a reader
// what to change in the form or the job file, never a command-line flag.
func TestAdvisorPageNamesFormFieldsNotFlags(t *testing.T) {
	srv := newServer(t)
	flag := regexp.MustCompile(`--(max-gpus|min-gpus|multi-node|allow-no-rdma|interruptible|budget|fabric|interconnect|start-within-days|precision|method|hours|mtbi|near-users|qps|tokens-per-second)\b`)
	for _, job := range []string{
		// Too big for the GPUs it may use: the fit and deadline advice.
		"name: x\nworkload:\n  job: {kind: transformer-train, params: 70e9, tokens: 2e12, precision: bf16}\ndeadline_hours: 24\ngpu:\n  max_gpus: 8\n",
		// Several nodes without RDMA.
		"name: x\nworkload:\n  job: {kind: transformer-train, params: 13e9, tokens: 300e9, precision: bf16}\ndeadline_hours: 336\ngpu:\n  min_gpus: 16\n  max_gpus: 64\n  multi_node: true\n  rdma: false\n  interconnect: pcie\n",
		// Requirement errors.
		"name: x\nworkload:\n  job: {kind: transformer-train, params: 7e9, tokens: 1e11, precision: bf16}\nbudget_period: month\n",
		"name: x\nworkload:\n  job: {kind: transformer-train, params: 7e9, tokens: 1e11, precision: bf16}\nhours: 100\n",
		"name: x\nworkload:\n  job: {kind: transformer-train, params: 7e9, tokens: 1e11, precision: bf16}\nstart_within_days: 3\ninterruptible: true\n",
	} {
		for _, lang := range []string{"en", "zh"} {
			body := postAdvisor(t, srv, lang, job)
			if box := regexp.MustCompile(`(?s)<div class="error".*?</div>`).FindString(body); lang == "zh" && strings.Contains(box, `lang="en"`) {
				t.Errorf("zh: the advisor's error is in English: %s", box)
			}
			if m := flag.FindString(html.UnescapeString(body)); m != "" {
				i := strings.Index(html.UnescapeString(body), m)
				t.Errorf("%s: the advisor page names the CLI flag %s: …%s…", lang, m, html.UnescapeString(body)[max(0, i-160):i+20])
			}
		}
	}
}

func postAdvisor(t *testing.T, h http.Handler, lang, job string) string {
	t.Helper()
	form := url.Values{"job": {job}}
	req := httptest.NewRequest("POST", "/advisor?lang="+lang, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Body.String()
}

// TestFormEchoesTheParsedValue: the explorer's form shows what the search
// used (cheapest_region=0 is false, as the API reads it), not the raw text.
func TestFormEchoesTheParsedValue(t *testing.T) {
	srv := newServer(t)
	body := get(t, srv, "/offers?cheapest_region=0&lang=en").Body.String()
	if !strings.Contains(body, `<option value="false" selected>`) {
		t.Error("cheapest_region=0 searched every region but the form shows the cheapest region chosen")
	}
}
