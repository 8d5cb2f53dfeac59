package i18n

// sentenceMessages are the remaining sentences of the estimate, claims and
// rightsize reports (CLI and pages).
var sentenceMessages = map[Lang]map[string]string{
	EN: {
		"cli.est.more": "… %d more (-o json)",
		"list.sep":     ", ",
		"list.and":     "%s and %s",
		"list.semi":    "; ",
	},
	ZH: {
		"cli.est.more": "…… 另有 %d 条（-o json）",
		"list.sep":     "、",
		"list.and":     "%s 和 %s",
		"list.semi":    "；",
	},
}
