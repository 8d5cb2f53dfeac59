package oci

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/shopspring/decimal"
)

// shapesAnswer is the Cost Estimator's shape data: the fields read.
type shapesAnswer struct {
	Items []shape `json:"items"`
}

type shape struct {
	Name    string      `json:"name"`
	Status  string      `json:"status"`
	Hidden  bool        `json:"hidden"`
	SubType *typeValue  `json:"subType"`
	GPUQty  json.Number `json:"gpuQty"`
	// Products are the parts the shape is billed under.
	Products []struct {
		Type       *typeValue  `json:"type"`
		PartNumber string      `json:"partNumber"`
		Qty        json.Number `json:"qty"`
	} `json:"products"`
}

type typeValue struct {
	Value string `json:"value"`
}

// pricesAnswer is the price list answer: the fields read.
type pricesAnswer struct {
	Items []struct {
		PartNumber    string `json:"partNumber"`
		DisplayName   string `json:"displayName"`
		MetricName    string `json:"metricName"`
		Localizations []struct {
			CurrencyCode string `json:"currencyCode"`
			Prices       []struct {
				Model string      `json:"model"`
				Value json.Number `json:"value"`
			} `json:"prices"`
		} `json:"currencyCodeLocalizations"`
	} `json:"items"`
}

// payAsYouGo is the price model of a list price.
const payAsYouGo = "PAY_AS_YOU_GO"

// maxPerHour bounds a plausible shape price: 1,000 USD an hour.
var maxPerHour = decimal.NewFromInt(1000)

// gpuShape is a GPU shape name as Oracle writes them: BM.GPU.H100.8,
// VM.GPU3.1, BM.GPU.A100-v2.8 (a display suffix such as " (NVL72)" is
// dropped first).
var gpuShape = regexp.MustCompile(`^(?:BM|VM)\.GPU\d?(?:\.[A-Za-z0-9-]+)?\.\d+$`)

// splitRecorded reads a recorded answer {"shapes": ..., "products": ...}.
func splitRecorded(b []byte) ([]byte, []byte, error) {
	var rec struct {
		Shapes   json.RawMessage `json:"shapes"`
		Products json.RawMessage `json:"products"`
	}
	if err := json.Unmarshal(b, &rec); err != nil || len(rec.Shapes) == 0 || len(rec.Products) == 0 {
		return nil, nil, &importer.ParseError{Source: sourceName, Field: "shapes", Err: errors.New(`not a recorded answer: want {"shapes": <shapes.json>, "products": <price list>}`)}
	}
	return rec.Shapes, rec.Products, nil
}

