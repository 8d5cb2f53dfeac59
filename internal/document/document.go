// Package document defines gpuscout's versioned JSON documents — the stable
// contracts that the CLI prints with -o json and the HTTP API returns — and
// builds them from catalog values. Each document names its schema in a
// top-level "schema" field such as "gpuscout/offers@v1".
package document

import (
	"encoding/json"
	"math"
	"sort"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/fx"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/shopspring/decimal"
)

// Schema names.
const (
	SchemaOffers       = "gpuscout/offers@v1"
	SchemaInstances    = "gpuscout/instances@v1"
	SchemaGPUs         = "gpuscout/gpus@v1"
	SchemaCatalogStats = "gpuscout/catalog-stats@v1"
	SchemaSources      = "gpuscout/catalog-sources@v1"
	SchemaClaims       = "gpuscout/claims@v1"
	SchemaValidation   = "gpuscout/catalog-validation@v1"
)

// Num renders a decimal as a JSON number, rounded to 6 decimal places.
func Num(d decimal.Decimal) json.Number { return json.Number(d.Round(6).String()) }

// optNum is Num, or nil (JSON null) for zero: "unknown" in spec fields.
func optNum(d decimal.Decimal) *json.Number {
	if d.IsZero() {
		return nil
	}
	n := Num(d)
	return &n
}

// Source is a record's provenance. An undated source (one that shows no
// date) has an empty AsOf, written as "as_of": null, with ReadOn, the day it
// was read, and Undated true.
type Source struct {
	Kind    string `json:"kind"`
	Ref     string `json:"ref"`
	AsOf    string `json:"as_of"`
	ReadOn  string `json:"read_on,omitempty"`
	Undated bool   `json:"undated,omitempty"`
}

// MarshalJSON writes an undated source's as_of as null.
func (s Source) MarshalJSON() ([]byte, error) {
	type plain Source
	if !s.Undated {
		return json.Marshal(plain(s))
	}
	return json.Marshal(struct {
		Kind    string  `json:"kind"`
		Ref     string  `json:"ref"`
		AsOf    *string `json:"as_of"`
		ReadOn  string  `json:"read_on"`
		Undated bool    `json:"undated"`
	}{s.Kind, s.Ref, nil, s.ReadOn, true})
}

// Date renders the source's date for a person: the as-of date, or
// "undated (read …)" in p's language.
func (s Source) Date(p *i18n.Printer) string { return p.SourceDate(s.AsOf, s.ReadOn) }

func source(s catalog.Source) Source {
	return Source{Kind: string(s.Kind), Ref: s.Ref, AsOf: s.AsOfString(), ReadOn: s.ReadOnString(), Undated: s.Undated()}
}

// FXRate is one exchange rate used by a document.
type FXRate struct {
	PerUSD json.Number `json:"per_usd"`
	AsOf   string      `json:"as_of,omitempty"`
	Source string      `json:"source"`
}

// FX lists the rates a document's prices were converted with.
type FX struct {
	Base  string            `json:"base"`
	Rates map[string]FXRate `json:"rates"`
}

// BuildFX describes the rates used to convert from currencies into to.
func BuildFX(t *fx.Table, from []string, to string) FX {
	out := FX{Base: "USD", Rates: map[string]FXRate{}}
	for _, r := range t.Used(from, to) {
		asOf := ""
		if !r.AsOf.IsZero() {
			asOf = r.AsOf.Format(catalog.DateLayout)
		}
		out.Rates[r.Currency] = FXRate{PerUSD: Num(r.PerUSD), AsOf: asOf, Source: r.Source}
	}
	return out
}

// GPURef is the GPU part of an instance or offer.
type GPURef struct {
	Model         string      `json:"model"`
	Count         json.Number `json:"count"`
	MemoryGB      json.Number `json:"memory_gb"`
	TotalMemoryGB json.Number `json:"total_memory_gb"`
}

func gpuRef(it *catalog.InstanceType) GPURef {
	return GPURef{Model: it.GPUID, Count: Num(it.GPUCount), MemoryGB: Num(it.GPU.MemoryGB), TotalMemoryGB: Num(it.GPUMemoryGB)}
}

