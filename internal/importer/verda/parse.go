package verda

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/shopspring/decimal"
)

// instanceType is one instance type: the fields read, named as the SDK
// reads them.
type instanceType struct {
	InstanceType string          `json:"instance_type"`
	PricePerHour json.RawMessage `json:"price_per_hour"`
	SpotPrice    json.RawMessage `json:"spot_price"`
	Description  string          `json:"description"`
	CPU          struct {
		NumberOfCores json.Number `json:"number_of_cores"`
	} `json:"cpu"`
	GPU struct {
		Description  string      `json:"description"`
		NumberOfGPUs json.Number `json:"number_of_gpus"`
	} `json:"gpu"`
	Memory struct {
		SizeInGigabytes json.Number `json:"size_in_gigabytes"`
	} `json:"memory"`
	GPUMemory struct {
		SizeInGigabytes json.Number `json:"size_in_gigabytes"`
	} `json:"gpu_memory"`
}

// location is one location's availability.
type location struct {
	LocationCode   string   `json:"location_code"`
	Availabilities []string `json:"availabilities"`
}

// maxPerHour bounds a plausible price: 1,000 USD an hour.
var maxPerHour = decimal.NewFromInt(1000)

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

// price reads a price written as a decimal string or a number.
func price(raw json.RawMessage) (decimal.Decimal, bool) {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		s = string(raw)
	}
	d, err := decimal.NewFromString(s)
	return d, err == nil && d.IsPositive() && !d.GreaterThan(maxPerHour)
}

// availableAt is type → locations listing it.
func availableAt(b []byte, field string) (map[string][]string, error) {
	var locs []location
	if err := decodeStrict(b, &locs, field); err != nil {
		return nil, err
	}
	if locs == nil {
		return nil, &importer.ParseError{Source: sourceName, Field: field, Err: errors.New("not an availability list")}
	}
	out := map[string][]string{}
	for _, l := range locs {
		if !validName(l.LocationCode) {
			continue
		}
		for _, t := range l.Availabilities {
			out[t] = append(out[t], l.LocationCode)
		}
	}
	for t := range out {
		sort.Strings(out[t])
	}
	return out, nil
}

// parse joins the types and the two availabilities fetched at fetched;
// seen is when the readings were taken (zero: none kept).
func parse(typesBody, availBody, spotBody []byte, fetched, seen time.Time, ref string) (*importer.Result, error) {
	var types []instanceType
	if err := decodeStrict(typesBody, &types, "instance_types"); err != nil {
		return nil, err
	}
	if len(types) == 0 {
		return nil, &importer.ParseError{Source: sourceName, Field: "instance_types", Err: errors.New("no instance type: not an instance-types answer")}
	}
	onDemand, err := availableAt(availBody, "availability")
	if err != nil {
		return nil, err
	}
	spot, err := availableAt(spotBody, "spot_availability")
	if err != nil {
		return nil, err
	}
	// Offers are listed only where a location has the type available now.
	res := &importer.Result{Source: sourceName, ListsCapacity: true}
	src := importer.Source(catalog.SourceOfficialAPI, ref, fetched, fetched)
	reading := func() *catalog.Stock {
		if seen.IsZero() {
			return nil
		}
		return &catalog.Stock{State: catalog.StockAvailable, Seen: seen.UTC()}
	}
	done := map[string]bool{}
	for _, t := range types {
		name := t.InstanceType
		if !validName(name) || done[name] {
			res.Skipped.Add("instance type missing, malformed or repeated", name)
			continue
		}
		done[name] = true
		gpus, err := strconv.Atoi(string(t.GPU.NumberOfGPUs))
		if err != nil || gpus < 1 || gpus > 64 {
			res.Skipped.Add("no GPU (gpu.number_of_gpus)", name)
			continue
		}
		od, ok := price(t.PricePerHour)
		if !ok {
			res.Skipped.Add("price_per_hour missing or implausible", name)
			continue
		}
		locs := onDemand[name]
		for _, loc := range locs {
			res.Offers = append(res.Offers, &catalog.Offer{Provider: "verda", InstanceName: name, RegionCode: loc, Billing: catalog.OnDemand,
				Price: catalog.Price{Hourly: od, Currency: "USD"}, Source: src, Stock: reading(),
				Notes: "Verda public API: price_per_hour, on-demand; instance-availability (isSpot=false) listed this location at the fetch"})
		}
		if sp, ok := price(t.SpotPrice); ok && sp.LessThan(od) {
			for _, loc := range spot[name] {
				res.Offers = append(res.Offers, &catalog.Offer{Provider: "verda", InstanceName: name, RegionCode: loc, Billing: catalog.Spot,
					Price: catalog.Price{Hourly: sp, Currency: "USD"}, Source: src, Stock: reading(),
					Notes: fmt.Sprintf("Verda public API: spot_price (on-demand %s), spot; instance-availability (isSpot=true) listed this location at the fetch", od)})
			}
		}
		if len(locs) == 0 && len(spot[name]) == 0 {
			res.Skipped.Add("no location lists the type available now", name)
		}
		var mem decimal.Decimal
		if total, err := decimal.NewFromString(string(t.GPUMemory.SizeInGigabytes)); err == nil && total.IsPositive() && total.LessThan(decimal.NewFromInt(100000)) {
			mem = total.Div(decimal.NewFromInt(int64(gpus)))
		}
		gpuName := t.GPU.Description
		if n, rest, ok := strings.Cut(gpuName, "x "); ok && n == strconv.Itoa(gpus) {
			gpuName = rest // "1x H100 SXM5 80GB": the count is GPUCount
		}
		res.Instances = append(res.Instances, &catalog.DiscoveredInstance{Provider: "verda", Name: name, GPUName: gpuName,
			GPUCount: decimal.NewFromInt(int64(gpus)), GPUMemoryGiB: mem, VCPU: number(t.CPU.NumberOfCores), MemoryGiB: number(t.Memory.SizeInGigabytes), Source: src})
	}
	return res, nil
}

// validName: an instance type or location code as Verda writes them
// (letters, digits, . - _), at most 100 bytes.
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
