package priceserver

import (
	"os"
	"strings"
	"testing"
)

func TestParseExcerpt(t *testing.T) {
	f, err := os.Open("../../lineage/testdata/priceserver-alibaba/alibabacloud_price.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	offers, err := Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(offers) != 318 {
		t.Errorf("got %d offers, the excerpt holds 318 GPU entries", len(offers))
	}
	var found bool
	for _, o := range offers {
		if o.Region == "ap-northeast-1" && o.InstanceType == "ecs.ebmgn7e.32xlarge" {
			found = true
			if o.OnDemandHourly != "297.476" || o.GPUs != 8 || o.VCPU != 128 || o.MemoryGiB != 1024 || len(o.Zones) != 3 {
				t.Errorf("ecs.ebmgn7e.32xlarge in ap-northeast-1 = %+v", o)
			}
		}
	}
	if !found {
		t.Error("ecs.ebmgn7e.32xlarge in ap-northeast-1 is missing")
	}
}

func TestParseKeepsPriceText(t *testing.T) {
	in := `{"r1":{"instanceTypePrices":{"t1":{"arch":"amd64","vcpu":4,"memory":15.5,"gpu":1,"zones":["r1a"],"onDemandPricePerHour":11.574628,"spotPricePerHour":{"r1a":3.0320000648498535}}}}}`
	offers, err := Parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(offers) != 1 || offers[0].OnDemandHourly != "11.574628" || offers[0].MemoryGiB != 15.5 || offers[0].SpotHourly["r1a"] != "3.0320000648498535" {
		t.Errorf("got %+v", offers)
	}
}

func TestParseErrorsNameTheField(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`[]`, "decode"},
		{`{"r1":{}}`, `region "r1": no instanceTypePrices`},
		{`{"r1":{"instanceTypePrices":{"t1":{"vcpu":4,"memory":8,"gpu":1,"onDemandPricePerHour":-1}}}}`, `instance type "t1": field onDemandPricePerHour`},
		{`{"r1":{"instanceTypePrices":{"t1":{"vcpu":4,"memory":8,"onDemandPricePerHour":1}}}}`, "field gpu: missing"},
		{`{"r1":{"instanceTypePrices":{"t1":{"vcpu":4.5,"memory":8,"gpu":1,"onDemandPricePerHour":1}}}}`, "field vcpu"},
		{`{"r1":{"instanceTypePrices":{"t1":{"vcpu":4,"gpu":1,"onDemandPricePerHour":1}}}}`, "field memory: missing"},
		{`{} {}`, "trailing data"},
	} {
		_, err := Parse(strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%s) error = %v, want it to mention %q", tc.in, err, tc.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add(`{"r1":{"instanceTypePrices":{"t1":{"arch":"amd64","vcpu":4,"memory":15.5,"gpu":1,"zones":["r1a"],"onDemandPricePerHour":1.5}}}}`)
	f.Add(`{"r1":{"instanceTypePrices":{"t1":{"vcpu":4,"memory":8,"gpu":0,"onDemandPricePerHour":0,"spotPricePerHour":{"a":0.1}}}}}`)
	f.Add(`{}`)
	f.Fuzz(func(t *testing.T, in string) {
		offers, err := Parse(strings.NewReader(in))
		if err != nil {
			return
		}
		for _, o := range offers {
			if o.Region == "" || o.InstanceType == "" || o.GPUs < 0 || o.VCPU < 0 || o.OnDemandHourly == "" {
				t.Fatalf("accepted an invalid offer %+v", o)
			}
		}
	})
}
