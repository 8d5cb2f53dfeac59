package server

import (
	"html/template"
	"strings"
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
