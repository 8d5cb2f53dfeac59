package vast

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/golden"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/gpuscout/gpuscout/internal/importer/httpapi"
	"github.com/gpuscout/gpuscout/internal/importer/importertest"
)

var seen = time.Date(2026, 12, 6, 5, 0, 0, 0, time.UTC)

const key = "vast_secret_key_0123456789abcdef"

func render(res *importer.Result) string {
	var lines []string
	for _, o := range res.Offers {
		st := "no reading"
		if o.Stock != nil {
			st = string(o.Stock.State) + " seen " + o.Stock.Seen.Format(time.RFC3339)
		}
		lines = append(lines, fmt.Sprintf("offer %s %s %s; %s; %s", o.ID(), o.Price.Hourly, o.Price.Currency, st, o.Notes))
	}
	sort.Strings(lines)
	for _, it := range res.Instances {
		lines = append(lines, fmt.Sprintf("instance %s: %s× %s (%s GB)", it.ID(), it.GPUCount, it.GPUName, it.GPUMemoryGiB))
	}
	for _, l := range res.Skipped.Lines() {
		lines = append(lines, "skipped "+l)
	}
	return strings.Join(lines, "\n") + "\n"
}

// TestRecordedAnswer: each GPU model and count in each country becomes
// one offer at its cheapest asking price, seen available (an offer
// existing is the reading), in the catalog's name pattern; rented,
// countryless, unpriced and unnamed offers are skipped and counted.
func TestRecordedAnswer(t *testing.T) {
	b, err := os.ReadFile("testdata/market/answer.json")
	if err != nil {
		t.Fatal(err)
	}
	res, err := (&Importer{Seen: seen}).Parse(context.Background(), bytes.NewReader(b), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := render(res)
	path := "testdata/market/golden.txt"
	golden.Assert(t, path, got)
}

// TestRequestMatchesOfficialClient: the search goes where Vast's CLI
// sends it, with the CLI's default filters and members, public (no
// Authorization) without a key and Bearer with one.
func TestRequestMatchesOfficialClient(t *testing.T) {
	var oc struct {
		URL, Method  string
		DefaultQuery map[string]any `json:"default_query"`
		QueryMembers []string       `json:"query_members"`
		Storage      float64        `json:"default_storage_gb"`
		AuthHeader   string         `json:"auth_header"`
	}
	b, err := os.ReadFile("testdata/official-client.json")
	if err != nil || json.Unmarshal(b, &oc) != nil {
		t.Fatalf("official client notes: %v", err)
	}
	answer, _ := os.ReadFile("testdata/market/answer.json")
	for _, apiKey := range []string{"", key} {
		s := &httpapi.Stub{}
		s.Reply("POST", Path, 200, answer)
		res, err := (&Importer{APIKey: apiKey, Now: func() time.Time { return seen }}).Fetch(context.Background(), s.Client(), nil)
		if err != nil || len(res.Offers) == 0 {
			t.Fatalf("fetch: %v", err)
		}
		if u := s.Unused(); len(u) > 0 {
			t.Errorf("stubs never used: %v", u)
		}
		req := s.Requests[0]
		if req.Method != oc.Method || req.URL.String() != oc.URL {
			t.Errorf("request %s %s, the CLI sends %s %s", req.Method, req.URL, oc.Method, oc.URL)
		}
		var body map[string]any
		if err := json.Unmarshal(req.Body, &body); err != nil {
			t.Fatal(err)
		}
		for k, v := range oc.DefaultQuery {
			if !reflect.DeepEqual(body[k], v) {
				t.Errorf("filter %s = %v, the CLI's default is %v", k, body[k], v)
			}
		}
		for _, k := range oc.QueryMembers {
			if _, ok := body[k]; !ok {
				t.Errorf("no %s member", k)
			}
		}
		if body["allocated_storage"] != oc.Storage || body["type"] != "on-demand" {
			t.Errorf("storage %v, type %v", body["allocated_storage"], body["type"])
		}
		wantAuth := ""
		if apiKey != "" {
			wantAuth = strings.ReplaceAll(oc.AuthHeader, "{api_key}", apiKey)
		}
		if req.Header.Get("Authorization") != wantAuth {
			t.Errorf("Authorization %q, want %q", req.Header.Get("Authorization"), wantAuth)
		}
		for _, o := range res.Offers {
			if o.Stock == nil || !o.Stock.Seen.Equal(seen) {
				t.Errorf("%s: reading %+v, want available seen at the fetch", o.ID(), o.Stock)
			}
		}
	}
}

// A refused key stops at once with Vast's message, the key never in the
// error.
func TestRefusedKey(t *testing.T) {
	s := &httpapi.Stub{}
	b, _ := os.ReadFile("testdata/refused/answer.json")
	s.Reply("POST", Path, 401, bytes.Replace(b, []byte("Invalid user key"), []byte("Invalid user key "+key), 1))
	_, err := (&Importer{APIKey: key, Now: func() time.Time { return seen }}).Fetch(context.Background(), s.Client(), nil)
	var ae *importer.APIError
	if !errors.As(err, &ae) || !ae.Fatal() || ae.Code != "invalid_api_key" || len(s.Requests) != 1 {
		t.Fatalf("err %v after %d requests", err, len(s.Requests))
	}
	if strings.Contains(err.Error(), key) {
		t.Errorf("key in the error: %v", err)
	}
}

func TestNotAnAnswer(t *testing.T) {
	for _, body := range []string{``, `[]`, `{}`, `{"offers": null}`, `{"offers": []} x`, `<html>`} {
		if _, err := (&Importer{Seen: seen}).Parse(context.Background(), strings.NewReader(body), nil); err == nil {
			t.Errorf("%q parsed", body)
		}
	}
}

// FuzzParse: any bytes give offers or an error, never a panic; every
// offer is positive, plausible, in a two-letter country.
func FuzzParse(f *testing.F) {
	for _, dir := range []string{"market", "refused"} {
		b, _ := os.ReadFile(filepath.Join("testdata", dir, "answer.json"))
		for _, s := range importertest.Seeds(b, "offers") {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		res, err := parse(b, seen, seen, DefaultBase+Path)
		if err != nil {
			return
		}
		for _, o := range res.Offers {
			if !o.Price.Hourly.IsPositive() || o.Price.Hourly.GreaterThan(maxPerHour) || len(o.RegionCode) != 2 {
				t.Fatalf("offer %s %s", o.ID(), o.Price.Hourly)
			}
		}
	})
}
