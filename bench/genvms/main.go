// Command genvms writes a synthetic SkyPilot vms.csv (AWS column order)
// with at least the given number of priced offers, for benchmarking reads
// with a big import. Its instance types are synthetic ("bench-" names,
// never real data) with real GPU names (A100, H100, L4 ...) and memory
// sizes that resolve to one catalog GPU, spread over 23 real AWS regions,
// each with an on-demand and a spot price: importing it creates about
// offers/46 discovered instance types, like a provider file full of types
// the curated catalog lacks.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strings"
)

var regions = []string{"us-east-1", "us-east-2", "us-west-1", "us-west-2", "ca-central-1", "sa-east-1", "eu-west-1", "eu-west-2",
	"eu-west-3", "eu-central-1", "eu-north-1", "eu-south-1", "ap-northeast-1", "ap-northeast-2", "ap-northeast-3", "ap-southeast-1",
	"ap-southeast-2", "ap-south-1", "ap-east-1", "me-south-1", "me-central-1", "il-central-1", "af-south-1"}

// gpus are names and per-GPU memory (MiB) that resolve to one catalog GPU.
var gpus = []struct {
	name string
	mib  int
}{{"A100", 40960}, {"A100", 81920}, {"H100", 81559}, {"L4", 22888}, {"A10G", 22888}, {"T4", 15360}, {"L40S", 46068}, {"V100", 16384}}

func main() {
	out := flag.String("o", "vms.csv", "output file")
	n := flag.Int("offers", 100000, "minimum number of offers")
	flag.Parse()
	f, err := os.Create(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	fmt.Fprintln(w, "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone")
	per := 2 * len(regions)
	types := (*n + per - 1) / per
	for t := 0; t < types; t++ {
		g := gpus[t%len(gpus)]
		count := []int{1, 2, 4, 8}[(t/len(gpus))%4]
		name := fmt.Sprintf("bench-%s-%dx.%dxlarge", strings.ToLower(g.name), count, t) // lower case, as AWS names its types
		info := fmt.Sprintf("\"{'Gpus': [{'Name': '%s', 'Manufacturer': 'NVIDIA', 'Count': %d, 'MemoryInfo': {'SizeInMiB': %d}}]}\"", g.name, count, g.mib)
		for ri, r := range regions {
			price := 0.5*float64(count) + float64((t*7+ri*13)%100)/100
			fmt.Fprintf(w, "%s,%s,%d.0,%d.0,%d.0,%s,%.4f,%.4f,%s,%sa\n", name, g.name, count, 8*count, 64*count, info, price, price*0.4, r, r)
		}
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := f.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
