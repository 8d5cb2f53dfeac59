package cli

import "github.com/spf13/pflag"

// modelLayout is an LLM's layout as a user may know it: it sizes the KV
// cache, prefill attention, all-reduces and the experts a decode step
// reads (0: assumed from a published model of the same size).
type modelLayout struct {
	layers, kvHeads, headDim, hidden, experts, perToken int
}

// flags registers the layout's flags.
func (l *modelLayout) flags(f *pflag.FlagSet) {
	f.IntVar(&l.layers, "layers", 0, "LLM serving: the model's layers (default: from published Llama 3 configurations of its size)")
	f.IntVar(&l.kvHeads, "kv-heads", 0, "LLM serving: key/value heads (grouped-query attention; 1 for multi-query; default 8)")
	f.IntVar(&l.headDim, "head-dim", 0, "LLM serving: size of each attention head (default 128)")
	f.IntVar(&l.hidden, "hidden-size", 0, "LLM serving: model width d_model (default: from published Llama 3 configurations of its size)")
	f.IntVar(&l.experts, "experts", 0, "LLM serving, mixture of experts: routed experts per layer (default 8, as Mixtral)")
	f.IntVar(&l.perToken, "experts-per-token", 0, "LLM serving, mixture of experts: experts each token is routed to (default 2, as Mixtral)")
}
