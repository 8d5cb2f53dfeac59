package importer

import (
	"testing"
)

// TestAPIErrorReadsTheProvidersCodes: one APIError, classified by each
// provider's codes: the credentials refused stop a fetch, throttling is
// tried again, the API's own code for an item is a skip.
func TestAPIErrorReadsTheProvidersCodes(t *testing.T) {
	codes := &APICodes{Source: "example",
		Fatal: func(c string) bool { return c == "AuthFailure" },
		Retry: func(c string) bool { return c == "Throttled" }}
	for _, tc := range []struct {
		status                 int
		code                   string
		fatal, retry, declined bool
	}{
		{403, "", true, false, false},
		{200, "AuthFailure", true, false, false},
		{429, "", false, true, false},
		{503, "HTTP 503", false, true, false},
		{200, "Throttled", false, true, false},
		{400, "InvalidZone.NotSold", false, false, true},
		{200, "HTTP 200", false, false, false},
	} {
		e := &APIError{Codes: codes, Action: "Describe", Region: "r1", HTTPStatus: tc.status, Code: tc.code}
		if e.Fatal() != tc.fatal || e.Retryable() != tc.retry || e.Declined() != tc.declined {
			t.Errorf("%d %q: fatal %v retry %v declined %v, want %v %v %v", tc.status, tc.code, e.Fatal(), e.Retryable(), e.Declined(), tc.fatal, tc.retry, tc.declined)
		}
	}
	e := &APIError{Codes: codes, Action: "Describe", Region: "r1", HTTPStatus: 400, Code: "Bad", Message: "no", RequestID: "id1"}
	if got, want := e.Error(), "example Describe r1: Bad: no (HTTP 400, request id1)"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	custom := *codes
	custom.Text = func(e *APIError) string { return "custom " + e.Code }
	if e.Codes = &custom; e.Error() != "custom Bad" {
		t.Errorf("Error() with Text = %q", e.Error())
	}
}
