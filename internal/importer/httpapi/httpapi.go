// Package httpapi is the one client the API importers send their
// requests through (docs/architecture.md, "API importers"). A Client
// knows one provider's service: its base URL, how a request is signed
// (Signer), how an error answer reads (Classify) and how often to try
// again (Retry). Do is the only place that signs, sends, retries, caps a
// body, strips URLs from transport errors and redacts credentials, so a
// provider package says only which calls it makes and how to parse the
// answers.
//
// The design follows infracost's apiclient (one doRequest that adds
// auth and types the errors), gh's api package (a typed HTTP error, the
// next-page link) and miniflux's fetcher (one response handler that
// classifies, reads Retry-After and caps the body).
package httpapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gpuscout/gpuscout/internal/importer"
)

// DefaultMaxBody caps one answer's body when Client.MaxBody is 0.
const DefaultMaxBody = 16 << 20

// MaxRetryAfter is the longest wait a Retry-After header may ask for;
// a longer one is cut to it (a server that wants an hour is not waited on
// for an hour by a price import).
const MaxRetryAfter = 60 * time.Second

// Call is one request: what it is for (Action and Region name it in
// errors) and what is sent.
type Call struct {
	// Action names the request in errors and plans (instance-types,
	// gpuTypes, bundles/search).
	Action string
	// Region, when the request is about one region.
	Region string
	Method string // GET when empty
	// Path is joined to the client's Base.
	Path  string
	Query url.Values
	// RawQuery, when set, is sent as the query exactly as written (an
	// API whose next-page link must be followed byte for byte, or whose
	// parameters go in a set order); Query's values follow it.
	RawQuery string
	Header   http.Header
	Body     []byte
}

// Answer is a successful answer: its body, its headers and when it was
// fetched (Client.Now at the attempt that succeeded).
type Answer struct {
	Status  int
	Body    []byte
	Header  http.Header
	Fetched time.Time
}

// Signer signs one request (sets its Authorization header, or its
// signature parameters) and returns the strings that must never appear in
// an error: the key, the key ID, the signature, the header value.
type Signer interface {
	Sign(req *http.Request, body []byte) (secrets []string, err error)
}

// Bearer signs with "Authorization: Bearer Token", the scheme most GPU
// clouds' APIs use. An empty token signs nothing (a public endpoint).
type Bearer struct {
	Token string
	// Also are further strings to redact from every error (the
	// credentials the token was obtained with).
	Also []string
}

// Sign implements Signer.
func (b Bearer) Sign(req *http.Request, _ []byte) ([]string, error) {
	if b.Token == "" {
		return b.Also, nil
	}
	h := "Bearer " + b.Token
	req.Header.Set("Authorization", h)
	return append([]string{b.Token, h}, b.Also...), nil
}

// Classifier reads an answer: nil when it is a usable one, else the
// provider's error (its code and message from the provider's error
// envelope, and its APICodes). It is called for every answer, so that an
// API that reports errors with HTTP 200 (GraphQL) is read too.
type Classifier func(status int, header http.Header, body []byte) *importer.APIError

// Retry is how often and how long a Client tries again.
type Retry struct {
	// Attempts is the most tries of one call (3 when 0).
	Attempts int
	// Wait is the wait before the second try, doubled before each later
	// one (500 ms when 0), unless the answer's Retry-After says otherwise.
	Wait time.Duration
	// Sleep waits d or until ctx ends (a timer when nil); tests record
	// the waits instead.
	Sleep func(ctx context.Context, d time.Duration) error
}

// Client is one provider API's client.
type Client struct {
	// Source names the importer in errors (vast, lambda, runpod).
	Source string
	// HTTP sends the requests (http.DefaultClient when nil). Go's client
	// drops the Authorization header when a redirect leaves the host.
	HTTP *http.Client
	// Base is the service's base URL; a Call's Path is joined to it.
	Base string
	// Sign signs each attempt; nil sends requests unsigned.
	Sign Signer
	// Classify reads each answer; nil takes HTTP status 400 and above as
	// errors, with the start of the body as the message.
	Classify Classifier
	Retry    Retry
	// MaxBody caps an answer's body (DefaultMaxBody when 0): a longer one
	// is a *BodyLimitError.
	MaxBody int64
	// Now is the clock of Answer.Fetched (time.Now when nil).
	Now func() time.Time
	// Codes, when set, is given to the errors Do builds itself (HTTP
	// errors with no Classify).
	Codes *importer.APICodes
	// PublicQuery says a Call's query holds no credential (a Signer that
	// adds one to the query names it among its secrets), so its values
	// stay readable in errors: an API's message naming the instance type
	// asked about keeps the name. When false, every query value of 16
	// characters or more is redacted (an api_key parameter).
	PublicQuery bool
}

