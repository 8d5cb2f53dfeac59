package cli_test

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
)

// invariantPlan is what FuzzPlanInvariants reads of a plan.
type invariantPlan struct {
	Offer        string   `json:"offer"`
	Billing      string   `json:"billing"`
	Reasons      []string `json:"reasons"`
	Risks        []string `json:"risks"`
	DeadlineMiss float64  `json:"deadline_miss_probability"`
	BilledHours  float64  `json:"billed_hours_per_instance"`
	Time         *struct {
		Hours, Low, High float64
	} `json:"time"`
	Cost struct {
		Total      float64 `json:"total"`
		Currency   string  `json:"currency"`
		Components []struct {
			Name     string   `json:"name"`
			Total    float64  `json:"total"`
			Currency string   `json:"currency"`
			InPlan   *float64 `json:"total_in_plan_currency"`
		} `json:"components"`
	} `json:"cost"`
	Spot *struct {
		P90 float64 `json:"p90_hours"`
		P50 float64 `json:"p50_hours"`
	} `json:"spot"`
}

// FuzzPlanInvariants puts generated training jobs to recommend -o json
// and checks what every answer must keep (issue 35, point 8):
//   - P90 ≥ median, and one P90: a spot plan's simulated P90 is its
//     time.high;
//   - a Capacity Block covers its job's P90, or says the chance of
//     running past it;
//   - a plan's cost components, each in its currency and converted into
//     the plan's, sum to its total;
//   - under a hard deadline, plans likely to miss it (over 10%) rank
//     after every plan that meets it.
//
// The seeds run on every go test; each is one recommend run on the
// embedded catalog, bounded to a few GPU models.
func FuzzPlanInvariants(f *testing.F) {
	// params, tokens, deadline hours, interruptible, book quantile, priority, multi-node, currency
	f.Add(1e9, 2e9, 1.2, false, 0.0, uint8(0), false, uint8(0))    // plans at risk of missing, cheapest first
	f.Add(1e9, 2e9, 0.0, true, 0.0, uint8(0), false, uint8(1))     // short spot jobs, in CNY
	f.Add(13e9, 3e11, 336.0, false, 0.0, uint8(2), true, uint8(0)) // two weeks on Capacity Blocks
	f.Add(13e9, 3e11, 336.0, false, 0.6, uint8(1), true, uint8(2)) // blocks booked to P60, in EUR
	f.Add(7e9, 1e11, 100.0, true, 0.0, uint8(1), true, uint8(0))   // spot under a deadline, fastest first
	f.Fuzz(func(t *testing.T, params, tokens, deadline float64, interruptible bool, q float64, prio uint8, multi bool, cur uint8) {
		if !(params >= 1e8 && params <= 7e10) || !(tokens >= 1e8 && tokens <= 1e12) || !(deadline >= 0 && deadline <= 2000) {
			t.Skip("outside the bounded job space")
		}
		args := []string{"recommend", "--workload", "transformer-train", "--params", fmt.Sprint(params), "--tokens", fmt.Sprint(tokens),
			"--gpu", "H100,A100,T4,L40S,B200", "--priority", []string{"cost", "time", "balanced"}[prio%3], "--limit", "8",
			"--currency", []string{"USD", "CNY", "EUR"}[cur%3], "-o", "json"}
		if deadline > 0 {
			args = append(args, "--deadline-hours", fmt.Sprint(deadline))
		}
		if interruptible {
			args = append(args, "--interruptible")
		}
		if q >= 0.5 && q <= 0.999 {
			args = append(args, "--book-quantile", fmt.Sprint(q))
		}
		if multi {
			args = append(args, "--multi-node", "--max-gpus", "64")
		}
		out, _, code := exec(t, true, nil, args...)
		if code != 0 {
			t.Skip("no plan for this job")
		}
		var d struct {
			Plans []invariantPlan `json:"plans"`
		}
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatal(err)
		}
		late := ""
		for i, p := range d.Plans {
			checkPlanInvariants(t, p)
			if deadline > 0 {
				if p.DeadlineMiss > 0.1+1e-6 {
					late = p.Offer
				} else if late != "" {
					t.Errorf("#%d %s (%.0f%% miss) ranks after %s, likely to miss the %g h deadline", i+1, p.Offer, 100*p.DeadlineMiss, late, deadline)
				}
			}
		}
	})
}

func checkPlanInvariants(t *testing.T, p invariantPlan) {
	t.Helper()
	if tm := p.Time; tm != nil {
		median := tm.Hours
		if p.Spot != nil {
			median = p.Spot.P50
			if math.Abs(p.Spot.P90-tm.High) > 1e-3*tm.High {
				t.Errorf("%s: two P90s, %.4f h (spot simulation) and %.4f h (time)", p.Offer, p.Spot.P90, tm.High)
			}
		}
		if tm.High < median*(1-1e-3) || tm.Low > tm.High {
			t.Errorf("%s: P90 %.4f h below the median %.4f h (range %.4f–%.4f)", p.Offer, tm.High, median, tm.Low, tm.High)
		}
		if p.Billing == "capacity-block" && p.BilledHours-0.5 < tm.High*(1-1e-3) &&
			!strings.Contains(strings.Join(append(p.Reasons, p.Risks...), " "), "chance the job runs past") {
			t.Errorf("%s: a %.0f h block (%.1f h usable) for a job whose P90 is %.1f h, and no word of running past it", p.Offer, p.BilledHours, p.BilledHours-0.5, tm.High)
		}
	}
	sum := 0.0
	rate := map[string]float64{}
	for _, c := range p.Cost.Components {
		if c.Currency == "" || c.InPlan == nil {
			t.Errorf("%s: component %q of %.2f has no currency or no amount in %s", p.Offer, c.Name, c.Total, p.Cost.Currency)
			return
		}
		sum += *c.InPlan
		if c.Currency == p.Cost.Currency && math.Abs(*c.InPlan-c.Total) > 1e-4*math.Max(1, c.Total) {
			t.Errorf("%s: component %q is %.4f %s, converted to %.4f %s", p.Offer, c.Name, c.Total, c.Currency, *c.InPlan, p.Cost.Currency)
		}
		if c.Total != 0 {
			r := *c.InPlan / c.Total
			if r0, ok := rate[c.Currency]; ok && math.Abs(r-r0) > 1e-4*r0 {
				t.Errorf("%s: components in %s converted at two rates, %.6f and %.6f", p.Offer, c.Currency, r0, r)
			}
			rate[c.Currency] = r
		}
	}
	// cost.total is rounded to 0.1 from 100 up (document.fnum).
	if len(p.Cost.Components) > 0 && math.Abs(sum-p.Cost.Total) > 0.051+1e-6*p.Cost.Total {
		t.Errorf("%s: components sum to %.4f, the total is %.4f %s", p.Offer, sum, p.Cost.Total, p.Cost.Currency)
	}
}
