// Command genoffer writes a synthetic EC2 region offer file in the real
// layout of the AWS Price List bulk API (products, then OnDemand and
// Reserved terms), of at least the given size, for benchmarking imports.
// About 3 % of the SKUs are Linux GPU instances.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
)

func main() {
	out := flag.String("o", "offer.json", "output file")
	mb := flag.Int("mb", 1024, "minimum size in MB")
	flag.Parse()
	f, err := os.Create(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	target := int64(*mb) << 20
	// Each SKU is about 4.7 KB across the file.
	n := int(target/4700) + 1
	types := []string{"m5.large", "c6i.xlarge", "r7g.2xlarge", "t3.micro", "i4i.large"}
	gpu := []string{"p4d.24xlarge", "p5.48xlarge", "g5.xlarge", "g6e.12xlarge", "g4dn.xlarge"}
	oses := []string{"Linux", "Windows", "RHEL", "SUSE"}
	fmt.Fprint(w, "{\n  \"formatVersion\" : \"v1.0\",\n  \"disclaimer\" : \"This pricing list is for informational purposes only.\",\n  \"offerCode\" : \"AmazonEC2\",\n  \"version\" : \"20261101000000\",\n  \"publicationDate\" : \"2026-11-01T00:00:00Z\",\n  \"products\" : {\n")
	sku := func(i int) string { return fmt.Sprintf("SKU%013d", i) }
	for i := 0; i < n; i++ {
		inst, fam := types[i%len(types)], "General purpose"
		if i%33 == 0 {
			inst, fam = gpu[(i/33)%len(gpu)], "GPU instance"
		}
		sep := ","
		if i == n-1 {
			sep = ""
		}
		fmt.Fprintf(w, "    \"%s\" : {\n      \"sku\" : \"%s\",\n      \"productFamily\" : \"Compute Instance\",\n      \"attributes\" : {\n        \"servicecode\" : \"AmazonEC2\",\n        \"location\" : \"US East (N. Virginia)\",\n        \"locationType\" : \"AWS Region\",\n        \"instanceType\" : \"%s\",\n        \"currentGeneration\" : \"Yes\",\n        \"instanceFamily\" : \"%s\",\n        \"vcpu\" : \"96\",\n        \"memory\" : \"1152 GiB\",\n        \"storage\" : \"EBS only\",\n        \"networkPerformance\" : \"400 Gigabit\",\n        \"tenancy\" : \"Shared\",\n        \"operatingSystem\" : \"%s\",\n        \"licenseModel\" : \"No License required\",\n        \"usagetype\" : \"BoxUsage:%s\",\n        \"operation\" : \"RunInstances\",\n        \"capacitystatus\" : \"Used\",\n        \"preInstalledSw\" : \"NA\",\n        \"regionCode\" : \"us-east-1\",\n        \"servicename\" : \"Amazon Elastic Compute Cloud\"\n      }\n    }%s\n",
			sku(i), sku(i), inst, fam, oses[(i/7)%len(oses)], inst, sep)
	}
	fmt.Fprint(w, "  },\n  \"terms\" : {\n    \"OnDemand\" : {\n")
	for i := 0; i < n; i++ {
		sep := ","
		if i == n-1 {
			sep = ""
		}
		fmt.Fprintf(w, "      \"%s\" : {\n        \"%s.JRTCKXETXF\" : {\n          \"offerTermCode\" : \"JRTCKXETXF\",\n          \"sku\" : \"%s\",\n          \"effectiveDate\" : \"2026-10-01T00:00:00Z\",\n          \"priceDimensions\" : {\n            \"%s.JRTCKXETXF.6YS6EN2CT7\" : {\n              \"rateCode\" : \"%s.JRTCKXETXF.6YS6EN2CT7\",\n              \"description\" : \"$%d.%04d per On Demand Linux Instance Hour\",\n              \"beginRange\" : \"0\",\n              \"endRange\" : \"Inf\",\n              \"unit\" : \"Hrs\",\n              \"pricePerUnit\" : {\n                \"USD\" : \"%d.%04d000000\"\n              },\n              \"appliesTo\" : [ ]\n            }\n          },\n          \"termAttributes\" : { }\n        }\n      }%s\n",
			sku(i), sku(i), sku(i), sku(i), sku(i), 1+i%60, i%10000, 1+i%60, i%10000, sep)
	}
	fmt.Fprint(w, "    },\n    \"Reserved\" : {\n")
	opts := []struct{ code, lease, opt string }{{"4NA7Y494T4", "1yr", "No Upfront"}, {"HU7G6KETJZ", "1yr", "Partial Upfront"}, {"6QCMYABX3D", "1yr", "All Upfront"},
		{"BPH4J8HBKS", "3yr", "No Upfront"}, {"38NPMPTW36", "3yr", "Partial Upfront"}, {"NQ3QZPMQV9", "3yr", "All Upfront"}}
	for i := 0; i < n; i++ {
		fmt.Fprintf(w, "      \"%s\" : {\n", sku(i))
		for j, o := range opts {
			sep := ","
			if j == len(opts)-1 {
				sep = ""
			}
			fmt.Fprintf(w, "        \"%s.%s\" : {\n          \"offerTermCode\" : \"%s\",\n          \"sku\" : \"%s\",\n          \"effectiveDate\" : \"2026-10-01T00:00:00Z\",\n          \"priceDimensions\" : {\n            \"%s.%s.2TG2D8R56U\" : {\n              \"unit\" : \"Quantity\",\n              \"pricePerUnit\" : {\n                \"USD\" : \"%d\"\n              },\n              \"appliesTo\" : [ ]\n            },\n            \"%s.%s.6YS6EN2CT7\" : {\n              \"unit\" : \"Hrs\",\n              \"pricePerUnit\" : {\n                \"USD\" : \"0.%04d000000\"\n              },\n              \"appliesTo\" : [ ]\n            }\n          },\n          \"termAttributes\" : {\n            \"LeaseContractLength\" : \"%s\",\n            \"OfferingClass\" : \"standard\",\n            \"PurchaseOption\" : \"%s\"\n          }\n        }%s\n",
				sku(i), o.code, o.code, sku(i), sku(i), o.code, 100+i%5000, sku(i), o.code, i%10000, o.lease, o.opt, sep)
		}
		sep := ","
		if i == n-1 {
			sep = ""
		}
		fmt.Fprintf(w, "      }%s\n", sep)
	}
	fmt.Fprint(w, "    }\n  },\n  \"attributesList\" : { }\n}\n")
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	f.Close()
}
