package document

import "github.com/gpuscout/gpuscout/internal/catalog"

// SchemaRegions names the regions document.
const SchemaRegions = "gpuscout/regions@v1"

// Region is one row of the regions document.
type Region struct {
	Provider  string `json:"provider"`
	Code      string `json:"code"`
	NameEN    string `json:"name_en"`
	NameZH    string `json:"name_zh"`
	Country   string `json:"country"`
	Residency string `json:"residency"`
	// Offers counts the region's GPU offers of current and previous
	// instance types (what the offers document lists by default).
	Offers int    `json:"offers"`
	Source Source `json:"source"`
}

// Regions is the gpuscout/regions@v1 document: the providers' regions with
// where they are, their data-residency zone and how many GPU offers the
// catalog has in each. The HTTP API serves it at /api/v1/regions; the CLI
// has no regions command yet.
type Regions struct {
	Schema  string   `json:"schema"`
	Regions []Region `json:"regions"`
}

// BuildRegions builds the regions document for list, counting offers (any
// list of the catalog's offers; retired instance types are not counted).
func BuildRegions(list []*catalog.Region, offers []*catalog.Offer) Regions {
	n := map[string]int{}
	for _, o := range offers {
		if o.Instance != nil && o.Instance.Status == catalog.StatusRetired {
			continue
		}
		n[o.Provider+"/"+o.RegionCode]++
	}
	doc := Regions{Schema: SchemaRegions, Regions: make([]Region, 0, len(list))}
	for _, r := range list {
		doc.Regions = append(doc.Regions, Region{Provider: r.Provider, Code: r.Code, NameEN: r.NameEN, NameZH: r.NameZH,
			Country: r.Country, Residency: r.Residency, Offers: n[r.Key()], Source: source(r.Source)})
	}
	return doc
}
