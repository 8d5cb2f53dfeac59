package alibaba

import (
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
	"net/url"
	"sort"
	"strings"
)

// percentEncode encodes s by Alibaba Cloud's RPC rules: RFC 3986
// unreserved characters (A-Z a-z 0-9 - _ . ~) stay, everything else is
// %XY in upper-case hex of its UTF-8 bytes, a space is %20 (not +) and
// * is %2A.
func percentEncode(s string) string {
	e := url.QueryEscape(s)
	e = strings.ReplaceAll(e, "+", "%20")
	e = strings.ReplaceAll(e, "*", "%2A")
	e = strings.ReplaceAll(e, "%7E", "~")
	return e
}

// canonicalQuery is the canonicalized query string: the parameters
// (Signature excluded) sorted by name, each name and value percent-encoded
// and joined as name=value with &.
func canonicalQuery(params map[string]string) string {
	keys := make([]string, 0, len(params))
	for k := range params {
		if k == "Signature" {
			continue
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var sb strings.Builder
	for n, k := range keys {
		if n > 0 {
			sb.WriteByte('&')
		}
		sb.WriteString(percentEncode(k))
		sb.WriteByte('=')
		sb.WriteString(percentEncode(params[k]))
	}
	return sb.String()
}

// stringToSign is method & percentEncode("/") & percentEncode(canonical
// query), per the RPC signature method v1.
func stringToSign(method string, params map[string]string) string {
	return method + "&" + percentEncode("/") + "&" + percentEncode(canonicalQuery(params))
}

// sign returns Base64(HMAC-SHA1(secret + "&", StringToSign)).
func sign(method string, params map[string]string, secret string) string {
	m := hmac.New(sha1.New, []byte(secret+"&"))
	m.Write([]byte(stringToSign(method, params)))
	return base64.StdEncoding.EncodeToString(m.Sum(nil))
}

// signedQuery returns the request's query string: the canonical query
// with the Signature parameter appended.
func signedQuery(method string, params map[string]string, secret string) string {
	return canonicalQuery(params) + "&Signature=" + percentEncode(sign(method, params, secret))
}
