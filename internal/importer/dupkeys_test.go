package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"testing"
)

func TestCheckDuplicateKeys(t *testing.T) {
	for _, tt := range []struct {
		in, key, path string
	}{
		{`{"a":1,"b":2}`, "", ""},
		{`[{"a":1},{"a":2}]`, "", ""},
		{`{"a":{"x":1},"b":{"x":2}}`, "", ""},
		{`{"price":"3.2","price":"0.011"}`, "price", ""},
		{`{"Response":{"Price":{"UnitPrice":1,"Discount":2,"UnitPrice":0.01}}}`, "UnitPrice", ".Response.Price"},
		{`[{"a":1},{"b":[1,{"c":1,"c":2}]}]`, "c", "[1].b[1]"},
		{`{"a":[],"b":{},"a":3}`, "a", ""},
		{`{"Price":3.2,"price":0.011}`, "price", ""},
		{`not json, at all`, "", ""},
	} {
		err := CheckDuplicateKeys([]byte(tt.in))
		var de *DuplicateKeyError
		if tt.key == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.in, err)
			}
			continue
		}
		if !errors.As(err, &de) || de.Key != tt.key || de.Path != tt.path {
			t.Errorf("%s: %v, want %q at %q", tt.in, err, tt.key, tt.path)
			continue
		}
		if q := strconv.Quote(tt.key); !bytes.HasPrefix([]byte(tt.in)[de.Offset:], []byte(q)) {
			t.Errorf("%s: offset %d does not point at the second %s", tt.in, de.Offset, q)
		}
	}
}

// FuzzCheckDuplicateKeys: a reported key occurs at least twice in the
// input, and a document encoding/json re-encodes (which has no repeated
// member) is never reported.
func FuzzCheckDuplicateKeys(f *testing.F) {
	for _, s := range []string{`{"a":1,"a":2}`, `[{"a":{"b":[1,2,{"c":1}]}}]`, `{"x":[{"y":1,"y":2}]}`, `{}`, `[]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		err := CheckDuplicateKeys(data)
		var de *DuplicateKeyError
		if errors.As(err, &de) {
			q, _ := json.Marshal(de.Key)
			if bytes.Count(bytes.ToLower(data), bytes.ToLower(q)) < 2 && !bytes.Contains(data, []byte(`\`)) {
				t.Fatalf("%q reported, but it occurs once in %q", de.Key, data)
			}
		}
		var v any
		if json.Unmarshal(data, &v) == nil {
			again, _ := json.Marshal(v)
			if err := CheckDuplicateKeys(again); err != nil {
				t.Fatalf("re-encoded %q: %v", again, err)
			}
		}
	})
}
