package huawei

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/gpuscout/gpuscout/internal/importer/httpapi"
)

// APIError is an error answer of a Huawei Cloud API. It carries the API's
// code and message, never the credentials.
type APIError = importer.APIError

// apiCodes are the Huawei Cloud error codes that refuse the credentials or
// permissions (the API gateway's APIG.0301/0302 "Incorrect IAM
// authentication information", BSS's CBC.0151 "access denied"), and the
// gateway's throttling code.
var apiCodes = &importer.APICodes{Source: "huawei",
	Fatal: func(code string) bool {
		switch code {
		case "APIG.0301", "APIGW.0301", "APIG.0302", "APIGW.0302", "CBC.0151":
			return true
		}
		return false
	},
	Retry: func(code string) bool { return code == "APIG.0308" || code == "APIGW.0308" },
}

// userAgent is the SDK's User-Agent with gpuscout appended, as the SDK
// appends a custom one ("huaweicloud-usdk-go/3.0;" + the caller's).
const userAgent = "huaweicloud-usdk-go/3.0;gpuscout"

// signer signs requests with the AK/SK pair (SDK-HMAC-SHA256, sign.go).
type signer struct {
	ak, sk string
	now    func() time.Time
}

// Sign implements httpapi.Signer. It sets the headers the official Go SDK
// (huaweicloud-sdk-go-v3) sends and signs on every BSS and ECS call: the
// request definition's Content-Type (application/json, on GETs too), its
// User-Agent with the caller's name appended as the SDK appends a custom
// one, and X-Sdk-Date; the SDK does not sign Host (core/auth/signer
// SignedHeaders lists the request's own header parameters). The key, the
// key ID, the Authorization header and the signature are to be redacted.
func (s signer) Sign(req *http.Request, body []byte) ([]string, error) {
	date := s.now().UTC().Format(dateFormat)
	headers := map[string]string{"Content-Type": "application/json", "User-Agent": userAgent, "X-Sdk-Date": date}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	auth := authorization(s.ak, s.sk, req.Method, req.URL.Path, req.URL.Query(), headers, body, date)
	req.Header.Set("Authorization", auth)
	_, sig, _ := strings.Cut(auth, "Signature=")
	return []string{s.sk, s.ak, auth, sig}, nil
}

// classify reads an answer's error members (errorFields: BSS's and the
// gateway's error_code, ECS's and IAM's error object), also in an answer
// sent with HTTP 200; an error without a usable code is named by its HTTP
// status, with the start of the body when it has no message.
func classify(status int, header http.Header, body []byte) *importer.APIError {
	var ef errorFields
	_ = json.Unmarshal(body, &ef)
	code, msg := ef.codeMessage()
	if status < 400 && code == "" {
		return nil
	}
	ae := &APIError{Codes: apiCodes, HTTPStatus: status, Code: code, Message: msg, RequestID: header.Get("X-Request-Id")}
	if ae.Code == "" || ae.Code == "error" {
		ae.Code = "HTTP" + strconv.Itoa(status)
		if ae.Message == "" {
			ae.Message = importer.Snippet(body)
		}
	}
	return ae
}

// client is the API client of one endpoint (IAM, a region's ECS, BSS).
func (i *Importer) client(c *http.Client, base string) *httpapi.Client {
	wait := i.RetryWait
	if wait <= 0 {
		wait = 2 * time.Second
	}
	return &httpapi.Client{Source: sourceName, HTTP: c, Base: base, Sign: signer{ak: i.AccessKey, sk: i.SecretKey, now: i.now},
		Classify: classify, Retry: httpapi.Retry{Attempts: i.Attempts, Wait: wait}, Now: i.now, Codes: apiCodes}
}

// notAPI is an answer that is not the API's JSON.
func notAPI(action, region string, err error) error {
	return &APIError{Codes: apiCodes, Action: action, Region: region, Code: "HTTP 200", Message: "not the API's JSON: " + err.Error()}
}
