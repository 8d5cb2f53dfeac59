package server

import (
	"html/template"
	"net/url"
	"strconv"
	"strings"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/i18n"
)

// The explorer's form and table head are long lists (30 GPU families, 30
// residency zones, 17 columns three times over): walked by the template,
// each item's actions and escapers cost as much as the rest of an uncached
// page. These render them in Go, escaping as html/template does.

// htmlEscaper escapes text and quoted attribute values exactly as
// html/template does, so a fragment rendered here reads the same as the
// template's.
var htmlEscaper = strings.NewReplacer("\x00", "\uFFFD", `"`, "&#34;", "&", "&amp;", "'", "&#39;", "+", "&#43;", "<", "&lt;", ">", "&gt;")

// tmplEscape escapes s as html/template escapes text and attribute values.
func tmplEscape(s string) string { return htmlEscaper.Replace(s) }

// options are the choices of a select or a checkbox group.
type options []option

// HTML renders the choices as a select's <option>s.
func (os options) HTML() template.HTML {
	var b strings.Builder
	for _, o := range os {
		b.WriteString(`<option value="` + tmplEscape(o.Value) + `"`)
		if o.Selected {
			b.WriteString(` selected`)
		}
		b.WriteString(`>` + tmplEscape(o.Label) + `</option>`)
	}
	return template.HTML(b.String())
}

// Checkboxes renders the choices as pill checkboxes named name.
func (os options) Checkboxes(name string) template.HTML {
	var b strings.Builder
	for _, o := range os {
		b.WriteString(`<label class="pill"><input type="checkbox" name="` + tmplEscape(name) + `" value="` + tmplEscape(o.Value) + `"`)
		if o.Selected {
			b.WriteString(` checked`)
		}
		b.WriteString(`> ` + tmplEscape(o.Label) + `</label>`)
	}
	return template.HTML(b.String())
}

// datalistHTML renders values as a datalist's <option>s.
func datalistHTML(values []string) template.HTML {
	var b strings.Builder
	for _, v := range values {
		b.WriteString(`<option value="` + tmplEscape(v) + `">`)
	}
	return template.HTML(b.String())
}

// columns are the offers table's columns.
type columns []column

// Hidden renders the shown columns as the filter form's hidden inputs.
func (cs columns) Hidden() template.HTML {
	var b strings.Builder
	for _, c := range cs {
		if c.Shown {
			b.WriteString(`<input type="hidden" name="col" value="` + tmplEscape(c.Key) + `">`)
		}
	}
	return template.HTML(b.String())
}

// Chooser renders the column chooser's checkboxes.
func (cs columns) Chooser() template.HTML {
	var b strings.Builder
	for _, c := range cs {
		b.WriteString(`<label class="pill"><input type="checkbox" name="col" value="` + tmplEscape(c.Key) + `"`)
		if c.Shown {
			b.WriteString(` checked`)
		}
		b.WriteString(`> ` + tmplEscape(c.Label) + `</label>`)
	}
	return template.HTML(b.String())
}

// Head renders the table head's column cells: sortable ones link to their
// order (aria-sort and an arrow on the sorted one).
func (cs columns) Head() template.HTML {
	var b strings.Builder
	for _, c := range cs {
		b.WriteString(`<th data-col="` + tmplEscape(c.Key) + `"`)
		if c.Num {
			b.WriteString(` class="num"`)
		}
		if !c.Shown {
			b.WriteString(` hidden`)
		}
		switch c.Sorted {
		case "asc":
			b.WriteString(` aria-sort="ascending"`)
		case "desc":
			b.WriteString(` aria-sort="descending"`)
		}
		b.WriteString(`>`)
		if c.SortURL == "" {
			b.WriteString(tmplEscape(c.Label) + `</th>`)
			continue
		}
		b.WriteString(`<a href="` + tmplEscape(c.SortURL) + `" data-sort="` + tmplEscape(c.Key) + `">` + tmplEscape(c.Label) + `<span class="arrow" aria-hidden="true">`)
		switch c.Sorted {
		case "asc":
			b.WriteString(` ▲`)
		case "desc":
			b.WriteString(` ▼`)
		}
		b.WriteString(`</span></a></th>`)
	}
	return template.HTML(b.String())
}

// explorerViews fills the explorer's freshness and regions sentences: how
// many prices the freshness filter hid, with links that show them or hide
// undated ones too, and which regions the page shows, with a link to the
// other view. Each link is the page's query with parameters changed (the
// script keeps it in step with the sort, quick filter and columns).
func explorerViews(p *i18n.Printer, page *offersPage, q url.Values, s OfferSearch, stale int) {
	link := func(label string, set ...string) viewLink {
		u := cloneValues(q)
		v := url.Values{}
		for i := 0; i+1 < len(set); i += 2 {
			u.Set(set[i], set[i+1])
			v.Set(set[i], set[i+1])
		}
		u.Del("page")
		return viewLink{Label: label, URL: "/offers?" + u.Encode(), Set: v.Encode()}
	}
	months := s.MaxAgeMonths
	page.MaxAge, page.HideUndated = months, s.HideUndated
	switch {
	case stale > 0 && months > 0 && s.HideUndated:
		page.AgeNote = p.T("web.x.stale_undated_hidden", stale, months)
	case stale > 0 && months > 0:
		page.AgeNote = p.T("web.x.stale_hidden", stale, months)
	case stale > 0:
		page.AgeNote = p.T("web.x.undated_hidden", stale)
	case months > 0:
		page.AgeNote = p.T("web.x.stale_none", months)
	default:
		page.AgeNote = p.T("web.x.age_any")
	}
	switch {
	case stale > 0:
		page.AgeLinks = append(page.AgeLinks, link(p.T("web.x.stale_show"), "max_age_months", "0", "hide_undated", "false"))
	case months == 0:
		page.AgeLinks = append(page.AgeLinks, link(p.T("web.x.age_hide", catalog.FreshMonths), "max_age_months", strconv.Itoa(catalog.FreshMonths)))
	}
	if !s.HideUndated {
		page.AgeLinks = append(page.AgeLinks, link(p.T("web.f.hide_undated"), "hide_undated", "true"))
	}
	if s.OneRegion {
		page.RegionsNote = p.T("web.x.regions_cheapest")
		page.RegionsLink = link(p.T("web.x.regions_all"), "cheapest_region", "false")
	} else {
		page.RegionsNote = p.T("web.x.regions_every")
		page.RegionsLink = link(p.T("web.x.regions_back"), "cheapest_region", "true")
	}
}

// quickMatch reports whether an offer's row holds every word of the quick
// filter (lower case), in the cells the explorer's script searches: ID,
// provider, instance, GPU, region, billing, interconnect and RDMA.
func quickMatch(r offerRowView, words []string) bool {
	if len(words) == 0 {
		return true
	}
	h := strings.ToLower(strings.Join([]string{r.ID, r.ProviderName, r.Instance, r.cell("gpu"), r.Region, r.BillingLabel, r.Interconnect, r.RDMA}, " "))
	for _, w := range words {
		if !strings.Contains(h, w) {
			return false
		}
	}
	return true
}
