package curated

import (
	"encoding/csv"
	"errors"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// readAll reads every record of r with its line and error text, as
// readTable reads them (a field-count error keeps reading, any other stops).
func readAll(r records) (out []string) {
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out
		}
		line := r.Line()
		if err != nil {
			var pe *csv.ParseError
			if !errors.As(err, &pe) {
				return append(out, "error "+err.Error())
			}
			out = append(out, "error "+strings.Join([]string{itoa(pe.StartLine), itoa(pe.Line), itoa(pe.Column), pe.Err.Error()}, " "))
			if pe.Err != csv.ErrFieldCount {
				return out
			}
		}
		out = append(out, itoa(line)+": "+strings.Join(rec, "|")+"|"+itoa(len(rec)))
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func csvReader(text string) records {
	r := csv.NewReader(strings.NewReader(text))
	r.Comment = '#'
	r.ReuseRecord = true
	return &csvRecords{r}
}

// FuzzPlainRecords: a text without double quotes is read by plainRecords
// as encoding/csv reads it: the same records, lines and errors.
func FuzzPlainRecords(f *testing.F) {
	for _, s := range []string{
		"a,b,c\n1,2,3\n", "a,b\r\n1,2\r\n\r\n#x,y\n3,4", "a,b\n1\n2,3,4\n5,6\r", "\ufeffa\n\n\n#\nb\r\r\n", "a,,b\n,,\n,\n",
		"", "\n", "\r", "#only\n", "a\r\rb\n", "x,y\n1,2\r\r",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if strings.IndexByte(text, '"') >= 0 {
			return // encoding/csv's alone
		}
		got, want := readAll(&plainRecords{text: text}), readAll(csvReader(text))
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\nplain %q\ncsv   %q", text, got, want)
		}
	})
}
