package jsonmoney

import (
	"encoding/json"
	"testing"
)

func TestMoney(t *testing.T) {
	for in, want := range map[string]string{`1.25`: "1.25", `"0.000001"`: "0.000001", `"12"`: "12", `3e2`: "300"} {
		var m Money
		if err := json.Unmarshal([]byte(in), &m); err != nil || !m.Set || m.D.String() != want {
			t.Errorf("%s: %v %v %s", in, err, m.Set, m.D)
		}
	}
	for _, in := range []string{`null`, `""`} {
		var m Money
		if err := json.Unmarshal([]byte(in), &m); err != nil || m.Set {
			t.Errorf("%s: %v %v", in, err, m.Set)
		}
	}
	for _, in := range []string{`"abc"`, `"1e400"`, `"12345678901234567890123456789012345678901"`, `true`} {
		var m Money
		if err := json.Unmarshal([]byte(in), &m); err == nil {
			t.Errorf("%s: no error", in)
		}
	}
}
