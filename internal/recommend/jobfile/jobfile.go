// Package jobfile reads gpuscout's YAML job descriptions (recommend -f)
// into recommend.Requirements. Unknown keys are errors; numbers are read
// exactly as written.
package jobfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/perf"
	"github.com/gpuscout/gpuscout/internal/recommend"
	"gopkg.in/yaml.v3"
)

// File is the YAML form of a job.
type File struct {
	Name     string `yaml:"name"`
	Workload struct {
		Benchmark   string   `yaml:"benchmark"`
		Samples     float64  `yaml:"samples"`
		GPUHours    float64  `yaml:"gpu_hours"`
		GPUHoursOn  string   `yaml:"gpu_hours_on"`
		ClusterGPUs int      `yaml:"cluster_gpus"`
		Job         *JobSpec `yaml:"job"`
		Inference   *struct {
			Params          float64 `yaml:"params"`
			ActiveParams    float64 `yaml:"active_params"`
			TokensPerSecond float64 `yaml:"tokens_per_second"`
			QPS             float64 `yaml:"qps"`
			InputTokens     float64 `yaml:"input_tokens"`
			OutputTokens    float64 `yaml:"output_tokens"`
			TTFTMs          float64 `yaml:"ttft_ms"`
			TPOTMs          float64 `yaml:"tpot_ms"`
			Heads           int     `yaml:"attention_heads"`
			Precision       string  `yaml:"precision"`
			// The model's layout where known (see recommend.Inference).
			Layers          int `yaml:"layers"`
			KVHeads         int `yaml:"kv_heads"`
			HeadDim         int `yaml:"head_dim"`
			Hidden          int `yaml:"hidden_size"`
			Experts         int `yaml:"experts"`
			ExpertsPerToken int `yaml:"experts_per_token"`
		} `yaml:"inference"`
	} `yaml:"workload"`
	DeadlineHours float64 `yaml:"deadline_hours"`
	HorizonMonths int     `yaml:"horizon_months"`
	Utilization   float64 `yaml:"utilization"`
	// Hours holds cluster_gpus for exactly this many hours.
	Hours float64 `yaml:"hours"`
	// StartWithinDays asks for guaranteed capacity starting within this
	// many days, without interruption.
	StartWithinDays float64 `yaml:"start_within_days"`
	// Budget is a hard limit in the output currency per BudgetPeriod
	// (total, month or hour).
	Budget       float64 `yaml:"budget"`
	BudgetPeriod string  `yaml:"budget_period"`
	GPU          struct {
		Models       []string `yaml:"models"`
		MinVRAMGB    float64  `yaml:"min_vram_gb"`
		MinTotalGB   float64  `yaml:"min_total_vram_gb"`
		MinGPUs      int      `yaml:"min_gpus"`
		MaxGPUs      int      `yaml:"max_gpus"`
		Interconnect string   `yaml:"interconnect"`
		// RDMA is true (any fabric), false, or a fabric name
		// (infiniband, efa, erdma, roce, any).
		RDMA        rdmaField `yaml:"rdma"`
		Fabric      string    `yaml:"fabric"`
		AllowNoRDMA bool      `yaml:"allow_no_rdma"`
		MultiNode   bool      `yaml:"multi_node"`
	} `yaml:"gpu"`
	OS        string  `yaml:"os"`
	MTBIHours float64 `yaml:"mtbi_hours"`
	HA        bool    `yaml:"ha"`
	// BookQuantile is the quantile of the job's time a fixed-length
	// booking covers (default 0.9); AllowLikelyMiss ranks plans likely to
	// miss the deadline with the rest.
	BookQuantile    float64 `yaml:"book_quantile"`
	AllowLikelyMiss bool    `yaml:"allow_likely_miss"`
	Location        struct {
		Regions   []string `yaml:"regions"`
		Countries []string `yaml:"countries"`
		Residency []string `yaml:"residency"`
		// NearUsers are places (Frankfurt, DE, us-east-1) or mappings
		// with the load each place brings: {place: Frankfurt, qps: 3}.
		NearUsers nearList `yaml:"near_users"`
	} `yaml:"location"`
	Providers        []string `yaml:"providers"`
	ExcludeProviders []string `yaml:"exclude_providers"`
	Interruptible    bool     `yaml:"interruptible"`
	Ecosystem        []string `yaml:"ecosystem"`
	Priority         string   `yaml:"priority"`
	Weights          *struct {
		Cost float64 `yaml:"cost"`
		Time float64 `yaml:"time"`
		Risk float64 `yaml:"risk"`
	} `yaml:"weights"`
	Currency string `yaml:"currency"`
	Limit    int    `yaml:"limit"`
}

