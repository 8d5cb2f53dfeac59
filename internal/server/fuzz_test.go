package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/catalog/catalogtest"
	"github.com/gpuscout/gpuscout/internal/fx"
	"github.com/gpuscout/gpuscout/internal/perf"
	"github.com/gpuscout/gpuscout/internal/pricing"
	"github.com/gpuscout/gpuscout/internal/server"
	"github.com/gpuscout/gpuscout/internal/spot"
)

// loadFixture serves the small fixture catalog, so that a fuzz run spends
// its time on the request, not on ranking hundreds of offers.
func loadFixture(context.Context) (*server.Data, error) {
	return fixtureData(catalogtest.Data())
}

// fixtureData serves catalog data d with a USD/CNY exchange table, the
// performance model and the pricing engine.
func fixtureData(d catalog.Data) (*server.Data, error) {
	c, err := catalog.New(d)
	if err != nil {
		return nil, err
	}
	rates, err := fx.New([]fx.Rate{{Currency: "USD", PerUSD: decimal.NewFromInt(1), AsOf: now, Source: "fixture"},
		{Currency: "CNY", PerUSD: decimal.NewFromInt(7), AsOf: now, Source: "fixture"}})
	if err != nil {
		return nil, err
	}
	m, _, err := perf.New(c)
	if err != nil {
		return nil, err
	}
	return &server.Data{Catalog: c, FX: rates, Perf: m, Pricing: &pricing.Engine{Prices: c, FX: rates, Spot: spot.CostHook{Facts: c}}}, nil
}

// FuzzRecommendBody posts arbitrary bodies to POST /api/v1/recommend. The
// server must never panic nor blame itself for a body: every answer is
// JSON, 200 with a recommendation or 400/413/422 with an error code and
// message.
func FuzzRecommendBody(f *testing.F) {
	examples, _ := filepath.Glob("../../examples/*.yaml")
	for _, p := range examples {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"workload":{"inference":{"params":7e9,"tokens_per_second":1000}},"horizon_months":12,"currency":"CNY"}`))
	f.Add([]byte(`{"workload":{"job":{"kind":"transformer-train","params":7e9,"tokens":1e12}},"gpu":{"min_gpus":100000}}`))
	f.Add([]byte("workload:\n  gpu_hours: 100\n  gpu_hours_on: A100\ndeadline_hours: 1e308\n"))
	f.Add([]byte("workload: [unclosed"))
	f.Add([]byte("a: &a [*a, *a, *a]\n"))
	srv, err := server.New(context.Background(), server.Config{Load: loadFixture, Now: func() time.Time { return now }, MaxBody: 64 << 10})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req := httptest.NewRequest("POST", "/api/v1/recommend", bytes.NewReader(body))
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		var doc struct {
			Schema string `json:"schema"`
			Error  *struct {
				Code, Message string
			} `json:"error"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
			t.Fatalf("status %d: body is not JSON: %v\n%.300s", rec.Code, err, rec.Body)
		}
		switch rec.Code {
		case http.StatusOK:
			if doc.Schema == "" {
				t.Fatalf("200 without a schema: %.300s", rec.Body)
			}
		case http.StatusBadRequest, http.StatusRequestEntityTooLarge, http.StatusUnprocessableEntity:
			if doc.Error == nil || doc.Error.Code == "" || doc.Error.Message == "" {
				t.Fatalf("status %d without an error code and message: %.300s", rec.Code, rec.Body)
			}
		default:
			t.Fatalf("status %d for a request body: %.500s\nbody: %q", rec.Code, rec.Body, body)
		}
	})
}
