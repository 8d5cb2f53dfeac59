package server_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// "How fast is BERT pre-training on 32 A100s in 4 nodes?" through the API:
// between NVIDIA's published 16- and 64-GPU results, and --fabric's values
// as a query parameter.
func TestAPIEstimateMultiNode(t *testing.T) {
	srv := newServer(t)
	base := "/api/v1/estimate?benchmark=bert-large-pretrain-seq128-throughput&gpu=A100-SXM-80GB&count=32&nodes=4&precision=fp16"
	rec := get(t, srv, base)
	var doc struct {
		Throughput struct {
			Value float64 `json:"value"`
		} `json:"throughput"`
		Confidence string `json:"confidence"`
	}
	if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &doc) != nil {
		t.Fatalf("status %d: %.300s", rec.Code, rec.Body.String())
	}
	if doc.Throughput.Value < 35774.0/2 || doc.Throughput.Value > 2*9191 || doc.Confidence != "same-gpu-interpolated" {
		t.Errorf("32 GPUs: %.0f sequences/s (%s), want between 17,887 and 18,382, interpolated", doc.Throughput.Value, doc.Confidence)
	}
	tcp := get(t, srv, base+"&fabric=tcp")
	if json.Unmarshal(tcp.Body.Bytes(), &doc) != nil || tcp.Code != 200 || doc.Throughput.Value > 9191 {
		t.Errorf("fabric=tcp: status %d, %.0f sequences/s, want the TCP model's figure (below the 16-GPU result)", tcp.Code, doc.Throughput.Value)
	}
	bad := get(t, srv, base+"&fabric=myrinet")
	if bad.Code != 400 || !strings.Contains(bad.Body.String(), "tcp, efa, infiniband, roce, erdma") {
		t.Errorf("fabric=myrinet: status %d, %.300s", bad.Code, bad.Body.String())
	}
}
