// gpuscout web UI enhancements.
//
// The server-rendered pages work without this bundle (plain GET forms, links
// and tables). This file only adds progressive enhancements:
//
//   * ECharts charts:  <div class="chart" data-chart="ID"></div>
//                      <script type="application/json" id="ID">{...option...}</script>
//   * column chooser:  <fieldset data-columns> with input[name=col][value=KEY]
//                      hides/shows th[data-col=KEY] / td[data-col=KEY], URL ?cols=
//   * explorer:        table[data-offers] + #offers-data: sort, filter, page
//                      and export CSV in the browser (explorer.js)
//   * price unit:      changing select[data-price-unit] clears price limits
//   * compare:         input[name=compare][value=OFFER_ID] + [data-compare-button]
//
// Everything is wired with event listeners: no inline scripts, no eval, so the
// pages can keep a strict `script-src 'self'` CSP. See web/README.md.

import * as echarts from "echarts/core";
import { LineChart, BarChart, ScatterChart } from "echarts/charts";
import { GridComponent, TooltipComponent, LegendComponent, TitleComponent, MarkLineComponent } from "echarts/components";
import { CanvasRenderer } from "echarts/renderers";
import { createExplorer } from "./explorer.js";

// Only the charts and components the pages use (bar, line, scatter; the
// mark line of the TCO chart), so the bundle stays small.
echarts.use([LineChart, BarChart, ScatterChart, GridComponent, TooltipComponent, LegendComponent, TitleComponent, MarkLineComponent, CanvasRenderer]);

const doc = document;
const root = doc.documentElement;
root.classList.remove("no-js");
root.classList.add("js");

// ---------------------------------------------------------------------------
// helpers

function $$(scope, selector) {
  const list = Array.prototype.slice.call((scope || doc).querySelectorAll(selector));
  if (scope && scope !== doc && scope.matches && scope.matches(selector)) list.unshift(scope);
  return list;
}

function pageLang() {
  return root.getAttribute("lang") || undefined;
}

function currentParams() {
  return new URLSearchParams(window.location.search);
}

function replaceParam(name, value, drop) {
  const url = new URL(window.location.href);
  for (const d of drop || []) url.searchParams.delete(d);
  if (value === null || value === undefined) url.searchParams.delete(name);
  else url.searchParams.set(name, value);
  // commas are legal in a query string; keep "cols=a,b,c" readable
  const next = url.pathname + url.search.replace(/%2C/gi, ",") + url.hash;
  if (next !== window.location.pathname + window.location.search + window.location.hash) {
    window.history.replaceState(window.history.state, "", next);
  }
}

// ---------------------------------------------------------------------------
// charts

const charts = new Set(); // live echarts instances

