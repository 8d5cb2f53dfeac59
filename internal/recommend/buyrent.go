package recommend

import (
	"github.com/gpuscout/gpuscout/internal/pricing"
	"github.com/shopspring/decimal"
)

// Buy-versus-rent: a standing cluster of at least buyRentGPUs GPUs kept for
// at least buyRentMonths is compared with buying servers of its GPU, priced
// by the engine `tco --onprem` uses (pricing.OnPremDefaults, Compare).
const (
	buyRentGPUs   = 8
	buyRentMonths = 24
	// serverGPUs is the GPUs per server bought (the catalog's server
	// figures are for 8-GPU HGX servers).
	serverGPUs = 8
)

// BuyVsRent compares a cluster plan with buying servers of its GPU over
// the same horizon, in the plan's currency. Priced is false when the
// catalog has no server price (or power figure) for the GPU: then only
// GPU is set.
type BuyVsRent struct {
	GPU           string  `json:"gpu"`
	Priced        bool    `json:"priced"`
	Servers       int     `json:"servers,omitempty"`
	GPUsPerServer int     `json:"gpus_per_server,omitempty"`
	Months        int     `json:"months,omitempty"`
	OnPremTotal   float64 `json:"onprem_total,omitempty"`
	RentTotal     float64 `json:"rent_total,omitempty"`
	Currency      string  `json:"currency,omitempty"`
	// BreakEvenMonth is the month in which the cash paid for owning is
	// first no more than the cash paid for renting (resale not counted);
	// 0 when that does not happen within the horizon.
	BreakEvenMonth int `json:"break_even_month,omitempty"`
}

// wantsBuyVsRent reports whether the answer weighs buying servers: a
// standing cluster of many GPUs kept for years.
func (r *Requirements) wantsBuyVsRent() bool {
	return r.Workload.ClusterGPUs >= buyRentGPUs && r.HorizonMonths >= buyRentMonths && r.Hours == 0
}

// buyVsRent prices buying the servers a cluster plan rents, with the
// same GPUs, utilisation and horizon.
func (x *run) buyVsRent(pl *Plan) (*BuyVsRent, error) {
	r, e := x.r, x.e
	gpu := pl.Offer.Instance.GPUID
	bv := &BuyVsRent{GPU: gpu}
	servers := (pl.GPUs + serverGPUs - 1) / serverGPUs
	own, err := e.Pricing.OnPremDefaults(gpu, servers)
	if err != nil {
		return bv, nil // no server figures for this GPU: unknown stays unknown
	}
	u := pricing.DefaultUsage()
	u.Instances = pl.Instances
	u.Months = r.HorizonMonths
	if r.Utilization > 0 {
		u.Utilization = decimal.NewFromFloat(r.Utilization)
		own.Utilization = u.Utilization
	}
	buy := x.p.T("rec.buy_name", servers, serverGPUs, gpu)
	t, err := e.Pricing.Compare([]pricing.Plan{{Name: pl.Offer.ID(), Parts: []pricing.Part{{Offer: pl.Offer, Usage: u}}}, {Name: buy, OnPrem: &own}},
		r.HorizonMonths, x.cur)
	if err != nil {
		return nil, err
	}
	bv.Priced, bv.Servers, bv.GPUsPerServer, bv.Months, bv.Currency = true, servers, serverGPUs, r.HorizonMonths, x.cur
	bv.RentTotal = round6(t.Plans[0].Total.InexactFloat64())
	bv.OnPremTotal = round6(t.Plans[1].Total.InexactFloat64())
	for _, b := range t.BreakEven {
		if b.Kind == "buy-vs-rent" && b.Found {
			bv.BreakEvenMonth = int(b.Value.IntPart())
		}
	}
	return bv, nil
}

// buyVsRentNotes adds each cluster plan's buy-versus-rent line, and a
// note under the answer with the first plan's that could be priced.
func (x *run) buyVsRentNotes() error {
	if !x.r.wantsBuyVsRent() {
		return nil
	}
	noted := false
	for _, pl := range x.res.Plans {
		bv, err := x.buyVsRent(pl)
		if err != nil {
			return err
		}
		pl.BuyVsRent = bv
		if !bv.Priced {
			pl.Reasons = append(pl.Reasons, x.p.T("rec.buy_unpriced", bv.GPU))
			continue
		}
		line := x.buyLine(bv, pl)
		pl.Reasons = append(pl.Reasons, line)
		if !noted {
			x.res.Notes = append(x.res.Notes, x.p.T("rec.buy_note", pl.Rank, line))
			noted = true
		}
	}
	return nil
}

// buyLine is the buy-versus-rent sentence of a priced comparison.
func (x *run) buyLine(bv *BuyVsRent, pl *Plan) string {
	name := x.p.T("rec.buy_name", bv.Servers, bv.GPUsPerServer, bv.GPU)
	if bv.BreakEvenMonth > 0 {
		return x.p.T("rec.buy_pays_back", name, money(bv.OnPremTotal, bv.Currency), bv.Months, money(bv.RentTotal, bv.Currency), bv.BreakEvenMonth)
	}
	return x.p.T("rec.buy_never", name, money(bv.OnPremTotal, bv.Currency), bv.Months, money(bv.RentTotal, bv.Currency))
}
