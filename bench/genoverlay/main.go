// Command genoverlay writes a synthetic --catalog overlay directory of about
// N offers: AWS instance types named bench-<gpu>-<n>.<count>xlarge
// (instances/bench.csv) priced on demand and spot in 25 AWS regions
// (offers/bench-<k>.csv, at most 200,000 offers per file, under the
// loader's 64 MiB file bound). Prices are synthetic and say so; the
// overlay is for timing the loader, never for answers.
//
//	go run ./bench/genoverlay -o DIR -offers 1000000
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	dir := flag.String("o", "", "output directory (created)")
	n := flag.Int("offers", 1000000, "number of offers (rounded up to whole instance types)")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "genoverlay: -o DIR is required")
		os.Exit(2)
	}
	if err := run(*dir, *n); err != nil {
		fmt.Fprintf(os.Stderr, "genoverlay: %v\n", err)
		os.Exit(1)
	}
}

const (
	src     = `third-party,https://example.com/synthetic-benchmark-data,2026-12-01`
	perFile = 200000
)

var regions = []string{"us-east-1", "us-east-2", "us-west-1", "us-west-2", "af-south-1", "ap-east-1", "ap-south-1",
	"ap-southeast-1", "ap-southeast-2", "ap-southeast-3", "ap-northeast-1", "ap-northeast-2", "ap-northeast-3",
	"ca-central-1", "eu-central-1", "eu-central-2", "eu-west-1", "eu-west-2", "eu-west-3", "eu-south-1",
	"eu-south-2", "eu-north-1", "il-central-1", "me-south-1", "sa-east-1"}

var gpus = []struct {
	id, short string
	mem       int
}{{"A100-SXM4-40GB", "a100", 40}, {"H100-SXM-80GB", "h100", 80}, {"L4", "l4", 24}}

func run(dir string, n int) error {
	for _, d := range []string{"instances", "offers"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return err
		}
	}
	perType := 2 * len(regions)
	types := (n + perType - 1) / perType
	inst, err := os.Create(filepath.Join(dir, "instances", "bench.csv"))
	if err != nil {
		return err
	}
	defer inst.Close()
	iw := bufio.NewWriter(inst)
	fmt.Fprintln(iw, "provider,instance_type,family,gpu,gpu_count,gpu_memory_gb,vcpu,memory_gib,status,source_kind,source_ref,as_of")
	var ow *bufio.Writer
	var of *os.File
	written := 0
	for t := 0; t < types; t++ {
		g := gpus[t%len(gpus)]
		count := []int{1, 2, 4, 8}[(t/len(gpus))%4]
		name := fmt.Sprintf("bench-%s-%d.%dxlarge", g.short, t, count)
		fmt.Fprintf(iw, "aws,%s,bench,%s,%d,%d,%d,%d,current,%s\n", name, g.id, count, count*g.mem, 8*count, 64*count, src)
		for ri, r := range regions {
			if written%perFile == 0 {
				if ow != nil {
					if err := ow.Flush(); err != nil {
						return err
					}
					of.Close()
				}
				if of, err = os.Create(filepath.Join(dir, "offers", fmt.Sprintf("bench-%d.csv", written/perFile))); err != nil {
					return err
				}
				ow = bufio.NewWriter(of)
				fmt.Fprintln(ow, "provider,instance_type,region,billing,hourly,currency,source_kind,source_ref,as_of")
			}
			price := float64(count) * (1 + float64((t*7+ri)%100)/100)
			fmt.Fprintf(ow, "aws,%s,%s,on-demand,%.4f,USD,%s\n", name, r, price, src)
			fmt.Fprintf(ow, "aws,%s,%s,spot,%.4f,USD,%s\n", name, r, price*0.4, src)
			written += 2
		}
	}
	if ow != nil {
		if err := ow.Flush(); err != nil {
			return err
		}
		of.Close()
	}
	return iw.Flush()
}
