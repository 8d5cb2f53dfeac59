package baidu

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer"
)

// DefaultEndpoint is the regional BCC endpoint; {region} is replaced by
// the region (bcc.bj.baidubce.com ...).
const DefaultEndpoint = "https://bcc.{region}.baidubce.com"

// API paths (bce-sdk-go services/bcc/api/util.go getFlavorSpecUri,
// getPriceBySpecUri).
const (
	pathFlavorSpec = "/v2/instance/flavorSpec"
	pathPrice      = "/v2/instance/price"
)

const maxBody = 16 << 20

// APIError is an error answer of the BCC API ({"code", "message",
// "requestId"}). It never carries the credentials.
type APIError = importer.APIError

// apiCodes are BCE's error codes that refuse the credentials or
// permissions, and the one that asks to try again.
var apiCodes = &importer.APICodes{Source: "baidu",
	Fatal: func(code string) bool {
		switch code {
		case "AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch", "RequestExpired", "InvalidHTTPAuthHeader":
			return true
		}
		return false
	},
	Retry: func(code string) bool { return code == "InternalError" },
}

func (i *Importer) wants(b catalog.Billing) bool {
	if len(i.Billings) == 0 {
		return b == catalog.Subscription1m || b == catalog.Subscription1y
	}
	for _, x := range i.Billings {
		if x == b {
			return true
		}
	}
	return false
}

// lengths are the Prepaid purchase lengths Fetch asks for.
var lengths = []struct {
	billing catalog.Billing
	months  int
}{{catalog.Subscription1m, 1}, {catalog.Subscription1y, 12}}

func endpoint(set, region string) string {
	if set == "" {
		set = DefaultEndpoint
	}
	return strings.TrimRight(strings.ReplaceAll(set, "{region}", region), "/")
}

// Plan lists the requests Fetch would make, without credentials.
func (i *Importer) Plan() []string {
	var out []string
	per := 0
	var kinds []string
	for _, l := range lengths {
		if i.wants(l.billing) {
			per++
			kinds = append(kinds, fmt.Sprintf("Prepaid purchaseLength %d", l.months))
		}
	}
	for _, r := range i.Regions {
		out = append(out, fmt.Sprintf("GET %s%s (GPU flavors per zone)", endpoint(i.Endpoint, r), pathFlavorSpec))
	}
	out = append(out, fmt.Sprintf("POST %s%s per zone and GPU spec known to the catalog (%d known): %s",
		endpoint(i.Endpoint, "{region}"), pathPrice, len(i.InstanceTypes), strings.Join(kinds, ", ")))
	out = append(out, fmt.Sprintf("%d requests per region, plus %d per zone that sells a known GPU spec", 1, per))
	return out
}

// flavor is a BccFlavor of a flavorSpec answer.
type flavor struct {
	SpecID       string          `json:"specId"`
	Spec         string          `json:"spec"`
	GPUCardType  string          `json:"gpuCardType"`
	GPUCardCount json.RawMessage `json:"gpuCardCount"`
}

// gpus is gpuCardCount, a number or a numeric string.
func (f flavor) gpus() int {
	n, _ := strconv.Atoi(strings.Trim(strings.TrimSpace(string(f.GPUCardCount)), `"`))
	return n
}

// zoneFlavor is a GPU flavor sold in a zone.
type zoneFlavor struct {
	zone string
	flavor
}

