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
	"slices"
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
	// AnyRegion, when set, is the catalog's region for a provider that
	// publishes one price list for every region (Lambda's and Oracle's
	// "ANY"): SkyPilot's file lists each such type in every region at that
	// price, which says what it costs, not where it can be launched. An
	// instance type whose regions all give one price for a billing model
	// then becomes one offer in AnyRegion (its note says in how many
	// regions the file listed it), as the embedded catalog's rows from the
	// same files are; a type whose regions differ keeps its regions.
	AnyRegion string
	// limits replace MaxInstanceTypes, MaxOffers and MaxZoneRows where
	// not zero (tests).
	limits limits
}

// limits are the bounds of one parse.
type limits struct{ types, offers, zoneRows int }

func (l limits) or(d limits) limits {
	if l.types == 0 {
		l.types = d.types
	}
	if l.offers == 0 {
		l.offers = d.offers
	}
	if l.zoneRows == 0 {
		l.zoneRows = d.zoneRows
	}
	return l
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

// Bounds on one vms.csv. The largest real files (aws, azure) price a few
// hundred GPU instance types in a few thousand type and region pairs from
// tens of thousands of rows. An import streams its offers into the
// database (Stream), so memory grows only with what identifies them
// (measured with go test's heap figures): per type and region pair about
// 63 bytes (its 32-byte state, 27 in the index that finds it while the
// file is read, 4 in the order it is written in), that is about 31 MB per
// million offers; per row of a further availability zone of a pair about
// 36 bytes; per instance type about 500 bytes (its description). The
// bounds let a synthetic file of 10^6 offers through (bench/genvms: 21,740
// types, 500,000 pairs) twice over, and refuse a file far beyond any real
// catalog before its parse holds more than about 190 MB (all three bounds
// at once).
const (
	MaxInstanceTypes = 100000
	// MaxOffers bounds the offers of one file: at most one on-demand and
	// one spot offer per instance type and region pair, so MaxOffers/2
	// pairs.
	MaxOffers = 2000000
	// MaxZoneRows bounds the rows that price a pair in a further
	// availability zone (each is remembered to find a repeated zone).
	MaxZoneRows = 2000000
)

// columns a vms.csv must have; AvailabilityZone, SpotPrice and GpuInfo
// are optional.
var required = []string{"InstanceType", "AcceleratorName", "AcceleratorCount", "vCPUs", "MemoryGiB", "Price", "Region"}

// billings are the billing models of a pair's offers, by index.
var billings = [2]catalog.Billing{catalog.OnDemand, catalog.Spot}

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

// number is a figure of the file: a coefficient and a decimal exponent,
// or (for the rare figure whose coefficient needs more than 64 bits) a
// decimal held apart.
type number struct {
	c   int64
	e   int32
	big *decimal.Decimal
}

func (n number) dec() decimal.Decimal {
	if n.big != nil {
		return *n.big
	}
	return decimal.New(n.c, n.e)
}

func (n number) positive() bool {
	if n.big != nil {
		return n.big.IsPositive()
	}
	return n.c > 0
}

// cmp compares two figures.
func (n number) cmp(m number) int {
	if n.big == nil && m.big == nil && n.e == m.e {
		return cmpInt(n.c, m.c)
	}
	return n.dec().Cmp(m.dec())
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// parseNumber reads a figure: plain decimals ("32.7726") without
// allocating, anything else as decimal.NewFromString reads it.
func parseNumber(s string) (number, bool) {
	var c int64
	e, digits, dot := int32(0), 0, -1
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch >= '0' && ch <= '9':
			if digits == 18 {
				return slowNumber(s)
			}
			if c > 0 || ch != '0' {
				digits++
			}
			c = c*10 + int64(ch-'0')
			if dot >= 0 {
				e--
			}
		case ch == '.' && dot < 0 && i > 0 && i < len(s)-1:
			dot = i
		default:
			return slowNumber(s)
		}
	}
	if len(s) == 0 {
		return number{}, false
	}
	return number{c: c, e: e}, true
}

func slowNumber(s string) (number, bool) {
	d, err := decimal.NewFromString(s)
	if err != nil {
		return number{}, false
	}
	if co := d.Coefficient(); co.IsInt64() {
		return number{c: co.Int64(), e: d.Exponent()}, true
	}
	return number{big: &d}, true
}

// pair is the state of one instance type and region, 32 bytes: its
// strings' indexes in the parse's string table and, per billing (0
// on-demand, 1 spot), its lowest price (an index in the parse's table of
// figures) and how many zones priced it.
type pair struct {
	inst, region, zone uint32 // zone: the first row's availability zone
	set, differ        uint8  // bit b: billing b priced; its zones differ
	zones              [2]uint32
	price              [2]uint32
}

