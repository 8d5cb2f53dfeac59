// Package importertest helps the importers' tests. Its Seeds keeps fuzz
// seed corpora small: Go's fuzzer minimises every new interesting input
// with an algorithm quadratic in its length, and while it does so the
// whole run stalls, so seeds derived from kilobyte-sized real samples
// must be cut into small documents of the same shape.
package importertest

import (
	"bytes"
	"encoding/json"
)

// MaxSeed is the largest seed Seeds returns, in bytes, when the records
// allow it (a single record longer than this is returned alone).
const MaxSeed = 768

// Seeds compacts the JSON document raw and, when it is longer than
// MaxSeed, cuts it into documents of consecutive records: the records
// are the elements of the top-level array when key is "", else of the
// array under the top-level object's key (the other members of that
// object are dropped). Invalid JSON is returned unchanged.
func Seeds(raw []byte, key string) [][]byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return [][]byte{raw}
	}
	if buf.Len() <= MaxSeed {
		return [][]byte{buf.Bytes()}
	}
	var recs []json.RawMessage
	if key == "" {
		if json.Unmarshal(buf.Bytes(), &recs) != nil {
			return [][]byte{buf.Bytes()}
		}
	} else {
		var obj map[string]json.RawMessage
		if json.Unmarshal(buf.Bytes(), &obj) != nil || json.Unmarshal(obj[key], &recs) != nil {
			return [][]byte{buf.Bytes()}
		}
	}
	wrap := func(rs []json.RawMessage) []byte {
		arr, _ := json.Marshal(rs)
		if key == "" {
			return arr
		}
		doc, _ := json.Marshal(map[string]json.RawMessage{key: arr})
		return doc
	}
	var out [][]byte
	var cur []json.RawMessage
	size := 0
	for _, r := range recs {
		if len(cur) > 0 && size+len(r) > MaxSeed {
			out = append(out, wrap(cur))
			cur, size = nil, 0
		}
		cur = append(cur, r)
		size += len(r) + 1
	}
	if len(cur) > 0 {
		out = append(out, wrap(cur))
	}
	return out
}