// OfferPrice is an offer's price in the document's currency.
type OfferPrice struct {
	Hourly           json.Number `json:"hourly"`
	Upfront          json.Number `json:"upfront"`
	Monthly          json.Number `json:"monthly"`
	EffectiveHourly  json.Number `json:"effective_hourly"`
	PerGPUHourly     json.Number `json:"per_gpu_hourly"`
	Currency         string      `json:"currency"`
	OriginalCurrency string      `json:"original_currency"`
}

// Offer is one row of the offers document.
type Offer struct {
	ID           string `json:"id"`
	Provider     string `json:"provider"`
	InstanceType string `json:"instance_type"`
	Region       string `json:"region"`
	Country      string `json:"country"`
	Residency    string `json:"residency"`
	Billing      string `json:"billing"`
	// OS is the operating system the price is for: linux, or windows
	// (the Windows licence included).
	OS        string      `json:"os"`
	GPU       GPURef      `json:"gpu"`
	VCPU      json.Number `json:"vcpu"`
	MemoryGiB json.Number `json:"memory_gib"`
	Price     OfferPrice  `json:"price"`
	Source    Source      `json:"source"`
	// Marketplace is true for a marketplace provider's offer (a host's
	// asking price in a dated snapshot, no SLA); omitted otherwise.
	Marketplace bool `json:"marketplace,omitempty"`
	// Stock is what the provider's own API last said about capacity for
	// the offer, and when; omitted when no live import read it.
	Stock *Stock `json:"stock,omitempty"`
}

// Stock is a capacity reading (catalog.Stock): available, low or none,
// and when it was seen (RFC 3339, UTC).
type Stock struct {
	State  string `json:"state"`
	SeenAt string `json:"seen_at"`
}

// stockOf is the document form of a reading; nil for none.
func stockOf(s *catalog.Stock) *Stock {
	if s == nil {
		return nil
	}
	return &Stock{State: string(s.State), SeenAt: s.Seen.UTC().Format(time.RFC3339)}
}

// Offers is the gpuscout/offers@v1 document.
type Offers struct {
	Schema   string `json:"schema"`
	Currency string `json:"currency"`
	FX       FX     `json:"fx"`
	Total    int    `json:"total"` // matches before --limit
	// Offset is how many matches were skipped before these (the API's
	// pagination); omitted when 0.
	Offset int     `json:"offset,omitempty"`
	Offers []Offer `json:"offers"`
	// Next is the API URL of the following page of matches when the
	// answer stopped at its limit with more left; omitted otherwise.
	Next string `json:"next,omitempty"`
	// Warnings name stored records left out because their data is
	// unusable (absent when there are none).
	Warnings []Warning `json:"warnings,omitempty"`
}

// BuildOffers builds the offers document from query rows priced in currency.
func BuildOffers(rows []catalog.OfferRow, total int, currency string, t *fx.Table) Offers {
	doc := Offers{Schema: SchemaOffers, Currency: currency, Total: total, Offers: make([]Offer, 0, len(rows))}
	var from []string
	for _, r := range rows {
		o, it := r.Offer, r.Offer.Instance
		from = append(from, o.Price.Currency)
		doc.Offers = append(doc.Offers, Offer{
			ID: o.ID(), Provider: o.Provider, InstanceType: o.InstanceName, Region: o.RegionCode,
			Country: o.Region.Country, Residency: o.Region.Residency, Billing: string(o.Billing), OS: o.OSName(),
			GPU: gpuRef(it), VCPU: Num(it.VCPU), MemoryGiB: Num(it.MemoryGiB),
			Price: OfferPrice{Hourly: Num(r.Hourly), Upfront: Num(r.Upfront), Monthly: Num(r.Monthly),
				EffectiveHourly: Num(r.EffectiveHourly), PerGPUHourly: Num(r.PerGPUHourly),
				Currency: r.Currency, OriginalCurrency: o.Price.Currency},
			Source: source(o.Source), Marketplace: r.Marketplace, Stock: stockOf(o.Stock),
		})
	}
	doc.FX = BuildFX(t, from, currency)
	return doc
}

