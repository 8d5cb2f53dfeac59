package runpod

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

// answer is the gpuTypes answer.
type answer struct {
	Data *struct {
		GPUTypes []gpuType `json:"gpuTypes"`
	} `json:"data"`
}

type gpuType struct {
	ID                 string      `json:"id"`
	DisplayName        string      `json:"displayName"`
	MemoryInGb         json.Number `json:"memoryInGb"`
	MaxGpuCount        json.Number `json:"maxGpuCount"`
	SecureCloud        bool        `json:"secureCloud"`
	CommunityCloud     bool        `json:"communityCloud"`
	SecurePrice        json.Number `json:"securePrice"`
	CommunityPrice     json.Number `json:"communityPrice"`
	SecureSpotPrice    json.Number `json:"secureSpotPrice"`
	CommunitySpotPrice json.Number `json:"communitySpotPrice"`
	LowestPrice        *struct {
		StockStatus *string `json:"stockStatus"`
	} `json:"lowestPrice"`
}

// skyPilotKeys are the GPU keys of SkyPilot's RunPod table (RunPod GPU type
// ID to the key in the instance type names the catalog's RunPod rows use),
// skypilot-org/skypilot sky/provision/runpod/utils.py@22ce450d GPU_NAME_MAP.
var skyPilotKeys = map[string]string{
	"NVIDIA A100 80GB PCIe": "A100-80GB", "NVIDIA A100-PCIE-40GB": "A100-40GB", "NVIDIA A100-SXM4-80GB": "A100-80GB-SXM",
	"NVIDIA A30": "A30", "NVIDIA A40": "A40", "NVIDIA GeForce RTX 3070": "RTX3070", "NVIDIA GeForce RTX 3080": "RTX3080",
	"NVIDIA GeForce RTX 3080 Ti": "RTX3080Ti", "NVIDIA GeForce RTX 3090": "RTX3090", "NVIDIA GeForce RTX 3090 Ti": "RTX3090Ti",
	"NVIDIA GeForce RTX 4070 Ti": "RTX4070Ti", "NVIDIA GeForce RTX 4080": "RTX4080", "NVIDIA GeForce RTX 4090": "RTX4090",
	"NVIDIA H100 80GB HBM3": "H100-SXM", "NVIDIA H100 PCIe": "H100", "NVIDIA L4": "L4", "NVIDIA L40": "L40",
	"NVIDIA RTX 4000 SFF Ada Generation": "RTX4000-Ada-SFF", "NVIDIA RTX 4000 Ada Generation": "RTX4000-Ada",
	"NVIDIA RTX 6000 Ada Generation": "RTX6000-Ada", "NVIDIA RTX A4000": "RTXA4000", "NVIDIA RTX A4500": "RTXA4500",
	"NVIDIA RTX A5000": "RTXA5000", "NVIDIA RTX A6000": "RTXA6000", "Quadro RTX 5000": "RTX5000",
	"Tesla V100-FHHL-16GB": "V100-16GB-FHHL", "V100-SXM2-16GB": "V100-16GB-SXM2", "NVIDIA RTX A2000": "RTXA2000",
	"Tesla V100-PCIE-16GB": "V100-16GB-PCIe",
}

// counts are the GPU counts priced per type (up to its maxGpuCount), as
// the catalog's RunPod rows have them.
var counts = []int64{1, 2, 4, 8}

// maxPerGPU bounds a plausible price per GPU-hour: 1,000 USD.
var maxPerGPU = decimal.NewFromInt(1000)

// stockOf reads stockStatus: High and Medium are available, Low is low,
// null or empty is none.
func stockOf(s *string) catalog.StockState {
	if s == nil {
		return catalog.StockNone
	}
	switch strings.ToLower(strings.TrimSpace(*s)) {
	case "high", "medium":
		return catalog.StockAvailable
	case "low":
		return catalog.StockLow
	}
	return catalog.StockNone
}

// gpuKey is the name part of a GPU type's instance types: SkyPilot's key,
// else the display name with dashes for spaces; "" when neither is usable.
func gpuKey(t gpuType) string {
	if k, ok := skyPilotKeys[t.ID]; ok {
		return k
	}
	k := strings.Join(strings.Fields(t.DisplayName), "-")
	if k == "" || len(k) > 60 {
		return ""
	}
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.') {
			return ""
		}
	}
	return k
}