// JobSpec is a sized job.
type JobSpec struct {
	Kind           string  `yaml:"kind"`
	Params         float64 `yaml:"params"`
	Tokens         float64 `yaml:"tokens"`
	Images         float64 `yaml:"images"`
	Epochs         float64 `yaml:"epochs"`
	GFLOPsPerImage float64 `yaml:"gflops_per_image"`
	FLOPs          float64 `yaml:"flops"`
	Precision      string  `yaml:"precision"`
	// Method is how a transformer-train job trains: full, lora or qlora.
	Method string `yaml:"method"`
	// ActiveParams is a mixture of experts' parameters active per token.
	ActiveParams float64 `yaml:"active_params"`
}

// Limits on a job description, met before it is decoded: a job needs a
// few dozen keys, so these leave ample room while a hostile document (tens
// of thousands of keys, deep nesting, aliases that expand) is refused in
// time proportional to MaxBytes, never to what it would expand to.
const (
	// MaxBytes bounds the document (the examples are under 1 KiB).
	MaxBytes = 64 << 10
	// MaxNodes bounds the keys, values and list items, counting what
	// aliases expand to.
	MaxNodes = 2000
	// MaxDepth bounds the nesting of mappings and lists.
	MaxDepth = 16
	// MaxAliases bounds the aliases (*name).
	MaxAliases = 64
)

// LimitError is a job description over one of Read's limits; Msg says
// which, in either language.
type LimitError struct{ Msg i18n.Msg }

func (e *LimitError) Error() string { return e.Msg.String() }

