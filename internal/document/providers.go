package document

import "github.com/gpuscout/gpuscout/internal/catalog"

// SchemaProviders names the providers document.
const SchemaProviders = "gpuscout/providers@v1"

// ProviderFact is one fact of the providers document: a provider's service
// in an ecosystem category (ml-platform, kubernetes, support ...).
type ProviderFact struct {
	Provider string `json:"provider"`
	Category string `json:"category"`
	Key      string `json:"key"`
	Value    string `json:"value"`
	ValueZH  string `json:"value_zh"`
	Source   Source `json:"source"`
}

// Providers is the gpuscout/providers@v1 document: the providers' services
// around their GPUs, as printed by gpuscout providers -o json and served at
// /api/v1/providers.
type Providers struct {
	Schema string         `json:"schema"`
	Facts  []ProviderFact `json:"facts"`
}

// BuildProviders builds the providers document from the catalog's ecosystem
// facts, in catalog order; a non-empty category keeps only that category.
func BuildProviders(facts []*catalog.EcosystemFact, category string) Providers {
	doc := Providers{Schema: SchemaProviders, Facts: []ProviderFact{}}
	for _, f := range facts {
		if category != "" && f.Category != category {
			continue
		}
		doc.Facts = append(doc.Facts, ProviderFact{Provider: f.Provider, Category: f.Category, Key: f.Key,
			Value: f.ValueEN, ValueZH: f.ValueZH, Source: source(f.Source)})
	}
	return doc
}

// EcosystemCategories lists the categories the facts use, in first-seen order.
func EcosystemCategories(facts []*catalog.EcosystemFact) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range facts {
		if !seen[f.Category] {
			seen[f.Category] = true
			out = append(out, f.Category)
		}
	}
	return out
}
