package export

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
)

// hclString must quote a string exactly as the HCL library's own writer
// does, escapes included.
func TestHCLStringMatchesHCLWriter(t *testing.T) {
	for _, s := range []string{"", "plain", `say "hi"`, `back\slash`, "line\nbreak\r\ttab",
		"${var.x}", "%{ if x }", "$$ %% $x %x {}", "ends with $", "ends with %", "\x00\x1f\x7f", "\u2028\u2029\u0085",
		"e\u0301 (not NFC)", "中文 测试 ×", "\U0001F600", "\xff\xfe invalid", "\U000e0001 tag"} {
		if got, want := hclString(s), string(hclwrite.TokensForValue(cty.StringVal(s)).Bytes()); got != want {
			t.Errorf("hclString(%q) = %s, want %s", s, got, want)
		}
	}
}

func FuzzHCLString(f *testing.F) {
	for _, s := range []string{"", "a${b}", "%{x}", "\"\\\n", "\u00e9", "e\u0301", "\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := hclString(s), string(hclwrite.TokensForValue(cty.StringVal(s)).Bytes()); got != want {
			t.Fatalf("hclString(%q) = %s, want %s", s, got, want)
		}
	})
}

// A body renders in canonical form: formatting it again changes nothing.
func TestHCLBodyIsCanonical(t *testing.T) {
	b := &hclBody{}
	b.AppendLine("# a comment")
	blk := b.AppendNewBlock("resource", "x_type", `odd "label"`)
	str(blk, "a", "1")
	str(blk, "longer_name", "${not interpolated}")
	num(blk, "n", -1)
	blk.AppendNewline()
	boolean(blk, "b", true)
	o := blk.SetAttributeObject("tags", "{", "}")
	str(o, "Name", "x")
	o.SetAttribute(hclString("quoted-key"), hclString("y"))
	comment(blk, "inside", "")
	ty := blk.SetAttributeObject("type", "object({", "})")
	ref(ty, "k", "string")
	ref(ty, "longer", "list(string)")
	blk.AppendLine("features {}")
	got := b.Bytes()
	if formatted := hclwrite.Format(got); string(formatted) != string(got) {
		t.Errorf("not canonical:\n%s\nformatted:\n%s", got, formatted)
	}
	if !strings.Contains(string(got), "  longer_name = \"$${not interpolated}\"\n") {
		t.Errorf("attributes not aligned or escaped:\n%s", got)
	}
}
