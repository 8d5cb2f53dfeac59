package i18n

// uiMessages are the strings of the explorer, TCO, spot and instance pages'
// second revision (client-side table, same-GPU TCO, translated break-even
// answers), and the break-even sentences the cost engine produces.
var uiMessages = map[Lang]map[string]string{
	EN: {
		"be.utilization":       "%[1]s beats on-demand for %[2]s in %[3]s above %[4]s%% utilisation (%[5]s vs %[6]s %[7]s per hour)",
		"be.utilization.never": "%[1]s never beats on-demand for %[2]s in %[3]s: it costs %[4]s vs %[5]s %[6]s per hour even at full use",
		"be.buy":               "buying (%[1]s) pays back against %[2]s in month %[3]d: %[4]s %[5]s paid for owning vs %[6]s %[5]s for renting (resale value not counted)",
		"be.buy.never":         "buying (%[1]s) does not pay back against %[2]s within %[3]d months",
		"be.volume":            "%[1]s: volume discounts (%[2]s) save %[3]s %[4]s over %[5]d months",
		"tco.scaled":           "%[1]s: scaled to %[2]d× its instances to provide %[3]s GPUs like the largest plan.",
		"tco.compared_at":      "Every plan is compared at %s GPUs; the cheapest is the lowest total over the horizon.",
		"web.tco.buy":          "buy %d× %s server",
		"web.tco.scaled":       "×%[1]d instances → %[2]s GPUs",
		"web.tco.gpus_differ":  "The plans still provide different numbers of GPUs (%s), so the badge goes to the lowest cost per used GPU-hour, not the lowest total.",
	},
	ZH: {
		"be.utilization":       "%[2]s（%[3]s）的%[1]s在利用率高于 %[4]s%% 时比按量付费便宜（每小时 %[5]s 对 %[6]s %[7]s）",
		"be.utilization.never": "%[2]s（%[3]s）的%[1]s始终不比按量付费便宜：即使满负荷使用，每小时也要 %[4]s，而按量付费为 %[5]s %[6]s",
		"be.buy":               "自购（%[1]s）相对 %[2]s 在第 %[3]d 个月回本：自购累计支出 %[4]s %[5]s，租用累计 %[6]s %[5]s（未计残值）",
		"be.buy.never":         "自购（%[1]s）相对 %[2]s 在 %[3]d 个月内无法回本",
		"be.volume":            "%[1]s：阶梯/用量折扣（%[2]s）在 %[5]d 个月内节省 %[3]s %[4]s",
		"tco.scaled":           "%[1]s：实例数已放大为 %[2]d 倍，以提供与最大方案相同的 %[3]s 块 GPU。",
		"tco.compared_at":      "所有方案均按 %s 块 GPU 对比；“最便宜”指期限内总成本最低的方案。",
		"web.tco.buy":          "自购 %d 台 %s 服务器",
		"web.tco.scaled":       "实例数 ×%[1]d → %[2]s 块 GPU",
		"web.tco.gpus_differ":  "各方案提供的 GPU 数量仍不相同（%s），因此“最便宜”按每实际使用卡时成本评定，而非总额。",
	},
}