// Instance is one row of the instances document.
type Instance struct {
	ID           string       `json:"id"`
	Provider     string       `json:"provider"`
	InstanceType string       `json:"instance_type"`
	Family       string       `json:"family"`
	GPU          GPURef       `json:"gpu"`
	VCPU         json.Number  `json:"vcpu"`
	MemoryGiB    json.Number  `json:"memory_gib"`
	Interconnect string       `json:"interconnect"`
	NetworkGbps  *json.Number `json:"network_gbps"`
	RDMA         string       `json:"rdma"`
	LocalStorage string       `json:"local_storage,omitempty"`
	Status       string       `json:"status"`
	Source       Source       `json:"source"`
}

// Instances is the gpuscout/instances@v1 document.
type Instances struct {
	Schema    string     `json:"schema"`
	Instances []Instance `json:"instances"`
}

// BuildInstances builds the instances document.
func BuildInstances(list []*catalog.InstanceType) Instances {
	doc := Instances{Schema: SchemaInstances, Instances: make([]Instance, 0, len(list))}
	for _, it := range list {
		rdma := it.RDMA
		if rdma == "" {
			rdma = "unknown"
		}
		doc.Instances = append(doc.Instances, Instance{
			ID: it.ID(), Provider: it.Provider, InstanceType: it.Name, Family: it.Family, GPU: gpuRef(it),
			VCPU: Num(it.VCPU), MemoryGiB: Num(it.MemoryGiB), Interconnect: it.GPUInterconnect,
			NetworkGbps: optNum(it.NetworkGbps), RDMA: rdma, LocalStorage: it.LocalStorage, Status: it.Status,
			Source: source(it.Source),
		})
	}
	return doc
}

// GPU is one row of the gpus document. Unknown or unsupported figures are null.
type GPU struct {
	ID              string       `json:"id"`
	Vendor          string       `json:"vendor"`
	Family          string       `json:"family"`
	Variant         string       `json:"variant,omitempty"`
	Architecture    string       `json:"architecture"`
	MemoryGB        json.Number  `json:"memory_gb"`
	MemoryType      string       `json:"memory_type,omitempty"`
	BandwidthGBs    *json.Number `json:"memory_bandwidth_gbs"`
	FP32TFLOPS      *json.Number `json:"fp32_tflops"`
	TF32TFLOPS      *json.Number `json:"tf32_tflops"`
	FP16TFLOPS      *json.Number `json:"fp16_tflops"`
	FP8TFLOPS       *json.Number `json:"fp8_tflops"`
	INT8TOPS        *json.Number `json:"int8_tops"`
	Interconnect    string       `json:"interconnect,omitempty"`
	InterconnectGBs *json.Number `json:"interconnect_gbs"`
	TDPW            *json.Number `json:"tdp_w"`
	LaunchYear      int          `json:"launch_year,omitempty"`
	Aliases         []string     `json:"aliases"`
	Source          Source       `json:"source"`
	// MLSupport is the vendor's ML software support; absent when the
	// catalog does not say.
	MLSupport *MLSupport `json:"ml_support,omitempty"`
}

// MLSupport is a GPU's ML software stack as its vendor's list gives it.
type MLSupport struct {
	Stack  string `json:"stack"` // cuda, rocm or none
	Detail string `json:"detail,omitempty"`
	Source string `json:"source"`
	ReadOn string `json:"read_on,omitempty"`
}

// GPUs is the gpuscout/gpus@v1 document.
type GPUs struct {
	Schema string `json:"schema"`
	GPUs   []GPU  `json:"gpus"`
}

// BuildGPUs builds the gpus document.
func BuildGPUs(list []*catalog.GPU) GPUs {
	doc := GPUs{Schema: SchemaGPUs, GPUs: make([]GPU, 0, len(list))}
	for _, g := range list {
		aliases := g.Aliases
		if aliases == nil {
			aliases = []string{}
		}
		doc.GPUs = append(doc.GPUs, GPU{
			ID: g.ID, Vendor: g.Vendor, Family: g.Family, Variant: g.Variant, Architecture: g.Architecture,
			MemoryGB: Num(g.MemoryGB), MemoryType: g.MemoryType, BandwidthGBs: optNum(g.BandwidthGBs),
			FP32TFLOPS: optNum(g.FP32TFLOPS), TF32TFLOPS: optNum(g.TF32TFLOPS), FP16TFLOPS: optNum(g.FP16TFLOPS),
			FP8TFLOPS: optNum(g.FP8TFLOPS), INT8TOPS: optNum(g.INT8TOPS), Interconnect: g.Interconnect,
			InterconnectGBs: optNum(g.InterconnectGBs), TDPW: optNum(g.TDPW), LaunchYear: g.LaunchYear,
			Aliases: aliases, Source: source(g.Source), MLSupport: mlSupport(g),
		})
	}
	return doc
}

