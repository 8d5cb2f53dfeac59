package recommend

import (
	"net/url"
	"testing"
)

// TestComputeSLAsSourced: "which uptime does each provider commit to, and
// where does it say so?" Every recorded SLA names a page a user can open
// (https), commits to a monthly uptime in (90, 100] for one instance and,
// where the page gives one, no less across zones, and an entry whose GPU
// coverage is only implied carries its page's date or the day it was read.
func TestComputeSLAsSourced(t *testing.T) {
	if len(computeSLAs) == 0 {
		t.Fatal("no compute SLA recorded")
	}
	for p, s := range computeSLAs {
		u, err := url.Parse(s.Ref)
		if err != nil || u.Scheme != "https" || u.Host == "" {
			t.Errorf("%s: ref %q is not an https page", p, s.Ref)
		}
		if !(s.Single > 90 && s.Single <= 100) {
			t.Errorf("%s: uptime %g%% outside (90, 100]", p, s.Single)
		}
		if s.Zones != 0 && (s.Zones < s.Single || s.Zones > 100) {
			t.Errorf("%s: %g%% across zones: below %g%% for one instance or over 100", p, s.Zones, s.Single)
		}
		if s.GPUImplicit && s.AsOf == "" && s.ReadOn == "" {
			t.Errorf("%s: GPU coverage implied but neither an as-of date nor the day it was read", p)
		}
	}
}
