package web

import (
	"bytes"
	"html/template"
	"strings"
	"testing"
)

// TestFillSlots: each slot's mark is replaced by its content, in document
// order whatever the slots' order; a slot whose mark the page does not
// print is left out; only the first mark of a slot is filled.
func TestFillSlots(t *testing.T) {
	page := []byte("<p>a</p>" + SlotMark(1) + "<p>b</p>" + SlotMark(0) + "<p>c</p>" + SlotMark(0))
	got := string(fillSlots(nil, page, []Slot{{SlotMark(0), "ZERO"}, {SlotMark(1), "ONE"}, {SlotMark(2), "TWO"}}))
	if want := "<p>a</p>ONE<p>b</p>ZERO<p>c</p>" + SlotMark(0); got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// TestSlotMarkCannotComeFromText: text a template escapes can never read
// as a mark, so user input cannot pull a slot's content elsewhere.
func TestSlotMarkCannotComeFromText(t *testing.T) {
	tpl := template.Must(template.New("p").Parse(`<p title="{{.}}">{{.}}</p><script type="application/json">{{.}}</script>`))
	var b bytes.Buffer
	if err := tpl.Execute(&b, SlotMark(0)); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), SlotMark(0)) {
		t.Fatalf("escaped text still holds the mark: %s", b.String())
	}
}

// TestRenderFillsSlots renders a real page through Render with slotted
// data: the contents appear where the marks were and no mark is left.
func TestRenderFillsSlots(t *testing.T) {
	p := &Pages{pages: map[string]*template.Template{
		"x": template.Must(template.New("x").Parse(`<table><tbody>{{.Body}}</tbody></table><script type="application/json" id="d">{{.JS}}</script>`)),
	}}
	var out bytes.Buffer
	if err := p.Render(&out, "x", slotted{Body: template.HTML(SlotMark(0)), JS: template.JS(SlotMark(1))}); err != nil {
		t.Fatal(err)
	}
	want := `<table><tbody><tr><td>1 &lt; 2</td></tr></tbody></table><script type="application/json" id="d">{"rows":[["\u003c"]]}</script>`
	if out.String() != want {
		t.Fatalf("got  %s\nwant %s", out.String(), want)
	}
}

type slotted struct {
	Body template.HTML
	JS   template.JS
}

func (slotted) Slots() []Slot {
	return []Slot{{SlotMark(0), `<tr><td>1 &lt; 2</td></tr>`}, {SlotMark(1), `{"rows":[["\u003c"]]}`}}
}
