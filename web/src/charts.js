// The chart chunk: ECharts and the code that draws every
// <div class="chart" data-chart="ID"> from the option in
// <script type="application/json" id="ID">. app.js loads this file only on
// pages that have a chart (the explorer's when the chart comes near the
// viewport), so pages without charts never download the chart library.
// It registers window.gpuscoutCharts = {init(scope)} and draws the page's
// charts once loaded. See web/README.md.

import * as echarts from "echarts/core";
import { LineChart, BarChart, ScatterChart } from "echarts/charts";
import { GridComponent, TooltipComponent, LegendComponent, TitleComponent, MarkLineComponent } from "echarts/components";
import { CanvasRenderer } from "echarts/renderers";

// Only the charts and components the pages use (bar, line, scatter; the
// mark line of the TCO chart), so the chunk stays small.
echarts.use([LineChart, BarChart, ScatterChart, GridComponent, TooltipComponent, LegendComponent, TitleComponent, MarkLineComponent, CanvasRenderer]);

const doc = document;

function pageLang() {
  return doc.documentElement.getAttribute("lang") || undefined;
}

function $$(scope, selector) {
  const list = Array.prototype.slice.call((scope || doc).querySelectorAll(selector));
  if (scope && scope !== doc && scope.matches && scope.matches(selector)) list.unshift(scope);
  return list;
}

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
  growForLabels(option, el);
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

// growForLabels gives each label of a category axis that shows every
// label (interval 0) 16 px at any width: the chart grows rather than
// drawing labels over each other.
function growForLabels(option, el) {
  for (const ax of asArray(option.yAxis)) {
    if (ax && ax.type === "category" && ax.axisLabel && ax.axisLabel.interval === 0) {
      const need = asArray(ax.data).length * 16 + 72;
      if (el && el.clientHeight < need) el.style.height = need + "px";
    }
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


window.gpuscoutCharts = { init: initCharts };
initCharts(doc);
