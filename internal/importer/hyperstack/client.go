package hyperstack

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/gpuscout/gpuscout/internal/importer"
)

// apiCodes: HTTP 401 and 403 refuse the key (the client sees the status);
// 429 and 5xx are retried by status.
var apiCodes = &importer.APICodes{Source: sourceName}

// errorBody is the API's answer envelope: {"status": false, "message",
// "error_reason"} on an error.
type errorBody struct {
	Status      *bool  `json:"status"`
	Message     string `json:"message"`
	ErrorReason string `json:"error_reason"`
}

// classify reads an error answer: HTTP status with the envelope's message,
// or an HTTP 200 answer whose envelope says status false.
func classify(status int, _ http.Header, body []byte) *importer.APIError {
	var e errorBody
	parsed := json.Unmarshal(body, &e) == nil
	if status < 400 {
		if parsed && e.Status != nil && !*e.Status {
			return &importer.APIError{Code: "status-false", Message: e.Message, Codes: apiCodes}
		}
		return nil
	}
	msg := importer.Snippet(body)
	if parsed && e.Message != "" {
		msg = e.Message
		if e.ErrorReason != "" {
			msg += " (" + e.ErrorReason + ")"
		}
	}
	return &importer.APIError{Code: "HTTP" + strconv.Itoa(status), Message: msg, Codes: apiCodes}
}
