package azure

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/gpuscout/gpuscout/internal/importer/httpapi"
)

// apiCodes words the Retail Prices API's error answers. The API is
// unsigned and documents no error envelope, so an error is its HTTP status
// and the start of its body; 429 and 5xx are tried again (httpapi.Do).
// Fetch puts "azure: page N" before it.
var apiCodes = &importer.APICodes{Source: SourceName,
	Text: func(e *importer.APIError) string {
		msg := fmt.Sprintf("%s: HTTP %d %s", e.Action, e.HTTPStatus, http.StatusText(e.HTTPStatus))
		if e.Message != "" {
			msg += ": " + e.Message
		}
		return msg
	},
}

// client is the Retail Prices API's client: base is the scheme and host
// every page must stay on.
func (i *Importer) client(hc *http.Client, base string) *httpapi.Client {
	return &httpapi.Client{Source: SourceName, HTTP: hc, Base: strings.TrimRight(base, "/"),
		Retry: httpapi.Retry{Attempts: 3}, Codes: apiCodes}
}
