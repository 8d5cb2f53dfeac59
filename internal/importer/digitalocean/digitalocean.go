// Package digitalocean imports DigitalOcean's GPU Droplet prices and the
// regions each size can be created in from the DigitalOcean API's sizes
// list:
//
//	GET https://api.digitalocean.com/v2/sizes?per_page=200
//	Authorization: Bearer $DIGITALOCEAN_TOKEN
//
// documented as "List All Droplet Sizes" in the API reference
// (https://docs.digitalocean.com/reference/api/digitalocean/#tag/Sizes/operation/sizes_list),
// the request DigitalOcean's Go client sends (digitalocean/godo sizes.go
// SizesServiceOp.List: GET "v2/sizes" on https://api.digitalocean.com/
// with ListOptions page and per_page; read at 3fce660c and restated as
// data in testdata/official-client.json, which
// TestRequestAndShapeMatchOfficialClient checks the request and the
// parser's fields against). The answer is {"sizes": [{slug, memory, vcpus,
// disk, transfer, price_monthly, price_hourly, regions, available,
// description, gpu_info {count, vram {amount, unit}, model}, disk_info}],
// "links": {"pages": {next, ...}}, "meta": {total}}; pages are followed by
// links.pages.next. Errors are {"id", "message", "request_id"}.
//
// Each size with gpu_info becomes an on-demand offer (price_hourly USD)
// in each region slug it lists, with a stock reading at the fetch: the
// size's available flag (true: available, false: none). CPU sizes are
// skipped and counted. The token is read from DIGITALOCEAN_TOKEN (the
// variable DigitalOcean's doctl and Terraform provider read), sent only
// in the Authorization header and redacted from every error.
package digitalocean

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/gpuscout/gpuscout/internal/importer/httpapi"
)

// EnvToken is the environment variable holding the API token.
const EnvToken = "DIGITALOCEAN_TOKEN"

// DefaultBase is the API server.
const DefaultBase = "https://api.digitalocean.com"

// Path is the sizes endpoint.
const Path = "/v2/sizes"

// PerPage is the page size asked for (the reference's maximum).
const PerPage = 200

// maxPages bounds the pages followed.
const maxPages = 20

const sourceName = "digitalocean"

// Importer fetches or parses the sizes list.
type Importer struct {
	Token string
	// Base overrides DefaultBase (tests, a proxy).
	Base string
	// Seen is when the answer Parse reads was fetched; zero (a recorded
	// answer of unknown age) keeps the prices and drops the readings.
	Seen  time.Time
	Now   func() time.Time
	Retry httpapi.Retry
}

// Name implements importer.Importer.
func (i *Importer) Name() string { return sourceName }

func (i *Importer) base() string {
	if i.Base != "" {
		return i.Base
	}
	return DefaultBase
}

// first is the first page's request.
func first() httpapi.Call {
	return httpapi.Call{Action: "sizes", Method: http.MethodGet, Path: Path,
		Query: url.Values{"per_page": {strconv.Itoa(PerPage)}}, Header: http.Header{"Accept": {"application/json"}}}
}

// Plan lists the requests Fetch makes (catalog update --dry-run).
func (i *Importer) Plan() []string {
	return []string{fmt.Sprintf("GET %s%s?per_page=%d (Authorization: Bearer $%s), following links.pages.next: GPU Droplet sizes, hourly price, regions and whether each can be created now",
		i.base(), Path, PerPage, EnvToken)}
}

func (i *Importer) client(c *http.Client) *httpapi.Client {
	return &httpapi.Client{Source: sourceName, HTTP: c, Base: i.base(), Sign: httpapi.Bearer{Token: i.Token},
		Classify: classify, Retry: i.Retry, Now: i.Now, Codes: apiCodes}
}

// next is the call for links.pages.next, if the answer has one. Only the
// page and per_page of the link are kept: the request stays on the
// client's server.
func next(a httpapi.Answer) (httpapi.Call, bool, error) {
	var p struct {
		Links struct {
			Pages struct {
				Next string `json:"next"`
			} `json:"pages"`
		} `json:"links"`
	}
	if err := json.Unmarshal(a.Body, &p); err != nil || p.Links.Pages.Next == "" {
		return httpapi.Call{}, false, nil
	}
	u, err := url.Parse(p.Links.Pages.Next)
	if err != nil || u.Query().Get("page") == "" {
		return httpapi.Call{}, false, &importer.ParseError{Source: sourceName, Field: "links.pages.next", Err: fmt.Errorf("%q is not a page link", p.Links.Pages.Next)}
	}
	c := first()
	c.Query.Set("page", u.Query().Get("page"))
	return c, true, nil
}

// Fetch lists the sizes, page by page, and parses them; the readings are
// seen at the first page's fetch.
func (i *Importer) Fetch(ctx context.Context, c *http.Client, p importer.Progress) (*importer.Result, error) {
	if i.Token == "" {
		return nil, fmt.Errorf("digitalocean: no API token (set %s)", EnvToken)
	}
	var pages [][]byte
	var fetched time.Time
	var read int64
	for ans, err := range httpapi.Pages(ctx, i.client(c), first(), maxPages, next) {
		if err != nil {
			return nil, err
		}
		if fetched.IsZero() {
			fetched = ans.Fetched
		}
		pages = append(pages, ans.Body)
		read += int64(len(ans.Body))
	}
	res, err := parsePages(pages, fetched, fetched, i.base()+Path)
	if err != nil {
		return nil, err
	}
	if p != nil {
		p(read, len(res.Offers))
	}
	return res, nil
}

// Parse reads one recorded sizes answer (catalog import).
func (i *Importer) Parse(ctx context.Context, r io.Reader, p importer.Progress) (*importer.Result, error) {
	b, err := httpapi.ReadRecorded(sourceName, r)
	if err != nil {
		return nil, err
	}
	fetched := httpapi.RecordedAt(i.Seen, i.Now)
	res, err := parsePages([][]byte{b}, fetched, i.Seen, i.base()+Path)
	if err != nil {
		return nil, err
	}
	if p != nil {
		p(int64(len(b)), len(res.Offers))
	}
	return res, nil
}
