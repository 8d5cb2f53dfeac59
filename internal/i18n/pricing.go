package i18n

// pricingMessages are the cost engine's notes (internal/pricing): the
// assumptions and omissions of a bill and what a component's figure means.
// English keeps the engine's wording.
var pricingMessages = lazy(func() map[Lang]map[string]string {
	return map[Lang]map[string]string{
		EN: {
			"text":                   "%s",
			"pr.note.no_price":       "%s: the catalog has no sourced %s price for %s; not included",
			"pr.note.support_after":  "support on commitment payments owed after the horizon is not included",
			"pr.note.payg_parts":     "this offer also has upfront or monthly parts, which pay-per-use billing ignores",
			"pr.note.spot_no_model":  "spot: the cost of work lost to interruptions is not included (no interruption model)",
			"pr.note.past_horizon":   "the %d-month term runs %d months past the %d-month horizon; what it still owes is included",
			"pr.note.duty":           "at %s%% of the month's hours used, each used hour of a commitment costs %s× its list rate",
			"pr.note.discount_never": "volume discount: monthly compute spend never reaches %s %s",
			"pr.note.onprem":         "on-premises: storage, internet transit and support beyond the maintenance share are not modelled",
			"pr.comp.tier":           "%s–%s %s at %s %s",
			"pr.comp.tiered":         "tiered (average shown): %s",
			"pr.comp.provider_wide":  "provider-wide price",
			"pr.comp.and":            "%s; %s",
			"pr.comp.support":        "percent of monthly spend by tier, at least %s %s a month",
			"pr.comp.hour_tier":      "from %s h ×%s",
			"pr.comp.hour_tiers":     "tiered by cumulative running hours per instance: %s",
			"pr.comp.commit_hourly":  "charged for all 730 hours of every month of the term, used or not",
			"pr.comp.upfront":        "paid at the start of each %d-month term",
			"pr.comp.discount_part":  "spend above %s at ×%s",
			"pr.comp.discount":       "%s",
			"pr.comp.power":          "%s kW × load %s × PUE %s × 730 h",
			"pr.comp.depreciation":   "straight-line over %s years to %s%% of cost",
		},
		ZH: {
			"text":                   "%s",
			"pr.note.no_price":       "%[1]s：目录中没有 %[3]s 有来源的 %[2]s 价格；未计入",
			"pr.note.support_after":  "比较期之后仍需支付的承诺费用所对应的技术支持费未计入",
			"pr.note.payg_parts":     "该报价还有预付或月付部分，按用量计费时不计入",
			"pr.note.spot_no_model":  "抢占式实例：因中断而损失的工作成本未计入（未建中断模型）",
			"pr.note.past_horizon":   "%[1]d 个月的期限比 %[3]d 个月的比较期多出 %[2]d 个月；仍需支付的部分已计入",
			"pr.note.duty":           "每月只使用 %s%% 的小时数时，承诺方案每个实际使用小时的成本是刊例价的 %s 倍",
			"pr.note.discount_never": "用量折扣：每月计算费用从未达到 %s %s",
			"pr.note.onprem":         "自购：存储、公网流量以及维保份额之外的技术支持费用未计入",
			"pr.comp.tier":           "%s–%s %s，单价 %s %s",
			"pr.comp.tiered":         "阶梯价（显示平均值）：%s",
			"pr.comp.provider_wide":  "云厂商统一价格",
			"pr.comp.and":            "%s；%s",
			"pr.comp.support":        "按月消费额分档计百分比，每月至少 %s %s",
			"pr.comp.hour_tier":      "%s 小时起 ×%s",
			"pr.comp.hour_tiers":     "按每台实例累计运行小时阶梯计价：%s",
			"pr.comp.commit_hourly":  "期限内每月 730 小时全部计费，无论是否使用",
			"pr.comp.upfront":        "每个 %d 个月的期限开始时支付",
			"pr.comp.discount_part":  "消费超过 %s 的部分 ×%s",
			"pr.comp.discount":       "%s",
			"pr.comp.power":          "%s kW × 负载 %s × PUE %s × 730 小时",
			"pr.comp.depreciation":   "按 %s 年直线折旧至成本的 %s%%",
		},
	}
})
