package csvtext

import (
	"encoding/csv"
	"errors"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// record is what a reader gave: a record with its line, or an error.
type reader interface {
	Read() ([]string, error)
	Line() int
}

type csvReader struct{ r *csv.Reader }

func (c csvReader) Read() ([]string, error) { return c.r.Read() }
func (c csvReader) Line() int {
	line, _ := c.r.FieldPos(0)
	return line
}

func newCSV(text string, comment byte) reader {
	r := csv.NewReader(strings.NewReader(text))
	r.Comment = rune(comment)
	r.ReuseRecord = true
	return csvReader{r}
}

// readAll reads every record with its line and error, as the loaders do:
// a field-count error keeps reading, any other stops.
func readAll(r reader) (out []string) {
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			var pe *csv.ParseError
			if !errors.As(err, &pe) {
				return append(out, "error "+err.Error())
			}
			out = append(out, "error "+strings.Join([]string{strconv.Itoa(pe.StartLine), strconv.Itoa(pe.Line), strconv.Itoa(pe.Column), pe.Err.Error()}, " "))
			if pe.Err != csv.ErrFieldCount {
				return out
			}
		}
		out = append(out, strconv.Itoa(r.Line())+": "+strings.Join(rec, "|")+"|"+strconv.Itoa(len(rec)))
	}
}

var seeds = []string{
	"a,b,c\n1,2,3\n", "a,b\r\n1,2\r\n\r\n#x,y\n3,4", "a,b\n1\n2,3,4\n5,6\r", "\ufeffa\n\n\n#\nb\r\r\n", "a,,b\n,,\n,\n",
	"", "\n", "\r", "#only\n", "a\r\rb\n", "x,y\n1,2\r\r",
	"a,b\n\"1,5\",2\n3,\"x \"\"y\"\"\"\n", "a,b\n\"multi\nline\",2\n3,4\n", "a,b\n1,x\"y\"\n", "a,b\n\"a\"b\",c\n",
	"a,b\n\"\",\",\"\n#\"c\n\"\r\n\"", "h\n\"a\"\"\"\n\"\"\"\"\n", "a,b\n 1 , \"2\" \n",
}

// TestReadsAsEncodingCSV: the records, lines and errors of every seed, with
// and without a comment character, are encoding/csv's.
func TestReadsAsEncodingCSV(t *testing.T) {
	for _, text := range seeds {
		for _, comment := range []byte{0, '#'} {
			if got, want := readAll(New(text, comment)), readAll(newCSV(text, comment)); !reflect.DeepEqual(got, want) {
				t.Errorf("%q (comment %q):\ncsvtext %q\ncsv     %q", text, comment, got, want)
			}
		}
	}
}

// TestSplitsInPlace: a text whose quoted fields close on their lines is
// read without encoding/csv reading it whole, and the unquoted lines'
// fields are views into it.
func TestSplitsInPlace(t *testing.T) {
	r := New("a,b\n\"x,1\",2\n3,4\n", 0)
	if !r.Views() {
		t.Fatal("a text whose quotes close on every line is read whole by encoding/csv")
	}
	if r := New("a\n\"x\ny\"\n", 0); r.Views() {
		t.Error("a quoted field spanning lines must go to encoding/csv")
	}
	allocs := func(rows int) float64 {
		text := "a,b,c\n" + strings.Repeat("1,2,3\n", rows)
		return testing.AllocsPerRun(50, func() {
			r := New(text, 0)
			for {
				if _, err := r.Read(); err != nil {
					break
				}
			}
		})
	}
	if few, many := allocs(3), allocs(300); many != few {
		t.Errorf("%v allocations for 3 plain records, %v for 300: want none per record", few, many)
	}
}

// FuzzReadsAsEncodingCSV holds the reader to encoding/csv on any text.
func FuzzReadsAsEncodingCSV(f *testing.F) {
	for _, s := range seeds {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, text string, comment bool) {
		c := byte(0)
		if comment {
			c = '#'
		}
		if got, want := readAll(New(text, c)), readAll(newCSV(text, c)); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q (comment %q):\ncsvtext %q\ncsv     %q", text, c, got, want)
		}
	})
}
