package recommend

// Serving is how a service plan's model is served at the stated context:
// the KV cache, the concurrency it leaves, the latencies, the
// tensor-parallel link and, for a mixture of experts, the experts a decode
// step reads.
type Serving struct {
	// ContextTokens is a request's prompt and output tokens.
	ContextTokens float64 `json:"context_tokens"`
	// Layers, KVHeads, HeadDim and Hidden are the model layout used;
	// LayoutAssumed is true when it was taken from a published model of
	// the same size rather than given.
	Layers        int  `json:"layers"`
	KVHeads       int  `json:"kv_heads"`
	HeadDim       int  `json:"head_dim"`
	Hidden        int  `json:"hidden_size"`
	LayoutAssumed bool `json:"layout_assumed"`
	// KVCacheGBPerRequest is one request's KV cache.
	KVCacheGBPerRequest float64 `json:"kv_cache_gb_per_request"`
	// TensorParallel is the GPUs per model copy; Concurrency the requests
	// whose KV caches fit one copy beside the weights; Batch the
	// concurrent sequences the throughput assumes.
	TensorParallel int     `json:"tensor_parallel"`
	Concurrency    float64 `json:"concurrency"`
	Batch          float64 `json:"batch"`
	// PrefillAttentionShare is the share of a prompt's prefill FLOPs in
	// attention (quadratic in the prompt).
	PrefillAttentionShare float64 `json:"prefill_attention_share"`
	// TTFTMs and TPOTMs are the best-case time to first token and per
	// output token.
	TTFTMs float64 `json:"ttft_ms,omitempty"`
	TPOTMs float64 `json:"tpot_ms,omitempty"`
	// Link is the tensor-parallel group's link ("pcie-gen4", "nvlink");
	// AllReduceMsPerToken what its all-reduces add per token at batch 1
	// (over PCIe; 0 over NVLink-class links, whose cost is in the fitted
	// efficiency), AllReduceMsPerStep per decode step at Batch.
	Link                string  `json:"link,omitempty"`
	AllReduceMsPerToken float64 `json:"all_reduce_ms_per_token,omitempty"`
	AllReduceMsPerStep  float64 `json:"all_reduce_ms_per_step,omitempty"`
	// ExpertsReadShare is, for a mixture of experts, the share of routed
	// experts a decode step at Batch reads; WeightsReadGBPerStep the
	// weights it reads.
	ExpertsReadShare     float64 `json:"experts_read_share,omitempty"`
	WeightsReadGBPerStep float64 `json:"weights_read_gb_per_step,omitempty"`
}

// serving is a service candidate's Serving block.
func (x *run) serving(c *cand) *Serving {
	s, inf := c.inf, x.r.Workload.Inference
	sv := &Serving{KVCacheGBPerRequest: s.KVGBPerRequest, TensorParallel: s.TP, Concurrency: s.Concurrency, TTFTMs: s.TTFTMs, TPOTMs: s.TPOTFloorMs,
		AllReduceMsPerToken: s.AllReduceMs, AllReduceMsPerStep: s.AllReduceBatchMs}
	rf := c.est.Roofline
	if rf == nil {
		return sv
	}
	sh := rf.Shape
	sv.ContextTokens = sh.InputTokens + sh.OutputTokens
	sv.Layers, sv.KVHeads, sv.HeadDim, sv.Hidden = sh.Layers, sh.KVHeads, sh.HeadDim, sh.Hidden
	sv.LayoutAssumed = inf.Layers == 0 || inf.KVHeads == 0 || inf.HeadDim == 0
	sv.Batch = rf.Batch
	sv.PrefillAttentionShare = sh.PrefillAttnFLOPs(sh.InputTokens) / sh.PrefillFLOPs(sh.InputTokens)
	if s.Link != nil {
		sv.Link = s.Link.ID()
	} else if s.TP > 1 {
		sv.Link = rf.Link.ID()
	}
	if inf.ActiveParams > 0 && inf.ActiveParams < inf.Params {
		sv.ExpertsReadShare, sv.WeightsReadGBPerStep = rf.ExpertShare, rf.WeightsReadGB
	}
	return sv
}

// servingReasons states the context's layout, the all-reduces over PCIe
// and the experts a decode step reads.
func (x *run) servingReasons(add func(key string, args ...any), c *cand) {
	s, inf, rf := c.inf, x.r.Workload.Inference, c.est.Roofline
	sh := rf.Shape
	ctx := sh.InputTokens + sh.OutputTokens
	if inf.Layers == 0 || inf.KVHeads == 0 || inf.HeadDim == 0 {
		add("rec.inf_layout_assumed", ctx, sh.Layers, sh.KVHeads, sh.HeadDim)
	} else {
		add("rec.inf_layout", ctx, sh.Layers, sh.KVHeads, sh.HeadDim)
	}
	if a := sh.PrefillAttnFLOPs(sh.InputTokens); a > 0.05*sh.PrefillFLOPs(sh.InputTokens) {
		add("rec.inf_prefill_attn", sh.InputTokens, 100*a/sh.PrefillFLOPs(sh.InputTokens))
	}
	if s.Link != nil {
		add("rec.inf_tp_pcie", s.TP, s.Link.Name, s.AllReduceMs, s.AllReduceBatchMs, rf.Batch)
	}
	if inf.ActiveParams > 0 && inf.ActiveParams < inf.Params {
		key := "rec.inf_moe_read"
		if s.TP > 1 || rf.ExpertShare > 0.5 {
			key = "rec.inf_moe_read_ep"
		}
		add(key, rf.Batch, 100*rf.ExpertShare, rf.WeightsReadGB, rf.ActiveWeightsGB)
	}
}
