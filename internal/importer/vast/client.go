package vast

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/gpuscout/gpuscout/internal/importer"
)

// apiCodes: Vast answers errors as {"success": false, "error": code,
// "msg": text}; HTTP 401 and 403 refuse a key.
var apiCodes = &importer.APICodes{Source: sourceName}

// classify reads an error answer.
func classify(status int, _ http.Header, body []byte) *importer.APIError {
	if status < 400 {
		return nil
	}
	var e struct {
		Error string `json:"error"`
		Msg   string `json:"msg"`
	}
	if json.Unmarshal(body, &e) == nil && (e.Error != "" || e.Msg != "") {
		code := e.Error
		if code == "" {
			code = "HTTP" + strconv.Itoa(status)
		}
		return &importer.APIError{Code: code, Message: e.Msg, Codes: apiCodes}
	}
	return &importer.APIError{Code: "HTTP" + strconv.Itoa(status), Message: importer.Snippet(body), Codes: apiCodes}
}
