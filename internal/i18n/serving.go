package i18n

// servingMessages are the LLM serving model's sentences (internal/perf
// serving.go and the advisor's service plans): the KV cache at the
// request's context, prefill attention, tensor parallelism over PCIe and
// the experts a mixture of experts reads.
var servingMessages = lazy(func() map[Lang]map[string]string {
	return map[Lang]map[string]string{
		EN: {
			"perf.link.pcie_gen":          "PCIe Gen%d",
			"perf.context_too_long":       "the context does not fit: one request's KV cache (%.1f GB) beside the %.0f GB of weights needs more than %d × %.0f GB usable",
			"perf.as.prefill_attn":        "prefill attention at %.0f prompt tokens: %.3g TFLOPs per request (2·layers·tokens²·d_model under the causal mask), %.0f%% of the prefill's FLOPs",
			"perf.as.tp_allreduce":        "TP%d over %s: all-reduces add %.2f ms per decode step at %.0f concurrent sequences (%.2f ms at one): 2 per layer of batch·d_model 16-bit values, ring 2(n−1)/n·message at %.0f GB/s (0.4 × %.0f GB/s) + 10 µs each",
			"perf.as.moe_coverage":        "mixture of experts: a decode step at %.0f concurrent sequences reads %.0f%% of the %d routed experts (1 − (1 − k/E)^batch, %d per token): %.0f GB of weights per step, not only the %.0f GB active",
			"perf.as.moe_experts_assumed": "expert layout assumed Mixtral-like: %d experts, %d per token (set --experts and --experts-per-token)",
			"perf.as.shape_given":         "model layout as given: %d layers, d_model %d, %d KV heads of %d",
			"rec.rej.kv_context":          "the context does not fit: a request of %.0f tokens needs %.1f GB of KV cache beside %.0f GB of weights, more than %d × %.0f GB usable holds",
			"rec.inf_layout_assumed":      "KV cache sized for %.0f tokens a request (prompt + output) with %d layers × %d KV heads × %d, a layout assumed from published Llama 3 configurations of this size (8B: 32 layers, 8 KV heads of 128; 70B: 80 layers): give yours with --layers, --kv-heads, --head-dim.",
			"rec.inf_layout":              "KV cache sized for %.0f tokens a request (prompt + output) with the layout given: %d layers × %d KV heads × %d.",
			"rec.inf_prefill_attn":        "Prefill counts attention, quadratic in the prompt: at %.0f prompt tokens it is %.0f%% of the prefill's FLOPs (2·layers·tokens²·d_model, causal).",
			"rec.inf_tp_pcie":             "TP%d over %s (no NVLink between these GPUs): all-reduces add %.2f ms per token at one request and %.1f ms per decode step at %.0f concurrent requests (2 per layer, ring 2(n−1)/n·batch·d_model·2 bytes at the link's bandwidth + 10 µs); the throughput and latencies include them.",
			"rec.inf_moe_read":            "Mixture of experts: a decode step at %.0f concurrent requests reads about %.0f%% of the routed experts (1 − (1 − k/E)^batch), %.0f GB of weights, not only the %.0f GB active.",
			"rec.inf_moe_read_ep":         "Mixture of experts: a decode step at %.0f concurrent requests reads about %.0f%% of the routed experts (1 − (1 − k/E)^batch), %.0f GB of weights, not only the %.0f GB active; expert parallelism (each GPU holds and reads its own experts, tokens sent to them all-to-all) spreads this read over the group.",
		},
		ZH: {
			"perf.link.pcie_gen":          "PCIe 第 %d 代",
			"perf.context_too_long":       "上下文放不下：一个请求的 KV 缓存（%.1f GB）加上 %.0f GB 权重，超过 %d × %.0f GB 可用显存",
			"perf.as.prefill_attn":        "%.0f 个提示 token 的预填充注意力：每个请求 %.3g TFLOP（因果掩码下 2·层数·token²·D，D 为模型宽度），占预填充计算的 %.0f%%",
			"perf.as.tp_allreduce":        "TP%d 经 %s：全归约使解码每步增加 %.2f 毫秒（%.0f 个并发序列；1 个时 %.2f 毫秒）：每层 2 次，每次 B·D 个 16 位数值（B 为批量，D 为模型宽度），环形算法 2(N−1)/N·消息量，按 %.0f GB/s（0.4 × %.0f GB/s），每次另加 10 微秒",
			"perf.as.moe_coverage":        "混合专家模型：%.0[1]f 个并发序列时，解码每步读取 %[3]d 个路由专家中的 %.0[2]f%%（1 − (1 − k/E)^B，B 为批量，每 token %[4]d 个）：每步读取 %.0[5]f GB 权重，而不只是激活的 %.0[6]f GB",
			"perf.as.moe_experts_assumed": "专家结构假设与 Mixtral 相似：%d 个专家，每 token %d 个（可在作业中给出专家数和每 token 专家数）",
			"perf.as.shape_given":         "模型结构按所给：%d 层，模型宽度 %d，%d 个 %d 维的 KV 头",
			"rec.rej.kv_context":          "上下文放不下：一个 %.0f token 的请求需要 %.1f GB KV 缓存，加上 %.0f GB 权重，超过 %d × %.0f GB 可用显存",
			"rec.inf_layout_assumed":      "KV 缓存按每个请求 %.0f 个 token（提示 + 输出）计算，%d 层 × %d 个 KV 头 × %d 维；结构按同规模已发布的 Llama 3 配置假设（8B：32 层，8 个 128 维 KV 头；70B：80 层）：可在命令行或作业文件中给出实际的层数、KV 头数和头维度。",
			"rec.inf_layout":              "KV 缓存按每个请求 %.0f 个 token（提示 + 输出）和所给结构计算：%d 层 × %d 个 KV 头 × %d 维。",
			"rec.inf_prefill_attn":        "预填充计入注意力（随提示长度平方增长）：%.0f 个提示 token 时占预填充计算的 %.0f%%（因果掩码下 2·层数·token²·D，D 为模型宽度）。",
			"rec.inf_tp_pcie":             "TP%d 经 %s（这些 GPU 之间没有 NVLink）：全归约使单个请求每 token 增加 %.2f 毫秒，%.0[5]f 个并发请求时解码每步增加 %.1[4]f 毫秒（每层 2 次，环形算法 2(N−1)/N·B·D·2 字节（B 为并发数，D 为模型宽度）按链路带宽，每次另加 10 微秒）；吞吐和延迟已计入。",
			"rec.inf_moe_read":            "混合专家模型：%.0f 个并发请求时，解码每步约读取 %.0f%% 的路由专家（1 − (1 − k/E)^B，B 为并发数），即 %.0f GB 权重，而不只是激活的 %.0f GB。",
			"rec.inf_moe_read_ep":         "混合专家模型：%.0f 个并发请求时，解码每步约读取 %.0f%% 的路由专家（1 − (1 − k/E)^B，B 为并发数），即 %.0f GB 权重，而不只是激活的 %.0f GB；专家并行（每张 GPU 存放并读取各自的专家，token 经 all-to-all 发送）可把这部分读取分摊到整组 GPU。",
		},
	}
})
