// The offers explorer: every row the server's filters match arrives once,
// as JSON in <script type="application/json" id="offers-data">; sorting (one
// control: the column headers), the quick filter, the filter form's GPU,
// cloud, billing, region and price filters (when the rows they need are
// loaded), paging and CSV export then run in the browser without a request.
// A page size above VIRTUAL_AT rows (500, or all: every row of every
// region, thousands) is virtualised: only the rows in view of the table's scroll box, plus an
// overscan, are in the DOM, between two spacer rows that keep the scroll
// height, and the table keeps aria-rowcount/aria-rowindex so a screen
// reader knows where it is. The server-rendered first page, its sort links
// and pager links remain the no-JS fallback.
//
// URL state (history.replaceState): order, desc, q (quick filter), size
// (rows per page, 0 = all), page, and the filter form's fields once applied
// here, so a reload or a link gives the same view from the server.

import { syncLinks } from "./links.js";

const NUMERIC = new Set(["gpus", "vram", "vcpu", "ram", "network", "price", "per_gpu", "upfront"]);

// VIRTUAL_AT is the largest page size rendered whole; OVERSCAN the rows
// rendered beyond each edge of the visible window.
const VIRTUAL_AT = 120;
const OVERSCAN = 6;

// Fields of the filter form the explorer applies itself when the loaded
// rows hold every row the new value keeps; any other change goes to the
// server. IGNORED fields are the explorer's own state.
const LOCAL = new Set(["gpu", "provider", "billing", "region", "min_price", "max_price"]);
const IGNORED = new Set(["col", "cols", "order", "desc", "lang", "page", "q", "size", "per"]);
// The price units, in the order of each row's "prices" (the server's
// figures for every unit), and the hours of the instance-hour units.
const UNITS = ["instance-hour", "gpu-hour", "day", "month", "year"];
const HOURS = { "instance-hour": 1, day: 24, month: 730, year: 8760 };
const FAMILIES = new Set(["on-demand", "spot", "reserved", "savings-plan", "committed", "subscription", "capacity-block", "flex-start"]);

function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

function num(s) {
  if (s === "" || s === undefined || s === null) return null;
  const n = parseFloat(String(s).replace(/,/g, ""));
  return Number.isFinite(n) ? n : null;
}

// normName is a GPU name as the catalog's lookup compares it.
function normName(s) {
  return String(s).toLowerCase().replace(/[ \-_./]/g, "");
}

