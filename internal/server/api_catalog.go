package server

import (
	"net/http"
	"regexp"
	"strings"
	"sync"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/document"
)

// apiProviders serves gpuscout/providers@v1, the document of
// gpuscout providers -o json; ?category= is --category.
func (s *Server) apiProviders(r *http.Request, d *Data) (any, error) {
	cat := params{r.URL.Query()}.str("category")
	facts := d.Catalog.Ecosystem()
	if cat != "" && !contains(document.EcosystemCategories(facts), cat) {
		return nil, badRequest("category", "categories: "+strings.Join(document.EcosystemCategories(facts), ", ")+".", "no facts in category %q", cat)
	}
	return document.BuildProviders(facts, cat), nil
}

var reCountryParam = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z]{2}$`) })

// apiRegions serves gpuscout/regions@v1, filtered by provider, country and
// residency (each a list).
func (s *Server) apiRegions(r *http.Request, d *Data) (any, error) {
	p := params{r.URL.Query()}
	var provs []string
	for _, n := range p.list("provider") {
		pr, err := d.Catalog.LookupProvider(n)
		if err != nil {
			return nil, badField("provider", err)
		}
		provs = append(provs, pr.ID)
	}
	countries := p.list("country")
	for _, c := range countries {
		if !reCountryParam().MatchString(c) {
			return nil, badRequest("country", "use ISO 3166-1 alpha-2 codes such as US, CN or DE.", "%q is not a country code", c)
		}
	}
	residency := p.list("residency")
	var list []*catalog.Region
	for _, reg := range d.Catalog.Regions() {
		if (len(provs) == 0 || contains(provs, reg.Provider)) && (len(countries) == 0 || containsFold(countries, reg.Country)) &&
			(len(residency) == 0 || containsFold(residency, reg.Residency)) {
			list = append(list, reg)
		}
	}
	return document.BuildRegions(list, d.Catalog.Offers()), nil
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// lookupInstance finds provider/name; unknown names get a 404 with the
// closest instance types of that provider.
func (d *Data) lookupInstance(provider, name string) (*catalog.InstanceType, error) {
	pr, err := d.Catalog.LookupProvider(provider)
	if err != nil {
		return nil, notFoundErr(err)
	}
	if it, ok := d.Catalog.Instance(pr.ID + "/" + name); ok {
		return it, nil
	}
	var names []string
	for _, it := range d.Catalog.Instances() {
		if it.Provider != pr.ID {
			continue
		}
		if strings.EqualFold(it.Name, name) {
			return it, nil
		}
		names = append(names, it.Name)
	}
	nf := &catalog.NotFoundError{What: "instance type", Name: pr.ID + "/" + name}
	for _, sg := range catalog.Suggest(name, names, 3) {
		nf.Suggestions = append(nf.Suggestions, pr.ID+"/"+sg)
	}
	return nil, notFoundErr(nf)
}

// instanceDoc builds gpuscout/instance@v1: every offer of the instance type
// (any status), priced in cur, and the standard benchmark estimates.
func (d *Data) instanceDoc(it *catalog.InstanceType, cur string) (*document.InstanceDetail, error) {
	rows, err := d.Catalog.QueryOffers(catalog.OfferQuery{InstanceID: it.ID(), Currency: cur, FX: d.FX,
		Statuses: []string{catalog.StatusCurrent, catalog.StatusPrevious, catalog.StatusRetired}})
	if err != nil {
		return nil, dataProblem(err) // the currency was checked; the stored data is at fault
	}
	ests := document.EstimateInstance(d.Perf, it, document.StandardBenchmarks)
	doc := document.BuildInstance(it, rows, cur, d.FX, ests)
	return &doc, nil
}

func (s *Server) apiInstance(r *http.Request, d *Data) (any, error) {
	cur, err := d.currency(params{r.URL.Query()})
	if err != nil {
		return nil, err
	}
	it, err := d.lookupInstance(r.PathValue("provider"), r.PathValue("name"))
	if err != nil {
		return nil, err
	}
	return d.instanceDoc(it, cur)
}
