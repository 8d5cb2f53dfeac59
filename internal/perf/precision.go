package perf

import (
	"fmt"
	"strings"
)

// Precision is the numeric format a workload computes in.
type Precision string

// Precisions. LowBest is the "submitter-chosen" precision of MLPerf
// inference: the fastest format the GPU supports (INT8 or FP8); Low16 is the
// one of the 99.9 %-accuracy variants: FP8 on Hopper and later (where
// FP8 meets the accuracy target), else FP16.
const (
	FP32    Precision = "fp32"
	TF32    Precision = "tf32"
	FP16    Precision = "fp16" // FP16 or BF16 tensor (mixed precision)
	FP8     Precision = "fp8"
	INT8    Precision = "int8"
	INT4    Precision = "int4" // 4-bit weights (LLM inference; computes in FP16)
	LowBest Precision = "int8/fp8"
	Low16   Precision = "fp16/fp8"
)

// ParsePrecision reads --precision: fp32, tf32, fp16, bf16, fp8, int8.
func ParsePrecision(s string) (Precision, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "fp32":
		return FP32, nil
	case "tf32":
		return TF32, nil
	case "fp16", "bf16", "amp", "mixed":
		return FP16, nil
	case "fp8":
		return FP8, nil
	case "int8":
		return INT8, nil
	case "int4":
		return INT4, nil
	}
	return "", fmt.Errorf("unknown precision %q (use fp32, tf32, fp16, bf16, fp8, int8 or int4)", s)
}

// ParsePrecisionLabel maps a benchmark table's precision wording onto a
// Precision ("INT8 (TensorRT)", "AMP (FP16 mixed)", "submitter-chosen ...").
func ParsePrecisionLabel(label, benchmark string) (Precision, error) {
	l := strings.ToUpper(label)
	switch {
	case strings.Contains(l, "SUBMITTER-CHOSEN"):
		if strings.HasSuffix(benchmark, "99.9") {
			return Low16, nil
		}
		return LowBest, nil
	case strings.HasPrefix(l, "INT8"):
		return INT8, nil
	case strings.HasPrefix(l, "FP8"):
		return FP8, nil
	case strings.HasPrefix(l, "TF32"):
		return TF32, nil
	case strings.HasPrefix(l, "AMP"), strings.HasPrefix(l, "MIXED"), strings.HasPrefix(l, "FP16"), strings.HasPrefix(l, "BF16"):
		return FP16, nil
	case strings.HasPrefix(l, "FP32"):
		return FP32, nil
	}
	return "", fmt.Errorf("unrecognised precision %q", label)
}
