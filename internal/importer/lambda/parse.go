package lambda

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

// answer is the instance types answer (the reference's InstanceTypes in
// its data envelope).
type answer struct {
	Data map[string]item `json:"data"`
}

type item struct {
	InstanceType *instanceType `json:"instance_type"`
	Regions      []region      `json:"regions_with_capacity_available"`
}

type instanceType struct {
	Name           string `json:"name"`
	Description    string `json:"description"`
	GPUDescription string `json:"gpu_description"`
	// PriceCents is an integer in the reference; a number keeps a
	// fraction visible instead of failing the whole answer.
	PriceCents json.Number `json:"price_cents_per_hour"`
	Specs      struct {
		VCPUs      json.Number `json:"vcpus"`
		MemoryGiB  json.Number `json:"memory_gib"`
		StorageGiB json.Number `json:"storage_gib"`
		GPUs       json.Number `json:"gpus"`
	} `json:"specs"`
}

type region struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// maxCentsPerHour bounds a plausible price: 100,000 USD an hour is far
// above any instance Lambda sells.
const maxCentsPerHour = 10_000_000

// notes say what an offer's price and reading rest on.
const (
	noteRegion = "Lambda Cloud API instance-types: price_cents_per_hour / 100, one on-demand price in every region; this region was listed in regions_with_capacity_available at the fetch"
	noteAny    = "Lambda Cloud API instance-types: price_cents_per_hour / 100, one on-demand price in every region; any Lambda region: the stock reading is whether regions_with_capacity_available listed any region at the fetch"
)

// parse reads an instance types answer fetched at fetched; seen is when
// its capacity readings were taken (zero: none kept). ref names the
// endpoint in each offer's source.
func parse(body []byte, anyRegion string, fetched, seen time.Time, ref string) (*importer.Result, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var a answer
	if err := dec.Decode(&a); err != nil {
		return nil, &importer.ParseError{Source: sourceName, Field: "data", Err: fmt.Errorf("not an instance-types answer: %w", err)}
	}
	if err := importer.DecoderEnd(dec); err != nil {
		return nil, &importer.ParseError{Source: sourceName, Err: err}
	}
	if a.Data == nil {
		return nil, &importer.ParseError{Source: sourceName, Field: "data", Err: errors.New("no data object: not an instance-types answer")}
	}
	res := &importer.Result{Source: sourceName, ListsCapacity: true}
	src := importer.Source(catalog.SourceOfficialAPI, ref, fetched, fetched)
	keys := make([]string, 0, len(a.Data))
	for k := range a.Data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	stock := func(st catalog.StockState) *catalog.Stock {
		if seen.IsZero() {
			return nil
		}
		return &catalog.Stock{State: st, Seen: seen.UTC()}
	}
	for _, key := range keys {
		it := a.Data[key].InstanceType
		if it == nil {
			res.Skipped.Add("no instance_type object", key)
			continue
		}
		name := it.Name
		if name == "" {
			name = key
		}
		if name != key || !validName(name) {
			res.Skipped.Add("instance type name missing, malformed or not its key", key)
			continue
		}
		cents, err := strconv.ParseInt(string(it.PriceCents), 10, 64)
		if err != nil || cents <= 0 || cents > maxCentsPerHour {
			res.Skipped.Add("price_cents_per_hour missing, not a whole number of cents or implausible", name)
			continue
		}
		gpus, err := strconv.Atoi(string(it.Specs.GPUs))
		if err != nil || gpus < 1 || gpus > 64 {
			res.Skipped.Add("no GPU (specs.gpus)", name)
			continue
		}
		price := catalog.Price{Hourly: decimal.New(cents, -2), Currency: "USD"}
		offer := func(regionCode, notes string, st *catalog.Stock) *catalog.Offer {
			return &catalog.Offer{Provider: "lambda", InstanceName: name, RegionCode: regionCode, Billing: catalog.OnDemand,
				Price: price, Notes: notes, Source: src, Stock: st}
		}
		seenRegion := map[string]bool{}
		for _, r := range a.Data[key].Regions {
			if !validName(r.Name) || seenRegion[r.Name] {
				res.Skipped.Add("region name missing, malformed or repeated", name)
				continue
			}
			seenRegion[r.Name] = true
			res.Offers = append(res.Offers, offer(r.Name, noteRegion, stock(catalog.StockAvailable)))
		}
		if anyRegion != "" && !seenRegion[anyRegion] {
			st := catalog.StockNone
			if len(seenRegion) > 0 {
				st = catalog.StockAvailable
			}
			res.Offers = append(res.Offers, offer(anyRegion, noteAny, stock(st)))
		} else if len(seenRegion) == 0 {
			res.Skipped.Add("no region with capacity now and no any-region row to price it in", name)
		}
		gpuName, mem := gpuOf(it.GPUDescription)
		res.Instances = append(res.Instances, &catalog.DiscoveredInstance{Provider: "lambda", Name: name, GPUName: gpuName,
			GPUCount: decimal.NewFromInt(int64(gpus)), GPUMemoryGiB: mem, VCPU: number(it.Specs.VCPUs), MemoryGiB: number(it.Specs.MemoryGiB), Source: src})
	}
	return res, nil
}

// validName: an instance type or region code as Lambda writes them
// (letters, digits, _ - .), at most 100 bytes.
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

// gpuOf reads gpu_description, "H100 (80 GB SXM5)": the GPU name with its
// form factor ("H100 SXM5") and the memory of one GPU (80), zero when the
// description gives none.
func gpuOf(desc string) (string, decimal.Decimal) {
	name, rest, ok := strings.Cut(desc, "(")
	name = strings.TrimSpace(name)
	if !ok {
		return name, decimal.Zero
	}
	rest = strings.TrimSuffix(strings.TrimSpace(rest), ")")
	fields := strings.Fields(rest)
	if len(fields) >= 2 && strings.EqualFold(fields[1], "GB") {
		if gb, err := decimal.NewFromString(fields[0]); err == nil && gb.IsPositive() && gb.LessThan(decimal.NewFromInt(10000)) {
			if len(fields) > 2 {
				name += " " + strings.Join(fields[2:], " ")
			}
			return name, gb
		}
	}
	return name, decimal.Zero
}

// number is a spec figure, zero when absent or not a plausible number.
func number(n json.Number) decimal.Decimal {
	d, err := decimal.NewFromString(string(n))
	if err != nil || d.IsNegative() || d.GreaterThan(decimal.NewFromInt(1_000_000)) {
		return decimal.Zero
	}
	return d
}
