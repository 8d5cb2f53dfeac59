package runpod

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/gpuscout/gpuscout/internal/importer"
)

// apiCodes: GraphQL errors come with HTTP 200 and a message, no code; an
// HTTP 401 or 403 refuses the key.
var apiCodes = &importer.APICodes{Source: sourceName,
	Fatal: func(code string) bool { return code == "UNAUTHENTICATED" || code == "FORBIDDEN" },
}

// classify reads an answer: HTTP errors, and GraphQL's errors array
// (sent with HTTP 200, as run_graphql_query expects: errors[0].message).
func classify(status int, _ http.Header, body []byte) *importer.APIError {
	var e struct {
		Errors []struct {
			Message    string `json:"message"`
			Extensions struct {
				Code string `json:"code"`
			} `json:"extensions"`
		} `json:"errors"`
	}
	if json.Unmarshal(body, &e) == nil && len(e.Errors) > 0 {
		code := strings.ToUpper(e.Errors[0].Extensions.Code)
		if code == "" {
			code = "GRAPHQL"
		}
		return &importer.APIError{Code: code, Message: e.Errors[0].Message, Codes: apiCodes}
	}
	if status >= 400 {
		return &importer.APIError{Code: "HTTP" + strconv.Itoa(status), Message: importer.Snippet(body), Codes: apiCodes}
	}
	return nil
}
