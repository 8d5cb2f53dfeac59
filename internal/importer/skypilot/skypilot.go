// Package skypilot imports GPU instance prices from the SkyPilot catalog
// (https://github.com/skypilot-org/skypilot-catalog), a third-party,
// derived data set: catalogs/v<N>/<cloud>/vms.csv with the columns
// InstanceType, AcceleratorName, AcceleratorCount, vCPUs, MemoryGiB,
// GpuInfo, Region, AvailabilityZone, Price and SpotPrice, in an order that
// differs by cloud and schema version, so columns are found by header
// name. Prices are USD per instance-hour.
package skypilot

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/shopspring/decimal"
)

// SourceName is the importer's name.
const SourceName = "skypilot"

// DefaultBaseURL serves the catalog files.
const DefaultBaseURL = "https://raw.githubusercontent.com/skypilot-org/skypilot-catalog/master"

// DefaultVersion is the catalog schema version Fetch reads.
const DefaultVersion = "v7"

// refPrefix starts every offer's Source.Ref.
const refPrefix = "skypilot-catalog vms.csv"

// Importer imports one cloud's vms.csv.
type Importer struct {
	// Cloud is the provider the file describes (aws, azure, gcp, oci,
	// lambda ...); it becomes the offers' Provider. Required.
	Cloud string
	// File names the parsed file in the offers' Source.Ref, e.g.
	// "catalogs/v7/lambda/vms.csv@1158013"; Fetch uses the URL.
	File string
	// BaseURL serves catalogs/<version>/<cloud>/vms.csv; empty means
	// DefaultBaseURL.
	BaseURL string
	// Version is the catalog schema version; empty means DefaultVersion.
	Version string
	// Now is the clock for FetchedAt; nil means time.Now.
	Now func() time.Time
	// AsOf is the date of the catalog commit; zero means the FetchedAt
	// time (the file carries no date).
	AsOf time.Time
}

// Name returns "skypilot".
func (i *Importer) Name() string { return SourceName }

func (i *Importer) now() time.Time {
	if i.Now != nil {
		return i.Now()
	}
	return time.Now()
}

