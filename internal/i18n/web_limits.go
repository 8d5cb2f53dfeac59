package i18n

// limitMessages are the server's answers to requests over its input limits.
var limitMessages = lazy(func() map[Lang]map[string]string {
	return map[Lang]map[string]string{
		EN: {
			"web.limit.query":    "The query string is %d bytes; the limit is %d.",
			"web.limit.values":   "Parameter %q has %d values; the limit is %d.",
			"web.limit.offer_id": "Offer ID is %d bytes; the limit is %d (IDs look like provider/instance_type/region/billing).",
			"job.limit.file":     "%s: %s",
			"cli.bound":          "--%s %s is beyond any real job: it takes at most %s (docs/advisor.md, input bounds).",
			"cli.bound.hint":     "check the exponent: 1e13 tokens, not 1e30.",
			"web.limit.form":     "The form is over %d bytes.",
			"cli.serve.no_token": "--metrics token needs the token in $%s.",
			"cli.serve.metrics":  "--metrics %q: use on, off or token.",
			"cli.serve.memory":   "--memory-limit %q: use auto, off or a size such as 512MiB.",
			"web.limit.host":     "This server does not answer for host %q; its operator can add it with gpuscout serve --allowed-hosts.",
			"web.limit.metrics":  "The metrics need a bearer token (Authorization: Bearer …).",
			"job.limit.size":     "The job description is over %d bytes; a job needs a few dozen lines.",
			"job.limit.nodes":    "The job description has more than %d keys, values and list items; a job needs a few dozen.",
			"job.limit.depth":    "The job description nests deeper than %d levels.",
			"job.limit.aliases":  "The job description has more than %d aliases (*name).",
			"web.limit.rows":     "Showing offers %d–%d of %d: a page carries at most %d. Narrow the filters, or fetch the rest with offset= from the CSV export or the API.",
		},
		ZH: {
			"web.limit.query":    "查询字符串长 %d 字节，上限为 %d。",
			"web.limit.values":   "参数 %q 有 %d 个值，上限为 %d。",
			"web.limit.offer_id": "报价 ID 长 %d 字节，上限为 %d（ID 形如 provider/instance_type/region/billing）。",
			"job.limit.file":     "%s：%s",
			"cli.bound":          "--%s %s 超出任何实际作业的规模：上限为 %s（见 docs/advisor.md 的输入上限）。",
			"cli.bound.hint":     "请检查指数：例如 1e13 个 token，而不是 1e30。",
			"web.limit.form":     "表单超过 %d 字节。",
			"cli.serve.no_token": "--metrics token 需要在环境变量 $%s 中提供令牌。",
			"cli.serve.metrics":  "--metrics %q：请用 on、off 或 token。",
			"cli.serve.memory":   "--memory-limit %q：请用 auto、off 或 512MiB 这样的大小。",
			"web.limit.host":     "此服务器不响应主机 %q；运维人员可用 gpuscout serve --allowed-hosts 添加该主机。",
			"web.limit.metrics":  "读取指标需要持有者令牌（Authorization: Bearer …）。",
			"job.limit.size":     "作业描述超过 %d 字节；一个作业只需几十行。",
			"job.limit.nodes":    "作业描述的键、值和列表项超过 %d 个；一个作业只需几十个。",
			"job.limit.depth":    "作业描述的嵌套超过 %d 层。",
			"job.limit.aliases":  "作业描述的别名（*name）超过 %d 个。",
			"web.limit.rows":     "显示第 %d–%d 条报价，共 %d 条：每页最多 %d 条。请缩小筛选范围，或在 CSV 导出或 API 中用 offset= 获取其余报价。",
		},
	}
})
