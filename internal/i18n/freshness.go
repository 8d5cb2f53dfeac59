package i18n

// freshnessMessages say how old the catalog's prices are (catalog stats,
// version, the web footer) and how to refresh the providers that publish
// no public price file.
var freshnessMessages = lazy(func() map[Lang]map[string]string {
	return map[Lang]map[string]string{
		EN: {
			"col.median_age":         "MEDIAN AGE (DAYS)",
			"col.fresh_share":        "PRICED ≤12 MO",
			"col.undated":            "UNDATED",
			"stats.freshness":        "prices within %d months: %s of %d offers; median age %d days",
			"stats.undated":          "undated offers (the source shows no date; counted as not fresh, left out of the median age): %d",
			"stats.freshness_public": "providers with a public price file: %s of their %d offers priced within %d months (no public price file: %s)",
			"src.undated":            "undated (read %s)",
			"note.undated":           "%d offer(s) have undated prices: the source shows no date, so they count as not fresh.",
			"src.as_of":              "as of %s",
			"src.as_of_full":         "as of %s",
			"stats.no_price_file":    "%s publishes no public price file: its prices are dated snapshots. Refresh them with your own credentials: %s",
			"version.freshness":      "prices: %s within %d months, median age %d days",
			"web.footer_freshness":   "%s of prices within 12 months, median age %d days.",
			"web.footer_snapshot":    "Price snapshot written %s UTC.",
			"web.footer_embedded":    "No price snapshot loaded: these are the prices built into this gpuscout binary.",
		},
		ZH: {
			"col.median_age":         "价格日期中位天数",
			"col.fresh_share":        "12 个月内定价占比",
			"col.undated":            "无日期",
			"stats.freshness":        "%[1]d 个月内的价格：共 %[3]d 条报价中占 %[2]s；价格日期中位数 %[4]d 天前",
			"stats.undated":          "无日期的报价（来源未注明日期；计为不新鲜，不计入日期中位数）：%d 条",
			"src.undated":            "无日期（%s 读取）",
			"note.undated":           "%d 条报价的价格无日期：来源未注明日期，计为不新鲜。",
			"src.as_of":              "%s",
			"src.as_of_full":         "截至 %s",
			"stats.freshness_public": "有公开价格文件的厂商：其报价中 %s（共 %d 条）在 %d 个月内定价（没有公开价格文件：%s）",
			"stats.no_price_file":    "%s 没有公开的价格文件：其价格是注明日期的快照。请用您自己的访问凭证刷新：%s",
			"version.freshness":      "价格：%[2]d 个月内的占 %[1]s，价格日期中位数 %[3]d 天前",
			"web.footer_freshness":   "12 个月内的价格占 %s，价格日期中位数 %d 天前。",
			"web.footer_snapshot":    "价格快照写入于 %s（UTC）。",
			"web.footer_embedded":    "未加载价格快照：以下是本 gpuscout 程序内置的价格。",
		},
	}
})

// SourceDate renders a source's date for a table cell: the as-of date
// (YYYY-MM-DD) when there is one, else, for an undated source, "undated
// (read <readOn>)"; "" when both are empty.
func (p *Printer) SourceDate(asOf, readOn string) string {
	switch {
	case asOf != "":
		return asOf
	case readOn != "":
		return p.T("src.undated", readOn)
	}
	return ""
}

// AsOfFull is AsOfPhrase with "as of" written in Chinese too ("截至
// <asOf>"), for sentences that say it in both languages.
func (p *Printer) AsOfFull(asOf, readOn string) string {
	if asOf != "" {
		return p.T("src.as_of_full", asOf)
	}
	return p.AsOfPhrase(asOf, readOn)
}

// AsOfPhrase renders a source's date inside a sentence: "as of <asOf>"
// (in Chinese the bare date), or "undated (read <readOn>)" for an undated
// source; "" when both are empty.
func (p *Printer) AsOfPhrase(asOf, readOn string) string {
	switch {
	case asOf != "":
		return p.T("src.as_of", asOf)
	case readOn != "":
		return p.T("src.undated", readOn)
	}
	return ""
}