// parse reads a gpuTypes answer fetched at fetched (seen: when its stock
// readings were taken; zero drops them).
func parse(body []byte, anyRegion, communityRegion string, fetched, seen time.Time, ref string) (*importer.Result, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var a answer
	if err := dec.Decode(&a); err != nil {
		return nil, &importer.ParseError{Source: sourceName, Field: "data", Err: fmt.Errorf("not a gpuTypes answer: %w", err)}
	}
	if err := importer.DecoderEnd(dec); err != nil {
		return nil, &importer.ParseError{Source: sourceName, Err: err}
	}
	if a.Data == nil || a.Data.GPUTypes == nil {
		return nil, &importer.ParseError{Source: sourceName, Field: "data.gpuTypes", Err: errors.New("no gpuTypes list: not a gpuTypes answer")}
	}
	res := &importer.Result{Source: sourceName, ListsCapacity: true}
	src := importer.Source(catalog.SourceOfficialAPI, ref, fetched, fetched)
	types := append([]gpuType(nil), a.Data.GPUTypes...)
	sort.SliceStable(types, func(i, j int) bool { return types[i].ID < types[j].ID })
	done := map[string]bool{}
	for _, t := range types {
		key := gpuKey(t)
		if key == "" || t.ID == "" {
			res.Skipped.Add("GPU type without a usable id or display name", t.ID)
			continue
		}
		if done[key] {
			res.Skipped.Add("GPU type repeated", t.ID)
			continue
		}
		done[key] = true
		maxCount, err := t.MaxGpuCount.Int64()
		if err != nil || maxCount < 1 {
			maxCount = 1
		}
		mem, err := decimal.NewFromString(string(t.MemoryInGb))
		if err != nil || mem.IsNegative() || mem.GreaterThan(decimal.NewFromInt(10000)) {
			mem = decimal.Zero
		}
		priced := false
		for _, cloud := range []struct {
			name, label       string
			region            string
			sold              bool
			price, spot       json.Number
			stock             bool
			secure, community bool
		}{
			{"SECURE", "Secure", anyRegion, t.SecureCloud, t.SecurePrice, t.SecureSpotPrice, true, true, false},
			{"COMMUNITY", "Community", communityRegion, t.CommunityCloud, t.CommunityPrice, t.CommunitySpotPrice, false, false, true},
		} {
			perGPU, ok := price(cloud.price)
			if !cloud.sold || !ok {
				continue
			}
			if cloud.region == "" {
				res.Skipped.Add("Community Cloud price: the catalog has no region row for RunPod's community hosts", t.ID)
				continue
			}
			spot, spotOK := price(cloud.spot)
			for _, n := range counts {
				if n > maxCount {
					break
				}
				name := fmt.Sprintf("%dx_%s_%s", n, key, cloud.name)
				var st *catalog.Stock
				if cloud.stock && n == 1 && !seen.IsZero() && t.LowestPrice != nil {
					st = &catalog.Stock{State: stockOf(t.LowestPrice.StockStatus), Seen: seen.UTC()}
				}
				count := decimal.NewFromInt(n)
				notes := fmt.Sprintf("RunPod GraphQL gpuTypes: %s Cloud price per GPU-hour %s × %d GPUs, the same in every data centre", cloud.label, perGPU, n)
				if st != nil {
					notes += "; stock: lowestPrice(gpuCount: 1, secureCloud: true).stockStatus at the fetch"
				}
				res.Offers = append(res.Offers, &catalog.Offer{Provider: "runpod", InstanceName: name, RegionCode: cloud.region, Billing: catalog.OnDemand,
					Price: catalog.Price{Hourly: perGPU.Mul(count), Currency: "USD"}, Notes: notes, Source: src, Stock: st})
				if spotOK {
					res.Offers = append(res.Offers, &catalog.Offer{Provider: "runpod", InstanceName: name, RegionCode: cloud.region, Billing: catalog.Spot,
						Price: catalog.Price{Hourly: spot.Mul(count), Currency: "USD"}, Source: src,
						Notes: fmt.Sprintf("RunPod GraphQL gpuTypes: %s Cloud spot (interruptible) price per GPU-hour %s × %d GPUs", cloud.label, spot, n)})
				}
				res.Instances = append(res.Instances, &catalog.DiscoveredInstance{Provider: "runpod", Name: name, GPUName: t.DisplayName,
					GPUCount: count, GPUMemoryGiB: mem, Source: src})
				priced = true
			}
		}
		if !priced {
			res.Skipped.Add("GPU type with no usable price", t.ID)
		}
	}
	return res, nil
}

// price reads a price per GPU-hour: positive and plausible, else !ok.
func price(n json.Number) (decimal.Decimal, bool) {
	if n == "" {
		return decimal.Zero, false
	}
	d, err := decimal.NewFromString(string(n))
	if err != nil || !d.IsPositive() || d.GreaterThan(maxPerGPU) {
		return decimal.Zero, false
	}
	return d, true
}
