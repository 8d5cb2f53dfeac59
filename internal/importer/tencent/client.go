package tencent

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/gpuscout/gpuscout/internal/importer/httpapi"
)

// apiCodes are the CVM API's error codes that refuse the credentials or
// permissions (AuthFailure.*, UnauthorizedOperation.*), and those that ask
// to try again.
var apiCodes = &importer.APICodes{Source: "tencent",
	Fatal: func(code string) bool {
		return strings.HasPrefix(code, "AuthFailure") || strings.HasPrefix(code, "UnauthorizedOperation")
	},
	Retry: func(code string) bool {
		return strings.HasPrefix(code, "RequestLimitExceeded") || strings.HasPrefix(code, "InternalError")
	},
	Text: func(e *APIError) string {
		msg := fmt.Sprintf("tencent %s %s: %s", e.Action, e.Region, e.Code)
		if e.Message != "" {
			msg += ": " + e.Message
		}
		if e.RequestID != "" {
			msg += " (request " + e.RequestID + ")"
		}
		return msg
	},
}

// tc3Signer signs a CVM request the TC3-HMAC-SHA256 way (sign.go): it
// sets the X-TC-Timestamp and Authorization headers, and names the key,
// the key ID, the signature and the header as strings to redact (an
// endpoint may echo the request back).
type tc3Signer struct {
	secretID, secretKey string
	now                 func() time.Time
}

// Sign implements httpapi.Signer.
func (s tc3Signer) Sign(req *http.Request, payload []byte) ([]string, error) {
	ts := s.now().Unix()
	sig := signTC3(s.secretID, s.secretKey, defaultService, req.URL.Host, payload, ts)
	req.Header.Set("Authorization", sig.auth)
	req.Header.Set("X-TC-Timestamp", strconv.FormatInt(ts, 10))
	return []string{s.secretKey, s.secretID, sig.signature, sig.auth}, nil
}

// answerHead is the envelope of every CVM answer: Response, with Error
// in an error answer.
type answerHead struct {
	Response *struct {
		Error     *apiError `json:"Error"`
		RequestID string    `json:"RequestId"`
	} `json:"Response"`
}

// classify reads a CVM answer: Response.Error (with HTTP 200 too), or an
// HTTP error status with the start of the body.
func classify(status int, _ http.Header, body []byte) *importer.APIError {
	var head answerHead
	if json.Unmarshal(body, &head) == nil && head.Response != nil && head.Response.Error != nil {
		return &APIError{Codes: apiCodes, Code: head.Response.Error.Code, Message: head.Response.Error.Message,
			RequestID: head.Response.RequestID}
	}
	if status >= 400 {
		return &APIError{Codes: apiCodes, Code: "HTTP" + strconv.Itoa(status), Message: importer.Snippet(body)}
	}
	return nil
}

// client is the CVM API client, and the path of its calls ("/" when the
// endpoint ends with one, as the default does).
func (i *Importer) client(hc *http.Client) (*httpapi.Client, string) {
	endpoint := i.Endpoint
	if endpoint == "" {
		endpoint = DefaultEndpoint
	}
	path := ""
	if strings.HasSuffix(endpoint, "/") {
		path = "/"
	}
	return &httpapi.Client{
		Source:   sourceName,
		HTTP:     hc,
		Base:     endpoint,
		Sign:     tc3Signer{secretID: i.SecretID, secretKey: i.SecretKey, now: i.now},
		Classify: classify,
		Retry:    httpapi.Retry{Attempts: i.Attempts, Wait: i.RetryWait},
		MaxBody:  maxBody,
		Now:      i.now,
		Codes:    apiCodes,
	}, path
}