// ProviderStats is one provider's counts in the stats document.
type ProviderStats struct {
	InstanceTypes int      `json:"instance_types"`
	Offers        int      `json:"offers"`
	Regions       int      `json:"regions"`
	Billing       []string `json:"billing"`
	// OffersByBilling and GapsByBilling: offers per billing model, and on-demand
	// offers with no price for a billing model the provider sells (coverage gaps).
	OffersByBilling map[string]int `json:"offers_by_billing"`
	GapsByBilling   map[string]int `json:"gaps_by_billing"`
	// MedianAgeDays and FreshShare say how old the provider's prices are
	// (absent when it has no offer).
	MedianAgeDays *float64 `json:"median_age_days,omitempty"`
	FreshShare    *float64 `json:"fresh_share,omitempty"`
	// UndatedOffers counts the provider's offers whose source shows no date
	// (counted as not fresh, outside the median age); absent without offers.
	UndatedOffers *int `json:"undated_offers,omitempty"`
}

// SpotCoverage says what the catalog knows about its spot offers.
type SpotCoverage struct {
	Offers      int     `json:"offers"`
	WithSibling int     `json:"with_on_demand_sibling"`
	Band        int     `json:"published_band"`
	Prior       int     `json:"provider_prior"`
	PriorRated  int     `json:"provider_prior_with_rate"`
	None        int     `json:"none"`
	Covered     float64 `json:"covered_share"` // (band + prior) / offers
}

// CatalogStats is the gpuscout/catalog-stats@v1 document.
type CatalogStats struct {
	Schema        string                   `json:"schema"`
	Providers     int                      `json:"providers"`
	Regions       int                      `json:"regions"`
	GPUs          int                      `json:"gpus"`
	InstanceTypes int                      `json:"instance_types"`
	Offers        int                      `json:"offers"`
	Claims        int                      `json:"claims"`
	ByProvider    map[string]ProviderStats `json:"by_provider"`
	BySourceKind  map[string]int           `json:"by_source_kind"`
	OldestAsOf    string                   `json:"oldest_as_of"`
	NewestAsOf    string                   `json:"newest_as_of"`
	Spot          SpotCoverage             `json:"spot_coverage"`
	Gaps          int                      `json:"billing_gaps"`
	// Freshness on the day the document was built: the share of offers
	// priced within FreshMonths and their median age.
	FreshMonths   int     `json:"fresh_months,omitempty"`
	FreshShare    float64 `json:"fresh_share"`
	MedianAgeDays float64 `json:"median_age_days"`
	// UndatedOffers counts the offers whose source shows no date: they
	// count as not fresh in FreshShare and are left out of MedianAgeDays
	// and of the as-of span.
	UndatedOffers int `json:"undated_offers"`
	// PublicPriceFiles is the freshness of the offers of providers that
	// publish a public price file (every provider but those listed in
	// Without, whose prices need the user's own credentials to refresh).
	PublicPriceFiles *FileFreshness `json:"public_price_files,omitempty"`
}

// FileFreshness counts the offers of the providers that publish a public
// price file and how many are priced within FreshMonths.
type FileFreshness struct {
	Offers     int      `json:"offers"`
	Fresh      int      `json:"fresh"`
	Undated    int      `json:"undated"`
	FreshShare float64  `json:"fresh_share"`
	Without    []string `json:"without"`
}

