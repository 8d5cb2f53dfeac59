package i18n

// slowEndMessages are the advisor's sentences about the slow end of a
// job's time (bookings, deadlines, spot), services' SLAs and buying
// instead of renting.
var slowEndMessages = lazy(func() map[Lang]map[string]string {
	return map[Lang]map[string]string{
		EN: {
			"rec.book_slow_end":      "Booked to the slow end: the block covers the job's %s time, %s (expected %s; --book-quantile chooses the quantile); %s of it is usable, and the chance the job runs past that is %s.",
			"rec.risk_block_overrun": "%s chance the job outlasts its %d-day block, whose instances stop when it ends: checkpoint so the rest can run elsewhere, or book to a higher quantile (--book-quantile).",
			"rec.spot_short":         "Shorter than one checkpoint interval (%.0f min at this interruption rate): no checkpoint is written, and an interruption restarts the job from zero: %s expected overhead; 90%% of runs finish within %s.",
			"rec.likely_miss":        "Does not meet the %.3g h deadline: a %s chance of missing it (over %s: its P90, %s, is past it); ranked after the %d plan(s) that meet it, whatever the priority (--allow-likely-miss ranks it by the priority alone).",
			"in:a quantile between 0.5 (the median) and 0.999": "a quantile between 0.5 (the median) and 0.999",
			"rec.st.sla":                   "no marketplace hosts without an SLA for a production service (--ha)",
			"rec.rej.marketplace_ha":       "%s is a marketplace of independent hosts with no SLA: not for a production service sized N+1 (--ha)",
			"rec.relax.sla":                "drop --ha to consider marketplace hosts without an SLA",
			"rec.sla":                      "SLA: %s commits to %g%% monthly uptime for a single instance and %g%% for instances across two or more zones (%s): spread the N+1 instances over zones to be covered by the latter.",
			"rec.sla_gpu_implicit":         "%s's SLA page (as of %s) covers its instances without naming GPU instance types; it does not exclude them.",
			"rec.sla_gpu_implicit_undated": "%s's SLA page (undated, read %s) covers its instances without naming GPU instance types; it does not exclude them.",
			"rec.sla_single":               "SLA: %s commits to %g%% monthly uptime for each instance and states no higher figure for instances across zones (%s): spreading the N+1 instances over zones still helps, but it is not a commitment.",
			"rec.risk_no_sla":              "No compute SLA is recorded here for %s: its availability commitment is unknown (read its terms before production); the plan's risk score carries %.2f for it.",
			"rec.buy_name":                 "%d server(s) of %d× %s",
			"rec.buy_unpriced":             "Buying servers instead cannot be priced here: the catalog has no server price for %s (gpuscout tco -f plans.yaml takes your own quote).",
			"rec.buy_pays_back":            "Buying instead (the engine of gpuscout tco --onprem): %s would cost %s over %d months (hardware, installation, power, colocation, maintenance; resale at the end counted) against %s renting, and pays back in month %d (resale not counted).",
			"rec.buy_never":                "Buying instead (the engine of gpuscout tco --onprem): %s would cost %s over %d months (hardware, installation, power, colocation, maintenance; resale at the end counted) against %s renting, and does not pay back within the horizon.",
			"rec.buy_note":                 "Buy versus rent (plan #%d): %s",
			"web.form.book_quantile":       "Capacity Blocks cover the job's quantile",
			"rec.why_meets_deadline":       "Ranked first for priority %s among %d feasible plans, though %s is cheaper (%s): it has a %s chance of missing the %.3g h deadline, and plans that meet the deadline rank first.",
			"spot.short":                   "The job is shorter than one checkpoint interval: no checkpoint is written, and an interruption restarts it from zero (T = M·e^(R/M)·(e^(W/M) − 1)); the overhead is that loss and the restarts, not checkpoints.",
		},
		ZH: {
			"rec.book_slow_end":      "按慢端预订：容量块覆盖作业的 %s 时间 %s（预计 %s；可用 --book-quantile 选择分位数）；其中可用 %s，作业超出可用时间的概率为 %s。",
			"rec.risk_block_overrun": "作业有 %s 的概率超出 %d 天的容量块，容量块到期实例即停止：请保存检查点以便在别处继续，或按更高分位数预订（--book-quantile）。",
			"rec.spot_short":         "作业短于一个检查点间隔（按此中断率为 %.0f 分钟）：不写检查点，中断后从头重新开始：预计开销 %s；90%% 的运行在 %s 内完成。",
			"rec.likely_miss":        "不满足 %.3g 小时的截止时间：错过的概率为 %s（超过 %s：其 P90 %s 晚于截止时间）；无论优先级如何，都排在满足截止时间的 %d 个方案之后（--allow-likely-miss 则只按优先级排序）。",
			"in:a quantile between 0.5 (the median) and 0.999": "须为 0.5（中位数）到 0.999 之间的分位数",
			"rec.st.sla":                   "生产服务（--ha）不用无服务等级协议的租赁市场主机",
			"rec.rej.marketplace_ha":       "%s 为独立主机组成的 GPU 租赁市场，无服务等级协议：不适合按 N+1 配置的生产服务（--ha）",
			"rec.relax.sla":                "去掉 --ha 即可考虑无服务等级协议的租赁市场主机",
			"rec.sla":                      "服务等级协议：%s 承诺单个实例每月可用性 %g%%，跨两个及以上可用区的实例 %g%%（%s）：请把 N+1 实例分布在多个可用区，以适用后者。",
			"rec.sla_gpu_implicit":         "%s 的服务等级协议页面（截至 %s）适用于其实例，未单独列出 GPU 实例类型，也未将其排除。",
			"rec.sla_gpu_implicit_undated": "%s 的服务等级协议页面（未注明日期，%s 读取）适用于其实例，未单独列出 GPU 实例类型，也未将其排除。",
			"rec.sla_single":               "服务等级协议：%s 承诺每个实例每月可用性 %g%%，未给出跨可用区实例的更高承诺（%s）：把 N+1 实例分布在多个可用区仍有帮助，但不在承诺之内。",
			"rec.risk_no_sla":              "此处未记录 %s 的计算服务等级协议：其可用性承诺未知（投入生产前请阅读其条款）；方案的风险分为此计入 %.2f。",
			"rec.buy_name":                 "%d 台 %d× %s 服务器",
			"rec.buy_unpriced":             "此处无法为改为购买服务器定价：目录中没有 %s 的服务器价格（gpuscout tco -f plans.yaml 可使用您自己的报价）。",
			"rec.buy_pays_back":            "改为购买（gpuscout tco --onprem 的计算）：%[1]s 在 %[3]d 个月内花费 %[2]s（硬件、安装、电力、托管、维护；计入期末残值），租用为 %[4]s，第 %[5]d 个月回本（不计残值）。",
			"rec.buy_never":                "改为购买（gpuscout tco --onprem 的计算）：%[1]s 在 %[3]d 个月内花费 %[2]s（硬件、安装、电力、托管、维护；计入期末残值），租用为 %[4]s，在规划期内不能回本。",
			"rec.buy_note":                 "购买还是租用（方案 #%d）：%s",
			"web.form.book_quantile":       "容量块覆盖作业时间的分位数",
			"rec.why_meets_deadline":       "按%s优先在 %d 个可行方案中排第一，虽然 %s 更便宜（%s）：它有 %s 的概率错过 %.3g 小时的截止时间，而满足截止时间的方案排在前面。",
			"spot.short":                   "作业短于一个检查点间隔：不写检查点，中断后从头重新开始；开销来自损失的工作与重启，而非检查点。",
		},
	}
})
