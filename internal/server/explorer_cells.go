package server

import (
	"encoding/json"
	"html"
	"html/template"
	"net/url"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/output"
)

// cellsKey names one cell table: every offer's display cells in a
// language, currency and unit (per, times scale for days and years).
type cellsKey struct {
	lang     i18n.Lang
	currency string
	per      catalog.PriceUnit
	scale    string
}

// offerCells are one offer's display cells in a language, currency and
// unit, made once per data load: the CSV's cells (view), the table row's
// escaped HTML and the script's JSON row. The freshness badge moves with
// the clock, so it is left out and added per request.
type offerCells struct {
	view offerRowView
	// head opens the table row: <tr> and the compare checkbox's cell.
	head string
	// html is each column's cell content (allColumns order), escaped; the
	// as_of cell is the date alone, wrapped in its badge per request.
	html []string
	// json is the JSON row up to its last cell (freshness), unclosed.
	json []byte
}

// asOfColumn is the as_of column's position in allColumns.
var asOfColumn = func() int {
	for i, c := range allColumns {
		if c.key == "as_of" {
			return i
		}
	}
	panic("no as_of column")
}()

// stockColumn is the stock column's position in allColumns.
var stockColumn = columnIndex("stock")

// stockText is an offer's capacity reading as read at now, in p's
// language ("seen available 12 min ago"); "" for none.
func stockText(p *i18n.Printer, now time.Time, s *catalog.Stock) string {
	if s == nil {
		return ""
	}
	return p.StockPhrase(string(s.State), s.Age(now))
}

// hasStock reports whether an offer of the load carries a capacity
// reading (a live import's), found once per load: the explorer offers its
// "seen available" filter only then.
func hasStock(d *Data) bool {
	if v, ok := d.footer.Load("has-stock"); ok {
		return v.(bool)
	}
	has := false
	for _, o := range d.Catalog.Offers() {
		if o.Stock != nil {
			has = true
			break
		}
	}
	d.footer.Store("has-stock", has)
	return has
}

// hourlyPrice reports whether a search's price column is per hour (of an
// instance or a GPU), not per day, month or year.
func hourlyPrice(s OfferSearch) bool {
	return s.Scale.Equal(decimal.NewFromInt(1)) && s.Query.Per != catalog.PerMonth
}

// newOfferCells formats one priced row: names maps provider IDs to their
// names in p's language, scale multiplies the price (days, years), hourly
// says the price column is per hour (see output.PriceDecimals).
func newOfferCells(p *i18n.Printer, names map[string]string, row catalog.OfferRow, scale decimal.Decimal, currency string, hourly bool) *offerCells {
	o, it := row.Offer, row.Offer.Instance
	rv := offerRowView{ID: o.ID(), Provider: o.Provider, ProviderName: names[o.Provider], Instance: it.Name, GPU: it.GPUID, Region: o.RegionCode,
		Billing: string(o.Billing), BillingLabel: p.Billing(string(o.Billing), o.Billing.Family()),
		Interconnect: it.GPUInterconnect, RDMA: it.RDMA, Price: output.FixedMoney(row.Price.Mul(scale), output.PriceDecimals(hourly, currency)),
		PerGPU: output.FixedMoney(row.PerGPUHourly, output.PriceDecimals(true, currency)),
		Source: p.Or("source."+string(o.Source.Kind), string(o.Source.Kind)), SourceRef: o.Source.Ref, AsOf: p.SourceDate(o.Source.AsOfString(), o.Source.ReadOnString())}
	rv.GPUs, rv.VRAM, rv.VCPU, rv.RAM, rv.Network = specCells(it)
	if rv.ProviderName == "" {
		rv.ProviderName = o.Provider
	}
	if row.Upfront.IsPositive() {
		rv.Upfront = output.FixedMoney(row.Upfront, output.PriceDecimals(false, currency))
	}
	esc := html.EscapeString
	id := esc(rv.ID)
	c := &offerCells{view: rv, html: make([]string, len(allColumns)),
		head: `<tr data-offer="` + id + `"><td><input type="checkbox" name="compare" value="` + id + `" aria-label="` + esc(p.T("web.compare")) + " " + id + `"></td>`}
	for i, col := range allColumns {
		switch col.key {
		case "instance":
			c.html[i] = `<a href="/instances/` + esc(url.PathEscape(rv.Provider)) + `/` + esc(url.PathEscape(rv.Instance)) + `?currency=` + esc(url.QueryEscape(currency)) + `">` + esc(rv.Instance) + `</a>`
		case "billing":
			c.html[i] = `<span class="pill">` + esc(rv.BillingLabel) + `</span>`
		case "source":
			c.html[i] = `<span title="` + esc(rv.SourceRef) + `">` + esc(rv.Source) + `</span>`
		default:
			c.html[i] = esc(rv.cell(col.key))
		}
	}
	c.json = rowJSON([]string{rv.ID, rv.ProviderName, rv.Provider, rv.Instance, rv.GPUs + "× " + rv.GPU, rv.GPUs, rv.VRAM, rv.VCPU, rv.RAM, rv.Interconnect, rv.Network,
		rv.RDMA, rv.Region, rv.BillingLabel, rv.Price, rv.PerGPU, rv.Upfront, rv.Source, rv.SourceRef,
		rv.GPU, rv.Billing, o.Billing.Family(), row.Price.Mul(scale).String(), row.PerGPUHourly.String(), string(o.Source.Kind),
		unitPrices(row, currency), row.EffectiveHourly.String(), "", rv.AsOf})
	return c
}

