// Package priceserver parses the built-in price file of a third-party ECS
// price server: one JSON object whose keys are region IDs, each holding
// "instanceTypePrices", a map from instance type to its specs, the zones of
// the region and its pay-as-you-go price (and, in some versions, spot prices
// per zone).
package priceserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
)

// Offer is one instance type in one region, as the file lists it.
type Offer struct {
	Region       string
	InstanceType string
	Arch         string
	VCPU         int
	MemoryGiB    float64
	GPUs         int
	Zones        []string
	// OnDemandHourly is the pay-as-you-go hourly price exactly as the file
	// writes it; "0" means the file has no price for the type.
	OnDemandHourly string
	// SpotHourly maps a zone to its spot price as written, when present.
	SpotHourly map[string]string
}

type region struct {
	InstanceTypePrices map[string]*instance `json:"instanceTypePrices"`
}

type instance struct {
	Arch      string                 `json:"arch"`
	VCPU      *json.Number           `json:"vcpu"`
	Memory    *json.Number           `json:"memory"`
	GPU       *json.Number           `json:"gpu"`
	Zones     []string               `json:"zones"`
	OnDemand  *json.Number           `json:"onDemandPricePerHour"`
	SpotPrice map[string]json.Number `json:"spotPricePerHour"`
}

// Parse reads a price file and returns its offers sorted by region, then
// instance type. A malformed document, or a missing or invalid field, is an
// error naming the region, instance type and field.
func Parse(r io.Reader) ([]Offer, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("priceserver: read: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc map[string]*region
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("priceserver: decode: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("priceserver: decode: trailing data after the document")
	}
	var out []Offer
	for reg, rv := range doc {
		if reg == "" {
			return nil, fmt.Errorf("priceserver: an empty region key")
		}
		if rv == nil || rv.InstanceTypePrices == nil {
			return nil, fmt.Errorf("priceserver: region %q: no instanceTypePrices", reg)
		}
		for typ, iv := range rv.InstanceTypePrices {
			o, err := offer(reg, typ, iv)
			if err != nil {
				return nil, fmt.Errorf("priceserver: region %q, instance type %q: %w", reg, typ, err)
			}
			out = append(out, o)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Region != out[j].Region {
			return out[i].Region < out[j].Region
		}
		return out[i].InstanceType < out[j].InstanceType
	})
	return out, nil
}

func offer(reg, typ string, iv *instance) (Offer, error) {
	if typ == "" {
		return Offer{}, fmt.Errorf("empty instance type")
	}
	if iv == nil {
		return Offer{}, fmt.Errorf("null entry")
	}
	o := Offer{Region: reg, InstanceType: typ, Arch: iv.Arch, Zones: iv.Zones}
	var err error
	if o.VCPU, err = count("vcpu", iv.VCPU); err != nil {
		return Offer{}, err
	}
	if o.GPUs, err = count("gpu", iv.GPU); err != nil {
		return Offer{}, err
	}
	if iv.Memory == nil {
		return Offer{}, fmt.Errorf("field memory: missing")
	}
	if o.MemoryGiB, err = nonNegative("memory", *iv.Memory); err != nil {
		return Offer{}, err
	}
	if iv.OnDemand == nil {
		return Offer{}, fmt.Errorf("field onDemandPricePerHour: missing")
	}
	if _, err := nonNegative("onDemandPricePerHour", *iv.OnDemand); err != nil {
		return Offer{}, err
	}
	o.OnDemandHourly = iv.OnDemand.String()
	if len(iv.SpotPrice) > 0 {
		o.SpotHourly = make(map[string]string, len(iv.SpotPrice))
		for zone, p := range iv.SpotPrice {
			if _, err := nonNegative("spotPricePerHour["+zone+"]", p); err != nil {
				return Offer{}, err
			}
			o.SpotHourly[zone] = p.String()
		}
	}
	return o, nil
}

func count(field string, n *json.Number) (int, error) {
	if n == nil {
		return 0, fmt.Errorf("field %s: missing", field)
	}
	v, err := strconv.Atoi(n.String())
	if err != nil || v < 0 {
		return 0, fmt.Errorf("field %s: %q is not a count", field, n.String())
	}
	return v, nil
}

func nonNegative(field string, n json.Number) (float64, error) {
	v, err := strconv.ParseFloat(n.String(), 64)
	if err != nil || v < 0 || math.IsInf(v, 0) {
		return 0, fmt.Errorf("field %s: %q is not a non-negative number", field, n.String())
	}
	return v, nil
}