// csvCell neutralises spreadsheet formulas in text cells: a text cell that
// starts with = + - @ tab or CR gets a leading single quote; numeric cells
// (negative numbers included) stay numbers.
export function csvCell(v, numeric) {
  let s = v === null || v === undefined ? "" : String(v);
  if (numeric) s = s.replace(/,/g, "");
  else if (/^[=+\-@\t\r]/.test(s)) s = "'" + s;
  if (/[",\r\n]/.test(s)) s = '"' + s.replace(/"/g, '""') + '"';
  return s;
}

// formValues reads a form's fields as name -> joined value (checkbox groups
// and comma lists as one comma-joined, trimmed string).
function formValues(form) {
  const out = new Map();
  for (const [k, v] of new FormData(form).entries()) {
    if (typeof v !== "string") continue;
    const parts = v
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== "");
    if (parts.length === 0) {
      if (!out.has(k)) out.set(k, "");
      continue;
    }
    const prev = out.get(k);
    out.set(k, prev ? prev + "," + parts.join(",") : parts.join(","));
  }
  return out;
}

export function createExplorer(doc, hooks) {
  const table = doc.querySelector("table[data-offers]");
  const src = doc.getElementById("offers-data");
  if (!table || !src) return null;
  const tbody = table.tBodies[0];
  const wrap = table.closest(".table-wrap") || table.parentElement;
  const ths = Array.prototype.slice.call(table.querySelectorAll("thead th[data-col]"));
  const keys = ths.map((th) => th.getAttribute("data-col"));
  const params = new URLSearchParams(window.location.search);
  const filterBox = doc.querySelector("[data-x-filter]");
  const sizeBox = doc.querySelector("[data-x-size]");
  const pager = doc.querySelector("[data-pager]");
  const form = doc.querySelector("form.filters");
  const countEl = doc.querySelector("[data-x-count]");
  const currency = params.get("currency") || table.getAttribute("data-currency") || "";
  // What the loaded rows were filtered by: the form as the server rendered it.
  const loaded = form ? formValues(form) : new Map();
  // The price unit: switched here (setUnit) from the rows' figures.
  const unitSel = doc.querySelector("select[data-price-unit]");
  const loadedUnit = unitSel ? unitSel.value : "instance-hour";
  let unit = loadedUnit;
  let unitLabels = {};
  try {
    unitLabels = JSON.parse((unitSel && unitSel.getAttribute("data-unit-labels")) || "{}");
  } catch (e) {
    unitLabels = {};
  }

  const state = {
    order: params.get("order") || "",
    desc: params.get("desc") === "true",
    q: params.get("q") || "",
    size: params.has("size") ? parseInt(params.get("size"), 10) || 0 : 50,
    page: Math.max(1, parseInt(params.get("page") || "1", 10) || 1),
  };
  const selected = new Set();
  let rows = []; // {id, k: rank by ID, c: cells by name, s: sort keys, h: haystack, p: price}
  let gpuNames = {};
  let view = []; // filtered and sorted
  let local = null; // the form's filters applied here, or null
  // The page's slice of view and, when virtualised, the rendered window.
  let lo = 0;
  let hi = 0;
  let virtual = false;
  let first = 0;
  let last = 0;
  let rowH = 0; // measured height of a virtualised row

  function load() {
    let data;
    try {
      data = JSON.parse(src.textContent || "{}");
    } catch (e) {
      console.error("gpuscout: offers data is not valid JSON", e);
      return false;
    }
    const cols = data.cols || [];
    gpuNames = data.gpus || {};
    widest = {};
    rows = (data.rows || []).map(function (r) {
      const c = {};
      for (let i = 0; i < cols.length; i++) c[cols[i]] = r[i];
      const s = {};
      for (const k of keys) s[k] = sortKey(k, c);
      const p = c.price_n === undefined ? num(c.price) : num(c.price_n);
      const row = { id: String(c.id), k: 0, c: c, s: s, p: p, h: [c.id, c.provider, c.instance, c.gpu, c.region, c.billing, c.interconnect, c.rdma].join(" ").toLowerCase() };
      if (unit !== loadedUnit) priced(row);
      return row;
    });
    // k is each row's place in offer-ID order: ties compare two numbers
    rows
      .slice()
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .forEach((r, i) => (r.k = i));
    return true;
  }

  // priced sets a row's price cell, price and price sort key in the unit
  // shown: the server's formatted figure, and the exact price it sorts by
  // (per GPU-hour, or the instance-hour price, which orders every other
  // unit the same way).
  function priced(r) {
    const c = r.c;
    c.price = String(c.prices || "").split("|")[UNITS.indexOf(unit)] || "";
    const eh = num(c.eh);
    if (unit === loadedUnit) r.p = num(c.price_n);
    else if (unit === "gpu-hour") r.p = num(c.per_gpu_n);
    else r.p = eh === null ? null : eh * HOURS[unit];
    r.s.price = unit === "gpu-hour" ? num(c.per_gpu_n) : unit === loadedUnit ? r.p : eh;
  }

  // setUnit shows the rows' prices in another unit without a request,
  // clearing price limits (they meant the old unit). It returns false
  // when the server must: the loaded rows were filtered by price.
  function setUnit(u) {
    if (UNITS.indexOf(u) < 0 || !rows.length || rows[0].c.prices === undefined) return false;
    if (loaded.get("min_price") || loaded.get("max_price")) return false;
    let cleared = false;
    for (const name of ["min_price", "max_price"]) {
      const f = form && form.querySelector("[name=" + name + "]");
      if (f && f.value !== "") {
        f.value = "";
        cleared = true;
      }
    }
    const note = doc.querySelector("[data-price-reset]");
    if (note) note.hidden = !cleared;
    if (local) {
      delete local.min_price;
      delete local.max_price;
      if (!Object.keys(local).length) local = null;
    }
    unit = u;
    for (const r of rows) priced(r);
    widest = {};
    const label = unitLabels[u] || u;
    table.setAttribute("data-price-unit", label);
    for (const el of doc.querySelectorAll("[data-unit-label]")) el.textContent = label;
    update(true);
    return true;
  }

  // sortKey is what a column sorts by, as the server's order parameter
  // sorts (so a reload gives the same order): codes rather than labels
  // (provider, GPU, billing, source), exact prices rather than rounded
  // ones, unknown specs (empty or 0) blank, undated after dated.
  function sortKey(k, c) {
    switch (k) {
      case "provider":
        return String(c.provider_id || "");
      case "gpu":
        return String(c.gpu_id || "");
      case "billing":
        return String(c.billing_code || "");
      case "source":
        return String(c.source_kind || "");
      case "as_of":
        return /^\d{4}-\d{2}-\d{2}$/.test(c.as_of) ? c.as_of : "~";
      case "price":
        return c.price_n === undefined ? num(c.price) : num(c.price_n);
      case "per_gpu":
        return c.per_gpu_n === undefined ? num(c.per_gpu) : num(c.per_gpu_n);
      case "upfront":
        return num(c.upfront) || 0; // none is 0, as on the server
      case "gpus": {
        const m = /^(\d+)\/(\d+)$/.exec(String(c.gpus || "")); // a fraction of a GPU
        const n = m ? m[1] / m[2] : num(c.gpus);
        return n > 0 ? n : null;
      }
    }
    if (NUMERIC.has(k)) {
      const n = num(c[k]);
      return n > 0 ? n : null;
    }
    return String(c[k] === undefined || c[k] === null ? "" : c[k]);
  }

  // localFilters turns the form's new values into filters the loaded rows
  // can answer, or null when the server must (a field outside LOCAL
  // changed, the loaded rows were already filtered on it, a value the
  // script cannot resolve as the server does, or a region or minimum price
  // under "cheapest region of each", whose choice of region it changes).
  function localFilters(next) {
    const names = new Set([...loaded.keys(), ...next.keys()]);
    const cheapest = (loaded.get("cheapest_region") || "true") !== "false";
    const f = {};
    for (const k of names) {
      if (IGNORED.has(k)) continue;
      const a = loaded.get(k) || "";
      const b = next.get(k) || "";
      if (a === b) continue;
      if (!LOCAL.has(k) || a !== "") return null;
      if (cheapest && (k === "region" || k === "min_price")) return null;
      const list = b.split(",");
      switch (k) {
        case "gpu": {
          const ids = new Set();
          for (const n of list) {
            const got = gpuNames[normName(n)];
            if (!got) return null;
            for (const id of got) ids.add(id);
          }
          f.gpu = ids;
          break;
        }
        case "provider":
          f.provider = new Set(list.map((s) => s.toLowerCase()));
          break;
        case "billing":
          for (const v of list) if (!FAMILIES.has(v) && !/^[a-z0-9]+(-[a-z0-9]+)+$/.test(v)) return null;
          f.billing = list;
          break;
        case "region":
          f.region = new Set(list.map((s) => s.toLowerCase()));
          break;
        default: {
          const n = Number(b);
          if (!Number.isFinite(n) || n < 0 || list.length !== 1) return null;
          if (n > 0) f[k] = n; // 0 is no limit, as on the server
        }
      }
    }
    return f;
  }

  function matchesLocal(r) {
    const f = local;
    const c = r.c;
    if (f.gpu && !f.gpu.has(c.gpu_id)) return false;
    if (f.provider && !f.provider.has(String(c.provider_id).toLowerCase())) return false;
    if (f.billing && !f.billing.some((b) => b === c.billing_code || b === c.billing_family)) return false;
    if (f.region && !f.region.has(String(c.region).toLowerCase())) return false;
    if (f.max_price !== undefined && (r.p === null || r.p > f.max_price)) return false;
    if (f.min_price !== undefined && (r.p === null || r.p < f.min_price)) return false;
    return true;
  }

  function apply() {
    const q = state.q.trim().toLowerCase();
    const words = q ? q.split(/\s+/) : [];
    view =
      words.length || local
        ? rows.filter(function (r) {
            for (const w of words) if (r.h.indexOf(w) < 0) return false;
            return !local || matchesLocal(r);
          })
        : rows.slice();
    if (state.order) {
      const k = state.order;
      const dir = state.desc ? -1 : 1;
      const numeric = NUMERIC.has(k);
      // Ties go by offer ID, ascending either way, as on the server: the
      // same rows come in the same order whichever order came before.
      view.sort(function (a, b) {
        const x = a.s[k];
        const y = b.s[k];
        if (numeric) {
          if (x === null && y !== null) return 1; // blanks last either way
          if (y === null && x !== null) return -1;
          if (x !== y) return (x - y) * dir;
        } else if (x !== y) {
          return (x < y ? -1 : 1) * dir;
        }
        return a.k - b.k;
      });
    }
  }

  function hiddenCols() {
    const h = new Set();
    ths.forEach((th, i) => {
      if (th.hidden) h.add(keys[i]);
    });
    return h;
  }

  function cellHTML(k, c) {
    const v = c[k] === undefined ? "" : c[k];
    switch (k) {
      case "instance":
        return '<a href="/instances/' + esc(encodeURIComponent(c.provider_id)) + "/" + esc(encodeURIComponent(c.instance)) + (currency ? "?currency=" + esc(encodeURIComponent(currency)) : "") + '">' + esc(v) + "</a>";
      case "billing":
        return '<span class="pill">' + esc(v) + "</span>";
      case "source":
        return '<span title="' + esc(c.source_ref) + '">' + esc(v) + "</span>";
      case "price":
        // an instance without a price on the term chosen says so
        return c.none ? '<span title="' + esc(c.none) + '">' + esc(v) + "</span>" : esc(v);
      case "as_of":
        return '<span class="badge ' + esc(c.fresh) + '">' + esc(v) + "</span>";
    }
    return esc(v);
  }

  function fmt(tpl, args) {
    let i = 0;
    return String(tpl || "").replace(/%(?:\[(\d+)\])?d/g, function (_, n) {
      return String(n ? args[parseInt(n, 10) - 1] : args[i++]);
    });
  }

  // headHeight is the sticky header's height (the rows start below it),
  // read once per size of the window: reading it forces a layout.
  let headH = -1;
  function headHeight() {
    if (headH < 0) headH = table.tHead ? table.tHead.offsetHeight : 0;
    return headH;
  }

  // pageScrolls is whether the table scrolls with the page rather than in
  // its box (a phone: the box has no maximum height), read once per size
  // of the window.
  let pageMode = null;
  function pageScrolls() {
    if (pageMode === null) {
      const cs = window.getComputedStyle(wrap);
      pageMode = cs.maxHeight === "none" || cs.overflowY === "visible";
    }
    return pageMode;
  }

  // windowFor is the rows [first, last) to render for the current scroll
  // position of the box, or of the page when the table scrolls with it.
  function windowFor() {
    const h = rowH || 36;
    let top;
    if (pageScrolls()) {
      top = Math.max(0, -table.getBoundingClientRect().top - headHeight());
    } else {
      top = Math.max(0, wrap.scrollTop - headHeight());
    }
    // The box is at most a viewport tall (and smaller while it is still
    // growing to its rows' height): the viewport bounds the rows in view.
    const seen = Math.ceil(Math.max(pageMode ? 0 : wrap.clientHeight, window.innerHeight) / h) + 1;
    const a = Math.max(lo, lo + Math.floor(top / h) - OVERSCAN);
    const b = Math.min(hi, a + seen + 2 * OVERSCAN);
    return [a, b];
  }

  // longest is the cells of the row whose key column is longest, among
  // every row loaded (cached per load).
  let widest = {};
  function longest(k) {
    if (!widest[k]) {
      let best = rows[0] ? rows[0].c : {};
      let n = -1;
      for (const r of rows) {
        const v = r.c[k] === undefined || r.c[k] === null ? "" : String(r.c[k]);
        // CJK characters are about twice as wide
        const w = v.length + (v.match(/[\u3000-\u9fff\uff00-\uffef]/g) || []).length;
        if (w > n) {
          n = w;
          best = r.c;
        }
      }
      widest[k] = best;
    }
    return widest[k];
  }

  // renderRows writes the rows [a, b) of view (the whole page, or the
  // virtual window between its spacers) into the table body.
  function renderRows(a, b) {
    const hidden = hiddenCols();
    const numCols = new Set(ths.filter((th) => th.classList.contains("num")).map((th) => th.getAttribute("data-col")));
    const label = table.getAttribute("data-msg-compare") || "";
    const shown = keys.filter((k) => !hidden.has(k));
    const span = shown.length + 1;
    const out = [];
    // Keyboard focus on a compare box survives the redraw when its row does.
    const active = doc.activeElement;
    const focusID = active && tbody.contains(active) && active.matches("input[name=compare]") ? active.value : null;
    if (virtual) {
      // A collapsed row of each column's longest cell (of every row loaded)
      // keeps the columns' widths whatever rows the window holds: a sort
      // or a scroll redraws rows, not the whole table's layout. It holds
      // nothing focusable (the instance link as text).
      out.push('<tr class="vsize" aria-hidden="true"><td></td>');
      for (const k of shown) out.push('<td data-col="' + k + '"' + (numCols.has(k) ? ' class="num"' : "") + ">" + (k === "instance" ? esc(longest(k)[k]) : cellHTML(k, longest(k))) + "</td>");
      out.push("</tr>");
    }
    if (virtual && a > lo) out.push('<tr class="vpad" aria-hidden="true"><td colspan="' + span + '" style="height:' + (a - lo) * rowH + 'px"></td></tr>');
    for (let i = a; i < b; i++) {
      const c = view[i].c;
      out.push('<tr data-offer="' + esc(c.id) + '" aria-rowindex="' + (i - lo + 2) + '"' + ((i - lo) % 2 ? ' class="alt"' : "") + (c.id ? '><td><input type="checkbox" name="compare" value="' + esc(c.id) + '" aria-label="' + esc(label + " " + c.id) + '"' + (selected.has(c.id) ? " checked" : "") + "></td>" : " data-none><td></td>"));
      // Hidden columns are left out (the column chooser redraws the rows
      // when it shows one): fewer cells to build, style and lay out.
      for (const k of shown) {
        out.push('<td data-col="' + k + '"' + (numCols.has(k) ? ' class="num"' : "") + ">" + cellHTML(k, c) + "</td>");
      }
      out.push("</tr>");
    }
    if (virtual && b < hi) out.push('<tr class="vpad" aria-hidden="true"><td colspan="' + span + '" style="height:' + (hi - b) * rowH + 'px"></td></tr>');
    if (hi === lo) {
      out.push('<tr><td colspan="' + span + '" class="muted" data-x-none>' + esc(table.getAttribute("data-msg-none")) + "</td></tr>");
    }
    tbody.innerHTML = out.join("");
    first = a;
    last = b;
    if (focusID) {
      const box = tbody.querySelector('input[name=compare][value="' + (window.CSS && CSS.escape ? CSS.escape(focusID) : focusID) + '"]');
      if (box) box.focus({ preventScroll: true });
      else wrap.focus({ preventScroll: true });
    }
  }

  // measure takes a rendered row's height; a change redraws the window.
  function measure() {
    const r = tbody.querySelector("tr[data-offer]");
    const h = r ? r.getBoundingClientRect().height : 0;
    if (h > 0 && Math.abs(h - rowH) > 0.25) {
      rowH = h;
      return true;
    }
    return false;
  }

  function render() {
    const total = view.length;
    const size = state.size > 0 ? state.size : total || 1;
    const pages = Math.max(1, Math.ceil(total / size));
    if (state.page > pages) state.page = pages;
    lo = (state.page - 1) * size;
    hi = Math.min(lo + size, total);
    // Virtual by the page size chosen (all, 500), not by the rows a filter
    // leaves: switching modes restyles every cell, which a keystroke that
    // narrows 4,000 rows to 60 should not pay.
    virtual = state.size === 0 || state.size > VIRTUAL_AT;
    table.classList.toggle("virtual", virtual);
    wrap.classList.toggle("virtual", virtual);
    table.setAttribute("aria-rowcount", String(hi - lo + 1));
    if (virtual) {
      // The row height is measured once (and again after a resize): each
      // measurement forces a layout, which a sort or a filter should not pay.
      if (!rowH) {
        renderRows(lo, Math.min(hi, lo + 2));
        measure();
      }
      const w = windowFor();
      renderRows(w[0], w[1]);
    } else {
      renderRows(lo, hi);
    }
    for (const th of ths) {
      const k = th.getAttribute("data-col");
      const a = th.querySelector("a[data-sort]");
      const arrow = a && a.querySelector(".arrow");
      if (k === state.order) {
        th.setAttribute("aria-sort", state.desc ? "descending" : "ascending");
        if (arrow) arrow.textContent = state.desc ? " ▼" : " ▲";
      } else {
        th.removeAttribute("aria-sort");
        if (arrow) arrow.textContent = "";
      }
    }
    if (pager) {
      const status = pager.querySelector("[data-x-status]");
      if (status) status.textContent = fmt(table.getAttribute("data-msg-rows"), [total ? lo + 1 : 0, hi, total]);
      for (const sel of ["[data-x-prev]", "[data-x-next]"]) {
        let el = pager.querySelector(sel);
        if (el && el.tagName === "A") {
          const b = doc.createElement("button");
          b.type = "button";
          b.setAttribute(sel.slice(1, -1), "");
          b.textContent = el.textContent;
          el.replaceWith(b);
          el = b;
        }
        if (el) el.disabled = sel === "[data-x-prev]" ? state.page <= 1 : state.page >= pages;
      }
    }
    if (countEl) countEl.textContent = fmt(countEl.getAttribute("data-msg"), [total]);
    if (hooks && hooks.rendered) hooks.rendered();
  }

  // onScroll redraws the virtual window when the scroll box has moved far
  // enough that the rendered rows no longer cover the view.
  let queued = false;
  function onScroll() {
    if (!virtual || queued) return;
    queued = true;
    window.requestAnimationFrame(function () {
      queued = false;
      const w = windowFor();
      if (w[0] < first || w[1] > last || (w[0] > first + OVERSCAN && first > lo) || (w[1] < last - OVERSCAN && last < hi)) {
        renderRows(w[0], w[1]);
        if (hooks && hooks.rendered) hooks.rendered();
      }
    });
  }

  // saveURL records the view in the URL after the next paint (the URL is
  // not drawn: a sort or a keystroke paints first); saves that come before
  // it are merged into one.
  let pendingNext = null;
  let saveQueued = false;
  function saveURL(next) {
    if (next) pendingNext = next;
    if (saveQueued) return;
    saveQueued = true;
    window.requestAnimationFrame(function () {
      setTimeout(function () {
        saveQueued = false;
        const n = pendingNext;
        pendingNext = null;
        writeURL(n);
      }, 0);
    });
  }

  function writeURL(next) {
    const u = new URL(window.location.href);
    if (next) {
      // the filter form's fields, applied here: the same view from the server
      for (const k of new Set([...LOCAL, ...next.keys()])) {
        if (IGNORED.has(k)) continue;
        const v = next.get(k) || "";
        if (v === "" || (k === "cheapest_region" && v === "true")) u.searchParams.delete(k);
        else u.searchParams.set(k, v);
      }
    }
    const set = (k, v, def) => (v === def || v === "" ? u.searchParams.delete(k) : u.searchParams.set(k, String(v)));
    set("order", state.order, "");
    set("desc", state.desc ? "true" : "", "");
    set("q", state.q, "");
    set("size", state.size, 50);
    set("page", state.page, 1);
    set("per", unit, "instance-hour");
    u.searchParams.delete("sort");
    const url = u.pathname + u.search.replace(/%2C/gi, ",") + u.hash;
    window.history.replaceState(window.history.state, "", url);
    syncLinks(doc);
  }

  // update re-filters and re-sorts (resort) or only re-renders (paging).
  function update(resort, next) {
    if (resort) {
      state.page = 1;
      apply();
      wrap.scrollTop = 0;
      chartLater();
    }
    render();
    saveURL(next);
  }

  // The chart below the table is the price per GPU-hour of the first 25
  // rows in the table's order, as the server drew it for the page it sent.
  // A sort or filter applied here redraws it from the rows now in view, a
  // moment after the table has painted (the chart library takes a frame of
  // its own), so the chart never shows rows the table has left out.
  const chartSrc = doc.getElementById("chart-offers");
  let chartColors = {};
  try {
    chartColors = JSON.parse((doc.getElementById("chart-offers-colors") || {}).textContent || "{}");
  } catch (e) {
    chartColors = {};
  }
  let chartTimer = 0;
  function chartLater() {
    if (!chartSrc) return;
    clearTimeout(chartTimer);
    chartTimer = setTimeout(drawChart, 150);
  }
  function drawChart() {
    let option;
    try {
      option = JSON.parse(chartSrc.textContent || "");
    } catch (e) {
      return;
    }
    const bars = option && option.series && option.series[0];
    if (!option.yAxis || !bars) return;
    const top = view.filter((r) => r.c.id).slice(0, 25).reverse();
    option.yAxis.data = top.map((r) => r.c.instance + " · " + r.c.region + " · " + r.c.billing);
    bars.data = top.map((r) => ({
      value: Math.round(parseFloat(r.c.per_gpu_n) * 1e4) / 1e4,
      name: r.id,
      itemStyle: { color: chartColors[r.c.provider_id] || "#888888" },
    }));
    const text = JSON.stringify(option);
    if (text === chartSrc.textContent) return;
    chartSrc.textContent = text;
    const el = doc.querySelector('[data-chart="chart-offers"]');
    if (el && window.gpuscoutCharts) window.gpuscoutCharts.init(el);
  }

  // csv is the filtered, sorted rows (every page) in the visible columns.
  function csv() {
    const hidden = hiddenCols();
    const unit = table.getAttribute("data-price-unit") || "";
    const head = [];
    const cols = [];
    ths.forEach((th, i) => {
      if (hidden.has(keys[i])) return;
      const a = th.querySelector("a[data-sort]");
      let label = (a ? a.firstChild.textContent : th.textContent).trim();
      if (keys[i] === "price" && unit) label += " (" + unit + ")";
      head.push(csvCell(label, false));
      cols.push(keys[i]);
    });
    head.push("id");
    const lines = [head.join(",")];
    for (const r of view) {
      const rec = cols.map((k) => csvCell(r.c[k], NUMERIC.has(k)));
      rec.push(csvCell(r.c.id, false));
      lines.push(rec.join(","));
    }
    return "\ufeff" + lines.join("\r\n") + "\r\n";
  }

  function exportCSV() {
    const blob = new Blob([csv()], { type: "text/csv;charset=utf-8" });
    const a = doc.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = "gpuscout-offers.csv";
    doc.body.appendChild(a);
    a.click();
    setTimeout(function () {
      URL.revokeObjectURL(a.href);
      a.remove();
    }, 0);
  }

  // events
  table.querySelector("thead").addEventListener("click", function (ev) {
    const a = ev.target instanceof Element ? ev.target.closest("a[data-sort]") : null;
    if (!a) return;
    ev.preventDefault();
    const k = a.getAttribute("data-sort");
    if (state.order === k) state.desc = !state.desc;
    else {
      state.order = k;
      state.desc = false;
    }
    update(true);
  });
  if (filterBox) {
    filterBox.value = state.q;
    filterBox.addEventListener("input", function () {
      state.q = filterBox.value;
      update(true);
    });
  }
  if (sizeBox) {
    sizeBox.value = String(state.size);
    if (sizeBox.value !== String(state.size)) sizeBox.value = "50";
    sizeBox.addEventListener("change", function () {
      state.size = parseInt(sizeBox.value, 10) || 0;
      update(true);
    });
  }
  if (pager) {
    pager.addEventListener("click", function (ev) {
      const t = ev.target instanceof Element ? ev.target.closest("[data-x-prev], [data-x-next]") : null;
      if (!t) return;
      ev.preventDefault();
      state.page += t.hasAttribute("data-x-next") ? 1 : -1;
      if (state.page < 1) state.page = 1;
      wrap.scrollTop = 0;
      update(false);
      window.requestAnimationFrame(() => table.scrollIntoView({ block: "start" }));
    });
  }
  if (form) {
    // Apply: filters the loaded rows can answer apply here, without a
    // reload; anything else submits the form to the server.
    form.addEventListener("submit", function (ev) {
      const next = formValues(form);
      const f = localFilters(next);
      if (!f) return;
      ev.preventDefault();
      local = Object.keys(f).length ? f : null;
      table.setAttribute("data-x-local", local ? Object.keys(f).sort().join(",") : "");
      update(true, next);
    });
  }
  wrap.addEventListener("scroll", onScroll, { passive: true });
  window.addEventListener(
    "scroll",
    function () {
      if (pageMode) onScroll();
    },
    { passive: true }
  );
  // Printing gets every row of the page, then the window again.
  window.addEventListener("beforeprint", function () {
    if (virtual) renderRows(lo, hi);
  });
  window.addEventListener("afterprint", function () {
    if (virtual) {
      const w = windowFor();
      renderRows(w[0], w[1]);
    }
  });
  window.addEventListener("resize", function () {
    // a new width can wrap the header, change the rows' height or whether
    // the table scrolls in its box or with the page
    headH = -1;
    pageMode = null;
    if (virtual && measure()) {
      const w = windowFor();
      renderRows(w[0], w[1]);
    }
    onScroll();
  });
  tbody.addEventListener("change", function (ev) {
    const t = ev.target;
    if (t && t.matches && t.matches("input[name=compare]")) {
      if (t.checked) selected.add(t.value);
      else selected.delete(t.value);
    }
  });
  for (const a of doc.querySelectorAll("a[data-export=csv]")) {
    a.addEventListener("click", function (ev) {
      ev.preventDefault();
      exportCSV();
    });
  }
  doc.addEventListener("gpuscout:offers-data", function () {
    if (load()) {
      apply();
      render();
    }
  });

  if (!load()) return null;
  apply();
  render();
  syncLinks(doc);
  const api = {
    selected: () => Array.from(selected),
    csv: csv,
    refresh: render,
    setUnit: setUnit,
    // ids are the offer IDs of every row the view holds, in order (the
    // browser tests compare them with the server's CSV).
    ids: () => view.map((r) => r.id),
  };
  table._gsExplorer = api;
  return api;
}
