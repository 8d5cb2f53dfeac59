package alibaba

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/gpuscout/gpuscout/internal/importer/httpapi"
)

// apiCodes are the ECS API's error codes that refuse the credentials or
// permissions, and those that ask to try again.
var apiCodes = &importer.APICodes{Source: "alibaba",
	Fatal: func(code string) bool {
		for _, p := range []string{"InvalidAccessKeyId", "InvalidAccessKeySecret", "SignatureDoesNotMatch",
			"IncompleteSignature", "Forbidden", "InvalidSecurityToken", "MissingSecurityToken", "InvalidTimeStamp",
			"SignatureNonceUsed", "NoPermission", "Unauthorized"} {
			if strings.HasPrefix(code, p) {
				return true
			}
		}
		return false
	},
	Retry: func(code string) bool {
		return strings.HasPrefix(code, "Throttling") || code == "ServiceUnavailable" || strings.HasPrefix(code, "InternalError")
	},
}

// rpcSigner signs an ECS request by the RPC signature method v1
// (HMAC-SHA1, sign.go): it adds the common parameters (AccessKeyId,
// SignatureNonce, Timestamp...) to the call's query and sends the
// canonical query with Signature appended. It names the secret, the
// AccessKey ID and the signature as strings to redact: an endpoint may
// echo the request back (SignatureDoesNotMatch quotes the string it
// signed).
type rpcSigner struct {
	keyID, secret string
	now           func() time.Time
	nonce         func() string
}

// Sign implements httpapi.Signer.
func (s rpcSigner) Sign(req *http.Request, _ []byte) ([]string, error) {
	q := map[string]string{
		"Format":           "JSON",
		"Version":          APIVersion,
		"AccessKeyId":      s.keyID,
		"SignatureMethod":  "HMAC-SHA1",
		"SignatureVersion": "1.0",
		"SignatureNonce":   s.nonce(),
		"Timestamp":        s.now().UTC().Format("2006-01-02T15:04:05Z"),
	}
	for k, vs := range req.URL.Query() {
		if len(vs) > 0 {
			q[k] = vs[0]
		}
	}
	req.URL.RawQuery = signedQuery(req.Method, q, s.secret)
	return []string{s.secret, s.keyID, req.URL.Query().Get("Signature")}, nil
}

// errorHead is the start of every ECS answer: an error answer fills Code
// and Message.
type errorHead struct {
	RequestID string `json:"RequestId"`
	Code      string `json:"Code"`
	Message   string `json:"Message"`
}

// classify reads an ECS answer: an error code (with HTTP 200 too), or an
// HTTP error status with the start of the body.
func classify(status int, _ http.Header, body []byte) *importer.APIError {
	var head errorHead
	_ = json.Unmarshal(body, &head)
	if status < 400 && head.Code == "" {
		return nil
	}
	if head.Code == "" {
		return &APIError{Codes: apiCodes, Code: "HTTP" + strconv.Itoa(status), Message: importer.Snippet(body)}
	}
	return &APIError{Codes: apiCodes, Code: head.Code, Message: head.Message, RequestID: head.RequestID}
}

// client is the ECS API client of one region: the endpoint with the
// region filled in, and the path of its calls ("/" when the endpoint
// ends with one, as the default does).
func (i *Importer) client(hc *http.Client, region string) (*httpapi.Client, string) {
	endpoint := i.Endpoint
	if endpoint == "" {
		endpoint = DefaultEndpoint
	}
	endpoint = strings.ReplaceAll(endpoint, "{region}", region)
	path := ""
	if strings.HasSuffix(endpoint, "/") {
		path = "/"
	}
	return &httpapi.Client{
		Source:   sourceName,
		HTTP:     hc,
		Base:     endpoint,
		Sign:     rpcSigner{keyID: i.AccessKeyID, secret: i.AccessKeySecret, now: i.now, nonce: i.nonce},
		Classify: classify,
		Retry:    httpapi.Retry{Attempts: i.Attempts, Wait: i.RetryWait},
		MaxBody:  maxBody,
		Now:      i.now,
		Codes:    apiCodes,
		// The query names regions, instance types and times; the
		// signer names the credentials it adds.
		PublicQuery: true,
	}, path
}