// Fetch asks the BCC API for the Prepaid prices of every configured
// region's GPU specs that the catalog knows, in each zone (see the
// package documentation). A region whose flavor list cannot be read is
// counted and the others are still priced; a credential or permission
// error stops the fetch; more than importer.MaxFailureShare failed
// requests fail it.
func (i *Importer) Fetch(ctx context.Context, c *http.Client, p importer.Progress) (*importer.Result, error) {
	if i.AccessKeyID == "" || i.SecretAccessKey == "" {
		return nil, fmt.Errorf("baidu: no AK/SK pair configured (set %s and %s)", EnvAccessKeyID, EnvSecretAccessKey)
	}
	if len(i.Regions) == 0 {
		return nil, errors.New("baidu: no regions configured")
	}
	if len(i.InstanceTypes) == 0 {
		return nil, errors.New("baidu: no instance types configured (the price API prices one spec per request)")
	}
	if c == nil {
		c = http.DefaultClient
	}
	known := map[string]bool{}
	for _, t := range i.InstanceTypes {
		known[t] = true
	}
	b := i.newBuilder()
	t := &importer.Tally{Source: sourceName}
	n := 0
	var read int64
	for _, region := range i.Regions {
		flavors, err := i.gpuFlavors(ctx, c, region)
		if err != nil {
			if err := importer.RecordAPIError(t, &b.skipped, err, region); err != nil {
				return nil, err
			}
			continue
		}
		t.Answered()
		unknown := map[string]bool{}
		for _, f := range flavors {
			if !known[f.Spec] {
				if !unknown[f.Spec] {
					unknown[f.Spec] = true
					b.skipped.Add("GPU spec not in the catalog", region+" "+f.Spec)
				}
				continue
			}
			for _, l := range lengths {
				if !i.wants(l.billing) {
					continue
				}
				e := entry{Action: ActionPrice, Region: region, Zone: f.zone, Spec: f.Spec, PaymentTiming: prepaid, PurchaseLength: l.months}
				body, err := json.Marshal(map[string]any{"specId": f.SpecID, "spec": f.Spec, "paymentTiming": prepaid,
					"zoneName": f.zone, "purchaseCount": 1, "purchaseLength": l.months})
				if err != nil {
					return nil, err
				}
				out, fetched, err := i.call(ctx, c, ActionPrice, region, http.MethodPost, pathPrice, nil, body)
				if err != nil {
					if err := importer.RecordAPIError(t, &b.skipped, err, region+" "+f.zone+" "+f.Spec); err != nil {
						return nil, err
					}
					continue
				}
				t.Answered()
				read += int64(len(out))
				e.Response, e.FetchedAt = out, fetched.UTC().Format(time.RFC3339)
				if err := b.add(n, 0, e); err != nil {
					return nil, fmt.Errorf("baidu %s %s %s: %w", ActionPrice, region, f.Spec, err)
				}
				n++
			}
			if p != nil {
				p(read, b.count())
			}
		}
	}
	if err := t.Err(); err != nil {
		return nil, err
	}
	res := b.result()
	if p != nil {
		p(read, len(res.Offers))
	}
	return res, nil
}

// gpuFlavors lists the region's GPU flavors per zone (查询实例套餐规格),
// sorted by zone and spec.
func (i *Importer) gpuFlavors(ctx context.Context, c *http.Client, region string) ([]zoneFlavor, error) {
	body, _, err := i.call(ctx, c, "ListFlavorSpec", region, http.MethodGet, pathFlavorSpec, nil, nil)
	if err != nil {
		return nil, err
	}
	var resp struct {
		ZoneResources []struct {
			ZoneName     string `json:"zoneName"`
			BccResources struct {
				FlavorGroups []struct {
					GroupID string   `json:"groupId"`
					Flavors []flavor `json:"flavors"`
				} `json:"flavorGroups"`
			} `json:"bccResources"`
		} `json:"zoneResources"`
	}
	if err := importer.UnmarshalStrict(body, &resp); err != nil {
		return nil, &APIError{Codes: apiCodes, Action: "ListFlavorSpec", Region: region, Code: "HTTP 200", Message: "not the API's JSON: " + err.Error()}
	}
	var out []zoneFlavor
	for _, z := range resp.ZoneResources {
		for _, g := range z.BccResources.FlavorGroups {
			for _, f := range g.Flavors {
				if z.ZoneName != "" && f.Spec != "" && f.gpus() > 0 {
					out = append(out, zoneFlavor{zone: z.ZoneName, flavor: f})
				}
			}
		}
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].zone != out[b].zone {
			return out[a].zone < out[b].zone
		}
		return out[a].Spec < out[b].Spec
	})
	return out, nil
}