// pairChunk is how many pairs one block of a pairTable holds.
const pairChunk = 1 << 14

// pairTable holds a parse's pairs in fixed blocks: it grows without
// copying (and without holding an old and a new array at once).
type pairTable struct {
	chunks [][]pair
	n      int
}

func (t *pairTable) add(g pair) uint32 {
	if t.n%pairChunk == 0 {
		t.chunks = append(t.chunks, make([]pair, 0, pairChunk))
	}
	c := &t.chunks[len(t.chunks)-1]
	*c = append(*c, g)
	t.n++
	return uint32(t.n - 1)
}

func (t *pairTable) at(k uint32) *pair { return &t.chunks[k/pairChunk][k%pairChunk] }

// figures is a parse's table of distinct prices: a file repeats a few
// thousand prices over its rows.
type figures struct {
	index map[[2]int64]uint32
	list  []number
}

func (f *figures) id(n number) uint32 {
	if n.big != nil {
		f.list = append(f.list, n)
		return uint32(len(f.list) - 1)
	}
	k := [2]int64{n.c, int64(n.e)}
	if i, ok := f.index[k]; ok {
		return i
	}
	i := uint32(len(f.list))
	f.index[k] = i
	f.list = append(f.list, n)
	return i
}

// strs interns the strings of a parse: instance types, regions and zones
// repeat on many rows.
type strs struct {
	index map[string]uint32
	list  []string
}

func (s *strs) id(v string) uint32 {
	if i, ok := s.index[v]; ok {
		return i
	}
	i := uint32(len(s.list))
	v = strings.Clone(v) // not the row's line
	s.index[v] = i
	s.list = append(s.list, v)
	return i
}

// Stream reads a vms.csv as Parse does and hands its offers to sink, in
// offer-ID order, instead of returning them (the result's Offers stay
// empty): a file's offers need not fit in memory as catalog values. The
// offers are handed over once the whole file is read (the lowest price of
// an instance type and region is known only then), so a malformed row
// anywhere refuses the file before any offer is.
func (i *Importer) Stream(ctx context.Context, r io.Reader, p importer.Progress, sink importer.Sink) (*importer.Result, error) {
	return i.stream(ctx, r, p, i.File, sink)
}

func (i *Importer) parse(ctx context.Context, r io.Reader, p importer.Progress, file string) (*importer.Result, error) {
	var offers []*catalog.Offer
	res, err := i.stream(ctx, r, p, file, importer.Sink{Offer: func(o *catalog.Offer) error {
		c := *o
		offers = append(offers, &c)
		return nil
	}})
	if err != nil {
		return nil, err
	}
	res.Offers = offers
	return res, nil
}