// Read parses a job file, refusing one over the limits (a *LimitError)
// before decoding it.
func Read(r io.Reader) (recommend.Requirements, error) {
	var req recommend.Requirements
	data, err := io.ReadAll(io.LimitReader(r, MaxBytes+1))
	if err != nil {
		return req, err
	}
	if len(data) > MaxBytes {
		return req, &LimitError{i18n.M("job.limit.size", MaxBytes)}
	}
	if err := checkShape(data); err != nil {
		return req, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var f File
	if err := dec.Decode(&f); err != nil {
		if errors.Is(err, io.EOF) {
			return req, errors.New("the file is empty")
		}
		msg := strings.TrimPrefix(strings.TrimPrefix(parserLine(err.Error()), "yaml: unmarshal errors:\n"), "yaml: ")
		for { // nested anonymous structs: innermost first
			short := structType().ReplaceAllString(msg, "struct")
			if short == msg {
				break
			}
			msg = short
		}
		msg = unmarshalMsg().ReplaceAllStringFunc(msg, func(m string) string {
			g := unmarshalMsg().FindStringSubmatch(m)
			return fmt.Sprintf("%s is not %s", g[1], goTypeWords(g[2]))
		})
		msg = unmarshalKind().ReplaceAllStringFunc(msg, func(m string) string {
			g := unmarshalKind().FindStringSubmatch(m)
			return fmt.Sprintf("%s is not %s", yamlKindWords(g[1]), goTypeWords(g[2]))
		})
		msg = unknownField().ReplaceAllString(msg, "unknown field $1 (not a job file field)")
		return req, errors.New(strings.Join(strings.Fields(strings.ReplaceAll(msg, "\n", "; ")), " "))
	}
	return f.Requirements()
}

// checkShape parses data into YAML nodes (linear in its size: no mapping
// is checked for duplicate keys yet, no alias expanded) and refuses a
// document over MaxNodes, MaxDepth or MaxAliases. A syntax error is left
// for the decoder to report with its line.
func checkShape(data []byte) error {
	var root yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&root); err != nil {
		return nil
	}
	nodes, aliases := 0, map[*yaml.Node]bool{}
	var walk func(n *yaml.Node, depth int) error
	walk = func(n *yaml.Node, depth int) error {
		if n == nil {
			return nil
		}
		if nodes++; nodes > MaxNodes {
			return &LimitError{i18n.M("job.limit.nodes", MaxNodes)}
		}
		if depth > MaxDepth {
			return &LimitError{i18n.M("job.limit.depth", MaxDepth)}
		}
		if n.Kind == yaml.AliasNode {
			if aliases[n] = true; len(aliases) > MaxAliases {
				return &LimitError{i18n.M("job.limit.aliases", MaxAliases)}
			}
			return walk(n.Alias, depth+1) // what the decoder would expand
		}
		for _, c := range n.Content {
			if err := walk(c, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(&root, 0)
}

// Requirements converts the file into requirements.
func (f File) Requirements() (recommend.Requirements, error) {
	r := recommend.Requirements{Name: f.Name, DeadlineHours: f.DeadlineHours, HorizonMonths: f.HorizonMonths, Utilization: f.Utilization,
		GPUs: f.GPU.Models, MinVRAMGB: f.GPU.MinVRAMGB, MinTotalVRAMGB: f.GPU.MinTotalGB, MinGPUs: f.GPU.MinGPUs, MaxGPUs: f.GPU.MaxGPUs,
		Interconnect: f.GPU.Interconnect, RDMA: f.GPU.RDMA.any, Fabric: f.GPU.Fabric, MultiNode: f.GPU.MultiNode, AllowNoRDMA: f.GPU.AllowNoRDMA,
		OS: f.OS, MTBIHours: f.MTBIHours, HA: f.HA, BookQuantile: f.BookQuantile, AllowLikelyMiss: f.AllowLikelyMiss,
		Regions: f.Location.Regions, Countries: f.Location.Countries, Residency: f.Location.Residency, NearUsers: f.Location.NearUsers,
		Providers: f.Providers, ExcludeProviders: f.ExcludeProviders, Interruptible: f.Interruptible, Ecosystem: f.Ecosystem,
		Priority: f.Priority, Currency: strings.ToUpper(f.Currency), Limit: f.Limit,
		Hours: f.Hours, StartWithinDays: f.StartWithinDays, Budget: f.Budget, BudgetPeriod: strings.ToLower(f.BudgetPeriod)}
	w := f.Workload
	r.Workload = recommend.Workload{Benchmark: w.Benchmark, Samples: w.Samples, GPUHours: w.GPUHours, GPUHoursOn: w.GPUHoursOn, ClusterGPUs: w.ClusterGPUs}
	if f.GPU.RDMA.fabric != "" {
		if r.Fabric != "" && !strings.EqualFold(r.Fabric, f.GPU.RDMA.fabric) {
			return r, fmt.Errorf("gpu.rdma %q and gpu.fabric %q disagree", f.GPU.RDMA.fabric, r.Fabric)
		}
		r.Fabric = f.GPU.RDMA.fabric
	}
	if j := w.Job; j != nil {
		r.Workload.Precision = strings.ToLower(j.Precision)
		p, err := precision(j.Precision, "workload.job.precision")
		if err != nil {
			return r, err
		}
		m, err := perf.ParseMethod(j.Method)
		if err != nil {
			return r, fmt.Errorf("workload.job.method: %w", err)
		}
		r.Workload.Job = &perf.Job{Kind: perf.JobKind(j.Kind), Params: j.Params, Tokens: j.Tokens, Images: j.Images, Epochs: j.Epochs,
			GFLOPs: j.GFLOPsPerImage, FLOPs: j.FLOPs, Precision: p, Method: m, ActiveParams: j.ActiveParams}
	}
	if i := w.Inference; i != nil {
		p, err := precision(i.Precision, "workload.inference.precision")
		if err != nil {
			return r, err
		}
		r.Workload.Precision = strings.ToLower(i.Precision)
		r.Workload.Inference = &recommend.Inference{Params: i.Params, ActiveParams: i.ActiveParams, TokensPerSecond: i.TokensPerSecond, QPS: i.QPS, InputTokens: i.InputTokens,
			OutputTokens: i.OutputTokens, TTFTMs: i.TTFTMs, TPOTMs: i.TPOTMs, Heads: i.Heads, Precision: p,
			Layers: i.Layers, KVHeads: i.KVHeads, HeadDim: i.HeadDim, Hidden: i.Hidden, Experts: i.Experts, ExpertsPerToken: i.ExpertsPerToken}
	}
	if f.Weights != nil {
		r.Weights = &recommend.Weights{Cost: f.Weights.Cost, Time: f.Weights.Time, Risk: f.Weights.Risk}
	}
	return r, r.Validate()
}

// structType is an anonymous Go struct type as the YAML decoder prints it
// (without nested braces: Read shortens nested ones innermost first).
var structType = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\*?struct \{[^{}]*\}`) })

// unmarshalMsg is the YAML decoder's type error, which names Go types.
var unmarshalMsg = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("cannot unmarshal !!\\w+ (`[^`]*`|[^ ]+) into ([][*.\\w]+)")
})

// unmarshalKind is the decoder's type error for a whole node (a list where
// a mapping belongs), which names the YAML kind and the Go type.
var unmarshalKind = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`cannot unmarshal !!(\w+) into ([][*.\w]+)`) })