// call sends one signed request with retries and returns the body of a
// successful answer and when it was fetched. API errors are *APIError.
func (i *Importer) call(ctx context.Context, c *http.Client, action, region, method, path string, q url.Values, body []byte) ([]byte, time.Time, error) {
	attempts := i.Attempts
	if attempts < 1 {
		attempts = 3
	}
	wait := i.RetryWait
	if wait <= 0 {
		wait = time.Second
	}
	return importer.Retry(ctx, attempts, wait, importer.FinalAPIError, func() ([]byte, time.Time, error) {
		return i.once(ctx, c, action, region, method, path, q, body)
	})
}

func (i *Importer) once(ctx context.Context, c *http.Client, action, region, method, path string, q url.Values, body []byte) ([]byte, time.Time, error) {
	now := i.now()
	u, err := url.Parse(endpoint(i.Endpoint, region))
	if err != nil {
		return nil, now, fmt.Errorf("baidu: bad endpoint: %w", err)
	}
	u.Path = strings.TrimRight(u.Path, "/") + path
	u.RawQuery = q.Encode()
	headers := map[string]string{"Host": u.Host, "x-bce-date": now.UTC().Format("2006-01-02T15:04:05Z")}
	if body != nil {
		headers["Content-Type"] = "application/json"
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), rd)
	if err != nil {
		return nil, now, fmt.Errorf("baidu %s %s: %w", action, region, err)
	}
	signed := make([]string, 0, len(headers))
	for k, v := range headers {
		signed = append(signed, k)
		if k != "Host" {
			req.Header.Set(k, v)
		}
	}
	auth := authorization(i.AccessKeyID, i.SecretAccessKey, method, u.Path, q, headers, now, signed)
	req.Header.Set("Authorization", auth)
	// The signature (the last part of bce-auth-v1/...) is a credential
	// too, and a request ID may carry the key ID: no message echoes them.
	sig := auth[strings.LastIndex(auth, "/")+1:]
	redactString := func(s string) string { return importer.RedactString(i.redactString(s), auth, sig) }
	resp, err := c.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, now, fmt.Errorf("baidu %s %s: %s %s://%s%s: %w", action, region, method, u.Scheme, u.Host, u.Path, importer.RedactError(i.redact(err), auth, sig))
	}
	defer resp.Body.Close()
	out, err := importer.ReadBody(resp.Body, maxBody)
	if err != nil {
		return nil, now, fmt.Errorf("baidu %s %s: reading response: %w", action, region, err)
	}
	var head struct {
		Code      string `json:"code"`
		Message   string `json:"message"`
		RequestID string `json:"requestId"`
	}
	jsonErr := json.Unmarshal(out, &head)
	if resp.StatusCode >= 400 || head.Code != "" {
		ae := &APIError{Codes: apiCodes, Action: action, Region: region, HTTPStatus: resp.StatusCode, Code: head.Code,
			Message: redactString(head.Message), RequestID: redactString(head.RequestID)}
		if ae.RequestID == "" {
			ae.RequestID = redactString(resp.Header.Get("x-bce-request-id"))
		}
		if ae.Code == "" {
			ae.Code = "HTTP" + strconv.Itoa(resp.StatusCode)
			ae.Message = redactString(importer.Snippet(out))
		}
		return nil, now, ae
	}
	if jsonErr != nil {
		return nil, now, &APIError{Codes: apiCodes, Action: action, Region: region, Code: "HTTP 200", Message: "not the API's JSON: " + jsonErr.Error()}
	}
	return out, now, nil
}

func (i *Importer) redactString(s string) string {
	return importer.RedactString(importer.RedactString(s, i.SecretAccessKey), i.AccessKeyID)
}

func (i *Importer) redact(err error) error {
	return importer.RedactError(importer.RedactError(err, i.SecretAccessKey), i.AccessKeyID)
}
