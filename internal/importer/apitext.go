package importer

import (
	"fmt"
)

// APIErrorText is how the signed-API importers word a provider's error
// answer: "source action region: code: message (HTTP status, request ID)",
// leaving out what the answer did not carry (the request ID is given with
// an HTTP status only).
func APIErrorText(source, action, region, code, message string, status int, requestID string) string {
	msg := fmt.Sprintf("%s %s %s: %s", source, action, region, code)
	if message != "" {
		msg += ": " + message
	}
	if status != 0 {
		msg += fmt.Sprintf(" (HTTP %d", status)
		if requestID != "" {
			msg += ", request " + requestID
		}
		msg += ")"
	}
	return msg
}
