package export

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// hclBody is an HCL body written in canonical form (the layout `terraform
// fmt` gives): two spaces of indent per level, and the equals signs of
// consecutive one-line attributes aligned. It holds the few constructs a
// Terraform export needs: attributes, blocks, object-valued attributes,
// comment lines and blank lines.
type hclBody struct {
	items []hclItem
}

// hclItem is one entry of a body: an attribute (name and value set), a
// nested body (body set: a block, or an object-valued attribute whose first
// line is text), or a line of text written as is (a comment, "" for a blank
// line).
type hclItem struct {
	name, value string
	text        string
	body        *hclBody
	close       string // the line that closes body
}

// AppendNewline appends a blank line.
func (b *hclBody) AppendNewline() { b.items = append(b.items, hclItem{}) }

// AppendLine appends a line written as is at the body's indent.
func (b *hclBody) AppendLine(text string) { b.items = append(b.items, hclItem{text: text}) }

// SetAttribute appends the attribute name = value; value is an HCL
// expression on one line.
func (b *hclBody) SetAttribute(name, value string) {
	b.items = append(b.items, hclItem{name: name, value: value})
}

// AppendNewBlock appends a block with its labels and returns its body.
func (b *hclBody) AppendNewBlock(typ string, labels ...string) *hclBody {
	head := typ
	for _, l := range labels {
		head += " " + hclString(l)
	}
	return b.nest(head+" {", "}")
}

// SetAttributeObject appends an attribute whose value spans lines: name =
// open, the returned body's attributes, then close (e.g. "{" and "}", or
// "object({" and "})").
func (b *hclBody) SetAttributeObject(name, open, close string) *hclBody {
	return b.nest(name+" = "+open, close)
}

func (b *hclBody) nest(first, close string) *hclBody {
	inner := &hclBody{}
	b.items = append(b.items, hclItem{text: first, body: inner, close: close})
	return inner
}

// Bytes renders the body as a file.
func (b *hclBody) Bytes() []byte {
	var sb strings.Builder
	b.write(&sb, 0)
	return []byte(sb.String())
}

func (b *hclBody) write(sb *strings.Builder, depth int) {
	indent := strings.Repeat("  ", depth)
	for i := 0; i < len(b.items); {
		it := b.items[i]
		if it.name == "" {
			if it.text != "" {
				sb.WriteString(indent)
				sb.WriteString(it.text)
			}
			sb.WriteByte('\n')
			if it.body != nil {
				it.body.write(sb, depth+1)
				sb.WriteString(indent)
				sb.WriteString(it.close)
				sb.WriteByte('\n')
			}
			i++
			continue
		}
		// A run of one-line attributes: their equals signs line up one
		// space after the longest name (names are counted in characters).
		j, width := i, 0
		for ; j < len(b.items) && b.items[j].name != ""; j++ {
			width = max(width, utf8.RuneCountInString(b.items[j].name))
		}
		for _, a := range b.items[i:j] {
			sb.WriteString(indent)
			sb.WriteString(a.name)
			sb.WriteString(strings.Repeat(" ", width-utf8.RuneCountInString(a.name)+1))
			sb.WriteString("= ")
			sb.WriteString(a.value)
			sb.WriteByte('\n')
		}
		i = j
	}
}

// hclString is s as a quoted HCL string literal: normalised to NFC, with
// quotes, backslashes and control characters escaped and the template
// introducers ${ and %{ doubled, so that nothing in s is interpolated.
func hclString(s string) string {
	s = norm.NFC.String(s)
	var sb strings.Builder
	sb.Grow(len(s) + 2)
	sb.WriteByte('"')
	for i, r := range s {
		switch r {
		case '\n':
			sb.WriteString(`\n`)
		case '\r':
			sb.WriteString(`\r`)
		case '\t':
			sb.WriteString(`\t`)
		case '"':
			sb.WriteString(`\"`)
		case '\\':
			sb.WriteString(`\\`)
		case '$', '%':
			sb.WriteRune(r)
			if i+1 < len(s) && s[i+1] == '{' {
				sb.WriteRune(r)
			}
		default:
			switch {
			case unicode.IsPrint(r):
				sb.WriteRune(r)
			case r < 0x10000:
				fmt.Fprintf(&sb, `\u%04x`, r)
			default:
				fmt.Fprintf(&sb, `\U%08x`, r)
			}
		}
	}
	sb.WriteByte('"')
	return sb.String()
}
