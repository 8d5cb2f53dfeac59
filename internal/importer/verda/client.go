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

// redactOnly signs nothing and names the strings to redact: the token
// request carries the client credentials in its body.
type redactOnly []string

func (r redactOnly) Sign(*http.Request, []byte) ([]string, error) { return r, nil }

// bearer signs with the access token and redacts it and the credentials.
type bearer struct {
	token   string
	secrets []string
}

func (b bearer) Sign(req *http.Request, _ []byte) ([]string, error) {
	req.Header.Set("Authorization", "Bearer "+b.token)
	return append([]string{b.token}, b.secrets...), nil
}
