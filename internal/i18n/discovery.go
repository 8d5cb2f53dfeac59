package i18n

// discoveryMessages are the strings about instance types discovered by
// import (created from a price source's description of the machine).
var discoveryMessages = lazy(func() map[Lang]map[string]string {
	return map[Lang]map[string]string{
		EN: {
			"import.discovered":         "instance types the catalog lacked, created from the file's description of them (GPU, vCPUs, memory): %d (%s)",
			"import.unresolved_unknown": "unknown GPU name %q of %s (offers: %d, instance types: %d, e.g. %s): these offers are not listed",
			"import.unresolved_ambig":   "ambiguous GPU name %q of %s (matches %s; offers: %d, instance types: %d, e.g. %s): these offers are not listed",
			"import.discovery_invalid":  "unusable instance type descriptions (no source, negative figures): %d, e.g. %s",
			"note.discovered":           "† discovered by import: created from the price source's own description (GPU, vCPUs, memory), not curated; interconnect, network and RDMA are unknown.",
		},
		ZH: {
			"import.discovered":         "已根据文件中的描述（GPU、vCPU、内存）创建目录中没有的实例规格：%d 个（%s）",
			"import.unresolved_unknown": "未知的 GPU 名称 %q（%s；%d 条报价，%d 个实例规格，例如 %s）：这些报价不会列出",
			"import.unresolved_ambig":   "有歧义的 GPU 名称 %q（%s；可匹配 %s；%d 条报价，%d 个实例规格，例如 %s）：这些报价不会列出",
			"import.discovery_invalid":  "%d 个实例规格描述不可用（无来源或数值为负），例如 %s",
			"note.discovered":           "† 由导入发现：根据价格来源自身的描述（GPU、vCPU、内存）创建，未经人工整理；GPU 互联、网络和 RDMA 未知。",
		},
	}
})
