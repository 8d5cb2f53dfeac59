package i18n

// paramMessages are the explorer's answers to query values it cannot use
// (the same words on the page, in the CSV's error and in the API's) and
// its notes on a window of rows.
var paramMessages = lazy(func() map[Lang]map[string]string {
	return map[Lang]map[string]string{
		EN: {
			"err.param.currency":      "no exchange rate for %q",
			"err.param.currency_hint": "known currencies: %s",
			"err.param.col":           "unknown column %q",
			"err.param.col_hint":      "known columns: %s",
			"err.param.billing":       "unknown billing model %q",
			"err.param.billing_hint":  "use %s, or a full code such as reserved-1y-no-upfront.",
			"err.param.os":            "unknown operating system %q",
			"err.param.os_hint":       "use linux or windows.",
			"err.param.order":         "cannot order by %q",
			"err.param.order_hint":    "order by one of %s.",
			"fx.ecb_inverse":          "ECB euro foreign exchange reference rates %[1]s (%[2]s): 1 / %[3]s %[4]s",
			"web.compare.specs_title": "Offers side by side",
			"web.compare.json_each":   "JSON, one document per offer:",
			"web.limit.offset":        "Showing offers %d–%d of %d, from offset=%d.",
			"web.limit.past_end":      "There are %d offers: offset=%d is past the last, so none is shown.",
		},
		ZH: {
			"err.param.currency":      "没有 %q 的汇率",
			"err.param.currency_hint": "可用货币：%s",
			"err.param.col":           "没有 %q 这一列",
			"err.param.col_hint":      "可用的列：%s",
			"err.param.billing":       "未知的计费方式 %q",
			"err.param.billing_hint":  "请使用 %s，或 reserved-1y-no-upfront 这样的完整代码。",
			"err.param.os":            "未知的操作系统 %q",
			"err.param.os_hint":       "请使用 linux 或 windows。",
			"err.param.order":         "无法按 %q 排序",
			"err.param.order_hint":    "可排序的列：%s。",
			"fx.ecb_inverse":          "欧洲央行欧元外汇参考汇率 %[1]s（%[2]s）：1 / %[3]s %[4]s",
			"web.compare.specs_title": "报价规格对比",
			"web.compare.json_each":   "JSON（每个报价一份）：",
			"web.limit.offset":        "显示第 %d–%d 条报价，共 %d 条（从 offset=%d 开始）。",
			"web.limit.past_end":      "共 %d 条报价：offset=%d 超出了最后一条，因此没有显示报价。",
		},
	}
})