// SetFreshness adds the catalog's price freshness (catalog.Freshness) to the
// stats document, overall and per provider.
func (d *CatalogStats) SetFreshness(all catalog.Freshness, by map[string]catalog.Freshness) {
	d.FreshMonths, d.FreshShare, d.MedianAgeDays, d.UndatedOffers = catalog.FreshMonths, all.Share(), all.MedianAgeDays, all.Undated
	if ff := catalog.PublicFileFreshness(by); ff.Offers > 0 {
		d.PublicPriceFiles = &FileFreshness{Offers: ff.Offers, Fresh: ff.Fresh, Undated: ff.Undated, FreshShare: ff.Share(), Without: ff.Without}
	}
	for id, f := range by {
		ps, ok := d.ByProvider[id]
		if !ok || f.Offers == 0 {
			continue
		}
		share, age, undated := f.Share(), f.MedianAgeDays, f.Undated
		ps.FreshShare, ps.MedianAgeDays, ps.UndatedOffers = &share, &age, &undated
		d.ByProvider[id] = ps
	}
}

// BuildCatalogStats builds the stats document.
func BuildCatalogStats(s catalog.Stats) CatalogStats {
	doc := CatalogStats{Schema: SchemaCatalogStats, Providers: s.Providers, Regions: s.Regions, GPUs: s.GPUs,
		InstanceTypes: s.InstanceTypes, Offers: s.Offers, Claims: s.Claims,
		ByProvider: map[string]ProviderStats{}, BySourceKind: map[string]int{}}
	for id, p := range s.ByProvider {
		codes := make([]string, 0, len(p.Billing))
		for _, b := range p.Billing {
			codes = append(codes, string(b))
		}
		ps := ProviderStats{InstanceTypes: p.InstanceTypes, Offers: p.Offers, Regions: p.Regions, Billing: codes,
			OffersByBilling: map[string]int{}, GapsByBilling: map[string]int{}}
		for b, n := range p.OffersByBilling {
			ps.OffersByBilling[string(b)] = n
		}
		for b, n := range p.GapsByBilling {
			ps.GapsByBilling[string(b)] = n
		}
		doc.ByProvider[id] = ps
	}
	for k, n := range s.BySourceKind {
		doc.BySourceKind[string(k)] = n
	}
	sp := s.Spot
	doc.Spot = SpotCoverage{Offers: sp.Offers, WithSibling: sp.WithSibling, Band: sp.Band, Prior: sp.Prior, PriorRated: sp.PriorRated,
		None: sp.None, Covered: math.Round(sp.Covered()*1000) / 1000}
	doc.Gaps = s.Gaps
	if !s.OldestAsOf.IsZero() {
		doc.OldestAsOf = s.OldestAsOf.Format(catalog.DateLayout)
		doc.NewestAsOf = s.NewestAsOf.Format(catalog.DateLayout)
	}
	return doc
}

// SourceUse is one row of the sources document.
type SourceUse struct {
	Kind    string `json:"kind"`
	Ref     string `json:"ref"`
	Records int    `json:"records"`
	// Oldest and Newest span the citing records' as-of dates ("" when
	// every one is undated).
	Oldest string `json:"oldest_as_of"`
	Newest string `json:"newest_as_of"`
	// Undated counts the citing records whose source shows no date, and
	// ReadOn is the latest day one of them was read (absent when none).
	Undated int    `json:"undated,omitempty"`
	ReadOn  string `json:"read_on,omitempty"`
}

// Sources is the gpuscout/catalog-sources@v1 document.
type Sources struct {
	Schema  string      `json:"schema"`
	Sources []SourceUse `json:"sources"`
}

// BuildSources builds the sources document.
func BuildSources(list []catalog.SourceUse) Sources {
	doc := Sources{Schema: SchemaSources, Sources: make([]SourceUse, 0, len(list))}
	for _, u := range list {
		su := SourceUse{Kind: string(u.Kind), Ref: u.Ref, Records: u.Records, Undated: u.Undated}
		if !u.Oldest.IsZero() {
			su.Oldest, su.Newest = u.Oldest.Format(catalog.DateLayout), u.Newest.Format(catalog.DateLayout)
		}
		if !u.ReadOn.IsZero() {
			su.ReadOn = u.ReadOn.Format(catalog.DateLayout)
		}
		doc.Sources = append(doc.Sources, su)
	}
	return doc
}