// rowJSON is a JSON row of the explorer's cells, unclosed (the freshness
// badge is added per request).
func rowJSON(cells []string) []byte {
	var b []byte
	for i, s := range cells {
		if i == 0 {
			b = append(b, '[')
		} else {
			b = append(b, ',')
		}
		b = appendJSONString(b, s)
	}
	return b
}

// appendJSONString appends s as a JSON string safe in a <script> block:
// most cells need no escaping; those with quotes, backslashes, control
// characters, <, >, & or non-ASCII go through encoding/json, which escapes
// them as json.Marshal does.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always marshals
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// freshness is the badge of a price observed at asOf: fresh up to 90 days,
// aging up to 180, stale after.
func freshness(now time.Time, src catalog.Source) string {
	if src.Undated() {
		return "stale" // no date: never shown as fresh
	}
	switch age := now.Sub(src.AsOf).Hours() / 24; {
	case age > 180:
		return "stale"
	case age > 90:
		return "aging"
	}
	return "fresh"
}

// specCells are an instance type's GPU count, GPU memory, vCPUs, memory
// and network as table cells.
func specCells(it *catalog.InstanceType) (gpus, vram, vcpu, ram, network string) {
	gpus, vram, vcpu, ram = num(it.GPUCount), num(it.GPUMemoryGB), num(it.VCPU), num(it.MemoryGiB)
	if it.NetworkGbps.IsPositive() {
		network = num(it.NetworkGbps)
	}
	return
}

// rowCells returns the display cells of rows for search s in p's language
// and currency: from the load's cell table when the rows are priced as the
// table is (a stored catalog, see storedRowsMax), else formatted here.
func (d *Data) rowCells(p *i18n.Printer, s OfferSearch, currency string, rows []catalog.OfferRow) []*offerCells {
	out := make([]*offerCells, len(rows))
	if x := d.index(); currency == s.Query.Currency && x.stored {
		k := cellsKey{lang: p.Lang(), currency: currency, per: pricedKey{per: s.Query.Per}.normalised().per, scale: s.Scale.String()}
		table, err := x.cells.get(k, func() ([]*offerCells, error) {
			all, err := d.pricedList(pricedKey{currency: currency, per: k.per})
			if err != nil {
				return nil, err
			}
			names := providerNames(d, p)
			t := make([]*offerCells, len(x.ord))
			for i, r := range all.rows {
				t[all.ords[i]] = newOfferCells(p, names, r, s.Scale, currency, hourlyPrice(s))
			}
			return t, nil
		})
		if err == nil {
			for i, r := range rows {
				if j, ok := x.ord[r.Offer]; ok {
					out[i] = table[j]
				}
			}
		}
	}
	var names map[string]string
	for i, c := range out {
		if c == nil { // rows the table does not hold (priced otherwise)
			if names == nil {
				names = providerNames(d, p)
			}
			out[i] = newOfferCells(p, names, rows[i], s.Scale, currency, hourlyPrice(s))
		}
	}
	return out
}

