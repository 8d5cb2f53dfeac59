package importertest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestSeedsCutsLargeDocuments(t *testing.T) {
	var items []string
	for i := 0; i < 40; i++ {
		items = append(items, fmt.Sprintf(`{"name": "record %d", "pad": %q}`, i, strings.Repeat("x", 60)))
	}
	doc := `{"Items": [` + strings.Join(items, ",\n") + `], "NextPageLink": null}`
	seeds := Seeds([]byte(doc), "Items")
	if len(seeds) < 2 {
		t.Fatalf("%d seeds, want the document cut", len(seeds))
	}
	total := 0
	for _, s := range seeds {
		if len(s) > MaxSeed+100 {
			t.Errorf("seed of %d bytes", len(s))
		}
		var v struct{ Items []json.RawMessage }
		if err := json.Unmarshal(s, &v); err != nil {
			t.Fatalf("seed is not JSON: %v", err)
		}
		total += len(v.Items)
	}
	if total != 40 {
		t.Errorf("%d records across the seeds, want 40", total)
	}
	arr := `[` + strings.Join(items, ",") + `]`
	if n := len(Seeds([]byte(arr), "")); n < 2 {
		t.Errorf("top-level array: %d seeds", n)
	}
	if s := Seeds([]byte("  {\"a\": 1}\n"), ""); len(s) != 1 || string(s[0]) != `{"a":1}` {
		t.Errorf("small document: %q", s)
	}
	if s := Seeds([]byte("not json"), ""); string(s[0]) != "not json" {
		t.Errorf("invalid JSON changed: %q", s)
	}
}
