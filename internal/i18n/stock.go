package i18n

import "time"

// stockMessages say what a provider's API last reported about capacity
// for an offer, and how long ago (catalog.Stock).
var stockMessages = lazy(func() map[Lang]map[string]string {
	return map[Lang]map[string]string{
		EN: {
			"stock.available":          "seen available %s ago",
			"stock.low":                "seen low %s ago",
			"stock.none":               "no capacity %s ago",
			"stock.age.min":            "%d min",
			"stock.age.h":              "%d h",
			"stock.age.d":              "%d days",
			"col.stock":                "STOCK",
			"web.f.available":          "Seen available",
			"note.stock":               "STOCK is what the provider's own API last said about capacity, and when (gpuscout catalog update --provider lambda,runpod,vast): capacity changes by the minute, so it is a hint, not a reservation.",
			"rec.stock_seen":           "Capacity: %s's own API listed it available %s ago (capacity changes by the minute).",
			"rec.risk_stock_low":       "Low stock: %s's own API called capacity low %s ago; it may be gone when you launch.",
			"rec.risk_no_capacity":     "No capacity now: %s's own API listed none %s ago. The price stands, but a launch may fail until capacity returns.",
			"rec.riskpart.no_capacity": "no capacity at the last reading",
			"rec.riskpart.stock_low":   "low stock at the last reading",
			"note.stock_none":          "No offer matched with capacity seen: --available keeps only offers a live import (gpuscout catalog update --provider lambda,runpod,vast) saw available.",
		},
		ZH: {
			"stock.available":          "%s前有货",
			"stock.low":                "%s前库存紧张",
			"stock.none":               "%s前无可用容量",
			"stock.age.min":            "%d 分钟",
			"stock.age.h":              "%d 小时",
			"stock.age.d":              "%d 天",
			"col.stock":                "库存",
			"web.f.available":          "有货",
			"note.stock":               "库存列为云厂商自身 API 最近一次报告的容量及其时间（gpuscout catalog update --provider lambda,runpod,vast）：容量随时变化，仅供参考，并非预留。",
			"rec.stock_seen":           "容量：%s 自身 API 在 %s前显示有货（容量随时变化）。",
			"rec.risk_stock_low":       "库存紧张：%s 自身 API 在 %s前显示容量偏少，启动时可能已无货。",
			"rec.risk_no_capacity":     "当前无容量：%s 自身 API 在 %s前显示无可用容量。价格不变，但在容量恢复前启动可能失败。",
			"rec.riskpart.no_capacity": "最近一次读取时无容量",
			"rec.riskpart.stock_low":   "最近一次读取时库存紧张",
			"note.stock_none":          "没有看到有容量的匹配报价：--available 只保留实时导入（gpuscout catalog update --provider lambda,runpod,vast）看到有货的报价。",
		},
	}
})

// StockAge renders how long ago a stock reading was taken: minutes under
// two hours, hours under two days, then days.
func (p *Printer) StockAge(age time.Duration) string {
	switch {
	case age < 2*time.Hour:
		return p.T("stock.age.min", int(age/time.Minute))
	case age < 48*time.Hour:
		return p.T("stock.age.h", int(age/time.Hour))
	}
	return p.T("stock.age.d", int(age/(24*time.Hour)))
}

// StockPhrase renders a stock reading: its state (available, low, none)
// and how long ago it was seen; "" for no reading.
func (p *Printer) StockPhrase(state string, age time.Duration) string {
	switch state {
	case "available":
		return p.T("stock.available", p.StockAge(age))
	case "low":
		return p.T("stock.low", p.StockAge(age))
	case "none":
		return p.T("stock.none", p.StockAge(age))
	}
	return ""
}
