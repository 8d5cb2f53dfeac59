package cli_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestNoSilentChoiceInImports holds each import choice that used to be
// silent to a named error or a counted skip, over the import corpus
// (testdata/malformed): a repeated JSON member, a repeated CSV row at half
// the price, a currency code in lower case or unknown to the exchange-rate
// table, and a NUL in an instance type name.
func TestNoSilentChoiceInImports(t *testing.T) {
	db := filepath.Join(t.TempDir(), "g.db")
	for _, tt := range []struct {
		source, file string
		exit         int
		want         []string
	}{
		{"aws", "aws/ok-csv-duplicate-row-at-half-price.csv", 0, []string{"1 duplicate offer (the first one was kept) (e.g. p5.48xlarge/us-east-1/on-demand Hrs)"}},
		{"aws", "aws/csv-currency-xyz.csv", 3, []string{"field currency", `"XYZ"`, "nothing was stored"}},
		{"aws", "aws/csv-currency-lowercase.csv", 3, []string{"field currency", `"usd"`}},
		{"aws", "aws/nul-in-instance-type.csv", 0, []string{`1 provider, instance type or region is not an identifier (e.g. g5.x\x00large)`}},
		{"tencent", "tencent/duplicate-price-key.json", 3, []string{`member "UnitPrice" appears twice`, "[0].response"}},
		{"alibaba", "alibaba/duplicate-price-key.json", 3, []string{`member "tradePrice" appears twice`}},
		{"huawei", "huawei/duplicate-price-key.json", 3, []string{`member "official_website_amount" appears twice`}},
		{"baidu", "baidu/duplicate-price-key.json", 3, []string{`member "specPrice" appears twice`}},
		{"azure", "azure/duplicate-price-key.json", 3, []string{`member "retailPrice" appears twice`, "Items[0]"}},
		{"gcp", "gcp/duplicate-price-key.json", 3, []string{`member "nanos" appears twice`}},
		{"alibaba", "alibaba/currency-lowercase.json", 3, []string{"field currency", `"usd"`}},
		{"tencent", "tencent/currency-lowercase.json", 3, []string{"field currency", `"usd"`}},
		{"huawei", "huawei/currency-lowercase.json", 3, []string{"field currency", `"cny"`}},
	} {
		out, errOut, code := exec(t, true, nil, "catalog", "import", tt.source, "--file", filepath.Join("testdata/malformed", tt.file), "--db", db, "--allow-shrink")
		if code != tt.exit {
			t.Errorf("%s: exit %d, want %d\n%s%s", tt.file, code, tt.exit, out, errOut)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(out+errOut, w) {
				t.Errorf("%s: lacks %q:\n%s%s", tt.file, w, out, errOut)
			}
		}
	}
	out, _, code := exec(t, true, nil, "catalog", "history", "--offer", "aws/p5.48xlarge/us-east-1/on-demand", "--db", db, "-o", "json")
	if code != 0 || !strings.Contains(out, "55.04") || strings.Contains(out, "27.52") {
		t.Errorf("the repeated row replaced the first price:\n%s", out)
	}
}
