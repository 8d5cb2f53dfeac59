// Package rightsize reads GPU metrics logs — nvidia-smi --query-gpu CSV
// and DCGM exporter Prometheus text, plain or gzip-compressed — summarises
// how the GPUs were used (utilisation and memory percentiles per GPU, idle
// share, duty cycle, hour-of-day profile) and turns that into priced
// recommendations against the catalog: fewer GPUs, a cheaper GPU with
// enough memory, and the billing model that fits the observed duty cycle.
//
// Parsing streams: memory stays bounded whatever the size of the log
// (fixed-size histograms per GPU, one small record per minute of the span).
// Malformed lines are skipped and counted, never fatal.
package rightsize
