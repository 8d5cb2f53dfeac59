package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// DuplicateKeyError is a JSON object that names one member twice.
// encoding/json keeps the last value it reads, so a repeated "price" would
// silently replace the first: an answer that does this is refused.
type DuplicateKeyError struct {
	Key    string // the repeated member name
	Path   string // where the object is: ".Response.Price", "[3].items[0]"
	Offset int64  // byte offset of the second occurrence, within the value checked
}

func (e *DuplicateKeyError) Error() string {
	path := e.Path
	if path == "" {
		path = "the top-level object"
	}
	return fmt.Sprintf("member %q appears twice in %s (byte %d): an answer must name each member once", e.Key, path, e.Offset)
}

// CheckDuplicateKeys returns a *DuplicateKeyError when an object anywhere in
// the JSON value data names a member twice (in any mix of upper and lower
// case, as encoding/json matches a struct's fields), nil otherwise (and nil for
// data that is not valid JSON: the decoder that follows reports that).
func CheckDuplicateKeys(data []byte) error {
	// Fast path: a value with no object of two members cannot repeat one.
	if bytes.IndexByte(data, ',') < 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	type frame struct {
		object bool
		keys   map[string]struct{}
		key    bool   // an object expecting a member name next
		path   string // the path of this value
		index  int    // an array's next index
	}
	var stack []*frame
	pathOf := func() string { // the path of the value about to be read
		if len(stack) == 0 {
			return ""
		}
		f := stack[len(stack)-1]
		if !f.object {
			return f.path + "[" + strconv.Itoa(f.index) + "]"
		}
		return f.path
	}
	var member string
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) || err != nil {
			return nil
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.key {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				continue
			}
			k, _ := tok.(string)
			// encoding/json matches struct fields without regard to case:
			// "Price" and "price" fill one field, the last one wins.
			if _, dup := top.keys[strings.ToLower(k)]; dup {
				return &DuplicateKeyError{Key: k, Path: top.path, Offset: dec.InputOffset() - int64(len(strconv.Quote(k)))}
			}
			top.keys[strings.ToLower(k)] = struct{}{}
			top.key, member = false, k
			continue
		}
		// A value: of the top object's member, the top array's next
		// element, or the document.
		path := pathOf()
		if top != nil && top.object {
			path = top.path + "." + member
			top.key = true
		} else if top != nil {
			top.index++
		}
		d, ok := tok.(json.Delim)
		switch {
		case !ok:
		case d == '{':
			stack = append(stack, &frame{object: true, keys: map[string]struct{}{}, key: true, path: path})
		case d == '[':
			stack = append(stack, &frame{path: path})
		case d == ']':
			// The end of the top array (counted as an element above: undo).
			stack = stack[:len(stack)-1]
		}
	}
}

// UnmarshalStrict is json.Unmarshal that first refuses a value naming a
// member twice (a *DuplicateKeyError), so that no repeated price replaces
// another in silence.
func UnmarshalStrict(data []byte, v any) error {
	if err := CheckDuplicateKeys(data); err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}

// DecodeItem decodes the next value of a streamed document (starting at
// byte off, at path field) into v, refusing a value that names a member
// twice. Errors are ParseErrors of source, as StreamDecodeError makes
// them; a repeated member is located at its second occurrence.
func DecodeItem(dec *json.Decoder, source string, off int64, field string, v any) error {
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return StreamDecodeError(source, dec, off, field, err)
	}
	if err := CheckDuplicateKeys(raw); err != nil {
		de := err.(*DuplicateKeyError)
		return &ParseError{Source: source, Offset: off + de.Offset, Field: field + de.Path, Err: err}
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return StreamDecodeError(source, dec, off, field, err)
	}
	return nil
}
