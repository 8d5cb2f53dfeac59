package i18n

// limitMessages are the server's answers to requests over its input limits.
var limitMessages = map[Lang]map[string]string{
	EN: {
		"web.limit.query":    "The query string is %d bytes; the limit is %d.",
		"web.limit.values":   "Parameter %q has %d values; the limit is %d.",
		"web.limit.offer_id": "Offer ID is %d bytes; the limit is %d (IDs look like provider/instance_type/region/billing).",
	},
	ZH: {
		"web.limit.query":    "查询字符串长 %d 字节，上限为 %d。",
		"web.limit.values":   "参数 %q 有 %d 个值，上限为 %d。",
		"web.limit.offer_id": "报价 ID 长 %d 字节，上限为 %d（ID 形如 provider/instance_type/region/billing）。",
	},
}
