package tencent

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer/httpapi"
)

// TestRequestUnchanged: the request an import sends (method, host, path,
// headers with the TC3 signature, JSON body) is the one the CVM API has
// been answering; moving the importer onto the shared API client must
// not change one byte of it.
func TestRequestUnchanged(t *testing.T) {
	s := &httpapi.Stub{}
	s.Reply("POST", "/", 200, []byte(`{"Response":{"RequestId":"r","InstanceTypeQuotaSet":[]}}`))
	imp := fetchImporter("https://cvm.tencentcloudapi.com")
	imp.Billings = []catalog.Billing{catalog.OnDemand}
	if _, err := imp.Fetch(context.Background(), s.Client(), nil); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range s.Requests {
		var hs []string
		for k, v := range r.Header {
			hs = append(hs, k+": "+strings.Join(v, ","))
		}
		sort.Strings(hs)
		got = append(got, r.Method+" "+r.URL.String()+"\n"+strings.Join(hs, "\n")+"\n"+string(r.Body))
	}
	want := []string{`POST https://cvm.tencentcloudapi.com/
Authorization: TC3-HMAC-SHA256 Credential=AKIDtestSecretId0000/2025-03-04/cvm/tc3_request, SignedHeaders=content-type;host, Signature=4cd7944ba2afc8ed8a7f6907a84ca0cef46ef8de79df1922832402ddbfd7e305
Content-Type: application/json; charset=utf-8
X-Tc-Action: DescribeZoneInstanceConfigInfos
X-Tc-Region: ap-guangzhou
X-Tc-Timestamp: 1741064767
X-Tc-Version: 2017-03-12
{"Filters":[{"Name":"instance-charge-type","Values":["POSTPAID_BY_HOUR"]},{"Name":"instance-type","Values":["GN7.2XLARGE32"]}]}`}
	if g, w := strings.Join(got, "\n\n"), strings.Join(want, "\n\n"); g != w {
		t.Errorf("requests\n%s\nwant\n%s", g, w)
	}
	if u := s.Unused(); len(u) > 0 {
		t.Errorf("stubs never used: %v", u)
	}
}
