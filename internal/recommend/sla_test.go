package recommend

import (
	"net/url"
	"testing"
)

// TestComputeSLAsSourced: "which uptime does each provider commit to, and
// where does it say so?" Every recorded SLA names a page a user can open
// (https), commits to a monthly uptime in (90, 100] for one instance and
// for instances across zones, never less across zones than for one, and
// an entry whose GPU coverage is only implied carries the date it was read
// as of.
func TestComputeSLAsSourced(t *testing.T) {
	if len(computeSLAs) == 0 {
		t.Fatal("no compute SLA recorded")
	}
	for p, s := range computeSLAs {
		u, err := url.Parse(s.Ref)
		if err != nil || u.Scheme != "https" || u.Host == "" {
			t.Errorf("%s: ref %q is not an https page", p, s.Ref)
		}
		for _, v := range []float64{s.Single, s.Zones} {
			if !(v > 90 && v <= 100) {
				t.Errorf("%s: uptime %g%% outside (90, 100]", p, v)
			}
		}
		if s.Zones < s.Single {
			t.Errorf("%s: %g%% across zones is less than %g%% for one instance", p, s.Zones, s.Single)
		}
		if s.GPUImplicit && s.AsOf == "" {
			t.Errorf("%s: GPU coverage implied but no as-of date", p)
		}
	}
}
