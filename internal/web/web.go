// Package web holds gpuscout's web UI: HTML templates, parsed once at
// start-up, and the static assets (the script and stylesheet bundled from
// web/ by `make assets`), embedded in the binary so the UI works offline.
package web

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net/http"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/shopspring/decimal"

	"github.com/gpuscout/gpuscout/internal/output"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Pages are the parsed page templates.
type Pages struct {
	pages map[string]*template.Template
	// bufs are render buffers kept between requests: a page the size of
	// the offers explorer otherwise regrows (and clears) its buffer many
	// times over.
	bufs sync.Pool
	// assembled are the buffers (*[]byte) slotted pages are assembled in.
	assembled sync.Pool
}

// maxPooledBuffer is the largest render buffer kept for reuse.
const maxPooledBuffer = 4 << 20

// Funcs are the helpers templates may call.
func funcs() template.FuncMap {
	return template.FuncMap{
		// json renders v as JSON for a <script type="application/json"> block.
		"json": func(v any) (template.JS, error) {
			b, err := json.Marshal(v)
			if err != nil {
				return "", err
			}
			return template.JS(b), nil
		},
		"join": strings.Join,
		// list makes a list of strings (choices of a select).
		"list": func(s ...string) []string { return s },
		// money renders an amount with thousands separators and sensible decimals.
		"money": func(n json.Number) string {
			d, err := decimal.NewFromString(n.String())
			if err != nil {
				return n.String()
			}
			return output.Money(d)
		},
		// hourlyMoney renders an hourly price as the explorer's price
		// column does (output.PriceDecimals): two prices side by side read alike.
		"hourlyMoney": func(n json.Number, currency string) string {
			d, err := decimal.NewFromString(n.String())
			if err != nil {
				return n.String()
			}
			return output.FixedMoney(d, output.PriceDecimals(true, currency))
		},
		// planMoney renders a plan's cost as the advisor's sentences write
		// it (recommend's money): whole units grouped from 100 up, two
		// decimals from 1, four below; so a card and its reasons agree.
		"planMoney": func(n json.Number) string {
			d, err := decimal.NewFromString(n.String())
			if err != nil {
				return n.String()
			}
			switch a := d.Abs(); {
			case a.GreaterThanOrEqual(decimal.NewFromInt(100)):
				return output.Thousands(d.StringFixed(0))
			case a.GreaterThanOrEqual(decimal.NewFromInt(1)):
				return d.StringFixed(2)
			}
			return d.StringFixed(4)
		},
		// hours renders a duration given in hours in the page's language:
		// 14 min, 5.2 h, 3.1 days (14 分钟, 5.2 小时, 3.1 天).
		"hours": func(n json.Number, lang string) string {
			h, err := n.Float64()
			if err != nil {
				return n.String()
			}
			units := [3]string{"min", "h", "days"}
			if lang == "zh" {
				units = [3]string{"分钟", "小时", "天"}
			}
			switch {
			case h < 1:
				return fmt.Sprintf("%.0f %s", h*60, units[0])
			case h < 48:
				return fmt.Sprintf("%.1f %s", h, units[1])
			}
			return fmt.Sprintf("%.1f %s", h/24, units[2])
		},
		// opt renders an optional number, "–" when absent.
		"opt": func(n *json.Number) string {
			if n == nil {
				return "–"
			}
			return n.String()
		},
		"add": func(a, b int) int { return a + b },
		"has": func(list []string, s string) bool {
			for _, x := range list {
				if x == s {
					return true
				}
			}
			return false
		},
	}
}

// Parse parses every page with the shared layout.
func Parse() (*Pages, error) {
	names, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		return nil, err
	}
	p := &Pages{pages: map[string]*template.Template{}}
	for _, n := range names {
		base := strings.TrimSuffix(strings.TrimPrefix(n, "templates/"), ".html")
		if base == "layout" {
			continue
		}
		t, err := template.New("layout.html").Funcs(funcs()).ParseFS(templateFS, "templates/layout.html", n)
		if err != nil {
			return nil, fmt.Errorf("template %s: %w", n, err)
		}
		p.pages[base] = t
	}
	return p, nil
}

