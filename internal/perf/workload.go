package perf

import (
	"strings"
)

// Class is a workload family: workloads of a class share the model's
// compute/bandwidth blend (alpha) and communication coefficient.
type Class string

// Workload classes.
const (
	CNNInfer  Class = "cnn-inference"
	BERTInfer Class = "transformer-inference"
	DLRMInfer Class = "recommender-inference"
	LLMInfer  Class = "llm-inference"
	CNNTrain  Class = "cnn-training"
	BERTTrain Class = "transformer-training"
	DLRMTrain Class = "recommender-training"
	LLMTrain  Class = "llm-training"
)

// Classes lists the workload classes.
var classes = []Class{CNNInfer, BERTInfer, DLRMInfer, LLMInfer, CNNTrain, BERTTrain, DLRMTrain, LLMTrain}

// alphaPrior is each class's starting compute-bound share: the weight of
// the precision's peak (vs memory bandwidth) in the roofline blend. Used
// when a class has too few GPUs in the data to fit it.
var alphaPrior = map[Class]float64{
	CNNInfer: 0.6, BERTInfer: 0.6, DLRMInfer: 0.4, LLMInfer: 0.3,
	CNNTrain: 0.8, BERTTrain: 0.8, DLRMTrain: 0.4, LLMTrain: 0.9,
}

// Training reports whether the class trains (and so all-reduces gradients).
func (c Class) Training() bool {
	return c == CNNTrain || c == BERTTrain || c == DLRMTrain || c == LLMTrain
}

// Benchmark describes a named benchmark.
type Benchmark struct {
	Name  string
	Class Class
	// Params is the model's parameter count, for the memory check (0 when
	// not meaningful, e.g. recommender embedding tables).
	Params float64
	// Time is true for time-to-train benchmarks (minutes to a quality target).
	Time bool
	// Method is how a training benchmark trains: full, lora or qlora
	// ("" = full).
	Method Method
}

// Method is how a model is trained: all its weights, or small low-rank
// adapters on frozen weights.
type Method string

// Training methods.
const (
	Full  Method = "full"  // every weight trained (mixed-precision Adam)
	LoRA  Method = "lora"  // low-rank adapters on frozen 16-bit weights
	QLoRA Method = "qlora" // low-rank adapters on frozen 4-bit (NF4) weights
)

// ParseMethod reads a training method: full, lora or qlora ("" = full).
func ParseMethod(s string) (Method, error) {
	switch m := Method(strings.ToLower(strings.TrimSpace(s))); m {
	case "", Full, LoRA, QLoRA:
		return m, nil
	}
	return "", msgErr("perf.err.method", s)
}

// modelParams are published parameter counts: ResNet-50 25.6 M (He et al.
// 2015, torchvision), BERT-Large 340 M (Devlin et al. 2018), GPT-3 175 B,
// Llama 2 70 B, Llama 3.1 8 B / 70 B / 405 B (their model cards).
var modelParams = []struct {
	match  string
	params float64
}{
	{"resnet50", 25.6e6}, {"bert", 340e6}, {"gpt3-175b", 175e9}, {"llama2-70b", 70e9},
	{"llama3.1-8b", 8e9}, {"mixtral-8x7b", 46.7e9}, {"llama3.1-70b", 70.6e9}, {"llama3.1-405b", 405e9},
}

// Describe classifies a benchmark by its name (the calibration file's names:
// mlperf-inf-*, mlperf-train-*, *-train-throughput, *-inference-*, vllm-*).
func Describe(name string) Benchmark {
	n := strings.ToLower(name)
	b := Benchmark{Name: name}
	for _, m := range modelParams {
		if strings.Contains(n, m.match) {
			b.Params = m.params
			break
		}
	}
	infer := strings.Contains(n, "-inf") || strings.Contains(n, "inference") || strings.HasPrefix(n, "vllm")
	b.Time = strings.HasPrefix(n, "mlperf-train")
	switch {
	case strings.Contains(n, "qlora"):
		b.Method = QLoRA
	case strings.Contains(n, "lora"):
		b.Method = LoRA
	}
	switch {
	case strings.Contains(n, "resnet") || strings.Contains(n, "unet"):
		b.Class = pick(infer, CNNInfer, CNNTrain)
	case strings.Contains(n, "dlrm"):
		b.Class = pick(infer, DLRMInfer, DLRMTrain)
	case strings.Contains(n, "llama") || strings.Contains(n, "gpt") || strings.Contains(n, "mixtral") || strings.HasPrefix(n, "vllm"):
		b.Class = pick(infer, LLMInfer, LLMTrain)
	default:
		b.Class = pick(infer, BERTInfer, BERTTrain)
	}
	return b
}

func pick(cond bool, a, b Class) Class {
	if cond {
		return a
	}
	return b
}
