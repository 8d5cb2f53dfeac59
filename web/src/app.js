// gpuscout web UI enhancements.
//
// The server-rendered pages work without this bundle (plain GET forms, links
// and tables). This file only adds progressive enhancements:
//
//   * charts:          <div class="chart" data-chart="ID"></div>
//                      <script type="application/json" id="ID">{...option...}</script>
//                      drawn by the separate chart chunk (charts.js), which
//                      this file loads only on pages that have a chart
//   * column chooser:  <fieldset data-columns> with input[name=col][value=KEY]
//                      hides/shows th[data-col=KEY] / td[data-col=KEY], URL ?cols=
//   * explorer:        table[data-offers] + #offers-data: sort, filter, page
//                      and export CSV in the browser (explorer.js)
//   * price unit:      changing select[data-price-unit] clears price limits
//   * compare:         input[name=compare][value=OFFER_ID] + [data-compare-button]
//
// Everything is wired with event listeners: no inline scripts, no eval, so the
// pages can keep a strict `script-src 'self'` CSP. See web/README.md.

import { createExplorer } from "./explorer.js";
import { syncLinks } from "./links.js";

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
    syncLinks(doc);
  }
}

// ---------------------------------------------------------------------------
// charts: the chart library is a separate chunk (charts.js), loaded only by
// pages with a [data-chart] element; on the explorer, whose chart sits
// below the table, only when the chart comes near the viewport.

let chartsRequested = false;

function chartScriptURL() {
  const own = doc.querySelector('script[src$="/app.js"], script[src*="/app.js?"]');
  return own ? own.getAttribute("src").replace(/app\.js(\?.*)?$/, "charts.js$1") : "/static/charts.js";
}

function loadCharts() {
  if (window.gpuscoutCharts) {
    window.gpuscoutCharts.init(doc);
    return;
  }
  if (chartsRequested) return;
  chartsRequested = true;
  const s = doc.createElement("script");
  s.src = chartScriptURL();
  s.async = true;
  s.setAttribute("data-charts", "");
  s.onerror = function () {
    chartsRequested = false;
    for (const el of $$(doc, "[data-chart]")) el.setAttribute("data-chart-error", "chart script did not load");
  };
  doc.head.appendChild(s);
}

function initCharts(scope) {
  const els = $$(scope, "[data-chart]");
  if (els.length === 0) return;
  const lazy = els.every((el) => el.hasAttribute("data-chart-lazy"));
  if (!lazy || !window.IntersectionObserver) {
    loadCharts();
    return;
  }
  // A chart in view loads at once; once the user scrolls, one within
  // 300 px of the view loads ahead (the explorer's dense first view ends
  // just above its chart: that alone loads no chart code).
  const watch = function (margin) {
    const io = new IntersectionObserver(
      function (entries) {
        if (entries.some((e) => e.isIntersecting)) {
          io.disconnect();
          loadCharts();
        }
      },
      { rootMargin: margin }
    );
    for (const el of els) io.observe(el);
  };
  watch("0px");
  window.addEventListener("scroll", () => watch("300px 0px"), { once: true, passive: true });
}

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
  // the explorer draws only the shown columns' cells: redraw its rows
  if (explorer) explorer.refresh();
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
    const form = t.form || t.closest("form");
    // The explorer switches the unit of the rows it holds in place (no
    // price limit applies to them then); a page the server filtered by
    // price waits for Apply.
    if (explorer && explorer.setUnit(t.value)) return;
    let cleared = false;
    for (const name of ["min_price", "max_price"]) {
      const f = form && form.querySelector("[name=" + name + "]");
      if (f && f.value !== "") {
        f.value = "";
        cleared = true;
      }
    }
    const note = doc.querySelector("[data-price-reset]");
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

// The filter form folds so the rows start high in the first viewport: it
// starts folded unless the URL filters the rows (the server renders it
// open then), and always on a phone. Opening or folding it by hand is
// remembered (localStorage) and wins; nothing else is saved, so a phone
// visit does not fold it on a desktop.
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
    const summary = d.querySelector("summary");
    if (!summary) continue;
    // a click on the summary (mouse, Enter or Space) toggles it: save the
    // state it is about to take
    summary.addEventListener("click", function () {
      try {
        window.localStorage.setItem(FILTERS_KEY, d.open ? "closed" : "open");
      } catch (e) {
        // storage blocked: the choice lasts for this page only
      }
    });
  }
}

// A table cell cut to one line (text-overflow: ellipsis) shows its whole
// text as a tooltip when pointed at.
doc.addEventListener("mouseover", function (ev) {
  const td = ev.target instanceof Element ? ev.target.closest("table.data td") : null;
  if (td && !td.title && td.scrollWidth > td.clientWidth) td.title = td.textContent.trim();
});

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
