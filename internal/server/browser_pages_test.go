package server_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/gpuscout/gpuscout/internal/i18n/zhcheck"
)

// everyPage is each page of the UI with real data.
var everyPage = []struct{ name, path string }{
	{"offers", "/offers?gpu=H100"},
	{"compare", "/compare?offer=lambda/gpu_1x_h100_sxm5/ANY/on-demand&offer=lambda/gpu_2x_h100_sxm5/ANY/on-demand&onprem=H100&months=120&tab=tco"},
	{"compare-specs", "/compare?offer=lambda/gpu_1x_h100_sxm5/ANY/on-demand&offer=aws/p5.48xlarge/us-east-1/spot&offer=azure/Standard_ND96isr_H100_v5/eastus/on-demand"},
	{"advisor", "/advisor"},
	{"spot", "/spot?offer=aws/p5en.48xlarge/us-east-1/spot&work_hours=48"},
	{"estimate", "/estimate?job=transformer-train&params=7e9&tokens=1e12&offer=aws/p5.48xlarge/us-east-1/on-demand&instances=8"},
	{"estimate-benchmark", "/estimate?job=bench:resnet50-train-throughput&gpu=A100-SXM-80GB&count=8"},
	{"rightsize", "/rightsize?offer=aws/g6e.48xlarge/us-east-1/on-demand"},
	{"claims", "/claims"},
	{"providers", "/providers"},
	{"gpus", "/gpus"},
	{"about", "/about"},
	{"instance", "/instances/aws/p5.48xlarge"},
	{"instance-v100", "/instances/aws/p3.2xlarge"},
	{"notfound", "/no-such-page"},
}

// zhAllowed are the Latin-script words a Chinese page may show: names,
// units and technical terms that have no Chinese form in use. Tokens with a
// digit, dot, underscore, slash or hyphen (instance IDs, regions, GPU
// models) and upper-case acronyms are allowed without listing.
var zhAllowed = map[string]bool{
	"gpuscout": true, "english": true, "nvidia": true, "amd": true, "intel": true, "google": true, "cloud": true, "azure": true,
	"lambda": true, "oracle": true, "alibaba": true, "tencent": true, "nvswitch": true, "nvlink": true, "pcie": true, "infiniband": true,
	"efa": true, "rdma": true, "roce": true, "json": true, "csv": true, "yaml": true, "api": true, "gib": true, "gb": true, "tb": true,
	"gbps": true, "tflops": true, "kw": true, "h": true, "x": true, "echarts": true, "llama": true, "mistral": true, "bert": true, "resnet": true,
	"vllm": true, "spot": false, "on": false, "demand": false, "gpu": true, "cpu": true, "vcpu": true, "hopper": true, "ampere": true, "ada": true,
	"blackwell": true, "volta": true, "turing": true, "lovelace": true, "sxm": true, "nvl": true, "hbm": true, "gddr": true, "tensor": false,
	"dcgm": true, "smi": true, "ecb": true, "mig": true, "ultra": true, "tpu": true, "inferentia": true, "trainium": true, "gaudi": true,
	"instinct": true, "mi": true, "erdma": true, "govcloud": true, "vianet": true, "nvme": true, "ssd": true, "daly": true, "young": true, "openapi": true, "token": true, // token: the term Chinese ML writing uses
	"radeon": true, "transformer": true, "gflops": true, "exporter": true, "gzip": true, "mib": true, "aws": true, "gcp": true, "oci": true, "et": true, "al": true, "fp": true, "bf": true, "int": true,
	"lora": true, "qlora": true, "adam": true, // method names Chinese ML writing keeps
	"allow-no-rdma": true, "multi-node": true, "max-gpus": true, "min-gpus": true, "interruptible": true, "fabric": true, "interconnect": true, // flags
	"rocm": true, "pytorch": true, "cuda": true, "python": true, "arm64": true, "aarch64": true, "x86-64": true, "arm": true, // software names
}