// Slot is a large piece of a page (a table body, a JSON block) that the
// template places by printing Mark and Render writes in its place after
// the template has run: printed by the template itself, a value that size
// is first copied through fmt's buffer, which cost as much as the rest of
// the offers explorer. Content must be what the template would have
// written: escaped HTML, or JSON safe in a <script> block.
type Slot struct {
	Mark, Content string
}

// SlotMark is the i-th slot's mark: an HTML comment that escaped text
// cannot contain (its < would be &lt;).
func SlotMark(i int) string { return "<!--gpuscout:slot:" + strconv.Itoa(i) + "-->" }

// Keeper is a writer that can keep what it is given (a response cache):
// Render gives it a slotted page in a buffer of its own, which Render
// never touches again, instead of writing a pooled buffer it must copy.
type Keeper interface {
	Keep(b []byte) (int, error)
}

// Slotted is page data with slots.
type Slotted interface {
	Slots() []Slot
}

// Render writes page name with data; it renders into a buffer first so a
// template error never leaves half a page. Data that is Slotted has its
// slots' contents written in place of their marks.
func (p *Pages) Render(w io.Writer, name string, data any) error {
	t, ok := p.pages[name]
	if !ok {
		return fmt.Errorf("no page %q", name)
	}
	buf := p.buffer()
	defer p.release(buf)
	if err := t.Execute(buf, data); err != nil {
		return fmt.Errorf("page %s: %w", name, err)
	}
	if s, ok := data.(Slotted); ok {
		if slots := s.Slots(); len(slots) > 0 {
			if k, ok := w.(Keeper); ok { // a page of its own, kept without a copy
				_, err := k.Keep(fillSlots(nil, buf.Bytes(), slots))
				return err
			}
			out, _ := p.assembled.Get().(*[]byte)
			if out == nil {
				out = new([]byte)
			}
			*out = fillSlots((*out)[:0], buf.Bytes(), slots)
			_, err := w.Write(*out)
			if cap(*out) <= maxPooledBuffer {
				p.assembled.Put(out)
			}
			return err
		}
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// buffer is a render buffer from the pool.
func (p *Pages) buffer() *bytes.Buffer {
	if b, ok := p.bufs.Get().(*bytes.Buffer); ok {
		return b
	}
	return new(bytes.Buffer)
}

// release returns a render buffer to the pool unless it grew too large.
func (p *Pages) release(b *bytes.Buffer) {
	if b.Cap() <= maxPooledBuffer {
		b.Reset()
		p.bufs.Put(b)
	}
}

// fillSlots appends to dst page with each slot's first mark replaced by
// its content.
func fillSlots(dst, page []byte, slots []Slot) []byte {
	type at struct {
		pos  int
		slot *Slot
	}
	var found []at
	size := len(page)
	for i := range slots {
		if p := bytes.Index(page, []byte(slots[i].Mark)); p >= 0 {
			found = append(found, at{p, &slots[i]})
			size += len(slots[i].Content) - len(slots[i].Mark)
		}
	}
	sort.Slice(found, func(i, j int) bool { return found[i].pos < found[j].pos })
	out := slices.Grow(dst[:0], size)
	last := 0
	for _, f := range found {
		if f.pos < last { // marks that overlap: not one of ours
			continue
		}
		out = append(out, page[last:f.pos]...)
		out = append(out, f.slot.Content...)
		last = f.pos + len(f.slot.Mark)
	}
	return append(out, page[last:]...)
}

// Static serves the embedded assets with a one-hour cache. It serves
// files only: a directory (the root included) is 404, never a listing.
func Static() http.Handler {
	sub, err := fs.Sub(staticFS, "static")
	if err != nil {
		panic(err) // the embed pattern guarantees the directory
	}
	fsrv := http.FileServerFS(sub)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		// The build's brotli copies are served through Precompressed,
		// never as files of their own.
		if st, err := fs.Stat(sub, name); name == "" || err != nil || st.IsDir() || strings.HasSuffix(name, ".br") {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", "public, max-age=3600")
		fsrv.ServeHTTP(w, r)
	})
}

// HasAssets reports whether the bundled script and stylesheet are embedded.
func HasAssets() bool {
	for _, n := range []string{"static/app.js", "static/app.css"} {
		if _, err := fs.Stat(staticFS, n); err != nil {
			return false
		}
	}
	return true
}
