// The offers explorer: every row the server's filters match arrives once,
// as JSON in <script type="application/json" id="offers-data">; sorting (one
// control: the column headers), the quick filter, paging and CSV export then
// run in the browser without a request. The server-rendered first page, its
// sort links and pager links remain the no-JS fallback.
//
// URL state (history.replaceState): order, desc, q (quick filter), size
// (rows per page, 0 = all), page.

const NUMERIC = new Set(["gpus", "vram", "vcpu", "ram", "network", "price", "per_gpu", "upfront"]);

function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

function num(s) {
  if (s === "" || s === undefined || s === null) return null;
  const n = parseFloat(String(s).replace(/,/g, ""));
  return Number.isFinite(n) ? n : null;
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

export function createExplorer(doc, hooks) {
  const table = doc.querySelector("table[data-offers]");
  const src = doc.getElementById("offers-data");
  if (!table || !src) return null;
  const tbody = table.tBodies[0];
  const ths = Array.prototype.slice.call(table.querySelectorAll("thead th[data-col]"));
  const keys = ths.map((th) => th.getAttribute("data-col"));
  const params = new URLSearchParams(window.location.search);
  const filterBox = doc.querySelector("[data-x-filter]");
  const sizeBox = doc.querySelector("[data-x-size]");
  const pager = doc.querySelector("[data-pager]");
  const currency = new URLSearchParams(window.location.search).get("currency") || table.getAttribute("data-currency") || "";

  const state = {
    order: params.get("order") || "",
    desc: params.get("desc") === "true",
    q: params.get("q") || "",
    size: params.has("size") ? parseInt(params.get("size"), 10) || 0 : 50,
    page: Math.max(1, parseInt(params.get("page") || "1", 10) || 1),
  };
  const selected = new Set();
  let rows = []; // {c: cells by name, s: sort keys, h: haystack}
  let view = []; // filtered and sorted

  function load() {
    let data;
    try {
      data = JSON.parse(src.textContent || "{}");
    } catch (e) {
      console.error("gpuscout: offers data is not valid JSON", e);
      return false;
    }
    const cols = data.cols || [];
    rows = (data.rows || []).map(function (r, idx) {
      const c = {};
      for (let i = 0; i < cols.length; i++) c[cols[i]] = r[i];
      const s = {};
      for (const k of keys) {
        s[k] = NUMERIC.has(k) ? num(c[k]) : String(c[k] || "").toLowerCase();
      }
      return { i: idx, c: c, s: s, h: [c.id, c.provider, c.instance, c.gpu, c.region, c.billing, c.interconnect, c.rdma].join(" ").toLowerCase() };
    });
    return true;
  }

  function apply() {
    const q = state.q.trim().toLowerCase();
    const words = q ? q.split(/\s+/) : [];
    view = words.length
      ? rows.filter(function (r) {
          for (const w of words) if (r.h.indexOf(w) < 0) return false;
          return true;
        })
      : rows.slice();
    if (state.order) {
      const k = state.order;
      const dir = state.desc ? -1 : 1;
      const numeric = NUMERIC.has(k);
      // stable: ties keep the server's price order (r.i)
      view.sort(function (a, b) {
        const x = a.s[k];
        const y = b.s[k];
        if (numeric) {
          if (x === null && y === null) return a.i - b.i;
          if (x === null) return 1; // blanks last either way
          if (y === null) return -1;
          if (x !== y) return (x - y) * dir;
        } else if (x !== y) {
          return (x < y ? -1 : 1) * dir;
        }
        return a.i - b.i;
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
        return '<a href="/instances/' + esc(c.provider_id) + "/" + esc(c.instance) + (currency ? "?currency=" + esc(encodeURIComponent(currency)) : "") + '">' + esc(v) + "</a>";
      case "billing":
        return '<span class="pill">' + esc(v) + "</span>";
      case "source":
        return '<span title="' + esc(c.source_ref) + '">' + esc(v) + "</span>";
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

  function render() {
    const total = view.length;
    const size = state.size > 0 ? state.size : total || 1;
    const pages = Math.max(1, Math.ceil(total / size));
    if (state.page > pages) state.page = pages;
    const lo = (state.page - 1) * size;
    const hi = Math.min(lo + size, total);
    const hidden = hiddenCols();
    const numCols = new Set(ths.filter((th) => th.classList.contains("num")).map((th) => th.getAttribute("data-col")));
    const out = [];
    const label = table.getAttribute("data-msg-compare") || "";
    for (let i = lo; i < hi; i++) {
      const c = view[i].c;
      out.push('<tr data-offer="' + esc(c.id) + '"><td><input type="checkbox" name="compare" value="' + esc(c.id) + '" aria-label="' + esc(label + " " + c.id) + '"' + (selected.has(c.id) ? " checked" : "") + "></td>");
      for (const k of keys) {
        out.push('<td data-col="' + k + '"' + (numCols.has(k) ? ' class="num"' : "") + (hidden.has(k) ? " hidden" : "") + ">" + cellHTML(k, c) + "</td>");
      }
      out.push("</tr>");
    }
    if (total === 0) {
      out.push('<tr><td colspan="' + (keys.length + 1) + '" class="muted" data-x-none>' + esc(table.getAttribute("data-msg-none")) + "</td></tr>");
    }
    tbody.innerHTML = out.join("");
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
    if (hooks && hooks.rendered) hooks.rendered();
  }

  function saveURL() {
    const u = new URL(window.location.href);
    const set = (k, v, def) => (v === def || v === "" ? u.searchParams.delete(k) : u.searchParams.set(k, String(v)));
    set("order", state.order, "");
    set("desc", state.desc ? "true" : "", "");
    set("q", state.q, "");
    set("size", state.size, 50);
    set("page", state.page, 1);
    u.searchParams.delete("sort");
    const next = u.pathname + u.search.replace(/%2C/gi, ",") + u.hash;
    window.history.replaceState(window.history.state, "", next);
  }

  // update re-filters and re-sorts (resort) or only re-renders (paging).
  function update(resort) {
    if (resort) {
      state.page = 1;
      apply();
    }
    render();
    saveURL();
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
      update(false);
      window.requestAnimationFrame(() => table.scrollIntoView({ block: "start" }));
    });
  }
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
  return {
    selected: () => Array.from(selected),
    csv: csv,
    refresh: render,
  };
}
