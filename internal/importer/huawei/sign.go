package huawei

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"sort"
	"strings"
)

// Huawei Cloud's AK/SK request signing (SDK-HMAC-SHA256), as the official
// SDKs implement it (huaweicloud/huaweicloud-sdk-go-v3 core/auth/signer):
//
//	CanonicalRequest = Method \n CanonicalURI \n CanonicalQuery \n
//	                   CanonicalHeaders \n SignedHeaders \n hex(SHA256(body))
//	StringToSign     = "SDK-HMAC-SHA256" \n X-Sdk-Date \n hex(SHA256(CanonicalRequest))
//	Signature        = hex(HMAC-SHA256(SK, StringToSign))
//	Authorization    = "SDK-HMAC-SHA256 Access=AK, SignedHeaders=h1;h2, Signature=..."
//
// The canonical URI is the path with each segment percent-encoded and a
// trailing slash; the canonical query sorts names and, per name, values;
// each signed header is "name:value" in lower case, sorted by name.

const (
	algorithm = "SDK-HMAC-SHA256"
	// dateFormat is the X-Sdk-Date layout (basic ISO 8601, UTC).
	dateFormat = "20060102T150405Z"
)

// escape percent-encodes s by the signer's rule: A-Z a-z 0-9 - _ . ~ stay,
// every other byte is %XY (upper-case hex), a space included.
func escape(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' {
			sb.WriteByte(c)
			continue
		}
		fmt.Fprintf(&sb, "%%%02X", c)
	}
	return sb.String()
}

// canonicalURI encodes each segment of path and ends it with a slash.
func canonicalURI(path string) string {
	segs := strings.Split(path, "/")
	for i, s := range segs {
		segs[i] = escape(s)
	}
	p := strings.Join(segs, "/")
	if !strings.HasSuffix(p, "/") {
		p += "/"
	}
	return p
}

// canonicalQuery sorts the parameters by name and each name's values.
func canonicalQuery(q url.Values) string {
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		vs := append([]string(nil), q[k]...)
		sort.Strings(vs)
		for _, v := range vs {
			parts = append(parts, escape(k)+"="+escape(v))
		}
	}
	return strings.Join(parts, "&")
}

// canonicalRequest builds the canonical request of a request whose signed
// headers are headers (names in any case) and returns it with the sorted,
// lower-case signed header names.
func canonicalRequest(method, path string, q url.Values, headers map[string]string, body []byte) (string, []string) {
	lower := make(map[string]string, len(headers))
	names := make([]string, 0, len(headers))
	for k, v := range headers {
		l := strings.ToLower(k)
		lower[l] = strings.TrimSpace(v)
		names = append(names, l)
	}
	sort.Strings(names)
	var ch strings.Builder
	for _, n := range names {
		ch.WriteString(n + ":" + lower[n] + "\n")
	}
	sum := sha256.Sum256(body)
	return strings.Join([]string{method, canonicalURI(path), canonicalQuery(q), ch.String(), strings.Join(names, ";"), hex.EncodeToString(sum[:])}, "\n"), names
}

// stringToSign is the algorithm, the X-Sdk-Date and the canonical
// request's SHA-256, one per line.
func stringToSign(canonical, date string) string {
	sum := sha256.Sum256([]byte(canonical))
	return algorithm + "\n" + date + "\n" + hex.EncodeToString(sum[:])
}

// authorization returns the Authorization header value of a request
// signed with the AK/SK pair; headers must include X-Sdk-Date, whose
// value is date.
func authorization(ak, sk, method, path string, q url.Values, headers map[string]string, body []byte, date string) string {
	canonical, names := canonicalRequest(method, path, q, headers, body)
	m := hmac.New(sha256.New, []byte(sk))
	m.Write([]byte(stringToSign(canonical, date)))
	return fmt.Sprintf("%s Access=%s, SignedHeaders=%s, Signature=%s", algorithm, ak, strings.Join(names, ";"), hex.EncodeToString(m.Sum(nil)))
}