// catalogNames adds the catalog's own names to the allowlist: region
// codes, instance and GPU names, vendors and architectures, and the Latin
// words the catalog's Chinese texts keep (product names such as SageMaker).
func catalogNames(t *testing.T) map[string]bool {
	d, err := loadEmbedded(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	names := zhcheck.Names{}
	add := names.Add
	c := d.Catalog
	names.AddCatalog(c)
	for _, f := range c.Ecosystem() {
		add(f.Key)
		add(f.ValueZH)
	}
	// Commands quoted in sentences (gpuscout perf validate).
	add("gpuscout perf validate")
	// Model and serving-software names the performance model's
	// assumptions name.
	add("Llama Mixtral vLLM TensorRT-LLM")
	// Product, benchmark and API names the claims' Chinese texts keep.
	add("Tesla Mellanox SQuAD MLPerf Inference Offline ImageNet DescribeSpotPriceHistory LightCC TACO Kit Train vGPU Linux")
	return names
}

// englishWords lists the words of text a Chinese page should not show.
func englishWords(text string, names map[string]bool) []string {
	return zhcheck.EnglishWords(text, zhAllowed, names)
}

// checkAxe runs axe-core (its source in axe) on the current page and
// reports every WCAG 2.1 A/AA violation under name.
func checkAxe(ctx context.Context, t *testing.T, name, axe string) {
	t.Helper()
	var violations []string
	err := chromedp.Run(ctx,
		chromedp.Evaluate(axe+";true", nil),
		chromedp.Evaluate(`axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}, resultTypes: ['violations']}).then(r => r.violations.map(v => v.id + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')))`, &violations, awaitPromise),
	)
	if err != nil {
		t.Errorf("%s: axe: %v", name, err)
	} else if len(violations) > 0 {
		t.Errorf("%s: axe violations: %v", name, violations)
	}
	// Two best-practice rules of moderate impact: headings in order (no
	// h1 → h3 on the TCO plan cards) and a main heading on every page (the
	// 404 page included).
	var moderate []string
	err = chromedp.Run(ctx,
		chromedp.Evaluate(`axe.run(document, {runOnly: {type: 'rule', values: ['heading-order', 'page-has-heading-one']}, resultTypes: ['violations']}).then(r => r.violations.map(v => v.id + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')))`, &moderate, awaitPromise),
	)
	if err != nil {
		t.Errorf("%s: axe (moderate): %v", name, err)
	} else if len(moderate) > 0 {
		t.Errorf("%s: axe moderate violations: %v", name, moderate)
	}
}

// axeScript is axe-core from web/node_modules (npm ci in web/, which make
// assets-check runs before the tests in CI).
func axeScript(t *testing.T) string {
	b, err := os.ReadFile("../../web/node_modules/axe-core/axe.min.js")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI=true but axe-core is missing (%v): run npm ci in web/", err)
		}
		t.Logf("axe-core not installed (%v): accessibility checks skipped; run npm ci in web/", err)
		return ""
	}
	return string(b)
}

func awaitPromise(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }

