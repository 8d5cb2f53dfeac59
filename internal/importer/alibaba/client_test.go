package alibaba

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/catalog"
)

// TestRequestUnchanged: the request an import sends (its path, its query
// in the canonical order with the signature, its headers) is the one the
// ECS API has been answering; moving the importer onto the shared API
// client must not change one byte of it.
func TestRequestUnchanged(t *testing.T) {
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Method+" "+r.RequestURI+" Accept="+r.Header.Get("Accept")+" Content-Type="+r.Header.Get("Content-Type"))
		fmt.Fprint(w, `{"RequestId":"a","PriceInfo":{"Price":{"OriginalPrice":9.6,"Currency":"CNY"}}}`)
	}))
	defer srv.Close()
	imp := fetchImporter(srv.URL)
	imp.Billings = []catalog.Billing{catalog.OnDemand}
	if _, err := imp.Fetch(context.Background(), srv.Client(), nil); err != nil {
		t.Fatal(err)
	}
	want := []string{"GET /?AccessKeyId=LTAI5tTestKeyId&Action=DescribePrice&Format=JSON&InstanceType=ecs.gn7i-c8g1.2xlarge&Period=1&PriceUnit=Hour&RegionId=cn-hangzhou&ResourceType=instance&SignatureMethod=HMAC-SHA1&SignatureNonce=nonce-1&SignatureVersion=1.0&Timestamp=2025-03-04T05%3A06%3A07Z&Version=2014-05-26&Signature=pskoGvXqt89kl9ClJ5a0coZM00E%3D Accept=application/json Content-Type="}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("requests\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestErrorKeepsTheInstanceType: a user whose instance type is refused
// reads which one in the error; only the credentials are redacted.
func TestErrorKeepsTheInstanceType(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, `{"RequestId":"r1","Code":"Forbidden.RAM","Message":"User not authorized to price `+r.URL.Query().Get("InstanceType")+` with key `+testKeyID+`"}`)
	}))
	defer srv.Close()
	imp := fetchImporter(srv.URL)
	imp.Attempts = 1
	_, err := imp.Fetch(context.Background(), srv.Client(), nil)
	if err == nil {
		t.Fatal("no error")
	}
	if msg := err.Error(); !strings.Contains(msg, "not authorized to price ecs.gn7i-c8g1.2xlarge with key [redacted]") {
		t.Errorf("error %q: want the instance type named and the key ID redacted", msg)
	}
}