func decode(b []byte, v any, field string) error {
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

// parse joins the shapes and the price list fetched at fetched.
func parse(shapesBody, pricesBody []byte, anyRegion string, fetched time.Time, ref string) (*importer.Result, error) {
	var sa shapesAnswer
	if err := decode(shapesBody, &sa, "shapes"); err != nil {
		return nil, err
	}
	var pa pricesAnswer
	if err := decode(pricesBody, &pa, "items"); err != nil {
		return nil, err
	}
	if sa.Items == nil || pa.Items == nil {
		return nil, &importer.ParseError{Source: sourceName, Field: "items", Err: errors.New("no items list: not the shape data and the price list")}
	}
	type part struct {
		price  decimal.Decimal
		metric string
	}
	parts := map[string]part{}
	for _, it := range pa.Items {
		for _, l := range it.Localizations {
			if l.CurrencyCode != Currency {
				continue
			}
			for _, pr := range l.Prices {
				if pr.Model != payAsYouGo {
					continue
				}
				if v, err := decimal.NewFromString(string(pr.Value)); err == nil && !v.IsNegative() {
					parts[it.PartNumber] = part{v, it.MetricName}
				}
			}
		}
	}
	if len(parts) == 0 {
		return nil, &importer.ParseError{Source: sourceName, Field: "currencyCodeLocalizations", Err: fmt.Errorf("no %s %s price in the price list", Currency, payAsYouGo)}
	}
	res := &importer.Result{Source: sourceName}
	src := importer.Source(catalog.SourceOfficialAPI, ref, fetched, fetched)
	done := map[string]bool{}
	sort.SliceStable(sa.Items, func(a, b int) bool { return sa.Items[a].Name < sa.Items[b].Name })
	for _, s := range sa.Items {
		if s.SubType == nil || s.SubType.Value != "gpu" {
			continue
		}
		name := strings.TrimSpace(s.Name)
		if k := strings.Index(name, " ("); k > 0 {
			name = name[:k]
		}
		switch {
		case !gpuShape.MatchString(name):
			res.Skipped.Add("GPU shape name not as Oracle writes them", s.Name)
			continue
		case s.Status != "ACTIVE" || s.Hidden:
			res.Skipped.Add("shape not active or hidden in the estimator", name)
			continue
		case done[name]:
			res.Skipped.Add("shape listed twice", name)
			continue
		}
		done[name] = true
		gpus, err := decimal.NewFromString(string(s.GPUQty))
		if err != nil || !gpus.IsPositive() || gpus.GreaterThan(decimal.NewFromInt(64)) || !gpus.IsInteger() {
			res.Skipped.Add("no GPU count (gpuQty)", name)
			continue
		}
		var pn string
		var ocpus decimal.Decimal
		for _, pr := range s.Products {
			if pr.Type != nil && pr.Type.Value == "ocpu" {
				pn = pr.PartNumber
				ocpus, _ = decimal.NewFromString(string(pr.Qty))
				break
			}
		}
		pt, ok := parts[pn]
		if pn == "" || !ok {
			res.Skipped.Add("no price list part for the shape", name)
			continue
		}
		var hourly decimal.Decimal
		var how string
		switch m := strings.ToUpper(pt.metric); {
		case strings.Contains(m, "GPU"):
			hourly, how = pt.price.Mul(gpus), "per GPU hour × "+gpus.String()+" GPUs"
		case strings.Contains(m, "OCPU") && ocpus.IsPositive():
			hourly, how = pt.price.Mul(ocpus), "per OCPU hour × "+ocpus.String()+" OCPUs"
		default:
			res.Skipped.Add("part billed by a metric other than GPU or OCPU hours", name)
			continue
		}
		if !hourly.IsPositive() || hourly.GreaterThan(maxPerHour) {
			res.Skipped.Add("price missing or implausible", name)
			continue
		}
		res.Instances = append(res.Instances, &catalog.DiscoveredInstance{Provider: "oci", Name: name, GPUName: gpuOf(name), GPUCount: gpus, Source: src})
		if anyRegion == "" {
			res.Skipped.Add("no any-OCI-region row in the catalog to price it in", name)
			continue
		}
		res.Offers = append(res.Offers, &catalog.Offer{Provider: "oci", InstanceName: name, RegionCode: anyRegion, Billing: catalog.OnDemand,
			Price: catalog.Price{Hourly: hourly, Currency: Currency},
			Notes: fmt.Sprintf("Oracle price list: part %s (%s) %s %s, %s; one global list price, and Oracle publishes no per-region shape availability, so the offer stands for any OCI region",
				pn, pt.metric, pt.price, Currency, how),
			Source: src})
	}
	if len(done) == 0 {
		return nil, &importer.ParseError{Source: sourceName, Field: "items", Err: errors.New("the shape data holds no GPU shape")}
	}
	return res, nil
}

// gpuOf is the GPU a shape name encodes: BM.GPU.H100.8 → H100; the
// numbered families GPU2, GPU3, GPU4 are P100, V100, A100, and A100-v2 is
// A100 80GB (as SkyPilot's fetcher maps them).
func gpuOf(name string) string {
	parts := strings.Split(name, ".")
	token := parts[1]
	if len(parts) == 4 {
		token = parts[2]
	}
	switch token {
	case "GPU2":
		return "P100"
	case "GPU3":
		return "V100"
	case "GPU4":
		return "A100"
	case "A100-v2":
		return "A100 80GB"
	}
	return token
}