// unknownField is the decoder's error for a field the file format lacks,
// which names the Go type.
// parserErr matches the YAML parser's (not scanner's) syntax errors, which
// yaml.v3 numbers from 0 (its fail() adds 1 only to scanner errors): an
// unclosed [ or { on line 2 comes back as "line 1".
var parserErr = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^yaml: line (\d+): (did not find expected|found undefined tag handle|found incompatible YAML document|found duplicate %)`)
})

// parserLine renumbers a parser error's line from 1, as editors count.
func parserLine(msg string) string {
	g := parserErr().FindStringSubmatchIndex(msg)
	if g == nil {
		return msg
	}
	n, err := strconv.Atoi(msg[g[2]:g[3]])
	if err != nil {
		return msg
	}
	return msg[:g[2]] + strconv.Itoa(n+1) + msg[g[3]:]
}

var unknownField = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`field (\S+) not found in type [*.\w]+`) })

// yamlKindWords names a YAML node kind as a job file's author reads it.
func yamlKindWords(kind string) string {
	switch kind {
	case "seq":
		return "a list"
	case "map":
		return "a mapping"
	case "str":
		return "text"
	}
	return "a " + kind
}

// goTypeWords says what a Go type is in words a job file's author reads.
func goTypeWords(t string) string {
	switch {
	case strings.HasPrefix(t, "[]"):
		return "a list"
	case strings.HasPrefix(t, "float"):
		return "a number"
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "uint"):
		return "a whole number"
	case t == "bool":
		return "true or false"
	case t == "string":
		return "text"
	case t == "jobfile.File":
		return "a job description (a YAML mapping: workload:, gpu:, location: ...)"
	}
	return "the expected form (a mapping of fields)"
}

func precision(s, field string) (perf.Precision, error) {
	if s == "" {
		return "", nil
	}
	p, err := recommend.ParsePrecision(s)
	if err != nil {
		return "", fmt.Errorf("%s: %w", field, err)
	}
	return p, nil
}

// rdmaField reads gpu.rdma: a boolean (any fabric) or a fabric name.
type rdmaField struct {
	any    bool
	fabric string
}

// UnmarshalYAML accepts true/false or infiniband, efa, erdma, roce, any.
func (f *rdmaField) UnmarshalYAML(n *yaml.Node) error {
	var b bool
	if err := n.Decode(&b); err == nil {
		f.any = b
		return nil
	}
	var s string
	if err := n.Decode(&s); err != nil {
		return fmt.Errorf("line %d: gpu.rdma: use true, false or a fabric (%s)", n.Line, strings.Join(recommend.Fabrics, ", "))
	}
	if !inList(recommend.Fabrics, strings.ToLower(s)) {
		return fmt.Errorf("line %d: gpu.rdma: %q is not a fabric (use %s)", n.Line, s, strings.Join(recommend.Fabrics, ", "))
	}
	f.fabric = strings.ToLower(s)
	return nil
}

func inList(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// nearList reads location.near_users: a list of places, each a string
// ("Frankfurt", "Frankfurt=3") or a mapping with the place's load
// ({place: Frankfurt, qps: 3} or {place: Frankfurt, tokens_per_second: 500}).
type nearList []string

// UnmarshalYAML accepts a list of strings and mappings.
func (l *nearList) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.SequenceNode {
		return fmt.Errorf("line %d: location.near_users: use a list of places (Frankfurt, DE, us-east-1) or of {place: Frankfurt, qps: 3}", n.Line)
	}
	for _, item := range n.Content {
		if item.Kind == yaml.ScalarNode {
			*l = append(*l, item.Value)
			continue
		}
		var m struct {
			Place           string  `yaml:"place"`
			QPS             float64 `yaml:"qps"`
			TokensPerSecond float64 `yaml:"tokens_per_second"`
		}
		if err := item.Decode(&m); err != nil || item.Kind != yaml.MappingNode {
			return fmt.Errorf("line %d: location.near_users: an entry is a place or {place: Frankfurt, qps: 3}", item.Line)
		}
		for i := 0; i+1 < len(item.Content); i += 2 {
			if k := item.Content[i].Value; k != "place" && k != "qps" && k != "tokens_per_second" {
				return fmt.Errorf("line %d: location.near_users: unknown key %q (use place, qps or tokens_per_second)", item.Content[i].Line, k)
			}
		}
		switch {
		case m.Place == "":
			return fmt.Errorf("line %d: location.near_users: the entry needs a place", item.Line)
		case m.QPS > 0 && m.TokensPerSecond > 0:
			return fmt.Errorf("line %d: location.near_users: give qps or tokens_per_second for %s, not both", item.Line, m.Place)
		case m.QPS > 0:
			*l = append(*l, fmt.Sprintf("%s=%g", m.Place, m.QPS))
		case m.TokensPerSecond > 0:
			*l = append(*l, fmt.Sprintf("%s=%g", m.Place, m.TokensPerSecond))
		default:
			*l = append(*l, m.Place)
		}
	}
	return nil
}
