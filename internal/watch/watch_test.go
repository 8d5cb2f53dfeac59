package watch_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/watch"
	"github.com/shopspring/decimal"
)

func d(s string) *decimal.Decimal {
	v := decimal.RequireFromString(s)
	return &v
}

// prices is a one-offer price source.
type prices map[string]*catalog.Offer

func (p prices) Offer(id string) (*catalog.Offer, bool) { o, ok := p[id]; return o, ok }

// cny converts at 7 CNY per USD.
type cny struct{}

func (cny) Convert(a decimal.Decimal, from, to string) (decimal.Decimal, error) {
	switch {
	case from == "USD" && to == "CNY":
		return a.Mul(decimal.NewFromInt(7)), nil
	case from == "CNY" && to == "USD":
		return a.Div(decimal.NewFromInt(7)), nil
	}
	return decimal.Zero, errors.New("no rate")
}

func offer(hourly string) *catalog.Offer {
	return &catalog.Offer{Provider: "aws", InstanceName: "p5.48xlarge", RegionCode: "us-east-1", Billing: catalog.OnDemand,
		Price:    catalog.Price{Hourly: decimal.RequireFromString(hourly), Currency: "USD"},
		Source:   catalog.Source{Kind: catalog.SourceOfficialAPI, Ref: "test", AsOf: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)},
		Instance: &catalog.InstanceType{Provider: "aws", Name: "p5.48xlarge", GPUCount: decimal.NewFromInt(8)}}
}

const id = "aws/p5.48xlarge/us-east-1/on-demand"

func TestEvaluate(t *testing.T) {
	tests := []struct {
		name, price string
		rule        watch.Rule
		fired       bool
		cond, value string
	}{
		{"below, crossed", "49.5", watch.Rule{Offer: id, Below: d("50")}, true, "below", "49.5"},
		{"below, other side", "55.04", watch.Rule{Offer: id, Below: d("50")}, false, "", "55.04"},
		{"below, equal does not fire", "50", watch.Rule{Offer: id, Below: d("50")}, false, "", "50"},
		{"above, crossed", "55.04", watch.Rule{Offer: id, Above: d("55")}, true, "above", "55.04"},
		{"band, inside", "52", watch.Rule{Offer: id, Below: d("50"), Above: d("55")}, false, "", "52"},
		{"band, above", "56", watch.Rule{Offer: id, Below: d("50"), Above: d("55")}, true, "above", "56"},
		{"per GPU-hour", "40", watch.Rule{Offer: id, Below: d("6"), Per: catalog.PerGPUHour}, true, "below", "5"},
		{"per month", "10", watch.Rule{Offer: id, Above: d("7000"), Per: catalog.PerMonth}, true, "above", "7300"},
		{"in CNY", "10", watch.Rule{Offer: id, Below: d("71"), Currency: "cny"}, true, "below", "70"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := watch.Check([]watch.Rule{tt.rule}, prices{id: offer(tt.price)}, cny{})
			if err != nil {
				t.Fatal(err)
			}
			r := res[0]
			if r.Fired != tt.fired || r.Condition != tt.cond || !r.Price.Equal(decimal.RequireFromString(tt.value)) {
				t.Errorf("fired %v %q at %s, want %v %q at %s", r.Fired, r.Condition, r.Price, tt.fired, tt.cond, tt.value)
			}
		})
	}
	if _, err := watch.Check([]watch.Rule{{Offer: "aws/x/y/on-demand", Below: d("1")}}, prices{}, cny{}); err == nil {
		t.Error("unknown offer accepted")
	}
}

func TestReadRules(t *testing.T) {
	rules, err := watch.ReadRules(strings.NewReader(`currency: CNY
webhook: https://hooks.example.com/a
rules:
  - offer: tencent/GT4.4XLARGE96/ap-guangzhou/subscription-1m
    below: 12000.50
    per: month
  - offer: aws/p5.48xlarge/us-east-1/on-demand
    above: 60
    currency: usd
    webhook: http://localhost:9/b
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) != 2 || rules[0].Currency != "CNY" || rules[0].Webhook != "https://hooks.example.com/a" || rules[0].Per != catalog.PerMonth ||
		!rules[0].Below.Equal(decimal.RequireFromString("12000.50")) || rules[0].Line != 4 ||
		rules[1].Currency != "USD" || rules[1].Webhook != "http://localhost:9/b" || rules[1].Per != catalog.PerInstanceHour || rules[1].Below != nil {
		t.Errorf("rules %+v", rules)
	}
	// A bare list.
	if rules, err := watch.ReadRules(strings.NewReader("- offer: a/b/c/spot\n  below: 1\n")); err != nil || len(rules) != 1 {
		t.Errorf("list: %v %v", rules, err)
	}
	for _, tt := range []struct{ src, want string }{
		{"", "no rules"},
		{"rules: []\n", "no rules"},
		{"rules:\n  - offer: a/b/c/d\n    below: cheap\n", `line 3: "cheap" is not a number`},
		{"rules:\n  - offer: a/b/c/d\n    below: 1\n    bellow: 2\n", "line 4: field bellow not found"},
		{"rulez: []\n", "line 1: field rulez not found"},
		{"rules:\n  - offer: a/b/c/d\n", "line 2: rules[0]: set below, above or both"},
		{"rules:\n  - below: 3\n", "offer: an offer ID is required"},
		{"rules:\n  - offer: a/b/c/d\n    below: -1\n", "below: -1 is negative"},
		{"rules:\n  - offer: a/b/c/d\n    below: 1\n    per: year\n", "per:"},
		{"rules:\n  - offer: a/b/c/d\n    below: 1\n    webhook: hooks.example.com\n", "not an http or https URL"},
		{"just text\n", "want a mapping"},
	} {
		_, err := watch.ReadRules(strings.NewReader(tt.src))
		var fe *watch.FileError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want %q", tt.src, err, tt.want)
		}
	}
}

func TestPost(t *testing.T) {
	var got watch.Alert
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(b, &got); err != nil {
			t.Error(err)
		}
	}))
	defer srv.Close()
	res, err := watch.Check([]watch.Rule{{Offer: id, Below: d("50")}}, prices{id: offer("49.5")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a := res[0].Alert(time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC))
	if err := watch.Post(context.Background(), &http.Client{Timeout: 5 * time.Second}, srv.URL, a); err != nil {
		t.Fatal(err)
	}
	if got.Schema != watch.Schema || got.Offer != id || got.Price.String() != "49.5" || got.Threshold.String() != "50" ||
		got.Condition != "below" || got.Source.AsOf != "2026-11-01" || got.CheckedAt != "2026-12-02T09:00:00Z" {
		t.Errorf("payload %+v", got)
	}

	// A webhook that hangs is cut off by the client's timeout.
	block := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-block }))
	defer slow.Close()
	defer close(block)
	start := time.Now()
	if err := watch.Post(context.Background(), &http.Client{Timeout: 100 * time.Millisecond}, slow.URL, a); err == nil {
		t.Error("a hanging webhook did not time out")
	}
	if time.Since(start) > 5*time.Second {
		t.Error("timeout not applied")
	}
}