// cloudPattern keeps the cloud a single path segment.
var cloudPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`) })

// URL is the vms.csv URL Fetch reads.
func (i *Importer) URL() string {
	base := i.BaseURL
	if base == "" {
		base = DefaultBaseURL
	}
	v := i.Version
	if v == "" {
		v = DefaultVersion
	}
	return strings.TrimRight(base, "/") + "/catalogs/" + v + "/" + i.Cloud + "/vms.csv"
}

// Fetch downloads and parses the cloud's vms.csv.
func (i *Importer) Fetch(ctx context.Context, c *http.Client, p importer.Progress) (*importer.Result, error) {
	if !cloudPattern().MatchString(i.Cloud) {
		return nil, fmt.Errorf("skypilot: cloud %q is not a catalog name like aws or lambda", i.Cloud)
	}
	if c == nil {
		c = http.DefaultClient
	}
	u := i.URL()
	resp, err := importer.GetWithRetry(ctx, c, u, http.Header{"Accept": {"text/csv"}}, 3)
	if err != nil {
		return nil, fmt.Errorf("skypilot: %w", err)
	}
	defer resp.Body.Close()
	return i.parse(ctx, resp.Body, p, u)
}

// Parse reads a vms.csv file.
func (i *Importer) Parse(ctx context.Context, r io.Reader, p importer.Progress) (*importer.Result, error) {
	return i.parse(ctx, r, p, i.File)
}

// Bounds on one vms.csv: the largest real files (aws, azure) price a few
// hundred GPU instance types in a few thousand type and region pairs; a
// file far beyond them is not a catalog file, and would cost memory.
const (
	MaxInstanceTypes = 20000
	MaxOffers        = 200000
)

// columns a vms.csv must have; AvailabilityZone, SpotPrice and GpuInfo
// are optional.
var required = []string{"InstanceType", "AcceleratorName", "AcceleratorCount", "vCPUs", "MemoryGiB", "Price", "Region"}

// group collects the rows of one instance type in one region.
type group struct {
	// By billing: 0 on-demand, 1 spot (billings).
	offers [2]*catalog.Offer
	zones  [2]int // rows priced, for the note
	differ [2]bool
	// firstZone is the first row's availability zone; more holds the
	// others (nil until a second zone is seen).
	firstZone string
	more      map[string]bool
}

// billings are the billing models of a group's offers, by index.
var billings = [2]catalog.Billing{catalog.OnDemand, catalog.Spot}

// seen reports whether the group already has a row for zone, and records it.
func (g *group) seen(zone string) bool {
	if zone == g.firstZone || g.more[zone] {
		return true
	}
	if g.more == nil {
		g.more = map[string]bool{}
	}
	g.more[zone] = true
	return false
}

// cloudTypes describe how the clouds whose instance-type names tell them
// apart name their instance types, as their vms.csv files list them: a
// file given to an import for one of these clouds must name its rows that
// way, so that another cloud's file (a lambda import given aws rows) is
// refused at its first row instead of storing that cloud's prices as this
// one's. Other clouds are not checked.
var cloudTypes = []struct {
	cloud, example string
	match          func(string) bool
}{
	{"aws", "p4d.24xlarge", func(s string) bool { // family.size
		dot := strings.IndexByte(s, '.')
		return dot > 0 && dot < len(s)-1 && strings.Count(s, ".") == 1 && lowerName(s, ".-")
	}},
	{"azure", "Standard_NC24ads_A100_v4", func(s string) bool {
		return strings.HasPrefix(s, "Standard_") || strings.HasPrefix(s, "Basic_")
	}},
	{"gcp", "a2-highgpu-1g", func(s string) bool { // series-type-size
		return strings.Contains(s, "-") && lowerName(s, "-")
	}},
	{"lambda", "gpu_1x_a100_sxm4", func(s string) bool { // kind_Nx_model
		kind, rest, ok := strings.Cut(s, "_")
		n, _, ok2 := strings.Cut(rest, "x_")
		return ok && ok2 && kind != "" && n != "" && strings.Trim(n, "0123456789") == "" && lowerName(s, "_")
	}},
	{"oci", "BM.GPU.H100.8", func(s string) bool { return strings.HasPrefix(s, "BM.") || strings.HasPrefix(s, "VM.") }},
}

// lowerName reports whether s holds only lower-case ASCII letters, digits
// and the bytes of extra.
func lowerName(s, extra string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte(extra, c) >= 0) {
			return false
		}
	}
	return s != ""
}

// cloudCheck returns the check of instance-type names for cloud (nil when
// its names are not checked).
func cloudCheck(cloud string) func(line int, inst string) error {
	for _, t := range cloudTypes {
		if t.cloud != cloud {
			continue
		}
		return func(line int, inst string) error {
			if t.match(inst) {
				return nil
			}
			guess := ""
			for _, o := range cloudTypes {
				if o.cloud != cloud && o.match(inst) {
					article := "a"
					if strings.ContainsRune("aeiou", rune(o.cloud[0])) {
						article = "an"
					}
					guess = fmt.Sprintf("; it is named like %s %s instance type", article, o.cloud)
					break
				}
			}
			return fmt.Errorf("%q is not named like %s's instance types (such as %s)%s: the file is not %s's vms.csv, or --cloud is wrong",
				inst, cloud, t.example, guess, cloud)
		}
	}
	return nil
}

func (i *Importer) parse(ctx context.Context, r io.Reader, p importer.Progress, file string) (*importer.Result, error) {
	if i.Cloud == "" {
		return nil, errors.New("skypilot: Importer.Cloud (the provider of the file) is empty")
	}
	src := SourceName
	if file != "" {
		src += " " + file
	}
	perr := func(line int, field string, err error) error {
		return &importer.ParseError{Source: src, Line: line, Field: field, Err: err}
	}
	ref := refPrefix
	if file != "" {
		ref += " " + file
	}
	source := importer.Source(catalog.SourceThirdParty, ref, i.AsOf, i.now())
	res := &importer.Result{Source: SourceName}

	checkCloud := cloudCheck(i.Cloud)
	groups := map[[2]string]*group{}
	described := map[string]bool{}
	var order [][2]string
	cr := &importer.CountingReader{R: importer.SkipBOM(r), Progress: p, Records: func() int { return len(order) }}
	rd := csv.NewReader(importer.RecordLimit(cr, importer.MaxCSVRecord))
	rd.ReuseRecord = true
	header, err := rd.Read()
	if err == io.EOF {
		return nil, perr(1, "", errors.New("empty file: no header"))
	}
	if err != nil {
		return nil, csvErr(src, err, nil)
	}
	header = append([]string(nil), header...)
	if len(header) > 0 {
		header[0] = strings.TrimPrefix(header[0], "\ufeff")
	}
	col := map[string]int{}
	for k, h := range header {
		col[strings.TrimSpace(h)] = k
	}
	for _, name := range required {
		if _, ok := col[name]; !ok {
			return nil, perr(1, name, fmt.Errorf("missing column (header: %s)", strings.Join(header, ",")))
		}
	}
	get := func(rec []string, name string) string {
		k, ok := col[name]
		if !ok {
			return ""
		}
		return strings.TrimSpace(rec[k])
	}
	num := func(rec []string, line int, name string) (decimal.Decimal, bool, error) {
		s := get(rec, name)
		if s == "" || strings.EqualFold(s, "nan") {
			return decimal.Zero, false, nil
		}
		d, err := decimal.NewFromString(s)
		if err != nil {
			return decimal.Zero, false, perr(line, name, fmt.Errorf("%q is not a number", s))
		}
		if d.IsNegative() {
			return decimal.Zero, false, perr(line, name, fmt.Errorf("%q is negative", s))
		}
		return d, true, nil
	}
	for n := 0; ; n++ {
		if n%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("%s: %w", src, err)
			}
		}
		rec, err := rd.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvErr(src, err, header)
		}
		line, _ := rd.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		inst, acc, region := get(rec, "InstanceType"), get(rec, "AcceleratorName"), get(rec, "Region")
		if inst != "" && checkCloud != nil {
			if err := checkCloud(line, inst); err != nil {
				return nil, perr(line, "InstanceType", err)
			}
		}
		for _, name := range []string{"AcceleratorCount", "vCPUs", "MemoryGiB"} {
			if _, _, err := num(rec, line, name); err != nil {
				return nil, err
			}
		}
		price, hasPrice, err := num(rec, line, "Price")
		if err != nil {
			return nil, err
		}
		spot, hasSpot, err := num(rec, line, "SpotPrice")
		if err != nil {
			return nil, err
		}
		switch {
		case acc == "":
			res.Skipped.Add("no GPU", inst+" "+region)
			continue
		case inst == "":
			res.Skipped.Add("accelerator-only row (no instance type)", acc+" "+region)
			continue
		case region == "":
			return nil, perr(line, "Region", errors.New("empty"))
		}
		count, ok, _ := num(rec, line, "AcceleratorCount")
		if !ok || !count.IsPositive() {
			res.Skipped.Add("no accelerator count", inst)
			continue
		}
		if !described[inst] {
			if len(described) >= MaxInstanceTypes {
				return nil, perr(line, "InstanceType", fmt.Errorf("more than %d GPU instance types: not a SkyPilot vms.csv (the largest real one has a few hundred)", MaxInstanceTypes))
			}
			described[inst] = true
			vcpu, _, _ := num(rec, line, "vCPUs")
			mem, _, _ := num(rec, line, "MemoryGiB")
			res.Instances = append(res.Instances, &catalog.DiscoveredInstance{Provider: i.Cloud, Name: inst, GPUName: acc,
				GPUCount: count, GPUMemoryGiB: gpuMemoryGiB(get(rec, "GpuInfo")), VCPU: vcpu, MemoryGiB: mem, Source: source})
		}
		var prices [2]decimal.Decimal // by billing, as group's
		hasOnDemand, hasSpotPrice := hasPrice && price.IsPositive(), hasSpot && spot.IsPositive()
		if hasOnDemand {
			prices[0] = price
		}
		if hasSpotPrice {
			prices[1] = spot
		}
		if !hasOnDemand && !hasSpotPrice {
			res.Skipped.Add("no price", inst+" "+region)
			continue
		}
		key := [2]string{inst, region}
		zone := get(rec, "AvailabilityZone")
		g := groups[key]
		if g == nil {
			if len(order) >= MaxOffers {
				return nil, perr(line, "Region", fmt.Errorf("more than %d instance type and region pairs: not a SkyPilot vms.csv (the largest real one has a few thousand)", MaxOffers))
			}
			g = &group{firstZone: zone}
			groups[key] = g
			order = append(order, key)
		} else if g.seen(zone) {
			// The same instance type, region and zone again: one rule for
			// every import (docs/importing.md), the first row is kept.
			where := region
			if zone != "" {
				where = zone
			}
			res.Skipped.Add(importer.SkipDuplicate, inst+" "+where)
			continue
		} else {
			// Another zone of the region: the region's offer is the lowest.
			res.Skipped.Add("zone duplicates", inst+" "+zone)
		}
		for b, v := range prices {
			if b == 0 && !hasOnDemand || b == 1 && !hasSpotPrice {
				continue
			}
			g.zones[b]++
			old := g.offers[b]
			if old == nil {
				g.offers[b] = &catalog.Offer{
					Provider:     i.Cloud,
					InstanceName: inst,
					RegionCode:   region,
					Billing:      billings[b],
					Price:        catalog.Price{Hourly: v, Currency: "USD"},
					Source:       source,
				}
				continue
			}
			if !v.Equal(old.Price.Hourly) {
				g.differ[b] = true
			}
			if v.LessThan(old.Price.Hourly) {
				old.Price.Hourly = v
			}
		}
	}
	for _, key := range order {
		g := groups[key]
		for b := range billings {
			o := g.offers[b]
			if o == nil {
				continue
			}
			if g.differ[b] {
				o.Notes = fmt.Sprintf("lowest of %d availability-zone prices", g.zones[b])
			}
			res.Offers = append(res.Offers, o)
		}
	}
	// By ID, each computed once (not in every comparison).
	byID := make([]struct {
		id string
		o  *catalog.Offer
	}, len(res.Offers))
	for k, o := range res.Offers {
		byID[k].id, byID[k].o = o.ID(), o
	}
	sort.SliceStable(byID, func(a, b int) bool { return byID[a].id < byID[b].id })
	for k := range byID {
		res.Offers[k] = byID[k].o
	}
	if p != nil {
		p(cr.N, len(res.Offers))
	}
	return res, nil
}

// sizeInMiB finds the memory of one GPU in a GpuInfo column:
// {'Gpus': [{'Name': 'A100', ..., 'MemoryInfo': {'SizeInMiB': 40960}}], ...}.
var sizeInMiB = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`'SizeInMiB':\s*([0-9]+(?:\.[0-9]+)?)`) })

// gpuMemoryGiB is the memory of one GPU a GpuInfo column gives, in GiB
// (zero when it gives none).
func gpuMemoryGiB(info string) decimal.Decimal {
	m := sizeInMiB().FindStringSubmatch(info)
	if m == nil {
		return decimal.Zero
	}
	d, err := decimal.NewFromString(m[1])
	if err != nil {
		return decimal.Zero
	}
	return d.Div(decimal.NewFromInt(1024))
}

// csvErr turns an encoding/csv error into a ParseError naming the line and
// the column.
func csvErr(src string, err error, header []string) error {
	var ce *csv.ParseError
	if errors.As(err, &ce) {
		if errors.Is(ce.Err, csv.ErrFieldCount) {
			return &importer.ParseError{Source: src, Line: ce.Line, Field: "record", Err: fmt.Errorf("%w: want %d fields (%s)", ce.Err, len(header), strings.Join(header, ","))}
		}
		return &importer.ParseError{Source: src, Line: ce.Line, Err: fmt.Errorf("column %d: %w", ce.Column, ce.Err)}
	}
	return &importer.ParseError{Source: src, Line: importer.CSVLine(err), Err: err}
}
