package server_test

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http/httptest"
	"os"
	"testing"
)

// BenchmarkPages2 renders the claims and estimate pages without the
// response cache and answers a right-size upload (the 130 KB, 2,304-sample
// nvidia-smi log of eight L40S): server CPU per request and the HTML bytes.
func BenchmarkPages2(b *testing.B) {
	data, err := os.ReadFile("../rightsize/testdata/two-of-eight-l40s.csv")
	if err != nil {
		b.Fatal(err)
	}
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	mw.WriteField("offer", "aws/g6e.48xlarge/us-east-1/on-demand")
	fw, _ := mw.CreateFormFile("metrics_file", "gpu.csv")
	fw.Write(data)
	mw.Close()
	for _, c := range []struct{ name, method, url string }{
		{"claims", "GET", "/claims?lang=zh"},
		{"estimate-offer", "GET", "/estimate?job=transformer-train&params=7e9&tokens=1e12&offer=aws/p5.48xlarge/us-east-1/on-demand&instances=8&lang=en"},
		{"estimate-benchmark", "GET", "/estimate?job=bench:resnet50-train-throughput&gpu=A100-SXM-80GB&count=8&lang=en"},
		{"rightsize-upload", "POST", "/rightsize?lang=en"},
	} {
		b.Run(c.name, func(b *testing.B) {
			srv := newServer(&testing.T{})
			raw := 0
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				req := httptest.NewRequest(c.method, fmt.Sprintf("%s&nocache=%d", c.url, i), nil)
				if c.method == "POST" {
					req = httptest.NewRequest("POST", c.url, bytes.NewReader(form.Bytes()))
					req.Header.Set("Content-Type", mw.FormDataContentType())
				}
				rec := httptest.NewRecorder()
				srv.ServeHTTP(rec, req)
				if rec.Code != 200 {
					b.Fatalf("status %d", rec.Code)
				}
				raw = rec.Body.Len()
			}
			b.StopTimer()
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(raw), "html-bytes")
		})
	}
}
