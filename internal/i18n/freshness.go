package i18n

// freshnessMessages say how old the catalog's prices are (catalog stats,
// version, the web footer) and how to refresh the providers that publish
// no public price file.
var freshnessMessages = map[Lang]map[string]string{
	EN: {
		"col.median_age":         "MEDIAN AGE (DAYS)",
		"col.fresh_share":        "PRICED ≤12 MO",
		"stats.freshness":        "prices within %d months: %s of %d offers; median age %d days",
		"stats.freshness_public": "providers with a public price file: %s of their %d offers priced within %d months (no public price file: %s)",
		"stats.no_price_file":    "%s publishes no public price file: its prices are dated snapshots. Refresh them with your own credentials: %s",
		"version.freshness":      "prices: %s within %d months, median age %d days",
		"web.footer_freshness":   "%s of prices within 12 months, median age %d days.",
		"date.undated":           "undated (read %s)",
		"date.undated_short":     "undated",
		"stats.undated":          "undated prices (the source shows no date; counted as not fresh): %d of %d offers",
	},
	ZH: {
		"col.median_age":         "价格日期中位天数",
		"col.fresh_share":        "12 个月内定价占比",
		"stats.freshness":        "%[1]d 个月内的价格：共 %[3]d 条报价中占 %[2]s；价格日期中位数 %[4]d 天前",
		"stats.freshness_public": "有公开价格文件的厂商：其报价中 %s（共 %d 条）在 %d 个月内定价（没有公开价格文件：%s）",
		"stats.no_price_file":    "%s 没有公开的价格文件：其价格是注明日期的快照。请用您自己的访问凭证刷新：%s",
		"version.freshness":      "价格：%[2]d 个月内的占 %[1]s，价格日期中位数 %[3]d 天前",
		"web.footer_freshness":   "12 个月内的价格占 %s，价格日期中位数 %d 天前。",
		"date.undated":           "无日期（%s 读取）",
		"date.undated_short":     "无日期",
		"stats.undated":          "无日期的价格（来源未标日期，计为不新鲜）：%d 条，共 %d 条报价",
	},
}

// AsOf renders a figure's date for a reader: the as-of date when the source
// shows one, else "undated (read <day>)" for an undated source, else "".
// Both arguments are YYYY-MM-DD strings ("" when unset).
func (p *Printer) AsOf(asOf, readOn string) string {
	switch {
	case asOf != "":
		return asOf
	case readOn != "":
		return p.T("date.undated", readOn)
	}
	return ""
}
