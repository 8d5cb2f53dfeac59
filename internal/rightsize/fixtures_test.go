package rightsize_test

import (
	"bytes"
	"compress/gzip"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/rightsize/synth"
)

var update = flag.Bool("update", false, "rewrite the testdata fixtures")

// fixtures are the logs in testdata (used by the CLI's golden tests),
// uncompressed; names ending in .gz are stored gzip-compressed.
func fixtures() map[string][]byte {
	out := map[string][]byte{}
	var b bytes.Buffer
	synth.WriteNVSMI(&b, synth.Scenarios["two-of-eight-l40s"](), synth.CSVOptions{})
	out["two-of-eight-l40s.csv"] = bytes.Clone(b.Bytes())
	b.Reset()
	synth.WriteNVSMI(&b, synth.Scenarios["idle-nights-8xa100"](), synth.CSVOptions{})
	out["idle-nights-8xa100.csv.gz"] = bytes.Clone(b.Bytes())
	b.Reset()
	synth.WriteNVSMI(&b, synth.Scenarios["bursty-h100"](), synth.CSVOptions{NoHeader: true, NoUnits: true})
	out["bursty-h100-noheader.csv.gz"] = bytes.Clone(b.Bytes())
	b.Reset()
	synth.WriteDCGM(&b, synth.Scenarios["steady-8xa100"](), synth.DCGMOptions{Timestamps: true, Host: "train-07"})
	// malformed lines at known places
	lines := strings.SplitAfter(b.String(), "\n")
	bad := map[int]string{
		57:   `DCGM_FI_DEV_GPU_UTIL{gpu="1",UUID="GPU-x"} 250 1795392000000` + "\n",
		300:  `DCGM_FI_DEV_FB_USED{gpu="2",UUID="GPU-x" 100` + "\n",
		301:  `{gpu="0"} 5` + "\n",
		2500: `DCGM_FI_DEV_GPU_UTIL{gpu="0",UUID="GPU-x"} 97 yesterday` + "\n",
		4000: `DCGM_FI_DEV_FB_USED{gpu="0",UUID="GPU-x"} -5` + "\n",
		6000: `DCGM_FI_DEV_GPU_UTIL{gpu="0",UUID="GPU-x"}` + "\n",
	}
	var w strings.Builder
	n := 0
	for _, l := range lines {
		for {
			n++
			if s, ok := bad[n]; ok {
				w.WriteString(s)
				continue
			}
			break
		}
		w.WriteString(l)
	}
	out["steady-8xa100-malformed.prom.gz"] = []byte(w.String())
	return out
}

// TestFixtures checks that the committed logs are what the generator
// writes (go test ./internal/rightsize -run TestFixtures -update rewrites them).
func TestFixtures(t *testing.T) {
	for name, want := range fixtures() {
		path := filepath.Join("testdata", name)
		if *update {
			data := want
			if strings.HasSuffix(name, ".gz") {
				var z bytes.Buffer
				zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
				zw.Write(want)
				zw.Close()
				data = z.Bytes()
			}
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatalf("%v (run with -update to create it)", err)
		}
		var r io.Reader = f
		if strings.HasSuffix(name, ".gz") {
			if r, err = gzip.NewReader(f); err != nil {
				t.Fatal(err)
			}
		}
		got, err := io.ReadAll(r)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the generator's output (run with -update if the change is intended)", path)
		}
	}
}
