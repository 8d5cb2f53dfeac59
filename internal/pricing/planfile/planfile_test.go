package planfile_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/catalog/catalogtest"
	"github.com/gpuscout/gpuscout/internal/pricing"
	"github.com/gpuscout/gpuscout/internal/pricing/planfile"
)

func TestReadUsage(t *testing.T) {
	u := pricing.DefaultUsage()
	err := planfile.ReadUsage(strings.NewReader(`
instances: 3
hours_per_day: 7.5
utilization: 0.8
months: 12
start: 2027-03
storage_gb: 1_000
support: 10%
spend_discounts: [{above: 5000, multiplier: 0.85}]
hour_tiers: [{from: 0, multiplier: 1}, {from: 96, multiplier: 0.5}]
`), &u)
	if err != nil {
		t.Fatal(err)
	}
	if u.Instances != 3 || u.HoursPerDay.String() != "7.5" || u.Utilization.String() != "0.8" || u.Months != 12 ||
		u.StorageGB.String() != "1000" || u.SupportPercent.String() != "10" || u.Start.Format("2006-01") != "2027-03" ||
		len(u.SpendDiscounts) != 1 || u.SpendDiscounts[0].Multiplier.String() != "0.85" || len(u.HourTiers) != 2 {
		t.Errorf("usage %+v", u)
	}
	// Numbers are exact decimals, not floats.
	u2 := pricing.DefaultUsage()
	_ = planfile.ReadUsage(strings.NewReader("egress_gb: 0.1\nhours_per_day: 0.3\n"), &u2)
	if u2.EgressGB.String() != "0.1" || u2.HoursPerDay.String() != "0.3" {
		t.Errorf("not exact: %s %s", u2.EgressGB, u2.HoursPerDay)
	}
}

func TestReadUsageErrorsNameLineOrField(t *testing.T) {
	tests := map[string]string{
		"storage_gbb: 10\n":             "line 1: field storage_gbb not found",
		"hours_per_day: lots\n":         `line 1: "lots" is not a number`,
		"months: [1, 2]\n":              "line 1",
		"start: March\n":                "start",
		"instances: 2\n  bad: indent\n": "line 2",
		"":                              "empty",
	}
	for in, want := range tests {
		u := pricing.DefaultUsage()
		err := planfile.ReadUsage(strings.NewReader(in), &u)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want it to contain %q", in, err, want)
		}
	}
}

func TestReadPlans(t *testing.T) {
	c := catalogtest.New(t)
	defaults := func(gpu string, servers int) (pricing.OnPrem, error) {
		return pricing.OnPrem{GPU: gpu, Servers: servers, GPUsPerServer: 8}, errors.New("no catalog figures")
	}
	plans, months, cur, err := planfile.Read(strings.NewReader(`
months: 24
currency: cny
usage: {instances: 2, storage_gb: 100}
plans:
  - name: on-demand
    offer: acme/big8/us-east/on-demand
  - name: mix
    parts:
      - offer: acme/big8/us-east/reserved-1y-partial-upfront
        usage: {instances: 1}
      - offer: acme/big8/us-east/spot
        usage: {hours_per_day: 4}
  - name: buy
    onprem: {gpu: A100-SXM4-80GB, server_price: 250000, depreciation_years: 4, power_kw: 6.5}
`), c, defaults, pricing.DefaultUsage())
	if err != nil {
		t.Fatal(err)
	}
	if months != 24 || cur != "CNY" || len(plans) != 3 {
		t.Fatalf("months %d currency %s plans %d", months, cur, len(plans))
	}
	mix := plans[1].Parts
	if mix[0].Usage.Instances != 1 || mix[1].Usage.Instances != 2 || mix[1].Usage.HoursPerDay.String() != "4" ||
		mix[0].Usage.StorageGB.String() != "100" || mix[0].Usage.Months != 24 {
		t.Errorf("part usages: %+v / %+v", mix[0].Usage, mix[1].Usage)
	}
	op := plans[2].OnPrem
	if op == nil || op.ServerPrice.Amount.String() != "250000" || op.ServerPrice.Currency != "USD" || op.Sources[catalog.OnPremServerPrice].Kind != catalog.SourceUser {
		t.Errorf("onprem %+v", op)
	}
}

func TestReadPlansErrors(t *testing.T) {
	c := catalogtest.New(t)
	defaults := func(gpu string, servers int) (pricing.OnPrem, error) {
		return pricing.OnPrem{}, errors.New("no figures")
	}
	tests := map[string]string{
		"plans: []\n": "plans: the file lists no plans",
		"plans: [{offer: acme/big8/us-east/on-demand}]\n":         "plans[0].name: required",
		"plans: [{name: x, offer: acme/big8/us-east/ondemand}]\n": `did you mean acme/big8/us-east/on-demand`,
		"plans: [{name: x}]\n":                                    "a plan needs an offer, parts or onprem",
		"plans: [{name: x, onprem: {servers: 1}}]\n":              "gpu is required",
		"plans: [{name: x, onprem: {gpu: A10}}]\n":                "no figures",
		"plan: []\n": "field plan not found",
	}
	for in, want := range tests {
		_, _, _, err := planfile.Read(strings.NewReader(in), c, defaults, pricing.DefaultUsage())
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want %q", in, err, want)
		}
	}
}

func FuzzReadUsage(f *testing.F) {
	f.Add("instances: 2\nhours_per_day: 8\n")
	f.Add("spend_discounts: [{above: 1, multiplier: 0.5}]\n")
	f.Add("support: '10%'\nstart: 2027-01\n")
	f.Add("{]")
	f.Fuzz(func(t *testing.T, in string) {
		u := pricing.DefaultUsage()
		if err := planfile.ReadUsage(strings.NewReader(in), &u); err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		_ = u.Validate() // must not panic on anything that parsed
	})
}
