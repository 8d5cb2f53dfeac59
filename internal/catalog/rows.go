package catalog

// FirstPerProvider keeps the first n rows of each provider, in order.
func FirstPerProvider(rows []OfferRow, n int) []OfferRow {
	seen := map[string]int{}
	var out []OfferRow
	for _, r := range rows {
		if seen[r.Offer.Provider] < n {
			seen[r.Offer.Provider]++
			out = append(out, r)
		}
	}
	return out
}

// CheapestRegion keeps, for each instance type and billing model, the row of
// its cheapest region (ties: the first in order), in the rows' order.
func CheapestRegion(rows []OfferRow) []OfferRow {
	best := map[string]int{}
	for i, r := range rows {
		k := r.Offer.Instance.ID() + "/" + string(r.Offer.Billing)
		if j, ok := best[k]; !ok || r.EffectiveHourly.LessThan(rows[j].EffectiveHourly) {
			best[k] = i
		}
	}
	var out []OfferRow
	for i, r := range rows {
		if best[r.Offer.Instance.ID()+"/"+string(r.Offer.Billing)] == i {
			out = append(out, r)
		}
	}
	return out
}
