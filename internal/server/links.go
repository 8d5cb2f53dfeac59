package server

// knownParams are the query parameters the server and the pages' scripts
// read. Pages build their links (language switch, paging, sorting, the API
// and CSV exports) from the request's query, so a parameter nothing reads
// would otherwise be copied into each of them (cloneValues and the language
// switch keep only these). TestKnownParamsCoverHandlers fails when a handler
// reads a name missing here.
var knownParams = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range []string{
		// shared
		"lang", "currency", "pretty",
		// offers, explorer and exports (q and size are read by the script)
		"gpu", "provider", "region", "country", "residency", "billing", "min_gpus", "min_vram", "min_price", "max_price",
		"per", "interconnect", "rdma", "order", "desc", "sort", "include_retired", "cheapest_region", "limit", "offset",
		"per_provider", "page", "col", "cols", "q", "size", "os", "available",
		// compare, TCO, spot, advisor, estimate, rightsize, catalog pages
		"offer", "onprem", "months", "instances", "servers", "support", "load_balancers", "kind", "work_hours", "mtbi",
		"checkpoint_minutes", "restart_minutes", "deadline_hours", "trials", "seed", "start", "spot", "priority",
		"job", "example", "form", "workload", "benchmark", "precision", "max_batch", "nodes", "fabric", "fabric_gbps", "gpu_model", "count",
		"category", "verdict", "metrics", "format", "headroom", "size_b", "tokens_b", "tps", "gpu_hours", "weibull",
		"tab", "method", "budget", "budget_period", "start_within_days", "book_quantile", "max_age_months", "hide_undated", "dated_first", "term",
		// cost (usage profile)
		"hours_per_day", "days_per_month", "utilization", "storage_gb", "object_storage_gb", "egress_gb", "inter_region_gb",
	} {
		m[k] = true
	}
	for _, k := range estimateFields {
		m[k] = true
	}
	return m
}()
