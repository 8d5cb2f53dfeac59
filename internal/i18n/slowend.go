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
		},
		ZH: {
			"rec.book_slow_end":      "按慢端预订：容量块覆盖作业的 %s 时间 %s（预计 %s；可用 --book-quantile 选择分位数）；其中可用 %s，作业超出可用时间的概率为 %s。",
			"rec.risk_block_overrun": "作业有 %s 的概率超出 %d 天的容量块，容量块到期实例即停止：请保存检查点以便在别处继续，或按更高分位数预订（--book-quantile）。",
			"rec.spot_short":         "作业短于一个检查点间隔（按此中断率为 %.0f 分钟）：不写检查点，中断后从头重新开始：预计开销 %s；90%% 的运行在 %s 内完成。",
			"rec.likely_miss":        "不满足 %.3g 小时的截止时间：错过的概率为 %s（超过 %s：其 P90 %s 晚于截止时间）；无论优先级如何，都排在满足截止时间的 %d 个方案之后（--allow-likely-miss 则只按优先级排序）。",
			"in:a quantile between 0.5 (the median) and 0.999": "须为 0.5（中位数）到 0.999 之间的分位数",
		},
	}
})
