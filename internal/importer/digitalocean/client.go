package digitalocean

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/gpuscout/gpuscout/internal/importer"
)

// apiCodes are the API's error ids: unauthorized and forbidden refuse the
// token (as HTTP 401 and 403 do); too_many_requests and server_error are
// worth another try.
var apiCodes = &importer.APICodes{Source: sourceName,
	Fatal: func(code string) bool { return code == "unauthorized" || code == "forbidden" },
	Retry: func(code string) bool { return code == "too_many_requests" || code == "server_error" },
}

// errorBody is the reference's error envelope ({"id", "message",
// "request_id"}; godo's ErrorResponse reads message and request_id).
type errorBody struct {
	ID        string `json:"id"`
	Message   string `json:"message"`
	RequestID string `json:"request_id"`
}

// classify reads an error answer: its id and message, or the HTTP status
// with the start of the body.
func classify(status int, _ http.Header, body []byte) *importer.APIError {
	if status < 400 {
		return nil
	}
	var e errorBody
	if json.Unmarshal(body, &e) == nil && e.ID != "" {
		msg := e.Message
		if e.RequestID != "" {
			msg += " (request " + e.RequestID + ")"
		}
		return &importer.APIError{Code: e.ID, Message: msg, Codes: apiCodes}
	}
	return &importer.APIError{Code: "HTTP" + strconv.Itoa(status), Message: importer.Snippet(body), Codes: apiCodes}
}
