package i18n

// explorerMessages are the offers explorer's freshness filter and regions
// switch (issue 27).
var explorerMessages = lazy(func() map[Lang]map[string]string {
	return map[Lang]map[string]string{
		EN: {
			"web.f.hide_undated":         "Hide undated prices",
			"web.x.stale_hidden":         "%[1]d prices older than %[2]d months hidden.",
			"web.x.stale_undated_hidden": "%[1]d prices older than %[2]d months or undated hidden.",
			"web.x.undated_hidden":       "%d undated prices hidden.",
			"web.x.stale_show":           "Show them",
			"web.x.stale_none":           "No price older than %d months matches.",
			"web.x.age_any":              "Prices of any age shown.",
			"web.x.age_hide":             "Hide prices older than %d months",
			"web.x.regions_cheapest":     "Each type in its cheapest region.",
			"web.x.regions_all":          "Show every region",
			"web.x.regions_every":        "Every region shown.",
			"web.x.regions_back":         "Only the cheapest region of each",
		},
		ZH: {
			"web.f.hide_undated":         "隐藏无日期的价格",
			"web.x.stale_hidden":         "已隐藏 %[1]d 条超过 %[2]d 个月的价格。",
			"web.x.stale_undated_hidden": "已隐藏 %[1]d 条超过 %[2]d 个月或无日期的价格。",
			"web.x.undated_hidden":       "已隐藏 %d 条无日期的价格。",
			"web.x.stale_show":           "全部显示",
			"web.x.stale_none":           "没有超过 %d 个月的价格符合条件。",
			"web.x.age_any":              "显示所有时效的价格。",
			"web.x.age_hide":             "隐藏超过 %d 个月的价格",
			"web.x.regions_cheapest":     "每种实例只显示最便宜的地域。",
			"web.x.regions_all":          "显示全部地域",
			"web.x.regions_every":        "显示全部地域的报价。",
			"web.x.regions_back":         "每种只看最便宜的地域",
		},
	}
})
