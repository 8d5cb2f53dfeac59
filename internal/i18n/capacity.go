package i18n

// capacityMessages explain the capacity-access billing models (AWS Capacity
// Blocks, GCP DWS flex-start) in recommendations.
var capacityMessages = lazy(func() map[Lang]map[string]string {
	return map[Lang]map[string]string{
		EN: {
			"rec.capacity_block": "Capacity Block: capacity reserved ahead for %d day(s), %s paid up front for the whole block whether the job ends early or not; it cannot be cancelled and instances stop when it ends.",
			"rec.flex_start":     "Flex-start (DWS): discounted, but the request queues until capacity is free and the VM runs at most %d days.",
		},
		ZH: {
			"rec.capacity_block": "容量块：提前预留 %d 天的容量，整块费用 %s 需预先支付，作业提前结束也不退；不可取消，到期实例即停止。",
			"rec.flex_start":     "灵活启动 (DWS)：价格有折扣，但请求需排队等待空闲容量，虚拟机最多运行 %d 天。",
		},
	}
})
