package tencent

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"
)

const (
	tc3Algorithm   = "TC3-HMAC-SHA256"
	contentType    = "application/json; charset=utf-8"
	signedHeaders  = "content-type;host"
	tc3Terminator  = "tc3_request"
	defaultService = "cvm"
)

func sha256Hex(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func hmacSHA256(key []byte, msg string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(msg))
	return m.Sum(nil)
}

// canonicalRequest is the TC3 canonical request of a POST of a JSON
// payload to "/" with no query, signing the content-type and host
// headers.
func canonicalRequest(host string, payload []byte) string {
	return "POST\n/\n\n" +
		"content-type:" + contentType + "\n" +
		"host:" + strings.ToLower(host) + "\n" +
		"\n" +
		signedHeaders + "\n" +
		sha256Hex(payload)
}

// tc3 holds the parts of a TC3-HMAC-SHA256 signature.
type tc3 struct {
	canonical    string
	stringToSign string
	signature    string
	auth         string // the Authorization header
}

// signTC3 signs a request the TC3-HMAC-SHA256 way: the date of the
// credential scope is the UTC date of the timestamp, the signing key is
// HMAC chained over "TC3"+secretKey, date, service and "tc3_request".
func signTC3(secretID, secretKey, service, host string, payload []byte, timestamp int64) tc3 {
	date := time.Unix(timestamp, 0).UTC().Format("2006-01-02")
	scope := date + "/" + service + "/" + tc3Terminator
	cr := canonicalRequest(host, payload)
	sts := tc3Algorithm + "\n" + strconv.FormatInt(timestamp, 10) + "\n" + scope + "\n" + sha256Hex([]byte(cr))
	kDate := hmacSHA256([]byte("TC3"+secretKey), date)
	kService := hmacSHA256(kDate, service)
	kSigning := hmacSHA256(kService, tc3Terminator)
	sig := hex.EncodeToString(hmacSHA256(kSigning, sts))
	return tc3{
		canonical:    cr,
		stringToSign: sts,
		signature:    sig,
		auth:         tc3Algorithm + " Credential=" + secretID + "/" + scope + ", SignedHeaders=" + signedHeaders + ", Signature=" + sig,
	}
}
