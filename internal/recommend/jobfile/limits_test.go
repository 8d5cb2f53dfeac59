package jobfile_test

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/recommend/jobfile"
)

// TestHostileJobsAreRefusedFast (issue 25 item 4): a job description with
// 90,000 keys cost 21.8 s of CPU to decode; documents over the size, node,
// depth or alias limits are now refused before decoding, each with bounded
// work (the bytes the refusal allocates; BenchmarkHostileJobs times them),
// with a message in English and Chinese.
func TestHostileJobsAreRefusedFast(t *testing.T) {
	var keys90k, flow, deep, aliases strings.Builder
	for i := range 90000 {
		fmt.Fprintf(&keys90k, "k%d: 1\n", i)
	}
	flow.WriteString("name: {")
	for i := 0; flow.Len() < jobfile.MaxBytes-16; i++ {
		fmt.Fprintf(&flow, "k%d: 1, ", i)
	}
	flow.WriteString("z: 1}\n")
	deep.WriteString("name: " + strings.Repeat("[", 40) + strings.Repeat("]", 40) + "\n")
	aliases.WriteString("a: &a [1, 2, 3]\nb: [" + strings.Repeat("*a, ", 100) + "*a]\n")
	laughs := "a: &a [1,1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
	for _, c := range []struct {
		name, doc, key string
		en, zh         string
	}{
		{"90,000 keys", keys90k.String(), "job.limit.size", "The job description is over 65536 bytes", "作业描述超过 65536 字节"},
		{"a flow mapping of 64 KiB", flow.String(), "job.limit.nodes", "more than 2000 keys, values and list items", "键、值和列表项超过 2000 个"},
		{"40 levels", deep.String(), "job.limit.depth", "nests deeper than 16 levels", "嵌套超过 16 层"},
		{"101 aliases", aliases.String(), "job.limit.aliases", "more than 64 aliases", "别名（*name）超过 64 个"},
		{"aliases that expand", laughs, "job.limit.nodes", "more than 2000 keys", "超过 2000 个"},
	} {
		var err error
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err = jobfile.Read(strings.NewReader(c.doc))
		runtime.ReadMemStats(&after)
		var le *jobfile.LimitError
		if !errors.As(err, &le) {
			t.Fatalf("%s: error %v, want a limit error", c.name, err)
		}
		// decoding the document would allocate in proportion to its nodes
		// (expanded aliases included); refusing it reads it once
		if b := after.TotalAlloc - before.TotalAlloc; b > maxRefusalBytes {
			t.Errorf("%s: refusing allocated %d bytes, want at most %d", c.name, b, maxRefusalBytes)
		}
		if le.Msg.Key != c.key {
			t.Errorf("%s: %s, want %s", c.name, le.Msg.Key, c.key)
		}
		if en := i18n.NewPrinter(i18n.EN).M(le.Msg); !strings.Contains(en, c.en) {
			t.Errorf("%s: en %q", c.name, en)
		}
		if zh := i18n.NewPrinter(i18n.ZH).M(le.Msg); !strings.Contains(zh, c.zh) {
			t.Errorf("%s: zh %q", c.name, zh)
		}
	}
}

// maxRefusalBytes bounds what refusing a hostile job may allocate (under
// 5 MB for a 64 KiB flow mapping today).
const maxRefusalBytes = 16 << 20

// BenchmarkHostileJobs measures refusing a 64 KiB flow mapping (over the
// node limit), the slowest of the hostile cases.
func BenchmarkHostileJobs(b *testing.B) {
	var flow strings.Builder
	flow.WriteString("name: {")
	for i := 0; flow.Len() < jobfile.MaxBytes-16; i++ {
		fmt.Fprintf(&flow, "k%d: 1, ", i)
	}
	flow.WriteString("z: 1}\n")
	doc := flow.String()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := jobfile.Read(strings.NewReader(doc)); err == nil {
			b.Fatal("accepted")
		}
	}
}

// TestOrdinaryJobsPassTheLimits: a job with long lists and an alias or two
// is well inside the limits.
func TestOrdinaryJobsPassTheLimits(t *testing.T) {
	doc := "workload:\n  gpu_hours: 100\ngpu:\n  models: &m [A100, H100, L40S, A10, T4]\nlocation:\n  regions: [" +
		strings.TrimSuffix(strings.Repeat("us-east-1, ", 200), ", ") + "]\n"
	if _, err := jobfile.Read(strings.NewReader(doc)); err != nil {
		t.Fatalf("an ordinary job refused: %v", err)
	}
}
