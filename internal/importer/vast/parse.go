package vast

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/shopspring/decimal"
)

// answer is the search's answer: {"offers": [...]}.
type answer struct {
	Offers []offer `json:"offers"`
}

// offer is one host's offer: the fields this importer reads.
type offer struct {
	ID          json.Number `json:"id"`
	NumGPUs     json.Number `json:"num_gpus"`
	GPUName     string      `json:"gpu_name"`
	GPURAM      json.Number `json:"gpu_ram"` // MB per GPU
	DPHTotal    json.Number `json:"dph_total"`
	Geolocation string      `json:"geolocation"`
	Rentable    *bool       `json:"rentable"`
	Rented      *bool       `json:"rented"`
}

// maxPerHour bounds a plausible asking price: 1,000 USD an hour.
var maxPerHour = decimal.NewFromInt(1000)

// group is the offers of one GPU model and count in one country.
type group struct {
	name, gpu, country string
	count              int64
	mem                decimal.Decimal
	low, high          decimal.Decimal
	n                  int
}

// parse reads a search answer fetched at fetched (seen: when the offers
// were seen; zero drops the readings).
func parse(body []byte, fetched, seen time.Time, ref string) (*importer.Result, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var a answer
	if err := dec.Decode(&a); err != nil {
		return nil, &importer.ParseError{Source: sourceName, Field: "offers", Err: fmt.Errorf("not an offer search answer: %w", err)}
	}
	if err := importer.DecoderEnd(dec); err != nil {
		return nil, &importer.ParseError{Source: sourceName, Err: err}
	}
	if a.Offers == nil {
		return nil, &importer.ParseError{Source: sourceName, Field: "offers", Err: errors.New("no offers list: not an offer search answer")}
	}
	res := &importer.Result{Source: sourceName, ListsCapacity: true}
	groups := map[string]*group{}
	for k, o := range a.Offers {
		ex := fmt.Sprintf("offer %s", o.ID)
		if o.ID == "" {
			ex = fmt.Sprintf("item %d", k)
		}
		if (o.Rentable != nil && !*o.Rentable) || (o.Rented != nil && *o.Rented) {
			res.Skipped.Add("not rentable now", ex)
			continue
		}
		n, err := o.NumGPUs.Int64()
		if err != nil || n < 1 || n > 64 {
			res.Skipped.Add("GPU count missing or implausible", ex)
			continue
		}
		gpu := strings.Join(strings.Fields(o.GPUName), " ")
		key := strings.ReplaceAll(gpu, " ", "_")
		if gpu == "" || len(gpu) > 60 || !plain(key) {
			res.Skipped.Add("GPU model missing or malformed", ex)
			continue
		}
		country := countryOf(o.Geolocation)
		if country == "" {
			res.Skipped.Add("no country code in geolocation", ex)
			continue
		}
		price, err := decimal.NewFromString(string(o.DPHTotal))
		if err != nil || !price.IsPositive() || price.GreaterThan(maxPerHour) {
			res.Skipped.Add("dph_total missing or implausible", ex)
			continue
		}
		name := fmt.Sprintf("%dx-%s-32-65536", n, key)
		g := groups[name+"/"+country]
		if g == nil {
			mem := decimal.Zero
			if mb, err := decimal.NewFromString(string(o.GPURAM)); err == nil && mb.IsPositive() && mb.LessThan(decimal.NewFromInt(10_000_000)) {
				mem = mb.Div(decimal.NewFromInt(1024)).Round(0)
			}
			g = &group{name: name, gpu: gpu, country: country, count: n, mem: mem, low: price, high: price}
			groups[name+"/"+country] = g
		}
		g.n++
		if price.LessThan(g.low) {
			g.low = price
		}
		if price.GreaterThan(g.high) {
			g.high = price
		}
	}
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	src := importer.Source(catalog.SourceOfficialAPI, ref, fetched, fetched)
	described := map[string]bool{}
	for _, k := range keys {
		g := groups[k]
		var st *catalog.Stock
		if !seen.IsZero() {
			st = &catalog.Stock{State: catalog.StockAvailable, Seen: seen.UTC()}
		}
		notes := fmt.Sprintf("MARKETPLACE: the cheapest asking price (dph_total, with %g GB of disk) of %d rentable offer(s) of %d× %s from hosts in this country at the fetch", storageGB, g.n, g.count, g.gpu)
		if g.n > 1 {
			notes += fmt.Sprintf(" (they ranged %s-%s USD an hour)", g.low, g.high)
		}
		notes += "; no SLA; offers come and go by the minute"
		res.Offers = append(res.Offers, &catalog.Offer{Provider: "vast", InstanceName: g.name, RegionCode: g.country, Billing: catalog.OnDemand,
			Price: catalog.Price{Hourly: g.low, Currency: "USD"}, Notes: notes, Source: src, Stock: st})
		if !described[g.name] {
			described[g.name] = true
			res.Instances = append(res.Instances, &catalog.DiscoveredInstance{Provider: "vast", Name: g.name, GPUName: g.gpu,
				GPUCount: decimal.NewFromInt(g.count), GPUMemoryGiB: g.mem, Source: src})
		}
	}
	return res, nil
}

// countryOf is the ISO country code that ends a geolocation ("Texas, US",
// "SE"); "" when there is none.
func countryOf(geo string) string {
	parts := strings.Split(geo, ",")
	c := strings.ToUpper(strings.TrimSpace(parts[len(parts)-1]))
	if len(c) != 2 || c[0] < 'A' || c[0] > 'Z' || c[1] < 'A' || c[1] > 'Z' {
		return ""
	}
	return c
}

// plain: letters, digits, _ - . only.
func plain(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}
