package hyperstack

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/shopspring/decimal"
)

// flavorsAnswer is the flavors list (FlavorListResponse).
type flavorsAnswer struct {
	Status *bool        `json:"status"`
	Data   []flavorItem `json:"data"`
}

// flavorItem is one GPU model in one region (FlavorItemGetResponse).
type flavorItem struct {
	GPU        string   `json:"gpu"`
	RegionName string   `json:"region_name"`
	Flavors    []flavor `json:"flavors"`
}

// flavor is one flavor (FlavorFields): the fields read.
type flavor struct {
	Name           string      `json:"name"`
	RegionName     string      `json:"region_name"`
	CPU            json.Number `json:"cpu"`
	RAM            json.Number `json:"ram"`
	GPU            string      `json:"gpu"`
	GPUCount       json.Number `json:"gpu_count"`
	StockAvailable *bool       `json:"stock_available"`
}

// priceItem is one pricebook row (PricebookModel): the fields read. The
// value is a number in the reference; a quoted number is read too.
type priceItem struct {
	Name  string          `json:"name"`
	Value json.RawMessage `json:"value"`
}

// maxPerHour bounds a plausible flavor price: 1,000 USD an hour.
var maxPerHour = decimal.NewFromInt(1000)

const note = "Hyperstack Infrahub API: pricebook value of the flavor's GPU × gpu_count, on-demand; the flavor is listed in this region; the stock reading is its stock_available at the fetch"

func decodeStrict(b []byte, v any, field string) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return &importer.ParseError{Source: sourceName, Field: field, Err: err}
	}
	if err := importer.DecoderEnd(dec); err != nil {
		return &importer.ParseError{Source: sourceName, Field: field, Err: err}
	}
	return nil
}

// parse joins a flavors answer and a pricebook answer fetched at fetched;
// seen is when the readings were taken (zero: none kept).
func parse(flavorsBody, pricebookBody []byte, fetched, seen time.Time, ref string) (*importer.Result, error) {
	var fa flavorsAnswer
	if err := decodeStrict(flavorsBody, &fa, "data"); err != nil {
		return nil, err
	}
	if fa.Data == nil || fa.Status == nil || !*fa.Status {
		return nil, &importer.ParseError{Source: sourceName, Field: "data", Err: errors.New("no data list with status true: not a flavors answer")}
	}
	var pb []priceItem
	if err := decodeStrict(pricebookBody, &pb, "pricebook"); err != nil {
		return nil, err
	}
	prices := map[string]decimal.Decimal{}
	for _, p := range pb {
		v, err := decimal.NewFromString(strings.Trim(string(p.Value), `"`))
		if err == nil && v.IsPositive() && p.Name != "" {
			prices[p.Name] = v
		}
	}
	if len(prices) == 0 {
		return nil, &importer.ParseError{Source: sourceName, Field: "pricebook", Err: errors.New("no priced row: not a pricebook answer")}
	}
	res := &importer.Result{Source: sourceName}
	src := importer.Source(catalog.SourceOfficialAPI, ref, fetched, fetched)
	done := map[string]bool{}
	described := map[string]bool{}
	for _, g := range fa.Data {
		if g.GPU == "" {
			continue // CPU flavors
		}
		for _, f := range g.Flavors {
			region := f.RegionName
			if region == "" {
				region = g.RegionName
			}
			if !validName(f.Name) || !validName(region) {
				res.Skipped.Add("flavor or region name missing or malformed", f.Name)
				continue
			}
			key := f.Name + "/" + region
			if done[key] {
				res.Skipped.Add("flavor listed twice in a region", key)
				continue
			}
			done[key] = true
			gpu := f.GPU
			if gpu == "" {
				gpu = g.GPU
			}
			n, err := strconv.Atoi(string(f.GPUCount))
			if err != nil || n < 1 || n > 64 {
				res.Skipped.Add("no GPU count (gpu_count)", f.Name)
				continue
			}
			unit, ok := prices[gpu]
			if !ok {
				res.Skipped.Add("GPU not in the pricebook", f.Name+" ("+gpu+")")
				continue
			}
			hourly := unit.Mul(decimal.NewFromInt(int64(n)))
			if hourly.GreaterThan(maxPerHour) {
				res.Skipped.Add("price implausible", f.Name)
				continue
			}
			var st *catalog.Stock
			if !seen.IsZero() && f.StockAvailable != nil {
				state := catalog.StockNone
				if *f.StockAvailable {
					state = catalog.StockAvailable
				}
				st = &catalog.Stock{State: state, Seen: seen.UTC()}
			}
			res.Offers = append(res.Offers, &catalog.Offer{Provider: "hyperstack", InstanceName: f.Name, RegionCode: region, Billing: catalog.OnDemand,
				Price: catalog.Price{Hourly: hourly, Currency: "USD"}, Notes: fmt.Sprintf("%s (%s %s USD per GPU-hour × %d)", note, gpu, unit, n), Source: src, Stock: st})
			if !described[f.Name] {
				described[f.Name] = true
				res.Instances = append(res.Instances, &catalog.DiscoveredInstance{Provider: "hyperstack", Name: f.Name, GPUName: gpu,
					GPUCount: decimal.NewFromInt(int64(n)), VCPU: number(f.CPU), MemoryGiB: number(f.RAM), Source: src})
			}
		}
	}
	if len(done) == 0 {
		return nil, &importer.ParseError{Source: sourceName, Field: "data", Err: errors.New("the answer holds no GPU flavor")}
	}
	return res, nil
}

// validName: a flavor or region name as Hyperstack writes them (letters,
// digits, - _ .), at most 100 bytes.
func validName(s string) bool {
	if s == "" || len(s) > 100 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}

func number(n json.Number) decimal.Decimal {
	d, err := decimal.NewFromString(string(n))
	if err != nil || d.IsNegative() || d.GreaterThan(decimal.NewFromInt(1_000_000)) {
		return decimal.Zero
	}
	return d
}
