package recommend

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/i18n"
)

// userLoc is one near-users entry: a place and, optionally, the load its
// users bring (in the inference target's unit: requests/s with qps,
// output tokens/s with tokens_per_second).
type userLoc struct {
	place string
	load  float64
}

// splitNear reads a near-users entry, "Frankfurt" or "Frankfurt=3".
func splitNear(s string) (userLoc, error) {
	place, load, ok := strings.Cut(strings.TrimSpace(s), "=")
	l := userLoc{place: strings.TrimSpace(place)}
	if !ok {
		return l, nil
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(load), 64)
	if err != nil || !(v > 0) || math.IsInf(v, 0) {
		return l, locErr("%q: the load after = must be a positive number (requests/s with qps, tokens/s with tokens_per_second)", s)
	}
	l.load = v
	return l, nil
}

// userLocations lists the near-users entries with their loads.
func (r *Requirements) userLocations() ([]userLoc, error) {
	var out []userLoc
	given := 0
	for _, s := range r.NearUsers {
		if strings.TrimSpace(s) == "" {
			continue
		}
		l, err := splitNear(s)
		if err != nil {
			return nil, err
		}
		if l.load > 0 {
			given++
		}
		out = append(out, l)
	}
	if given > 0 && given < len(out) {
		return nil, locErr("give a load for every location (Frankfurt=3,Virginia=1) or for none")
	}
	if given > 0 && r.Workload.Inference == nil {
		return nil, locErr("a load per location (Place=N) applies to an inference service (qps or tokens_per_second)")
	}
	return out, nil
}

// targetLoad is the inference target in the unit loads are given in.
func (i *Inference) targetLoad() float64 {
	if i.QPS > 0 {
		return i.QPS
	}
	return i.TokensPerSecond
}

// places are the near-users entries without their loads.
func places(list []string) []string {
	var out []string
	for _, s := range list {
		p, _, _ := strings.Cut(s, "=")
		out = append(out, strings.TrimSpace(p))
	}
	return out
}

// perLocation answers an inference service whose users are in several
// places with one plan set per place: each place's share of the load
// (as given, else an equal share), served from regions within
// nearRadiusKM of it (or in it, for a country), its plans ranked on their
// own; a note states each place's best plan and the sum.
func (e *Engine) perLocation(r Requirements, locs []userLoc, p *i18n.Printer) (*Result, error) {
	inf := *r.Workload.Inference
	total := inf.targetLoad()
	given := 0.0
	for _, l := range locs {
		given += l.load
	}
	if given > 0 && math.Abs(given-total) > 0.01*total {
		return nil, inputErr("near_users", "the locations' loads add up to %g, not the target's %g", given, total)
	}
	limit := r.Limit
	if limit == 0 {
		limit = 5
	}
	per := max(1, (limit+len(locs)-1)/len(locs))
	merged := &Result{Requirements: r, Currency: r.Currency}
	if merged.Currency == "" {
		merged.Currency = "USD"
	}
	var summary []string
	sum := 0.0
	var firstErr error
	var missing []string
	for _, l := range locs {
		share := l.load
		if share == 0 {
			share = total / float64(len(locs))
		}
		r2 := r
		i2 := inf
		if i2.QPS > 0 {
			i2.QPS = share
		} else {
			i2.TokensPerSecond = share
		}
		r2.Workload.Inference = &i2
		r2.NearUsers = []string{l.place}
		r2.nearOnly = true
		r2.Limit = per
		if r.Budget > 0 && r.budgetPeriod() != "hour" {
			r2.Budget = r.Budget * share / total
		}
		res, err := e.Recommend(r2, p)
		if err != nil {
			var np *NoPlanError
			if !errors.As(err, &np) {
				return nil, err
			}
			if firstErr == nil {
				firstErr = err
			}
			missing = append(missing, p.T("rec.loc_none", l.place, np.Error()))
			if np.Result != nil {
				merged.Rejected = append(merged.Rejected, np.Result.Rejected...)
			}
			continue
		}
		unit := p.T(map[bool]string{true: "rec.loc_unit_qps", false: "rec.loc_unit_tps"}[inf.QPS > 0], share)
		how := p.T(map[bool]string{true: "rec.loc_share_given", false: "rec.loc_share_equal"}[l.load > 0])
		for _, pl := range res.Plans {
			pl.ForUsers = l.place
			pl.Rank = len(merged.Plans) + 1
			pl.Reasons = append([]string{p.T("rec.loc_for", l.place, unit, how, nearRadiusKM)}, pl.Reasons...)
			merged.Plans = append(merged.Plans, pl)
		}
		if len(res.Plans) > 0 {
			best := res.Plans[0]
			sum += best.Cost
			summary = append(summary, p.T("rec.loc_item", l.place, best.Offer.Provider, best.Offer.InstanceName, best.Instances, best.Offer.RegionCode, money(best.Cost, merged.Currency)))
		}
		merged.Constraints = append(merged.Constraints, res.Constraints...)
		merged.Rejected = append(merged.Rejected, res.Rejected...)
		merged.Pareto = append(merged.Pareto, res.Pareto...)
		merged.Considered += res.Considered
		merged.Feasible += res.Feasible
		merged.Notes = append(merged.Notes, res.Notes...)
		if !res.OldestAsOf.IsZero() && (merged.OldestAsOf.IsZero() || res.OldestAsOf.Before(merged.OldestAsOf)) {
			merged.OldestAsOf = res.OldestAsOf
		}
		if res.NewestAsOf.After(merged.NewestAsOf) {
			merged.NewestAsOf = res.NewestAsOf
		}
	}
	if len(merged.Plans) == 0 {
		return nil, firstErr
	}
	head := []string{p.T("rec.loc_summary", len(locs), nearRadiusKM, strings.Join(summary, p.T("rec.loc_sep")), money(sum, merged.Currency), max(1, r.HorizonMonths))}
	head = append(head, missing...)
	merged.Notes = append(head, dedupe(merged.Notes)...)
	return merged, nil
}

func dedupe(v []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range v {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// nearStage keeps only the regions near a per-location run's users:
// within nearRadiusKM of a point, or in the country named.
func (x *run) nearStage() stage {
	p := x.p
	where := places(x.r.NearUsers)[0]
	return stage{name: "near", describe: p.T("rec.st.near", where, nearRadiusKM),
		reject: func(o *catalog.Offer) string {
			km, bonus := x.e.near(x.near, o.Region)
			switch {
			case bonus > 0:
				return ""
			case km < 0:
				return p.T("rec.rej.not_near_country", o.RegionCode, where)
			}
			return p.T("rec.rej.far_from_users", o.RegionCode, km, where, nearRadiusKM)
		}, relax: func([]*catalog.Offer) string { return p.T("rec.relax.near", where, nearRadiusKM) }}
}
