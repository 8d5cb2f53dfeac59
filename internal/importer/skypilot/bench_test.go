package skypilot

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer"
)

// benchVMS is a deterministic AWS-layout vms.csv of about offers offers
// (an on-demand and a spot price per instance type and region), as
// bench/genvms writes it.
func benchVMS(offers int) []byte {
	regions := []string{"us-east-1", "us-east-2", "us-west-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-northeast-1", "ap-southeast-1"}
	var b bytes.Buffer
	b.WriteString("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n")
	for t := 0; t < (offers+2*len(regions)-1)/(2*len(regions)); t++ {
		info := "\"{'Gpus': [{'Name': 'A100', 'Manufacturer': 'NVIDIA', 'Count': 8, 'MemoryInfo': {'SizeInMiB': 40960}}]}\""
		for ri, r := range regions {
			price := 4 + float64((t*7+ri*13)%100)/100
			fmt.Fprintf(&b, "bench-a100-8x.%dxlarge,A100,8.0,96.0,1152.0,%s,%.4f,%.4f,%s,%sa\n", t, info, price, price*0.4, r, r)
		}
	}
	return b.Bytes()
}

// BenchmarkStream parses a 100,000-offer vms.csv and hands its offers
// over one at a time (the parse side of a streamed import).
//
//	go test ./internal/importer/skypilot -run '^$' -bench Stream -benchmem
func BenchmarkStream(b *testing.B) {
	data := benchVMS(100000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		_, err := (&Importer{Cloud: "aws"}).Stream(context.Background(), bytes.NewReader(data), nil, importer.Sink{Offer: func(*catalog.Offer) error { n++; return nil }})
		if err != nil || n != 100000 {
			b.Fatalf("%d offers, %v", n, err)
		}
	}
}