function makeFormatter(cfg) {
  const code = String(cfg.currency).toUpperCase();
  const decimals = Number.isInteger(cfg.decimals) ? cfg.decimals : 2;
  const suffix = cfg.suffix ? String(cfg.suffix) : "";
  let nf = null;
  try {
    nf = new Intl.NumberFormat(cfg.locale || pageLang(), {
      style: "currency",
      currency: code,
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
  } catch (e) {
    nf = null; // unknown currency code or locale: plain fallback below
  }
  return function (v) {
    if (v === null || v === undefined || v === "" || v === "-") return "–";
    const n = Number(v);
    if (!Number.isFinite(n)) return String(v);
    return (nf ? nf.format(n) : code + " " + n.toFixed(decimals)) + suffix;
  };
}

function asArray(x) {
  if (x === undefined || x === null) return [];
  return Array.isArray(x) ? x : [x];
}

// Applies the JSON-friendly conveniences under option.gpuscout (functions
// cannot be expressed in JSON):
//   gpuscout.currency  ISO 4217 code: tooltip, value axes, mark line/point
//                      labels are formatted as money with 2 decimals
//   gpuscout.decimals  override the 2 decimals
//   gpuscout.suffix    appended to formatted values, e.g. "/h"
//   gpuscout.valueDim  for array data ([x, y] scatter points): which index is
//                      the money value (default: last)
//   gpuscout.axes      "y" (default), "x" or "both": which value axes get the
//                      currency formatter
function applyConveniences(option) {
  // ECharts 6 puts the legend at the bottom by default, where it collides with
  // a slider dataZoom: move it to the top (below the title) unless placed.
  const hasSlider = asArray(option.dataZoom).some((z) => z && z.type === "slider");
  for (const lg of asArray(option.legend)) {
    if (hasSlider && lg && lg.top === undefined && lg.bottom === undefined) {
      lg.top = asArray(option.title).some((t) => t && t.text) ? 30 : 0;
    }
  }
  const cfg = option.gpuscout;
  delete option.gpuscout;
  if (!cfg || typeof cfg !== "object" || !cfg.currency) return option;
  const fmt = makeFormatter(cfg);

  const valueFmt = function (v) {
    if (Array.isArray(v)) {
      const i = Number.isInteger(cfg.valueDim) ? cfg.valueDim : v.length - 1;
      return fmt(v[i]);
    }
    return fmt(v);
  };

  const tooltips = asArray(option.tooltip);
  if (tooltips.length === 0) {
    const itemish = asArray(option.series).some((s) => s && (s.type === "pie" || s.type === "scatter"));
    option.tooltip = { trigger: itemish ? "item" : "axis" };
  }
  for (const t of asArray(option.tooltip)) {
    if (t && !t.formatter && !t.valueFormatter) t.valueFormatter = valueFmt;
  }

  const which = cfg.axes || "y";
  const axisKeys = which === "both" ? ["xAxis", "yAxis"] : which === "x" ? ["xAxis"] : ["yAxis"];
  for (const key of axisKeys) {
    for (const ax of asArray(option[key])) {
      if (!ax) continue;
      const type = ax.type || (key === "yAxis" ? "value" : "category");
      if (type !== "value" && type !== "log") continue;
      ax.axisLabel = ax.axisLabel || {};
      if (!ax.axisLabel.formatter) ax.axisLabel.formatter = fmt;
    }
  }

  for (const s of asArray(option.series)) {
    if (!s) continue;
    for (const mk of ["markLine", "markPoint"]) {
      const m = s[mk];
      if (!m) continue;
      m.label = m.label || {};
      if (!m.label.formatter) {
        m.label.formatter = function (p) {
          return valueFmt(p.value);
        };
      }
    }
    if (s.label && s.label.show && !s.label.formatter && s.type !== "pie") {
      s.label.formatter = function (p) {
        return valueFmt(p.value);
      };
    }
  }
  return option;
}

// fitNarrow keeps category labels from eating a narrow chart: on a phone
// the label column (the grid's 8 px edge, the labels truncated with …, and
// ECharts' 8 px label margin, 20 px with the truncation's slack) gets at
// most 40 % of the width, the grid sizes itself around the labels, and bar
// value labels are dropped when there are too many bars for them not to
// overlap.
function fitNarrow(option, width, el) {
  if (!width || width >= 640) return;
  const labelMax = Math.max(64, Math.floor(width * 0.4) - 20);
  for (const g of asArray(option.grid)) {
    if (!g) continue;
    if (typeof g.left === "number" && g.left > labelMax) {
      g.left = 8;
      g.containLabel = true;
    }
    if (typeof g.right === "number" && g.right > 40) g.right = 40;
  }
  for (const ax of asArray(option.yAxis)) {
    if (ax && ax.type === "category") {
      // Every bar keeps its label (interval 0); the chart grows to give
      // each one 16 px, whatever the font's line height (CJK fonts are taller).
      ax.axisLabel = Object.assign({}, ax.axisLabel, { width: labelMax, overflow: "truncate", fontSize: 10, interval: 0 });
      const need = asArray(ax.data).length * 16 + 72;
      if (el && el.clientHeight < need) el.style.height = need + "px";
    }
  }
  for (const s of asArray(option.series)) {
    if (s && s.type === "bar" && s.label && asArray(s.data).length > 8) s.label.show = false;
  }
}

function renderChart(el) {
  const id = el.getAttribute("data-chart");
  const src = id ? doc.getElementById(id) : null;
  if (!src) {
    el.setAttribute("data-chart-error", "missing option element #" + id);
    return;
  }
  const text = src.textContent || "";
  // Already rendered from this exact JSON: nothing to do.
  if (el.getAttribute("data-rendered") === "1" && el._gsChartJSON === text && el._gsChart) return;

  let option;
  try {
    option = JSON.parse(text);
  } catch (e) {
    el.setAttribute("data-chart-error", "invalid JSON");
    console.error("gpuscout: chart option #" + id + " is not valid JSON", e);
    return;
  }
  if (!option || typeof option !== "object") {
    el.setAttribute("data-chart-error", "option is not an object");
    return;
  }

  const titleObj = asArray(option.title)[0];
  const label = el.getAttribute("aria-label") || (titleObj && titleObj.text) || "";
  applyConveniences(option);
  fitNarrow(option, el.clientWidth, el);

  let chart = el._gsChart || echarts.getInstanceByDom(el);
  if (!chart) {
    // Anything inside the element is no-JS fallback content; ECharts owns it now.
    while (el.firstChild) el.removeChild(el.firstChild);
    chart = echarts.init(el, null, { renderer: "canvas" });
    charts.add(chart);
    el._gsChart = chart;
    if (window.ResizeObserver) {
      const ro = new ResizeObserver(function () {
        if (!chart.isDisposed()) chart.resize();
      });
      ro.observe(el);
      el._gsResizeObserver = ro;
    }
  }
  try {
    chart.setOption(option, { notMerge: true });
  } catch (e) {
    el.setAttribute("data-chart-error", "setOption failed");
    console.error("gpuscout: chart #" + id + " setOption failed", e);
    return;
  }
  el._gsChartJSON = text;
  if (!el.hasAttribute("role")) el.setAttribute("role", "img");
  if (label && !el.hasAttribute("aria-label")) el.setAttribute("aria-label", label);
  el.removeAttribute("data-chart-error");
  el.setAttribute("data-rendered", "1");
}

function pruneCharts() {
  charts.forEach(function (chart) {
    const dom = chart.getDom();
    if (chart.isDisposed() || !dom || !dom.isConnected) {
      if (dom && dom._gsResizeObserver) dom._gsResizeObserver.disconnect();
      if (!chart.isDisposed()) chart.dispose();
      charts.delete(chart);
    }
  });
}

function initCharts(scope) {
  pruneCharts();
  for (const el of $$(scope, "[data-chart]")) renderChart(el);
}

let resizeQueued = false;
function resizeAll() {
  if (resizeQueued) return;
  resizeQueued = true;
  window.requestAnimationFrame(function () {
    resizeQueued = false;
    charts.forEach(function (c) {
      if (!c.isDisposed()) c.resize();
    });
  });
}
window.addEventListener("resize", resizeAll);
window.addEventListener("beforeprint", function () {
  charts.forEach(function (c) {
    if (!c.isDisposed()) c.resize();
  });
});

// ---------------------------------------------------------------------------
// column chooser

let chosenCols = null; // array of visible keys once known
let knownCols = new Set(); // keys offered by the chooser

function columnBoxes() {
  return $$(doc, "[data-columns] input[name=col]");
}

function applyColumns(visible) {
  const set = new Set(visible);
  for (const cell of $$(doc, "th[data-col], td[data-col]")) {
    const hide = !set.has(cell.getAttribute("data-col"));
    // only touch columns the chooser knows about
    if (!knownCols.has(cell.getAttribute("data-col"))) continue;
    cell.hidden = hide;
    cell.classList.toggle("col-hidden", hide);
  }
  for (const box of columnBoxes()) box.checked = set.has(box.value);
  const joined = visible.join(",");
  for (const input of $$(doc, "input[type=hidden][name=cols]")) input.value = joined;
  // Forms that carry the column choice as repeated hidden "col" inputs (so the
  // no-JS round trip keeps it) get them rewritten to the current choice.
  const forms = new Set();
  for (const input of $$(doc, "form input[type=hidden][name=col]")) {
    forms.add(input.form || input.closest("form"));
    input.remove();
  }
  forms.forEach(function (form) {
    if (!form) return;
    for (const key of visible) {
      const h = doc.createElement("input");
      h.type = "hidden";
      h.name = "col";
      h.value = key;
      form.appendChild(h);
    }
  });
  // keep the column choice on sort headers and links that ask for it
  for (const a of $$(doc, "table.data thead a[href], a[data-keep-cols]")) {
    try {
      const u = new URL(a.getAttribute("href"), window.location.href);
      if (u.origin !== window.location.origin) continue;
      u.searchParams.set("cols", joined);
      a.setAttribute("href", u.pathname + u.search.replace(/%2C/gi, ",") + u.hash);
    } catch (e) {
      /* leave malformed hrefs alone */
    }
  }
}

function initColumns() {
  const boxes = columnBoxes();
  if (boxes.length === 0) return;
  knownCols = new Set(boxes.map((b) => b.value));
  const fromURL = currentParams().get("cols");
  let visible;
  if (fromURL !== null) {
    visible = fromURL
      .split(",")
      .map((s) => s.trim())
      .filter((k) => knownCols.has(k));
  } else if (chosenCols) {
    // content was swapped by htmx and the new URL dropped ?cols: keep the choice
    visible = chosenCols.filter((k) => knownCols.has(k));
  } else {
    visible = boxes.filter((b) => b.checked).map((b) => b.value);
  }
  if (visible.length === 0) visible = boxes.map((b) => b.value);
  if (chosenCols && fromURL === null) replaceParam("cols", visible.join(","), ["col"]);
  chosenCols = visible;
  applyColumns(visible);
}

function onColumnToggle(box) {
  let visible = columnBoxes()
    .filter((b) => b.checked)
    .map((b) => b.value);
  if (visible.length === 0) {
    // never hide every column
    box.checked = true;
    visible = [box.value];
  }
  // de-duplicate (a key may appear in more than one chooser) keeping order
  visible = visible.filter((k, i) => visible.indexOf(k) === i);
  chosenCols = visible;
  applyColumns(visible);
  replaceParam("cols", visible.join(","), ["col"]);
}

// ---------------------------------------------------------------------------
// compare

const COMPARE_MIN = 2;
const COMPARE_MAX = 6;

let explorer = null;

// selectedOffers is every ticked offer: on the explorer's other pages too.
function selectedOffers() {
  const ids = explorer ? explorer.selected() : [];
  for (const b of $$(doc, "input[name=compare]:checked")) if (ids.indexOf(b.value) < 0) ids.push(b.value);
  return ids;
}

function updateCompare() {
  const boxes = $$(doc, "input[name=compare]");
  const n = selectedOffers().length;
  const ok = n >= COMPARE_MIN && n <= COMPARE_MAX;
  for (const btn of $$(doc, "[data-compare-button]")) {
    btn.hidden = false;
    btn.disabled = !ok;
    btn.setAttribute("aria-disabled", ok ? "false" : "true");
    for (const c of $$(btn, "[data-compare-count]")) c.textContent = String(n);
  }
  for (const c of $$(doc, "[data-compare-count]")) c.textContent = String(n);
  // at the limit, unchecked boxes cannot be added
  for (const b of boxes) {
    if (!b.checked) b.disabled = n >= COMPARE_MAX;
  }
}

function compareURL(btn) {
  const base = btn.getAttribute("data-compare-url") || "/compare";
  const u = new URL(base, window.location.href);
  const seen = new Set();
  for (const id of selectedOffers()) {
    if (id && !seen.has(id)) {
      seen.add(id);
      u.searchParams.append("offer", id);
    }
  }
  const here = currentParams();
  for (const key of ["lang", "currency"]) {
    let v = here.get(key);
    if (!v) {
      // fall back to a form field of that name (e.g. the filters' currency select)
      const field = doc.querySelector("form [name=" + key + "]");
      if (field && field.value) v = field.value;
    }
    if (v) u.searchParams.set(key, v);
  }
  return u.pathname + u.search;
}

// ---------------------------------------------------------------------------
// wiring (delegated, so swapped-in content works without rebinding)

doc.addEventListener("change", function (ev) {
  const t = ev.target;
  if (!(t instanceof Element)) return;

  if (t.matches("[data-columns] input[name=col]")) {
    onColumnToggle(t);
    return;
  }
  if (t.matches("input[name=compare]")) {
    updateCompare();
    return;
  }
  // A price limit means something else per hour and per month: clear the
  // limits when the unit changes, and say so (nothing submits on change:
  // WCAG 3.2.2, the Apply button does).
  if (t.matches("select[data-price-unit]")) {
    const form = t.closest("form");
    let cleared = false;
    for (const name of ["min_price", "max_price"]) {
      const f = form && form.querySelector("[name=" + name + "]");
      if (f && f.value !== "") {
        f.value = "";
        cleared = true;
      }
    }
    const note = form && form.querySelector("[data-price-reset]");
    if (note && cleared) note.hidden = false;
  }
});

doc.addEventListener("click", function (ev) {
  const t = ev.target instanceof Element ? ev.target.closest("[data-compare-button]") : null;
  if (!t) return;
  ev.preventDefault();
  const n = selectedOffers().length;
  if (t.disabled || n < COMPARE_MIN || n > COMPARE_MAX) return;
  window.location.assign(compareURL(t));
});

// The filter form folds so the table starts in the first viewport. On a
// phone it starts folded (it was a screen and a half); on a wide screen it
// starts open. Opening or folding it is remembered (localStorage) and wins.
const FILTERS_KEY = "gpuscout.filters";
function foldFilters() {
  let saved = null;
  try {
    saved = window.localStorage.getItem(FILTERS_KEY);
  } catch (e) {
    saved = null; // storage blocked: fall back to the default
  }
  const phone = window.matchMedia && window.matchMedia("(max-width: 640px)").matches;
  for (const d of $$(doc, "details[data-filters]")) {
    if (saved === "open") d.open = true;
    else if (saved === "closed" || phone) d.open = false;
    d.addEventListener("toggle", function () {
      try {
        window.localStorage.setItem(FILTERS_KEY, d.open ? "open" : "closed");
      } catch (e) {
        // storage blocked: the choice lasts for this page only
      }
    });
  }
}

function enhance(scope) {
  for (const el of $$(scope, "[data-js-only]")) el.hidden = false;
  for (const el of $$(scope, "[data-no-js-only]")) el.hidden = true;
  initColumns();
  if (!explorer) explorer = createExplorer(doc, { rendered: updateCompare });
  updateCompare();
  initCharts(scope);
}

let started = false;
function start() {
  if (started) return;
  started = true;
  foldFilters();
  enhance(doc);
}

if (doc.readyState === "loading") doc.addEventListener("DOMContentLoaded", start);
else start();

window.addEventListener("pageshow", function (ev) {
  if (ev.persisted) enhance(doc); // back/forward cache
});
