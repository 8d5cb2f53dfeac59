package i18n

// denseMessages are the offers explorer's compact toolbar: the price unit
// and term switches and the note on undated prices listed last (issue 36).
var denseMessages = lazy(func() map[Lang]map[string]string {
	return map[Lang]map[string]string{
		EN: {
			"web.x.undated_last": "%d undated prices listed after the dated ones.",
			"web.x.term":         "Price",
			"web.x.term.any":     "every billing model",
			"web.x.term.none":    "No %[1]s price is published for %[2]s.",
		},
		ZH: {
			"web.x.undated_last": "%d 条无日期的价格排在有日期的价格之后。",
			"web.x.term":         "价格",
			"web.x.term.any":     "所有计费方式",
			"web.x.term.none":    "%[2]s 没有公布%[1]s价格。",
		},
	}
})
