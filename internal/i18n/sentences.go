package i18n

// sentenceMessages are the remaining sentences of the estimate, claims and
// rightsize reports (CLI and pages).
var sentenceMessages = map[Lang]map[string]string{
	EN: {
		"cli.est.more":         "… %d more (-o json)",
		"list.sep":             ", ",
		"list.and":             "%s and %s",
		"list.semi":            "; ",
		"cli.claims.col.quote": "QUOTE",
		"cli.unit.month":       "month",
		"cli.unit.term":        "term",
		"cli.unit.percent":     "percent",
		"cli.claims.full":      "Full quotes and evidence: gpuscout catalog claims -o markdown (or -o json).",
	},
	ZH: {
		"cli.est.more":         "…… 另有 %d 条（-o json）",
		"list.sep":             "、",
		"list.and":             "%s 和 %s",
		"list.semi":            "；",
		"cli.claims.col.quote": "原文",
		"cli.unit.month":       "月",
		"cli.unit.term":        "期",
		"cli.unit.percent":     "百分比",
		"cli.claims.full":      "完整原文和依据：gpuscout catalog claims -o markdown（或 -o json）。",
	},
}
