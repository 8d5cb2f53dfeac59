package importer

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestRetry: a passing second attempt wins; an error final says is not
// worth repeating stops at once; otherwise every attempt is made and the
// last error comes back wrapped with the count.
func TestRetry(t *testing.T) {
	ctx := context.Background()
	throttled, refused := errors.New("throttled"), errors.New("refused")
	isRefused := func(err error) bool { return errors.Is(err, refused) }
	calls := 0
	body, _, err := Retry(ctx, 3, time.Millisecond, isRefused, func() ([]byte, time.Time, error) {
		calls++
		if calls == 1 {
			return nil, time.Time{}, throttled
		}
		return []byte("ok"), time.Time{}, nil
	})
	if err != nil || string(body) != "ok" || calls != 2 {
		t.Errorf("throttled then ok: body %q, err %v after %d calls", body, err, calls)
	}
	calls = 0
	_, _, err = Retry(ctx, 3, time.Millisecond, isRefused, func() ([]byte, time.Time, error) { calls++; return nil, time.Time{}, refused })
	if !errors.Is(err, refused) || calls != 1 {
		t.Errorf("refused key: err %v after %d calls, want 1", err, calls)
	}
	calls = 0
	_, _, err = Retry(ctx, 3, time.Millisecond, isRefused, func() ([]byte, time.Time, error) { calls++; return nil, time.Time{}, throttled })
	if !errors.Is(err, throttled) || calls != 3 || !strings.Contains(err.Error(), "after 3 attempts") {
		t.Errorf("always throttled: err %v after %d calls", err, calls)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, _, err = Retry(cctx, 3, time.Hour, isRefused, func() ([]byte, time.Time, error) { return nil, time.Time{}, throttled })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err %v", err)
	}
}
