package importer

import (
	"context"
	"fmt"
	"time"
)

// Retry makes a request up to attempts times (at least once), waiting
// wait before the second attempt and twice as long before each later one.
// It stops at the first success, at an error final says is not worth
// repeating (a refused key, an unknown item), and when ctx ends; after the
// last attempt it wraps the last error with the number of attempts. The
// answer is the body and when it was fetched, as the signed-API importers
// return them.
func Retry(ctx context.Context, attempts int, wait time.Duration, final func(error) bool, do func() ([]byte, time.Time, error)) ([]byte, time.Time, error) {
	attempts = max(attempts, 1)
	var last error
	for a := 0; a < attempts; a++ {
		if a > 0 {
			select {
			case <-ctx.Done():
				return nil, time.Time{}, ctx.Err()
			case <-time.After(wait):
			}
			wait *= 2
		}
		body, fetched, err := do()
		if err == nil {
			return body, fetched, nil
		}
		if ctx.Err() != nil {
			return nil, time.Time{}, ctx.Err()
		}
		if final(err) {
			return nil, time.Time{}, err
		}
		last = err
	}
	return nil, time.Time{}, fmt.Errorf("after %d attempts: %w", attempts, last)
}

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