// settle waits until the document is loaded and every chart is drawn. A
// lazy chart (the explorer's, whose chunk loads when it nears the
// viewport) is scrolled into view; the page is scrolled back to the top
// once every chart is drawn.
func settle(ctx context.Context) error {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		var ok bool
		if err := chromedp.Run(ctx, chromedp.Evaluate(`(() => {
  if (document.readyState !== "complete") return false;
  const charts = [...document.querySelectorAll('.chart[data-chart]')];
  const done = c => c.getAttribute('data-rendered') === '1' || c.hasAttribute('data-chart-error');
  const lazy = charts.filter(c => !done(c) && c.hasAttribute('data-chart-lazy'));
  lazy.forEach(c => c.scrollIntoView({block: 'center'}));
  if (lazy.length === 0 && charts.every(done)) { window.scrollTo(0, 0); return true; }
  return false;
})()`, &ok)); err == nil && ok {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("page did not settle")
}

// TestBrowserEveryPage* open every page in English and Chinese at 1440 px
// and 390 px: no script errors, nothing loaded from another origin, no
// sideways scrolling, a skip link, axe-core finds no WCAG 2.1 A/AA
// violation, and the Chinese pages show no English words outside the
// allowlist.
func TestBrowserEveryPageEnglish1440(t *testing.T) { everyPage1(t, "en", "1440") }
func TestBrowserEveryPageChinese1440(t *testing.T) { everyPage1(t, "zh", "1440") }
func TestBrowserEveryPageMobile(t *testing.T) {
	everyPage1(t, "en", "390")
	everyPage1(t, "zh", "390")
}

// everyPage1 runs the checks of every page in one language at one width
// (one browser each, to stay within the browser's time limit).
func everyPage1(t *testing.T, lang, width string) {
	ctx, base, problems := browser(t)
	axe := axeScript(t)
	names := catalogNames(t)
	for _, size := range []struct {
		name          string
		width, height int64
		mobile        bool
	}{{"1440", 1440, 900, false}, {"390", 390, 844, true}} {
		if size.name != width {
			continue
		}
		if err := chromedp.Run(ctx, emulation.SetDeviceMetricsOverride(size.width, size.height, 1, size.mobile)); err != nil {
			t.Fatal(err)
		}
		for _, lang := range []string{lang} {
			for _, pg := range everyPage {
				name := pg.name + "-" + lang + "-" + size.name
				sep := "?"
				if strings.Contains(pg.path, "?") {
					sep = "&"
				}
				before := len(problems())
				var overflow, skip bool
				var foreign []string
				err := chromedp.Run(ctx, chromedp.Navigate(base+pg.path+sep+"lang="+lang))
				if err == nil {
					err = settle(ctx)
				}
				if err == nil {
					err = chromedp.Run(ctx,
						chromedp.Evaluate(`document.documentElement.scrollWidth > document.documentElement.clientWidth + 1`, &overflow),
						chromedp.Evaluate(`!!document.querySelector('a.skip[href="#main"]') && !!document.getElementById('main')`, &skip),
						chromedp.Evaluate(`performance.getEntriesByType('resource').map(e => e.name).filter(n => !n.startsWith(location.origin) && !n.startsWith('data:') && !n.startsWith('blob:'))`, &foreign),
					)
				}
				if err != nil {
					t.Errorf("%s: %v (problems: %v)", name, err, problems())
					continue
				}
				if overflow {
					var wide []string
					chromedp.Run(ctx, chromedp.Evaluate(`(() => { const w = document.documentElement.clientWidth + 1; return [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > w && e.parentElement && e.parentElement.getBoundingClientRect().right <= w).slice(0, 5).map(e => e.tagName + '.' + e.className + ' ' + (e.textContent || '').slice(0, 40)); })()`, &wide))
					t.Errorf("%s scrolls sideways: %v", name, wide)
				}
				if size.mobile && pg.name != "offers" { // the explorer pages its rows itself
					var tall []string
					if err := chromedp.Run(ctx, chromedp.Evaluate(tallWithoutScrollBox, &tall)); err != nil {
						t.Errorf("%s: %v", name, err)
					} else if len(tall) > 0 {
						t.Errorf("%s: taller than 4 viewports without a scroll box of their own: %v", name, tall)
					}
				}
				if size.mobile && pg.name == "offers" {
					var open bool
					chromedp.Run(ctx, chromedp.Evaluate(`document.querySelector('details[data-filters]').open`, &open))
					if open {
						t.Errorf("%s: the filters are not folded on a phone", name)
					}
					checkOffersChart(ctx, t, name, false)
				}
				if !skip {
					t.Errorf("%s has no skip link to #main", name)
				}
				if len(foreign) > 0 {
					t.Errorf("%s loads from other origins: %v", name, foreign)
				}
				if lang == "zh" && size.name == "1440" {
					var text string
					if err := chromedp.Run(ctx, chromedp.Evaluate(visibleText, &text)); err != nil {
						t.Fatal(err)
					}
					if w := englishWords(text, names); len(w) > 0 {
						t.Errorf("%s shows English: %v", name, w)
					}
					// The advisor's reasons and rejections are sentences the
					// advisor engine writes in the request's language.
					var engine string
					chromedp.Run(ctx, chromedp.Evaluate(`[...document.querySelectorAll('[data-engine-text]')].map(e => e.textContent).join(' ')`, &engine))
					if w := englishWords(engine, names); len(w) > 0 {
						t.Errorf("%s: English left in the advisor engine's sentences: %v", name, w)
					}
				}
				if axe != "" && size.name == "1440" {
					checkAxe(ctx, t, name, axe)
				}
				for _, p := range problems()[before:] {
					if pg.name == "notfound" && strings.Contains(p, "404") {
						continue // the page itself is the 404
					}
					t.Errorf("%s: browser reported %s", name, p)
				}
				if size.name == "1440" || pg.name == "offers" || pg.name == "compare" || pg.name == "spot" {
					screenshot(ctx, t, name) // phones: the pages whose layout changes most
				}
				if size.mobile && pg.name == "offers" {
					// A few bars: their value labels show, and must not overlap.
					err := chromedp.Run(ctx, chromedp.Navigate(base+fewBars+"&lang="+lang))
					if err == nil {
						err = settle(ctx)
					}
					if err != nil {
						t.Errorf("%s few bars: %v", name, err)
						continue
					}
					checkOffersChart(ctx, t, name+" few bars", true)
				}
			}
		}
	}
}

// chartLayout is where the offers chart put its texts, in CSS pixels of
// the chart: its width, the plot area's left edge, the category labels'
// extent and the value labels (bar labels, value-axis ticks and name) with
// any pair of texts that overlap.
type chartLayout struct {
	Width       float64  `json:"width"`
	PlotLeft    float64  `json:"plotLeft"`
	LabelsLeft  float64  `json:"labelsLeft"`
	LabelsRight float64  `json:"labelsRight"`
	Categories  int      `json:"categories"`
	Bars        int      `json:"bars"`
	BarLabels   int      `json:"barLabels"`
	ValueLabels []string `json:"valueLabels"`
	Outside     []string `json:"outside"`
	Overlaps    []string `json:"overlaps"`
}

// offersChartLayout measures the offers chart as drawn. The plot area's
// left edge comes from ECharts' public containPixel (the first pixel the
// grid contains, searched across the chart); each text's box is the
// zrender element ECharts drew (the chart instance the page keeps on its
// element as _gsChart), transformed to chart pixels, and at least a line
// (1.2 em) tall. Category labels are
// the texts left of the plot area beside it; the title is above it; every
// other text is a value label. No value label may overlap another text
// or leave the chart.
const offersChartLayout = `(() => {
  const el = document.querySelector('.chart[data-chart="chart-offers"]');
  const c = el && el._gsChart;
  if (!c) return {width: 0};
  const w = c.getWidth(), h = c.getHeight();
  let top = 0, bottom = h, left = w;
  const midY = h / 2;
  for (let x = 0; x < w; x++) { if (c.containPixel({gridIndex: 0}, [x, midY])) { left = x; break; } }
  for (let y = 0; y < h; y++) { if (c.containPixel({gridIndex: 0}, [left + 1, y])) { top = y; break; } }
  for (let y = h - 1; y >= 0; y--) { if (c.containPixel({gridIndex: 0}, [left + 1, y])) { bottom = y; break; } }
  const texts = [];
  c.getZr().storage.getDisplayList(true).forEach(e => {
    const t = e.type === 'tspan' && e.parent && e.parent.type === 'text' ? e.parent : e;
    if (e.type !== 'tspan' || e.ignore || e.invisible || !e.style.text || texts.some(x => x.el === t)) return;
    const r = t.getBoundingRect().clone();
    r.applyTransform(t.getComputedTransform());
    // A text is at least a line of its font tall (1.2 em; headless fonts
    // can report less).
    const size = parseFloat((/([0-9.]+)px/.exec(e.style.font || '') || [0, '12'])[1]);
    const hh = Math.max(r.height, 1.2 * size), cy = r.y + r.height / 2;
    texts.push({el: t, text: e.style.text, bar: !!t.__hostTarget, x: r.x, y: cy - hh / 2, w: r.width, h: hh});
  });
  const cats = texts.filter(t => !t.bar && t.x + t.w <= left + 1 && t.y + t.h / 2 >= top && t.y + t.h / 2 <= bottom);
  const title = texts.filter(t => !cats.includes(t) && !t.bar && t.y + t.h <= top);
  const values = texts.filter(t => !cats.includes(t) && !title.includes(t));
  const name = t => t.text + ' [' + [t.x, t.y, t.w, t.h].map(Math.round).join(',') + ']';
  const overlaps = [];
  for (const v of values) {
    for (const o of texts) {
      if (o === v || (values.includes(o) && values.indexOf(o) < values.indexOf(v))) continue;
      const dx = Math.min(v.x + v.w, o.x + o.w) - Math.max(v.x, o.x), dy = Math.min(v.y + v.h, o.y + o.h) - Math.max(v.y, o.y);
      if (dx > 0.5 && dy > 0.5) overlaps.push(name(v) + ' / ' + name(o));
    }
  }
  const bars = c.getOption().series.reduce((n, s) => n + (s.type === 'bar' ? s.data.length : 0), 0);
  return {width: w, plotLeft: left, categories: cats.length, bars, barLabels: values.filter(t => t.bar).length,
    labelsLeft: Math.min(...cats.map(t => t.x)), labelsRight: Math.max(...cats.map(t => t.x + t.w)),
    valueLabels: values.map(name), outside: values.filter(t => t.x < 0 || t.x + t.w > w + 0.5).map(name), overlaps};
})()`

// fewBars is an explorer page whose chart has few enough bars (at most 8)
// for their value labels to show on a phone.
const fewBars = "/offers?gpu=H100&provider=aws"

// checkOffersChart asserts the offers chart's layout on a phone: the
// category labels, and the whole label column up to the plot area, take at
// most 40% of the chart's width; no value label overlaps another text or
// leaves the chart. With labels set, the bars' value labels must show.
func checkOffersChart(ctx context.Context, t *testing.T, name string, labels bool) {
	t.Helper()
	var l chartLayout
	if err := chromedp.Run(ctx, chromedp.Evaluate(offersChartLayout, &l)); err != nil {
		t.Errorf("%s: measuring the chart: %v", name, err)
		return
	}
	t.Logf("%s chart: %.0f px wide, plot from %.0f px, %d category labels from %.0f to %.0f px, %d bars, %d bar labels", name, l.Width, l.PlotLeft, l.Categories, l.LabelsLeft, l.LabelsRight, l.Bars, l.BarLabels)
	switch {
	case l.Width == 0:
		t.Errorf("%s: no offers chart drawn", name)
		return
	case l.Categories == 0 || l.Categories != l.Bars:
		t.Errorf("%s: %d category labels for %d bars", name, l.Categories, l.Bars)
	}
	if max := 0.4 * l.Width; l.LabelsRight-min(l.LabelsLeft, 0) > max || l.PlotLeft > max {
		t.Errorf("%s: category labels reach %.0f px and the plot starts at %.0f px of a %.0f px chart (at most 40%%: %.0f px)", name, l.LabelsRight, l.PlotLeft, l.Width, max)
	}
	if len(l.Overlaps) > 0 {
		t.Errorf("%s: chart value labels overlap: %v", name, l.Overlaps)
	}
	if len(l.Outside) > 0 {
		t.Errorf("%s: chart value labels leave the chart: %v", name, l.Outside)
	}
	if labels && (l.Bars == 0 || l.Bars > 8 || l.BarLabels != l.Bars) {
		t.Errorf("%s: %d bars with %d value labels (the page should have 1 to 8 bars, each labelled; change fewBars if the catalog moved)", name, l.Bars, l.BarLabels)
	}
}

// visibleText is the text a person reads on the page: text nodes outside
// scripts, code, job files and quotations marked translate="no", plus
// placeholders and accessible labels.
const visibleText = `(() => {
  const out = [];
  const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let n;
  while ((n = w.nextNode())) {
    const p = n.parentElement;
    if (!p || p.closest('script, style, code, pre, textarea, [translate="no"], [hidden], [data-engine-text]')) continue;
    out.push(n.textContent);
  }
  document.querySelectorAll('[placeholder], [aria-label]').forEach(e => {
    if (e.closest('[translate="no"]')) return;
    out.push(e.getAttribute('placeholder') || '', e.getAttribute('aria-label') || '');
  });
  return out.join(' ');
})()`

// tallWithoutScrollBox lists the page's tables, lists, forms and grids
// taller than four viewports that do not scroll in a box of their own (a
// box no taller than four viewports): on a phone such a block pushes
// everything after it out of reach.
const tallWithoutScrollBox = `(() => {
  const lim = 4 * window.innerHeight, out = [];
  for (const e of document.querySelectorAll('main table, main ul, main ol, main dl, main pre, main form, main .grid, main details')) {
    if (e.getBoundingClientRect().height <= lim) continue;
    let boxed = false;
    for (let a = e; a && a !== document.body; a = a.parentElement) {
      const cs = getComputedStyle(a);
      if ((cs.overflowY === 'auto' || cs.overflowY === 'scroll') && a.clientHeight <= lim) { boxed = true; break; }
    }
    if (!boxed) out.push(e.tagName.toLowerCase() + (e.className ? '.' + e.className : '') + ' ' + Math.round(e.getBoundingClientRect().height) + ' px');
  }
  return out;
})()`

// chartTexts measures every text a chart drew (the zrender elements of the
// chart instance the page keeps on its element), in chart pixels, and
// lists the pairs that overlap and the category-axis labels as drawn.
const chartTexts = `((sel) => {
  const el = document.querySelector(sel);
  const c = el && el._gsChart;
  if (!c) return {drawn: false};
  const texts = [];
  c.getZr().storage.getDisplayList(true).forEach(e => {
    const t = e.type === 'tspan' && e.parent && e.parent.type === 'text' ? e.parent : e;
    if (e.type !== 'tspan' || e.ignore || e.invisible || !e.style.text || texts.some(x => x.el === t)) return;
    const r = t.getBoundingRect().clone();
    r.applyTransform(t.getComputedTransform());
    texts.push({el: t, text: e.style.text, x: r.x, y: r.y, w: r.width, h: r.height});
  });
  const name = t => t.text + ' [' + [t.x, t.y, t.w, t.h].map(Math.round).join(',') + ']';
  const overlaps = [];
  texts.forEach((a, i) => texts.slice(i + 1).forEach(b => {
    const dx = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x), dy = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
    if (dx > 0.5 && dy > 0.5) overlaps.push(name(a) + ' / ' + name(b));
  }));
  const w = c.getWidth();
  const outside = texts.filter(t => t.x < -0.5 || t.x + t.w > w + 0.5).map(name);
  const opt = c.getOption();
  const cat = (opt.yAxis || []).find(a => a.type === 'category');
  const labels = cat ? texts.filter(t => cat.data.some(d => String(d).startsWith(t.text.replace(/\u2026$|\.\.\.$/, '')))).map(t => t.text) : [];
  return {drawn: true, overlaps, outside, labels, legend: (opt.legend || []).map(l => l.type || 'plain'), legendShown: (opt.legend || []).some(l => l.show !== false)};
})`
