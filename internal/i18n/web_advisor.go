package i18n

// advisorWebMessages are the advisor's sentences that name a CLI flag, as
// the web page and the API say them: a field of the advisor's form where
// it has one, else the key of the job file (the form's Advanced part). A
// Printer made with Variant("form.") renders these in place of the CLI's.
var advisorWebMessages = lazy(func() map[Lang]map[string]string {
	return map[Lang]map[string]string{
		EN: {
			"form.rec.rej.cluster_multinode":    "%d GPUs need %d instances (multi_node is not set in the job file)",
			"form.rec.rej.no_fp8":               "%s has no FP8 support (8-bit weight-only INT8 with 16-bit compute runs there: precision: int8 in the job file)",
			"form.rec.rej.no_rdma_multinode":    "%d nodes without an RDMA fabric (%s): multi-node training is rejected unless allow_no_rdma is set in the job file",
			"form.rec.rej.service_max_gpus":     "needs %d× %s (%d GPUs) for %.0f tokens/s, above max_gpus %d in the job file",
			"form.rec.rej.spot":                 "spot can be interrupted (“spot instances allowed” is not ticked)",
			"form.rec.relax.budget":             "the cheapest plan that meets every other constraint costs %s %s (%s): raise “Budget” to that, or relax another constraint",
			"form.rec.relax.deadline":           "the fastest plan takes about %.3g h: a “Deadline, hours” of %.3g or more, more GPUs (max_gpus, multi_node in the job file) or a faster GPU would give plans",
			"form.rec.relax.deadline2":          "the fastest plan takes about %s on %d× %s, past the %s deadline; at least %d× %s (at linear scaling, allow them with max_gpus and multi_node in the job file), a faster GPU, or a “Deadline, hours” of %s or more would give plans",
			"form.rec.relax.fit":                "for example: %s; try more GPUs (min_gpus/max_gpus, multi_node in the job file), GPUs with more memory or a looser latency budget",
			"form.rec.relax.guaranteed":         "clear “Guaranteed start within, days” to consider marketplace hosts and queued (flex-start) capacity",
			"form.rec.relax.interconnect_none":  "no instance type under the other constraints has NVLink or NVSwitch: drop interconnect from the job file or widen gpu, providers or the location",
			"form.rec.relax.multinode_rdma":     "choose a fabric (fabric: infiniband, efa … in the job file), fewer GPUs on one node, or allow_no_rdma: true to accept the penalty",
			"form.rec.relax.near":               "no offer that meets the other constraints is within %[2]g km of %[1]s: serve those users from a farther region (drop the place from near_users in the job file and accept the latency)",
			"form.rec.relax.spot":               "allow interruptions (tick “spot instances allowed”) to consider spot",
			"form.rec.risk_no_rdma":             "Several nodes without RDMA: %s slower assumed (allow_no_rdma in the job file).",
			"form.rec.risk_spot_given":          "Spot: interruptions every %.0f h on average, as you gave (mtbi_hours in the job file).",
			"form.rec.size_reservation":         "Held for %s as asked (hours in the job file): %d instance(s) for %d GPUs.",
			"form.rec.inf_weights16":            "Weights in the model's native 16-bit precision (about %.0f GB); quantising is your choice: precision: int8 or fp8 in the job file (where the GPU has FP8) halves it.",
			"form.rec.method.full":              "full fine-tuning with mixed-precision Adam, 16 bytes/parameter (LoRA or QLoRA as the “Fine-tuning method” trains adapters in far less)",
			"form.in:needs a budget (--budget)": "needs a budget (“Budget” in the form, or budget in the job file)",
			"form.in:holds a cluster for a fixed time: give cluster_gpus (--cluster-gpus) with it; a sized job's time comes from the performance model": "holds a cluster for a fixed time: give cluster_gpus in the job file with it; a sized job's time comes from the performance model",
			"form.in:guaranteed capacity excludes interruptions: drop interruptible (--interruptible)":                                                  "guaranteed capacity excludes interruptions: untick “spot instances allowed” (interruptible in the job file)",
			"form.rec.near_one_answer": "Users in %d places: this answer is one deployment for all of them, in the region nearest to any of them; an inference service (qps or tokens_per_second in the job file) gets one plan per place.",
		},
		ZH: {
			"form.rec.rej.cluster_multinode":    "%d 张 GPU 需要 %d 台实例（作业文件未设置 multi_node）",
			"form.rec.rej.no_fp8":               "%s 不支持 FP8（可在作业文件中设 precision: int8，即 8 位仅权重 INT8，以 16 位计算）",
			"form.rec.rej.no_rdma_multinode":    "%d 个节点且无 RDMA 网络（%s）：除非在作业文件中设置 allow_no_rdma，否则不接受多节点训练",
			"form.rec.rej.service_max_gpus":     "需要 %d 台 %s（%d 张 GPU）才能达到每秒 %.0f token，超过作业文件中的 max_gpus %d",
			"form.rec.rej.spot":                 "抢占式实例可能被中断（未勾选“允许使用抢占式实例”）",
			"form.rec.relax.budget":             "满足其他所有约束的最便宜方案花费 %s（%s，%s）：将“预算”提高到该数额，或放宽其他约束",
			"form.rec.relax.deadline":           "最快的方案约需 %.3g 小时：把“截止时间（小时）”放宽到 %.3g 以上、增加 GPU（作业文件中的 max_gpus、multi_node）或换更快的 GPU 即可得到方案",
			"form.rec.relax.deadline2":          "最快的方案在 %[2]d× %[3]s 上约需 %[1]s，超过 %[4]s 的截止时间；至少 %[5]d× %[6]s（按线性扩展估算，用作业文件中的 max_gpus 与 multi_node 放开）、换更快的 GPU，或把“截止时间（小时）”放宽到 %[7]s 以上，才会有方案",
			"form.rec.relax.fit":                "例如：%s；可增加 GPU（作业文件中的 min_gpus/max_gpus、multi_node）、换更大显存的 GPU 或放宽时延预算",
			"form.rec.relax.guaranteed":         "清空“保证在几天内开始”即可考虑租赁市场主机与排队（灵活启动）容量",
			"form.rec.relax.interconnect_none":  "其他约束下没有带 NVLink 或 NVSwitch 的实例规格：从作业文件中去掉 interconnect，或放宽 gpu、providers 或地域",
			"form.rec.relax.multinode_rdma":     "在作业文件中指定网络（fabric: infiniband、efa ……）、改用单节点更少的 GPU，或设置 allow_no_rdma: true 接受性能损失",
			"form.rec.relax.near":               "距 %[1]s %[2]g 公里以内没有满足其他约束的报价：可从更远的地域服务这些用户（从作业文件的 near_users 中去掉该地并接受更高时延）",
			"form.rec.relax.spot":               "允许中断（勾选“允许使用抢占式实例”）即可考虑抢占式实例",
			"form.rec.risk_no_rdma":             "多节点无 RDMA：假设慢 %s（作业文件中的 allow_no_rdma）。",
			"form.rec.risk_spot_given":          "抢占式：按您给出的平均每 %.0f 小时中断一次（作业文件中的 mtbi_hours）。",
			"form.rec.size_reservation":         "按要求占用 %s（作业文件中的 hours）：%d 台实例，共 %d 张 GPU。",
			"form.rec.inf_weights16":            "权重按模型原生 16 位精度（约 %.0f GB）；是否量化由您决定：在作业文件中设 precision: int8 或 fp8（GPU 支持 FP8 时）可减半。",
			"form.rec.method.full":              "全参数微调（混合精度 Adam），每参数 16 字节（“微调方式”选 LoRA 或 QLoRA 只训练适配器，所需少得多）",
			"form.in:needs a budget (--budget)": "需要同时给出预算（表单中的“预算”，或作业文件中的 budget）",
			"form.in:holds a cluster for a fixed time: give cluster_gpus (--cluster-gpus) with it; a sized job's time comes from the performance model": "用于按固定时长占用集群：请在作业文件中同时给出 cluster_gpus；按规模描述的作业时长由性能模型估算",
			"form.in:guaranteed capacity excludes interruptions: drop interruptible (--interruptible)":                                                  "保证容量不允许中断：请取消勾选“允许使用抢占式实例”（作业文件中的 interruptible）",
			"form.rec.near_one_answer": "用户分布在 %d 个地方：此答案是为所有用户部署的同一套方案，优先离其中任一地最近的地域；推理服务（作业文件中的 qps 或 tokens_per_second）会为每地各给一个方案。",
		},
	}
})
