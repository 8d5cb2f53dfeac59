package importer

import (
	"errors"
	"net/http"
	"strings"
)

// APIError is an error answer of a provider's signed price API (Alibaba
// Cloud, Tencent Cloud, Huawei Cloud, Baidu AI Cloud): the API's code and
// message, never the credentials. Codes says how that provider's codes
// read; each importer keeps one APICodes and sets it on every APIError.
type APIError struct {
	Action     string
	Region     string
	HTTPStatus int
	Code       string
	Message    string
	RequestID  string
	Codes      *APICodes
}

// APICodes is what one provider's API error codes mean, beyond HTTP 401
// and 403 (the credentials refused) and 429 and 5xx (try again).
type APICodes struct {
	// Source names the importer in messages: alibaba, tencent, ...
	Source string
	// Fatal: the code refuses the credentials or permissions, so that no
	// other request can succeed either.
	Fatal func(code string) bool
	// Retry: the code asks to try again (throttling, a server fault).
	Retry func(code string) bool
	// Text, when set, writes the error instead of APIErrorText.
	Text func(e *APIError) string
}

func (e *APIError) Error() string {
	if e.Codes != nil && e.Codes.Text != nil {
		return e.Codes.Text(e)
	}
	source := ""
	if e.Codes != nil {
		source = e.Codes.Source
	}
	return APIErrorText(source, e.Action, e.Region, e.Code, e.Message, e.HTTPStatus, e.RequestID)
}

// Fatal reports whether the credentials or permissions were refused (HTTP
// 401 or 403, or a code the provider's Fatal names): Record stops a fetch
// at once on it.
func (e *APIError) Fatal() bool {
	if e.HTTPStatus == http.StatusUnauthorized || e.HTTPStatus == http.StatusForbidden {
		return true
	}
	return e.Codes != nil && e.Codes.Fatal != nil && e.Codes.Fatal(e.Code)
}

// Retryable reports whether another attempt may succeed (HTTP 429, 5xx,
// or a code the provider's Retry names).
func (e *APIError) Retryable() bool {
	if e.HTTPStatus == http.StatusTooManyRequests || e.HTTPStatus >= 500 {
		return true
	}
	return e.Codes != nil && e.Codes.Retry != nil && e.Codes.Retry(e.Code)
}

// Declined reports whether the API answered with its own code for the item
// (a type not sold in a zone, say): an expected skip.
func (e *APIError) Declined() bool {
	return !e.Fatal() && !e.Retryable() && e.Code != "" && !strings.HasPrefix(e.Code, "HTTP")
}

// ErrorCode is the API's error code.
func (e *APIError) ErrorCode() string { return e.Code }

// RecordAPIError is Tally.Record for an error of a call: an *APIError is
// counted (a skip or a failure); any other error stops the fetch.
func RecordAPIError(t *Tally, skipped *Skips, err error, example string) error {
	var ae *APIError
	if !errors.As(err, &ae) {
		return err
	}
	return t.Record(skipped, err, example, ae)
}
