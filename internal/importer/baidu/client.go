package baidu

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/gpuscout/gpuscout/internal/importer/httpapi"
)

// APIError is an error answer of the BCC API ({"code", "message",
// "requestId"}). It never carries the credentials.
type APIError = importer.APIError

// apiCodes are BCE's error codes that refuse the credentials or
// permissions, and the one that asks to try again.
var apiCodes = &importer.APICodes{Source: "baidu",
	Fatal: func(code string) bool {
		switch code {
		case "AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch", "RequestExpired", "InvalidHTTPAuthHeader":
			return true
		}
		return false
	},
	Retry: func(code string) bool { return code == "InternalError" },
}

// signer signs requests with the AK/SK pair (bce-auth-v1, sign.go).
type signer struct {
	ak, sk string
	now    func() time.Time
}

// Sign implements httpapi.Signer. It signs Host, x-bce-date and, on a
// request with a body, Content-Type (application/json). The key, the key
// ID, the Authorization header and the signature (its last part) are to
// be redacted: a request ID may carry the key ID too.
func (s signer) Sign(req *http.Request, body []byte) ([]string, error) {
	now := s.now()
	headers := map[string]string{"Host": req.URL.Host, "x-bce-date": now.UTC().Format("2006-01-02T15:04:05Z")}
	if body != nil {
		headers["Content-Type"] = "application/json"
	}
	signed := make([]string, 0, len(headers))
	for k, v := range headers {
		signed = append(signed, k)
		if k != "Host" {
			req.Header.Set(k, v)
		}
	}
	auth := authorization(s.ak, s.sk, req.Method, req.URL.Path, req.URL.Query(), headers, now, signed)
	req.Header.Set("Authorization", auth)
	sig := auth[strings.LastIndex(auth, "/")+1:]
	return []string{s.sk, s.ak, auth, sig}, nil
}

// errorHead is BCE's error envelope (bce-sdk-go bce/response.go).
type errorHead struct {
	Code      string `json:"code"`
	Message   string `json:"message"`
	RequestID string `json:"requestId"`
}

// classify reads an answer's error envelope, also in an answer sent with
// HTTP 200; an error without a code is named by its HTTP status, with the
// start of the body. The request ID is the envelope's, else the
// x-bce-request-id header.
func classify(status int, header http.Header, body []byte) *importer.APIError {
	var head errorHead
	_ = json.Unmarshal(body, &head)
	if status < 400 && head.Code == "" {
		return nil
	}
	ae := &APIError{Codes: apiCodes, HTTPStatus: status, Code: head.Code, Message: head.Message, RequestID: head.RequestID}
	if ae.RequestID == "" {
		ae.RequestID = header.Get("x-bce-request-id")
	}
	if ae.Code == "" {
		ae.Code = "HTTP" + strconv.Itoa(status)
		ae.Message = importer.Snippet(body)
	}
	return ae
}

// client is the API client of a region's BCC endpoint.
func (i *Importer) client(c *http.Client, region string) *httpapi.Client {
	wait := i.RetryWait
	if wait <= 0 {
		wait = time.Second
	}
	return &httpapi.Client{Source: sourceName, HTTP: c, Base: endpoint(i.Endpoint, region),
		Sign: signer{ak: i.AccessKeyID, sk: i.SecretAccessKey, now: i.now}, Classify: classify,
		Retry: httpapi.Retry{Attempts: i.Attempts, Wait: wait}, Now: i.now, Codes: apiCodes}
}

// notAPI is an answer that is not the API's JSON.
func notAPI(action, region string, err error) error {
	return &APIError{Codes: apiCodes, Action: action, Region: region, Code: "HTTP 200", Message: "not the API's JSON: " + err.Error()}
}