// BodyLimitError is an answer longer than the client's cap: not the
// provider's answer, or one far larger than any real one.
type BodyLimitError struct {
	Source, Action string
	Max            int64
}

func (e *BodyLimitError) Error() string {
	return fmt.Sprintf("%s %s: the answer is longer than %d MiB, far beyond any real one: nothing was read", e.Source, e.Action, e.Max>>20)
}

// TransportError is a request that got no answer (a refused connection,
// a timeout, a TLS failure). Its text names the method, host and path,
// never the query (which may hold a key), and is redacted.
type TransportError struct {
	Source, Action, Region string
	Method, Host, Path     string
	Err                    error
}

func (e *TransportError) Error() string {
	where := e.Source + " " + e.Action
	if e.Region != "" {
		where += " " + e.Region
	}
	return fmt.Sprintf("%s: %s %s%s: %v", where, e.Method, e.Host, e.Path, e.Err)
}

func (e *TransportError) Unwrap() error { return e.Err }

func (c *Client) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// URL is the address a call goes to.
func (c *Client) URL(call Call) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSuffix(c.Base, "/") + call.Path)
	if err != nil {
		return nil, fmt.Errorf("%s %s: bad endpoint: %w", c.Source, call.Action, stripURL(err))
	}
	if call.RawQuery != "" {
		u.RawQuery = call.RawQuery
		if len(call.Query) > 0 {
			u.RawQuery += "&" + call.Query.Encode()
		}
		return u, nil
	}
	if len(call.Query) > 0 {
		q := u.Query()
		for k, vs := range call.Query {
			q[k] = append(q[k], vs...)
		}
		u.RawQuery = q.Encode()
	}
	return u, nil
}

// Do sends call and returns its answer. It retries network errors and
// answers whose *importer.APIError is Retryable (waiting as Retry-After
// says, in seconds or as an HTTP date, else with doubling waits); any
// other error comes back at once. Every error it returns is redacted of
// the strings the Signer named, and no error carries the request's query.
func (c *Client) Do(ctx context.Context, call Call) (Answer, error) {
	attempts := c.Retry.Attempts
	if attempts <= 0 {
		attempts = 3
	}
	wait := c.Retry.Wait
	if wait <= 0 {
		wait = 500 * time.Millisecond
	}
	var last error
	for a := 0; a < attempts; a++ {
		ans, after, err := c.once(ctx, call)
		if err == nil {
			return ans, nil
		}
		if ctx.Err() != nil {
			return Answer{}, ctx.Err()
		}
		if !retryable(err) {
			return Answer{}, err
		}
		last = err
		if a == attempts-1 {
			break
		}
		d := wait
		if after > 0 {
			d = after
		}
		if err := c.sleep(ctx, d); err != nil {
			return Answer{}, err
		}
		wait *= 2
	}
	return Answer{}, fmt.Errorf("after %d attempts: %w", attempts, last)
}

