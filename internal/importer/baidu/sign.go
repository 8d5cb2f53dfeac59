package baidu

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Baidu AI Cloud's request signing, bce-auth-v1
// (https://cloud.baidu.com/doc/Reference/s/wjwvz1xt2, 生成认证字符串):
//
//	authStringPrefix = "bce-auth-v1/{AK}/{timestamp}/{expirationPeriodInSeconds}"
//	SigningKey       = hex(HMAC-SHA256(SK, authStringPrefix))
//	CanonicalRequest = Method \n UriEncodeExceptSlash(path) \n CanonicalQueryString \n CanonicalHeaders
//	Signature        = hex(HMAC-SHA256(SigningKey, CanonicalRequest))
//	Authorization    = authStringPrefix/{signedHeaders}/{Signature}
//
// CanonicalQueryString is every parameter but authorization as
// UriEncode(name)=UriEncode(value), sorted as strings and joined by &.
// CanonicalHeaders is each signed header as UriEncode(lower(name)) ":"
// UriEncode(trim(value)), sorted and joined by \n; with no signed header
// list the default set is signed (host, content-length, content-type,
// content-md5 and every x-bce-* header) and signedHeaders is empty.

const (
	authVersion = "bce-auth-v1"
	// expiration is the authorization's validity in seconds.
	expiration = 1800
)

// uriEncode percent-encodes s: A-Z a-z 0-9 - _ . ~ stay, every other byte
// is %XY (upper-case hex); with keepSlash, "/" stays too.
func uriEncode(s string, keepSlash bool) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' || keepSlash && c == '/' {
			sb.WriteByte(c)
			continue
		}
		fmt.Fprintf(&sb, "%%%02X", c)
	}
	return sb.String()
}

// canonicalQuery builds CanonicalQueryString.
func canonicalQuery(q url.Values) string {
	var parts []string
	for k, vs := range q {
		if strings.EqualFold(k, "authorization") {
			continue
		}
		for _, v := range vs {
			parts = append(parts, uriEncode(k, false)+"="+uriEncode(v, false))
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, "&")
}

// defaultSigned reports whether a header is in the default signed set.
func defaultSigned(lower string) bool {
	switch lower {
	case "host", "content-length", "content-type", "content-md5":
		return true
	}
	return strings.HasPrefix(lower, "x-bce-")
}

// authorization returns the Authorization header of a request. signed
// names the headers to sign; nil signs the default set and leaves the
// signedHeaders field empty.
func authorization(ak, sk, method, path string, q url.Values, headers map[string]string, at time.Time, signed []string) string {
	prefix := authVersion + "/" + ak + "/" + at.UTC().Format("2006-01-02T15:04:05Z") + "/" + strconv.Itoa(expiration)
	want := map[string]bool{}
	for _, s := range signed {
		want[strings.ToLower(strings.TrimSpace(s))] = true
	}
	var lines, names []string
	for k, v := range headers {
		l := strings.ToLower(strings.TrimSpace(k))
		v = strings.TrimSpace(v)
		if v == "" {
			continue
		}
		if signed == nil && !defaultSigned(l) || signed != nil && !want[l] {
			continue
		}
		lines = append(lines, uriEncode(l, false)+":"+uriEncode(v, false))
		names = append(names, l)
	}
	sort.Strings(lines)
	sort.Strings(names)
	canonical := method + "\n" + uriEncode(path, true) + "\n" + canonicalQuery(q) + "\n" + strings.Join(lines, "\n")
	km := hmac.New(sha256.New, []byte(sk))
	km.Write([]byte(prefix))
	signingKey := hex.EncodeToString(km.Sum(nil))
	sm := hmac.New(sha256.New, []byte(signingKey))
	sm.Write([]byte(canonical))
	signedField := ""
	if signed != nil {
		signedField = strings.Join(names, ";")
	}
	return prefix + "/" + signedField + "/" + hex.EncodeToString(sm.Sum(nil))
}