func (i *Importer) stream(ctx context.Context, r io.Reader, p importer.Progress, file string, sink importer.Sink) (*importer.Result, error) {
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

	lim := i.limits.or(limits{MaxInstanceTypes, MaxOffers, MaxZoneRows})
	checkCloud := cloudCheck(i.Cloud)
	names := &strs{index: map[string]uint32{}}
	pairs := &pairTable{}
	figs := &figures{index: map[[2]int64]uint32{}}
	at := map[[2]uint32]uint32{}   // instance type and region: index in pairs
	moreZones := map[uint64]bool{} // pair index << 32 | zone: the further zones seen
	described := map[uint32]bool{} // instance types described
	rows := 0
	cr := &importer.CountingReader{R: importer.SkipBOM(r), Progress: p, Records: func() int { return rows }}
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
	colOf := func(name string) int {
		if k, ok := col[name]; ok {
			return k
		}
		return -1
	}
	cInst, cAcc, cCount, cVCPU, cMem, cInfo := colOf("InstanceType"), colOf("AcceleratorName"), colOf("AcceleratorCount"), colOf("vCPUs"), colOf("MemoryGiB"), colOf("GpuInfo")
	cPrice, cSpot, cRegion, cZone := colOf("Price"), colOf("SpotPrice"), colOf("Region"), colOf("AvailabilityZone")
	get := func(rec []string, k int) string {
		if k < 0 {
			return ""
		}
		return strings.TrimSpace(rec[k])
	}
	num := func(rec []string, line int, k int, name string) (number, bool, error) {
		s := get(rec, k)
		if s == "" || strings.EqualFold(s, "nan") {
			return number{}, false, nil
		}
		d, ok := parseNumber(s)
		if !ok {
			return number{}, false, perr(line, name, fmt.Errorf("%q is not a number", s))
		}
		if d.c < 0 || d.big != nil && d.big.IsNegative() {
			return number{}, false, perr(line, name, fmt.Errorf("%q is negative", s))
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
		rows++
		inst, acc, region := get(rec, cInst), get(rec, cAcc), get(rec, cRegion)
		if inst != "" && checkCloud != nil {
			if err := checkCloud(line, inst); err != nil {
				return nil, perr(line, "InstanceType", err)
			}
		}
		count, hasCount, err := num(rec, line, cCount, "AcceleratorCount")
		if err != nil {
			return nil, err
		}
		vcpu, _, err := num(rec, line, cVCPU, "vCPUs")
		if err != nil {
			return nil, err
		}
		mem, _, err := num(rec, line, cMem, "MemoryGiB")
		if err != nil {
			return nil, err
		}
		price, hasPrice, err := num(rec, line, cPrice, "Price")
		if err != nil {
			return nil, err
		}
		spot, hasSpot, err := num(rec, line, cSpot, "SpotPrice")
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
		if !hasCount || !count.positive() {
			res.Skipped.Add("no accelerator count", inst)
			continue
		}
		instID := names.id(inst)
		if !described[instID] {
			if len(described) >= lim.types {
				return nil, perr(line, "InstanceType", fmt.Errorf("more than %d GPU instance types: not a SkyPilot vms.csv (the largest real one has a few hundred)", lim.types))
			}
			described[instID] = true
			res.Instances = append(res.Instances, &catalog.DiscoveredInstance{Provider: i.Cloud, Name: names.list[instID], GPUName: strings.Clone(acc),
				GPUCount: count.dec(), GPUMemoryGiB: gpuMemoryGiB(get(rec, cInfo)), VCPU: vcpu.dec(), MemoryGiB: mem.dec(), Source: source})
		}
		var prices [2]number // by billing, as pair's
		hasOnDemand, hasSpotPrice := hasPrice && price.positive(), hasSpot && spot.positive()
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
		zone := get(rec, cZone)
		key := [2]uint32{instID, names.id(region)}
		k, ok := at[key]
		var g *pair
		if !ok {
			if 2*pairs.n >= lim.offers {
				return nil, perr(line, "Region", fmt.Errorf("more than %d instance type and region pairs (%d offers): not a SkyPilot vms.csv (the largest real one has a few thousand)", lim.offers/2, lim.offers))
			}
			k = pairs.add(pair{inst: key[0], region: key[1], zone: names.id(zone)})
			at[key] = k
			g = pairs.at(k)
		} else {
			g = pairs.at(k)
			z := names.id(zone)
			zk := uint64(k)<<32 | uint64(z)
			if z == g.zone || moreZones[zk] {
				// The same instance type, region and zone again: one rule for
				// every import (docs/importing.md), the first row is kept.
				where := region
				if zone != "" {
					where = zone
				}
				res.Skipped.Add(importer.SkipDuplicate, inst+" "+where)
				continue
			}
			if len(moreZones) >= lim.zoneRows {
				return nil, perr(line, "AvailabilityZone", fmt.Errorf("more than %d rows of further availability zones: not a SkyPilot vms.csv (the largest real one has a few thousand)", lim.zoneRows))
			}
			moreZones[zk] = true
			// Another zone of the region: the region's offer is the lowest.
			res.Skipped.Add("zone duplicates", inst+" "+zone)
		}
		for b, v := range prices {
			if b == 0 && !hasOnDemand || b == 1 && !hasSpotPrice {
				continue
			}
			g.zones[b]++
			bit := uint8(1) << b
			if g.set&bit == 0 {
				g.set |= bit
				g.price[b] = figs.id(v)
				continue
			}
			if c := v.cmp(figs.list[g.price[b]]); c != 0 {
				g.differ |= bit
				if c < 0 {
					g.price[b] = figs.id(v)
				}
			}
		}
	}
	// By offer ID: provider (one), instance type, region, billing. No
	// identifier the catalog accepts holds a slash, so ordering instance
	// types and regions apart orders the IDs (an offer whose name holds one
	// is skipped by the import's check).
	rank := make([]uint32, len(names.list))
	for _, ids := range [][]uint32{distinct(pairs, len(names.list), false), distinct(pairs, len(names.list), true)} {
		slices.SortFunc(ids, func(a, b uint32) int { return strings.Compare(names.list[a], names.list[b]) })
		for r, id := range ids {
			rank[id] = uint32(r)
		}
	}
	at, moreZones, described, figs.index = nil, nil, nil, nil // no longer needed
	order := make([]uint32, pairs.n)
	for k := range order {
		order[k] = uint32(k)
	}
	slices.SortFunc(order, func(a, b uint32) int {
		x, y := pairs.at(a), pairs.at(b)
		if c := cmpInt(int64(rank[x.inst]), int64(rank[y.inst])); c != 0 {
			return c
		}
		return cmpInt(int64(rank[x.region]), int64(rank[y.region]))
	})
	if p != nil { // the whole file read
		p(cr.N, rows)
	}
	if sink.Read != nil {
		if err := sink.Read(res); err != nil {
			return nil, err
		}
	}
	o := &catalog.Offer{Provider: i.Cloud, Source: source}
	emit := func(g *pair, b int, region string, note string) error {
		*o = catalog.Offer{Provider: i.Cloud, InstanceName: names.list[g.inst], RegionCode: region, Billing: billings[b],
			Price: catalog.Price{Hourly: figs.list[g.price[b]].dec(), Currency: "USD"}, Notes: note, Source: source}
		if note == "" && g.differ&(1<<b) != 0 {
			o.Notes = fmt.Sprintf("lowest of %d availability-zone prices", g.zones[b])
		}
		return sink.Offer(o)
	}
	for k := 0; k < len(order); {
		// The pairs of one instance type, in region order.
		end := k + 1
		for end < len(order) && pairs.at(order[end]).inst == pairs.at(order[k]).inst {
			end++
		}
		run := order[k:end]
		var listed [2]int // regions of a billing model collapsed into AnyRegion (0: none)
		if i.AnyRegion != "" {
			listed = priceList(pairs, figs, run)
		}
		// The price-list offers go where AnyRegion sorts among the
		// regions, keeping the offers in ID order.
		anyDone := listed[0] == 0 && listed[1] == 0
		emitAny := func() error {
			anyDone = true
			for b := range billings {
				if listed[b] > 0 {
					if err := emit(pairs.at(run[0]), b, i.AnyRegion, priceListNote(listed[b])); err != nil {
						return err
					}
				}
			}
			return nil
		}
		for _, pk := range run {
			g := pairs.at(pk)
			region := names.list[g.region]
			if !anyDone && strings.Compare(i.AnyRegion, region) < 0 {
				if err := emitAny(); err != nil {
					return nil, err
				}
			}
			folded := false
			for b := range billings {
				if g.set&(1<<b) == 0 {
					continue
				}
				if listed[b] > 0 {
					folded = true
					continue
				}
				if err := emit(g, b, region, ""); err != nil {
					return nil, err
				}
			}
			if folded {
				res.Skipped.Add(SkipPriceList, names.list[g.inst]+" "+region)
			}
		}
		if !anyDone {
			if err := emitAny(); err != nil {
				return nil, err
			}
		}
		if k/4096 != end/4096 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("%s: %w", src, err)
			}
		}
		k = end
	}
	return res, nil
}

