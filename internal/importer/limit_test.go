package importer

import (
	"encoding/csv"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestRecordLimit(t *testing.T) {
	ok := "a,b\n\"x\ny\",2\n" + strings.Repeat("c", 90) + ",3\n"
	rd := csv.NewReader(RecordLimit(strings.NewReader(ok), 100))
	rd.FieldsPerRecord = -1
	recs, err := rd.ReadAll()
	if err != nil || len(recs) != 3 || recs[1][0] != "x\ny" {
		t.Fatalf("records %q, %v", recs, err)
	}
	for name, in := range map[string]string{
		"long line":          "a,b\n" + strings.Repeat("x", 200) + "\n",
		"long quoted record": "a,b\n\"" + strings.Repeat("x\n", 100) + "\"\n",
	} {
		_, err := io.ReadAll(RecordLimit(strings.NewReader(in), 100))
		var le *RecordLimitError
		if !errors.As(err, &le) || le.Offset != 4 {
			t.Errorf("%s: %v", name, err)
		}
	}
}