// Claim is one row of the claims document.
type Claim struct {
	ID       string `json:"id"`
	Seed     string `json:"seed"`
	Quote    string `json:"quote"`
	Subject  string `json:"subject"`
	Field    string `json:"field"`
	Claimed  string `json:"claimed"`
	Verdict  string `json:"verdict"`
	Actual   string `json:"actual"`
	Evidence string `json:"evidence"`
	AsOf     string `json:"as_of"`
	// The Chinese translations of claimed, actual and evidence (data,
	// like a region's name_zh).
	ClaimedZH  string `json:"claimed_zh,omitempty"`
	ActualZH   string `json:"actual_zh,omitempty"`
	EvidenceZH string `json:"evidence_zh,omitempty"`
}

// Claims is the gpuscout/claims@v1 document.
type Claims struct {
	Schema    string         `json:"schema"`
	ByVerdict map[string]int `json:"by_verdict"`
	Claims    []Claim        `json:"claims"`
}

// BuildClaims builds the claims document.
func BuildClaims(list []*catalog.Claim) Claims {
	doc := Claims{Schema: SchemaClaims, ByVerdict: map[string]int{}, Claims: make([]Claim, 0, len(list))}
	for _, c := range list {
		doc.ByVerdict[c.Verdict]++
		doc.Claims = append(doc.Claims, Claim{ID: c.ID, Seed: c.Seed, Quote: c.Quote, Subject: c.Subject, Field: c.Field,
			Claimed: c.Claimed, Verdict: c.Verdict, Actual: c.Actual, Evidence: c.Evidence, AsOf: c.AsOf,
			ClaimedZH: c.ClaimedZH, ActualZH: c.ActualZH, EvidenceZH: c.EvidenceZH})
	}
	return doc
}

// Problem is one validation problem.
type Problem struct {
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Record  string `json:"record,omitempty"`
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
}

// Validation is the gpuscout/catalog-validation@v1 document.
type Validation struct {
	Schema   string    `json:"schema"`
	OK       bool      `json:"ok"`
	Problems []Problem `json:"problems"`
	Warnings []Problem `json:"warnings"`
}

// BuildValidation builds the validation document from problems and warnings.
func BuildValidation(problems, warnings []catalog.Problem) Validation {
	conv := func(ps []catalog.Problem) []Problem {
		out := make([]Problem, 0, len(ps))
		for _, p := range ps {
			out = append(out, Problem{File: p.Pos.File, Line: p.Pos.Line, Record: p.Record, Field: p.Field, Message: p.Msg})
		}
		sort.SliceStable(out, func(i, j int) bool {
			if out[i].File != out[j].File {
				return out[i].File < out[j].File
			}
			return out[i].Line < out[j].Line
		})
		return out
	}
	return Validation{Schema: SchemaValidation, OK: len(problems) == 0, Problems: conv(problems), Warnings: conv(warnings)}
}

// Warning is a data problem a read worked around: a stored record left out
// of the catalog, and why. Message is in the request's language.
type Warning struct {
	Kind    string `json:"kind"`   // offer or interruption-band
	Record  string `json:"record"` // the offer ID, or provider/instance_type/region
	Reason  string `json:"reason"` // unknown-currency or invalid
	Detail  string `json:"detail"` // the currency code, or the validation message
	Message string `json:"message"`
}

// BuildWarnings turns rejected imports into warnings rendered by p; nil
// when there are none (the field is then left out of documents).
func BuildWarnings(rs []catalog.Rejection, p *i18n.Printer) []Warning {
	if len(rs) == 0 {
		return nil
	}
	out := make([]Warning, 0, len(rs))
	for _, r := range rs {
		out = append(out, Warning{Kind: r.Kind, Record: r.Record, Reason: string(r.Reason), Detail: r.Detail,
			Message: p.Rejected(r.Kind, r.Record, string(r.Reason), r.Detail)})
	}
	return out
}

// mlSupport is a GPU's ML support, nil when the catalog does not say.
func mlSupport(g *catalog.GPU) *MLSupport {
	if g.MLStack == "" {
		return nil
	}
	return &MLSupport{Stack: g.MLStack, Detail: g.MLStackDetail, Source: g.MLSource, ReadOn: g.MLReadOn}
}