// SkipPriceList counts the rows of a provider's one price list that an
// import with AnyRegion folds into one offer there.
const SkipPriceList = "one price in every region (one offer in the price-list region)"

// priceList reports, per billing model, in how many regions the file
// lists one instance type (run: its pairs) at one price, with no zone of
// any region priced apart; 0 where the regions' prices differ or none is
// priced.
func priceList(pairs *pairTable, figs *figures, run []uint32) (listed [2]int) {
	for b := range billings {
		bit := uint8(1) << b
		first, n := uint32(0), 0
		for _, pk := range run {
			g := pairs.at(pk)
			if g.set&bit == 0 {
				continue
			}
			if g.differ&bit != 0 || n > 0 && figs.list[g.price[b]].cmp(figs.list[first]) != 0 {
				n = 0
				break
			}
			if n == 0 {
				first = g.price[b]
			}
			n++
		}
		listed[b] = n
	}
	return listed
}

// priceListNote is the note of an offer that stands for every region.
func priceListNote(regions int) string {
	return fmt.Sprintf("PRICE LIST: the same price in all %d regions the file lists, which is what the type costs, not where it can be launched: the offer stands for any region of the provider", regions)
}

// distinct lists the distinct instance types (or regions) of pairs, as
// string indexes (n strings in all).
func distinct(pairs *pairTable, n int, regions bool) []uint32 {
	seen := make([]bool, n)
	var out []uint32
	for _, c := range pairs.chunks {
		for k := range c {
			id := c[k].inst
			if regions {
				id = c[k].region
			}
			if !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	return out
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