func (c *Client) sleep(ctx context.Context, d time.Duration) error {
	if c.Retry.Sleep != nil {
		return c.Retry.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// retryable: a network error, or an API error that asks to try again.
func retryable(err error) bool {
	var ae *importer.APIError
	if errors.As(err, &ae) {
		return ae.Retryable()
	}
	var te *TransportError
	return errors.As(err, &te)
}

// once makes one attempt. after is the wait the answer's Retry-After
// asked for (0 when none).
func (c *Client) once(ctx context.Context, call Call) (ans Answer, after time.Duration, err error) {
	u, err := c.URL(call)
	if err != nil {
		return Answer{}, 0, err
	}
	method := call.Method
	if method == "" {
		method = http.MethodGet
	}
	var body io.Reader
	if call.Body != nil {
		body = bytes.NewReader(call.Body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), body)
	if err != nil {
		return Answer{}, 0, fmt.Errorf("%s %s: %w", c.Source, call.Action, stripURL(err))
	}
	for k, vs := range call.Header {
		req.Header[k] = append([]string(nil), vs...)
	}
	var secrets []string
	if c.Sign != nil {
		if secrets, err = c.Sign.Sign(req, call.Body); err != nil {
			return Answer{}, 0, importer.RedactError(fmt.Errorf("%s %s: signing: %w", c.Source, call.Action, err), secrets...)
		}
	}
	// The query may carry a key (api_key=...): it is a secret too.
	for _, vs := range u.Query() {
		if c.PublicQuery {
			break
		}
		for _, v := range vs {
			if len(v) >= 16 {
				secrets = append(secrets, v)
			}
		}
	}
	defer func() {
		if err != nil {
			err = redactErr(err, secrets)
		}
	}()
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	fetched := c.now()
	resp, err := hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return Answer{}, 0, ctx.Err()
		}
		return Answer{}, 0, &TransportError{Source: c.Source, Action: call.Action, Region: call.Region,
			Method: method, Host: u.Host, Path: u.Path, Err: stripURL(err)}
	}
	defer resp.Body.Close()
	max := c.MaxBody
	if max <= 0 {
		max = DefaultMaxBody
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
		return Answer{}, 0, &TransportError{Source: c.Source, Action: call.Action, Region: call.Region,
			Method: method, Host: u.Host, Path: u.Path, Err: fmt.Errorf("reading the answer: %w", stripURL(err))}
	}
	if int64(len(b)) > max {
		return Answer{}, 0, &BodyLimitError{Source: c.Source, Action: call.Action, Max: max}
	}
	// Classify reads the body redacted: an echoed key must be gone before
	// a message is cut to its first 200 characters, which could leave a
	// prefix of it that no longer matches. A secret shorter than
	// minCodeSecret is left for redactErr: it could match inside the
	// error code the classifier reads.
	cb := b
	if long := longSecrets(secrets); len(long) > 0 {
		cb = []byte(importer.RedactString(string(b), long...))
	}
	var ae *importer.APIError
	if c.Classify != nil {
		ae = c.Classify(resp.StatusCode, resp.Header, cb)
	}
	if ae == nil && resp.StatusCode >= 400 {
		ae = &importer.APIError{HTTPStatus: resp.StatusCode, Code: "HTTP" + strconv.Itoa(resp.StatusCode),
			Message: importer.Snippet(cb), Codes: c.Codes}
	}
	if ae != nil {
		if ae.Action == "" {
			ae.Action = call.Action
		}
		if ae.Region == "" {
			ae.Region = call.Region
		}
		if ae.HTTPStatus == 0 {
			ae.HTTPStatus = resp.StatusCode
		}
		if ae.Codes == nil {
			ae.Codes = c.Codes
		}
		if ae.Retryable() {
			after, _ = RetryAfter(resp.Header.Get("Retry-After"), fetched)
		}
		return Answer{}, after, ae
	}
	return Answer{Status: resp.StatusCode, Body: b, Header: resp.Header, Fetched: fetched}, 0, nil
}

// minCodeSecret is the shortest secret redacted from an error code and
// from the body Classify reads (the message is redacted of every secret
// afterwards): a shorter one (a test's key ID "id") matches inside the provider's own
// words ("Forbidden") and would change what the code says and how it
// classifies.
const minCodeSecret = 8

// redactErr redacts an error's text; an *importer.APIError keeps its type
// (its message and request ID redacted in place, its code of secrets of
// minCodeSecret characters or more) so callers can still classify it.
func redactErr(err error, secrets []string) error {
	var ae *importer.APIError
	if errors.As(err, &ae) {
		ae.Message = importer.RedactString(ae.Message, secrets...)
		ae.RequestID = importer.RedactString(ae.RequestID, secrets...)
		ae.Code = importer.RedactString(ae.Code, longSecrets(secrets)...)
		return err
	}
	var te *TransportError
	if errors.As(err, &te) {
		if msg := importer.RedactString(te.Err.Error(), secrets...); msg != te.Err.Error() {
			te.Err = errors.New(msg)
		}
		return err
	}
	return importer.RedactError(err, secrets...)
}

// longSecrets are the secrets of minCodeSecret characters or more.
func longSecrets(secrets []string) []string {
	var long []string
	for _, s := range secrets {
		if len(s) >= minCodeSecret {
			long = append(long, s)
		}
	}
	return long
}

// stripURL drops the *url.Error wrapper, whose text repeats the whole
// URL (query included).
func stripURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// RetryAfter reads a Retry-After header, in seconds or as an HTTP date
// (RFC 9110 section 10.2.3), as a wait from now, at most MaxRetryAfter.
// ok is false when the header is absent or unreadable.
func RetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	var d time.Duration
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n < 0 {
			return 0, false
		}
		if n > int64(MaxRetryAfter/time.Second) {
			return MaxRetryAfter, true
		}
		d = time.Duration(n) * time.Second
	} else if t, err := http.ParseTime(v); err == nil {
		d = t.Sub(now)
		if d < 0 {
			d = 0
		}
	} else {
		return 0, false
	}
	return min(d, MaxRetryAfter), true
}
