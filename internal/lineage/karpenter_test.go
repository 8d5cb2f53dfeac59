package lineage

import (
	"os"
	"strings"
	"testing"
)

func TestParseKarpenterExcerpt(t *testing.T) {
	f, err := os.Open("testdata/karpenter-aws/" + karpenterFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := ParseKarpenterPrices(f)
	if err != nil {
		t.Fatal(err)
	}
	if p.Generated != "2026-07-20T13:44:30Z" || p.For != "us-east-1" {
		t.Errorf("stamp = %s for %s", p.Generated, p.For)
	}
	if got := p.Prices["us-east-1"]["p5.48xlarge"]; got != "55.040000" {
		t.Errorf("p5.48xlarge = %s, want 55.040000 as the file shows", got)
	}
	if got := trimPrice(p.Prices["us-east-1"]["g4ad.2xlarge"]); got != "0.54117" {
		t.Errorf("g4ad.2xlarge = %s, want 0.54117", got)
	}
}

func TestParseKarpenterErrorsNameTheLine(t *testing.T) {
	const head = "// generated at 2026-07-20T13:44:30Z for us-east-1\nvar InitialOnDemandPricesAWS = map[string]map[ec2types.InstanceType]float64{\n"
	for _, tc := range []struct{ doc, want string }{
		{"var InitialOnDemandPricesAWS = x{\n\"us-east-1\": {\n\"a.b\": 1.0,\n},\n}\n", "stamp"},
		{head + "\"us-east-1\": {\n\"p5.48xlarge\": -1.0,\n},\n}\n", "line 4: \"\\\"p5.48xlarge\\\": -1.0\" is not"},
		{head + "\"p5.48xlarge\": 1.0,\n}\n", "line 3: price outside a region block"},
		{head + "\"us-east-1\": {\n\"p5.48xlarge\": 0.0,\n},\n}\n", "line 4: p5.48xlarge: price 0.0"},
		{head + "\"us-east-1\": {\n\"a.b\": 1.0, \"a.b\": 2.0,\n},\n}\n", "a.b listed twice"},
		{head + "}\n", "no InitialOnDemandPricesAWS"},
	} {
		_, err := ParseKarpenterPrices(strings.NewReader(tc.doc))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("err = %v, want it to name %q", err, tc.want)
		}
	}
}

func FuzzParseKarpenterPrices(f *testing.F) {
	b, err := os.ReadFile("testdata/karpenter-aws/" + karpenterFile)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(b))
	f.Fuzz(func(t *testing.T, doc string) {
		p, err := ParseKarpenterPrices(strings.NewReader(doc))
		if err != nil {
			return
		}
		for region, m := range p.Prices {
			for typ, price := range m {
				if region == "" || typ == "" || trimPrice(price) == "" {
					t.Fatalf("accepted %q %q %q", region, typ, price)
				}
			}
		}
	})
}
