package i18n

// denseMessages are the offers explorer's compact toolbar: the price unit
// and term switches and the note on undated prices listed last (issue 36).
var denseMessages = lazy(func() map[Lang]map[string]string {
	return map[Lang]map[string]string{
		EN: {
			"web.x.undated_last":      "%d undated prices listed after the dated ones.",
			"web.x.term":              "Price",
			"web.x.term.any":          "Every billing model",
			"web.x.term.on-demand":    "On-demand",
			"web.x.term.spot":         "Spot",
			"web.x.term.1y":           "1-year",
			"web.x.term.3y":           "3-year",
			"web.x.term.on-demand.of": "on-demand",
			"web.x.term.spot.of":      "spot",
			"web.x.term.1y.of":        "1-year",
			"web.x.term.3y.of":        "3-year",
			"web.x.term.hint":         "As ec2instances.info: one row per instance, priced on the term chosen (1- and 3-year: the cheapest reserved instance, savings plan, committed use or 1- or 3-year subscription published).",
			"web.x.term.none":         "No %[1]s price is published for %[2]s in the catalog.",
		},
		ZH: {
			"web.x.undated_last":      "%d 条无日期的价格排在有日期的价格之后。",
			"web.x.term":              "价格",
			"web.x.term.any":          "所有计费方式",
			"web.x.term.on-demand":    "按量付费",
			"web.x.term.spot":         "抢占式/竞价",
			"web.x.term.1y":           "1 年期",
			"web.x.term.3y":           "3 年期",
			"web.x.term.on-demand.of": "按量付费",
			"web.x.term.spot.of":      "抢占式/竞价",
			"web.x.term.1y.of":        "1 年期",
			"web.x.term.3y.of":        "3 年期",
			"web.x.term.hint":         "每个实例一行，按所选期限计价（1 年期和 3 年期：已公布的最便宜的预留实例、节省计划、承诺使用折扣或包年包月）。",
			"web.x.term.none":         "目录中没有 %[2]s 的%[1]s价格。",
		},
	}
})
