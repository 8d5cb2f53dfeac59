package i18n

// limitMessages are the server's answers to requests over its input limits.
var limitMessages = map[Lang]map[string]string{
	EN: {
		"web.limit.query":    "The query string is %d bytes; the limit is %d.",
		"web.limit.values":   "Parameter %q has %d values; the limit is %d.",
		"web.limit.offer_id": "Offer ID is %d bytes; the limit is %d (IDs look like provider/instance_type/region/billing).",
		"web.limit.rows":     "Showing offers %d–%d of %d: a page carries at most %d. Narrow the filters, or fetch the rest with offset= from the CSV export or the API.",
	},
	ZH: {
		"web.limit.query":    "查询字符串长 %d 字节，上限为 %d。",
		"web.limit.values":   "参数 %q 有 %d 个值，上限为 %d。",
		"web.limit.offer_id": "报价 ID 长 %d 字节，上限为 %d（ID 形如 provider/instance_type/region/billing）。",
		"web.limit.rows":     "显示第 %d–%d 条报价，共 %d 条：每页最多 %d 条。请缩小筛选范围，或在 CSV 导出或 API 中用 offset= 获取其余报价。",
	},
}
