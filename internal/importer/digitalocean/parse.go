package digitalocean

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

// answer is one page of the sizes list.
type answer struct {
	Sizes []size `json:"sizes"`
}

// size is one Droplet size: the fields this importer reads, named as the
// reference and godo's Size name them.
type size struct {
	Slug        string      `json:"slug"`
	Memory      json.Number `json:"memory"` // MiB
	Vcpus       json.Number `json:"vcpus"`
	PriceHourly json.Number `json:"price_hourly"`
	Regions     []string    `json:"regions"`
	Available   *bool       `json:"available"`
	Description string      `json:"description"`
	GPUInfo     *struct {
		Count json.Number `json:"count"`
		VRAM  *struct {
			Amount json.Number `json:"amount"`
			Unit   string      `json:"unit"`
		} `json:"vram"`
		Model string `json:"model"`
	} `json:"gpu_info"`
}

// maxPerHour bounds a plausible price: 1,000 USD an hour.
var maxPerHour = decimal.NewFromInt(1000)

const note = "DigitalOcean API sizes list: price_hourly, on-demand; the size lists this region; the stock reading is the size's available flag at the fetch"

// parsePages reads the pages of one sizes listing fetched at fetched;
// seen is when its readings were taken (zero: none kept). A size on two
// pages is counted once.
func parsePages(pages [][]byte, fetched, seen time.Time, ref string) (*importer.Result, error) {
	res := &importer.Result{Source: sourceName}
	src := importer.Source(catalog.SourceOfficialAPI, ref, fetched, fetched)
	done := map[string]bool{}
	for n, body := range pages {
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		var a answer
		if err := dec.Decode(&a); err != nil {
			return nil, &importer.ParseError{Source: sourceName, Field: "sizes", Err: fmt.Errorf("page %d: not a sizes answer: %w", n+1, err)}
		}
		if err := importer.DecoderEnd(dec); err != nil {
			return nil, &importer.ParseError{Source: sourceName, Err: err}
		}
		if a.Sizes == nil {
			return nil, &importer.ParseError{Source: sourceName, Field: "sizes", Err: fmt.Errorf("page %d: no sizes list: not a sizes answer", n+1)}
		}
		for _, s := range a.Sizes {
			addSize(res, s, src, seen, done)
		}
	}
	if len(done) == 0 {
		return nil, &importer.ParseError{Source: sourceName, Field: "sizes", Err: errors.New("the listing holds no size")}
	}
	return res, nil
}

func addSize(res *importer.Result, s size, src catalog.Source, seen time.Time, done map[string]bool) {
	if !validSlug(s.Slug) {
		res.Skipped.Add("size slug missing or malformed", s.Slug)
		return
	}
	if done[s.Slug] {
		res.Skipped.Add("size listed twice", s.Slug)
		return
	}
	done[s.Slug] = true
	if s.GPUInfo == nil {
		res.Skipped.Add("no GPU (gpu_info)", s.Slug)
		return
	}
	gpus, err := strconv.Atoi(string(s.GPUInfo.Count))
	if err != nil || gpus < 1 || gpus > 64 {
		res.Skipped.Add("no GPU (gpu_info.count)", s.Slug)
		return
	}
	price, err := decimal.NewFromString(string(s.PriceHourly))
	if err != nil || !price.IsPositive() || price.GreaterThan(maxPerHour) {
		res.Skipped.Add("price_hourly missing or implausible", s.Slug)
		return
	}
	var st *catalog.Stock
	if !seen.IsZero() && s.Available != nil {
		state := catalog.StockNone
		if *s.Available {
			state = catalog.StockAvailable
		}
		st = &catalog.Stock{State: state, Seen: seen.UTC()}
	}
	regions := map[string]bool{}
	for _, r := range s.Regions {
		if !validSlug(r) || regions[r] {
			res.Skipped.Add("region slug missing, malformed or repeated", s.Slug)
			continue
		}
		regions[r] = true
		var reading *catalog.Stock
		if st != nil {
			c := *st
			reading = &c
		}
		res.Offers = append(res.Offers, &catalog.Offer{Provider: "digitalocean", InstanceName: s.Slug, RegionCode: r, Billing: catalog.OnDemand,
			Price: catalog.Price{Hourly: price, Currency: "USD"}, Notes: note, Source: src, Stock: reading})
	}
	if len(regions) == 0 {
		res.Skipped.Add("no region listed", s.Slug)
	}
	count := decimal.NewFromInt(int64(gpus))
	var mem decimal.Decimal
	if v := s.GPUInfo.VRAM; v != nil && strings.EqualFold(v.Unit, "gib") {
		if total, err := decimal.NewFromString(string(v.Amount)); err == nil && total.IsPositive() && total.LessThan(decimal.NewFromInt(100000)) {
			mem = total.Div(count)
		}
	}
	res.Instances = append(res.Instances, &catalog.DiscoveredInstance{Provider: "digitalocean", Name: s.Slug, GPUName: gpuName(s.GPUInfo.Model),
		GPUCount: count, GPUMemoryGiB: mem, VCPU: number(s.Vcpus), MemoryGiB: number(s.Memory).Div(decimal.NewFromInt(1024)), Source: src})
}

// gpuName is the GPU of gpu_info.model ("nvidia_h100": "H100").
func gpuName(model string) string {
	for _, p := range []string{"nvidia_", "amd_"} {
		model = strings.TrimPrefix(model, p)
	}
	return strings.ToUpper(strings.ReplaceAll(model, "_", " "))
}

// validSlug: a size or region slug as DigitalOcean writes them (lower-case
// letters, digits, -), at most 100 bytes.
func validSlug(s string) bool {
	if s == "" || len(s) > 100 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// number is a spec figure, zero when absent or implausible.
func number(n json.Number) decimal.Decimal {
	d, err := decimal.NewFromString(string(n))
	if err != nil || d.IsNegative() || d.GreaterThan(decimal.NewFromInt(100_000_000)) {
		return decimal.Zero
	}
	return d
}
