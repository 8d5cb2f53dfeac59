package oci

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/gpuscout/gpuscout/internal/importer"
)

// apiCodes: the price list and the estimator data are public, so a
// refusal (401, 403) is not a key to fix but a change on Oracle's side;
// both stop the source. 429 and 5xx are worth another try (the client
// retries them by status).
var apiCodes = &importer.APICodes{Source: sourceName,
	Fatal: func(code string) bool { return code == "HTTP401" || code == "HTTP403" },
	Retry: func(code string) bool { return code == "HTTP429" },
}

// errorBody is the error answer Oracle's REST services send ({"code",
// "message"}).
type errorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// classify reads an error answer: the HTTP status, with Oracle's message
// when the body has one.
func classify(status int, _ http.Header, body []byte) *importer.APIError {
	if status < 400 {
		return nil
	}
	msg := importer.Snippet(body)
	var e errorBody
	if json.Unmarshal(body, &e) == nil && e.Message != "" {
		msg = e.Message
		if e.Code != "" {
			msg = e.Code + ": " + msg
		}
	}
	return &importer.APIError{Code: "HTTP" + strconv.Itoa(status), Message: msg, Codes: apiCodes}
}