// offersJSON is the explorer's rows as compact arrays in offersDataCols
// order (the page's script sorts, filters and pages them without asking
// the server), joined from each offer's pre-encoded row.
func offersJSON(cells []*offerCells, fresh, stock []string, gpuNames string) template.JS {
	n := len(offersDataHead) + len(gpuNames) + 12
	for _, c := range cells {
		n += len(c.json) + 12
	}
	var b strings.Builder // its String is not another copy
	b.Grow(n)
	b.WriteString(offersDataHead)
	for i, c := range cells {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(c.json)
		b.WriteString(`,"`)
		b.WriteString(fresh[i])
		b.WriteString(`",`)
		b.Write(appendJSONString(nil, stock[i]))
		b.WriteString(`]`)
	}
	b.WriteString(`],"gpus":`)
	b.WriteString(gpuNames)
	b.WriteString("}")
	return template.JS(b.String())
}

// explorerGPUNames is, as JSON, what the gpu filter resolves each GPU's ID
// and family to ({"h100": ["h100-sxm", …]}, keys normalised as the
// catalog's lookup normalises them: lower case, no spaces, dashes, dots,
// underscores or slashes), made with the catalog's own LookupGPU, so the
// explorer's script filters by GPU as the server does; a name it does not
// hold goes to the server. Made once per load.
func explorerGPUNames(d *Data) string {
	if v, ok := d.footer.Load("gpu-names"); ok {
		return v.(string)
	}
	names := map[string][]string{}
	for _, g := range d.Catalog.GPUs() {
		for _, n := range []string{g.ID, g.Family} {
			k := normalizeName(n)
			if k == "" || names[k] != nil {
				continue
			}
			gs, err := d.Catalog.LookupGPU(n)
			if err != nil {
				continue
			}
			for _, x := range gs {
				names[k] = append(names[k], x.ID)
			}
		}
	}
	b, _ := json.Marshal(names) // strings only; sorted keys; <, >, & escaped
	d.footer.Store("gpu-names", string(b))
	return string(b)
}

// normalizeName is a GPU name as the catalog's lookup compares it.
func normalizeName(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '-', '_', '.', '/':
			return -1
		}
		return r
	}, strings.ToLower(s))
}

// offersDataHead opens the explorer's JSON: the column names and the rows.
var offersDataHead = func() string {
	b := []byte(`{"cols":[`)
	for i, c := range offersDataCols {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, c)
	}
	return string(append(b, `],"rows":[`...))
}()

// offerRowsHTML renders the explorer's table rows (the same cells the
// script renders from the JSON) from each offer's escaped cells.
func offerRowsHTML(cells []*offerCells, fresh, stock []string, cols []column) template.HTML {
	open := make([]string, len(cols))
	for i, c := range cols {
		o := `<td data-col="` + c.Key + `"`
		if c.Num {
			o += ` class="num"`
		}
		if !c.Shown {
			o += ` hidden`
		}
		open[i] = o + `>`
	}
	var b strings.Builder
	b.Grow(len(cells) * 1200)
	for i, r := range cells {
		b.WriteString(r.head)
		for j, c := range cols {
			b.WriteString(open[j])
			k := columnIndex(c.Key)
			if k == asOfColumn {
				b.WriteString(`<span class="badge `)
				b.WriteString(fresh[i])
				b.WriteString(`">`)
				b.WriteString(r.html[k])
				b.WriteString(`</span>`)
			} else if k == stockColumn {
				b.WriteString(html.EscapeString(stock[i]))
			} else if k >= 0 {
				b.WriteString(r.html[k])
			}
			b.WriteString(`</td>`)
		}
		b.WriteString("</tr>\n")
	}
	return template.HTML(b.String())
}

// columnIndex is key's position in allColumns, or -1.
func columnIndex(key string) int {
	for i, c := range allColumns {
		if c.key == key {
			return i
		}
	}
	return -1
}
