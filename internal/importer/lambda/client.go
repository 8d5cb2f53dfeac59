package lambda

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/gpuscout/gpuscout/internal/importer"
)

// apiCodes are the Cloud API's error codes: global/invalid-api-key and
// global/account-inactive refuse the key (as HTTP 401 and 403 do);
// provider/ codes are upstream faults worth another try (the reference's
// "Provider errors").
var apiCodes = &importer.APICodes{Source: sourceName,
	Fatal: func(code string) bool {
		return code == "global/invalid-api-key" || code == "global/account-inactive" || code == "global/forbidden"
	},
	Retry: func(code string) bool { return strings.HasPrefix(code, "provider/") },
}

// errorBody is the reference's error envelope.
type errorBody struct {
	Error *struct {
		Code       string `json:"code"`
		Message    string `json:"message"`
		Suggestion string `json:"suggestion"`
	} `json:"error"`
}

// classify reads an error answer: the envelope's code and message (and
// suggestion), or the HTTP status with the start of the body.
func classify(status int, _ http.Header, body []byte) *importer.APIError {
	if status < 400 {
		return nil
	}
	var e errorBody
	if json.Unmarshal(body, &e) == nil && e.Error != nil && e.Error.Code != "" {
		msg := e.Error.Message
		if e.Error.Suggestion != "" {
			msg += " (" + e.Error.Suggestion + ")"
		}
		return &importer.APIError{Code: e.Error.Code, Message: msg, Codes: apiCodes}
	}
	return &importer.APIError{Code: "HTTP" + strconv.Itoa(status), Message: importer.Snippet(body), Codes: apiCodes}
}
