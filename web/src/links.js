// syncLinks keeps the links that stand for "this view" in step with the
// URL the script keeps (history.replaceState): the language switch (so
// switching language keeps the sort, the filters and the columns), and
// the explorer's CSV and JSON exports (so a copied or directly opened
// export link gives the rows the page shows, quick filter included).
export function syncLinks(doc) {
  const here = new URLSearchParams(window.location.search);
  for (const a of doc.querySelectorAll("a[data-lang-switch]")) {
    const u = new URLSearchParams(here);
    u.set("lang", a.getAttribute("hreflang") || "en");
    a.setAttribute("href", window.location.pathname + "?" + readable(u));
  }
  syncViewLinks(doc, here);
  for (const a of doc.querySelectorAll("a[data-export]")) {
    const kind = a.getAttribute("data-export");
    if (kind !== "csv" && kind !== "json") continue;
    // The server's link carries what the page was rendered with (the
    // currency, the regions choice); the URL's state goes over it.
    if (!a.hasAttribute("data-base")) a.setAttribute("data-base", a.getAttribute("href") || "");
    const base = new URL(a.getAttribute("data-base"), window.location.href);
    const u = new URLSearchParams(base.search);
    for (const k of STATE) if (!here.has(k)) u.delete(k);
    for (const k of new Set(here.keys())) {
      u.delete(k);
      for (const v of here.getAll(k)) u.append(k, v);
    }
    for (const k of ["page", "size"]) u.delete(k);
    if (kind === "json") {
      // the API takes the filters and the order; the page's own state stays here
      for (const k of ["lang", "col", "cols", "q"]) u.delete(k);
    }
    a.setAttribute("href", base.pathname + "?" + readable(u));
  }
}

// syncViewLinks points each a[data-set="k=v&k2=v2"] at the current view
// with those parameters changed (the explorer's "show every region" and
// "show older prices" links keep the sort, filters and columns).
function syncViewLinks(doc, here) {
  for (const a of doc.querySelectorAll("a[data-set]")) {
    const u = new URLSearchParams(here);
    for (const [k, v] of new URLSearchParams(a.getAttribute("data-set"))) u.set(k, v);
    u.delete("page");
    a.setAttribute("href", window.location.pathname + "?" + readable(u));
  }
}

// STATE are the explorer's own parameters: absent from the URL means the
// default, not the value the page was rendered with.
const STATE = ["order", "desc", "q", "page", "size", "cols"];

// readable keeps commas unescaped ("cols=a,b,c").
function readable(u) {
  return u.toString().replace(/%2C/gi, ",");
}
