package pricing

import (
	"fmt"
	"sort"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/shopspring/decimal"
)

// ancillaryAll adds storage, transfer and load-balancer components for the
// quantities in the usage, priced from the catalog for the offer's provider
// and region. A quantity without a sourced price is left out, with a note.
func (e *Engine) ancillaryAll(b *Breakdown) error {
	u := b.Usage
	lines := []struct {
		item, name, key string // key: the name's message
		qty             decimal.Decimal
	}{
		{catalog.ItemBlockStorage, "Block storage", "comp.block", u.StorageGB},
		{catalog.ItemObjectStorage, "Object storage", "comp.object", u.ObjectStorageGB},
		{catalog.ItemEgressInternet, "Internet egress", "comp.egress", u.EgressGB},
		{catalog.ItemTransferInterRegion, "Inter-region transfer", "comp.transfer", u.InterRegionGB},
		{catalog.ItemLoadBalancer, "Load balancers", "comp.lb", decimal.NewFromInt(int64(u.LoadBalancers)).Mul(hoursPerMonth)},
	}
	for _, l := range lines {
		if !l.qty.IsPositive() {
			continue
		}
		if err := e.ancillary(b, l.item, l.name, i18n.M(l.key), l.qty); err != nil {
			return err
		}
	}
	return nil
}

// ancillary prices qty units a month of one item. Tiered prices apply to the
// part of the monthly quantity inside each tier:
//
//	monthly = Σ over tiers of price × overlap(quantity, tier)
func (e *Engine) ancillary(b *Breakdown, item, name string, label i18n.Msg, qty decimal.Decimal) error {
	o := b.Offer
	prices := e.Prices.Ancillary(o.Provider, o.RegionCode, item)
	if len(prices) == 0 {
		b.Notes = append(b.Notes, i18n.M("pr.note.no_price", label, item, o.Provider))
		return nil
	}
	sort.Slice(prices, func(i, j int) bool { return prices[i].TierStart.LessThan(prices[j].TierStart) })
	monthly := decimal.Zero
	var tiers i18n.Semi
	for _, p := range prices {
		part := overlap(decimal.Zero, qty, p.TierStart, p.TierEnd)
		price, err := e.convert(p.Price.Amount, p.Price.Currency, b.Currency)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		monthly = monthly.Add(part.Mul(price))
		if len(prices) > 1 {
			end := "∞"
			if p.TierEnd.IsPositive() {
				end = p.TierEnd.String()
			}
			tiers = append(tiers, i18n.M("pr.comp.tier", p.TierStart, end, p.Unit, p.Price.Amount, p.Price.Currency))
		}
	}
	unit := prices[0].Unit
	c := Component{Name: name, Unit: unit, Quantity: qty, Cash: flat(b.Usage.Months, monthly), Source: prices[0].Source,
		UnitPrice: catalog.Money{Amount: prices[0].Price.Amount, Currency: prices[0].Price.Currency}}
	if len(tiers) > 0 {
		c.UnitPrice = catalog.Money{Amount: monthly.Div(qty), Currency: b.Currency}
		c.Note = i18n.M("pr.comp.tiered", tiers)
	}
	if prices[0].Region == "*" {
		if c.Note.Key != "" {
			c.Note = i18n.M("pr.comp.and", c.Note, i18n.M("pr.comp.provider_wide"))
		} else {
			c.Note = i18n.M("pr.comp.provider_wide")
		}
	}
	b.Components = append(b.Components, c)
	return nil
}

// support adds a support plan's fee for each month: the plan's percentage
// of the month's spend in each spend tier, and at least its monthly
// minimum; or a flat percentage of spend.
func (e *Engine) support(b *Breakdown) error {
	u := b.Usage
	if u.SupportPlan == "" && u.SupportPercent.IsZero() {
		return nil
	}
	spend := b.CashFlow()
	c := Component{Name: "Support", Unit: "month", Quantity: one, Cash: zeros(u.Months)}
	if u.SupportPlan == "" {
		for m, s := range spend {
			c.Cash[m] = s.Mul(u.SupportPercent).Div(hundred)
		}
		c.Name = fmt.Sprintf("Support (%s%% of spend)", u.SupportPercent)
		c.Source = catalog.Source{Kind: catalog.SourceUser, Ref: "usage: support percentage"}
		c.UnitPrice = catalog.Money{Amount: c.Monthly(), Currency: b.Currency}
		b.Components = append(b.Components, c)
		return nil
	}
	tiers := e.Prices.SupportPlan(b.Offer.Provider, u.SupportPlan)
	if len(tiers) == 0 {
		return fieldErr("support", "no support plan %q for %s in the catalog", u.SupportPlan, b.Offer.Provider)
	}
	sort.Slice(tiers, func(i, j int) bool { return tiers[i].TierStart.LessThan(tiers[j].TierStart) })
	cur := tiers[0].Currency
	minimum, err := e.convert(tiers[0].MinimumMonthly, cur, b.Currency)
	if err != nil {
		return fmt.Errorf("support: %w", err)
	}
	for m, s := range spend {
		// Tier bounds are in the plan's currency: compare the spend in it.
		sp, err := e.convert(s, b.Currency, cur)
		if err != nil {
			return fmt.Errorf("support: %w", err)
		}
		fee := decimal.Zero
		for _, t := range tiers {
			fee = fee.Add(overlap(decimal.Zero, sp, t.TierStart, t.TierEnd).Mul(t.Percent).Div(hundred))
		}
		if fee, err = e.convert(fee, cur, b.Currency); err != nil {
			return fmt.Errorf("support: %w", err)
		}
		c.Cash[m] = decimal.Max(fee, minimum)
	}
	c.Name = "Support (" + tiers[0].Plan + ")"
	c.Source = tiers[0].Source
	c.UnitPrice = catalog.Money{Amount: c.Monthly(), Currency: b.Currency}
	c.Note = i18n.M("pr.comp.support", tiers[0].MinimumMonthly, cur)
	b.Components = append(b.Components, c)
	if b.After().IsPositive() {
		b.Notes = append(b.Notes, i18n.M("pr.note.support_after"))
	}
	return nil
}
