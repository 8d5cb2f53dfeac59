package gcp

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/gpuscout/gpuscout/internal/importer/httpapi"
)

// maxBody caps one SKU page. A page holds up to 5,000 SKUs (pageSize);
// the SKUs of the test fixtures take about 1.3 KB each, some 7 MB a full
// page, so a page of 64 MiB is not the API's.
const maxBody = 64 << 20

// apiKey signs a Cloud Billing request with its API key, the first query
// parameter ("?key=...&pageSize=..."), and names the key as the secret
// every error is redacted of.
type apiKey string

// Sign implements httpapi.Signer.
func (k apiKey) Sign(req *http.Request, _ []byte) ([]string, error) {
	q := "key=" + url.QueryEscape(string(k))
	if req.URL.RawQuery != "" {
		q += "&" + req.URL.RawQuery
	}
	req.URL.RawQuery = q
	return []string{string(k)}, nil
}

// apiCodes words the Cloud Billing API's error answers; 401 and 403
// refuse the key, 429 and 5xx are tried again (httpapi.Do). Fetch puts
// "gcp: page N" before it.
var apiCodes = &importer.APICodes{Source: SourceName,
	Text: func(e *importer.APIError) string {
		msg := fmt.Sprintf("%s: HTTP %d %s", e.Action, e.HTTPStatus, http.StatusText(e.HTTPStatus))
		if !strings.HasPrefix(e.Code, "HTTP") {
			msg += ": " + e.Code
		}
		if e.Message != "" {
			msg += ": " + e.Message
		}
		return msg
	},
}

// errorBody is Google's API error envelope (google.rpc.Status as JSON,
// https://cloud.google.com/apis/design/errors): its status names the
// error ("PERMISSION_DENIED"), its message says what was wrong.
type errorBody struct {
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Status  string `json:"status"`
	} `json:"error"`
}

// classifyError reads an error answer: the envelope's status and message, or
// the HTTP status with the start of the body.
func classifyError(status int, _ http.Header, body []byte) *importer.APIError {
	if status < 400 {
		return nil
	}
	var e errorBody
	if json.Unmarshal(body, &e) == nil && e.Error != nil && e.Error.Status != "" {
		return &importer.APIError{Code: e.Error.Status, Message: importer.Snippet([]byte(e.Error.Message)), Codes: apiCodes}
	}
	return &importer.APIError{Code: "HTTP" + strconv.Itoa(status), Message: importer.Snippet(body), Codes: apiCodes}
}

// client is the Cloud Billing API's client.
func (i *Importer) client(hc *http.Client) *httpapi.Client {
	return &httpapi.Client{Source: SourceName, HTTP: hc, Base: i.baseURL(), Sign: apiKey(i.APIKey),
		Classify: classifyError, Retry: httpapi.Retry{Attempts: 3}, MaxBody: maxBody, Codes: apiCodes}
}
