package verda

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/gpuscout/gpuscout/internal/importer"
)

// apiCodes: HTTP 401 and 403 refuse the credentials (the client sees the
// status); the API's unauthorized_request and invalid_request codes
// refuse them too; 429 and 5xx are retried by status.
var apiCodes = &importer.APICodes{Source: sourceName,
	Fatal: func(code string) bool { return code == "unauthorized_request" || code == "forbidden_action" },
}

// errorBody is the API's error answer, as the official SDK's handle_error
// reads it: {"code", "message"}.
type errorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func classify(status int, _ http.Header, body []byte) *importer.APIError {
	if status < 400 {
		return nil
	}
	var e errorBody
	if json.Unmarshal(body, &e) == nil && e.Code != "" {
		return &importer.APIError{Code: e.Code, Message: e.Message, Codes: apiCodes}
	}
	return &importer.APIError{Code: "HTTP" + strconv.Itoa(status), Message: importer.Snippet(body), Codes: apiCodes}
}
