package export

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/shopspring/decimal"
	"gopkg.in/yaml.v3"
)

// skyPilotClouds maps gpuscout provider IDs to SkyPilot cloud names. The
// added providers' instance types and region codes come from SkyPilot's own
// catalogs, so they pass through; DigitalOcean's Paperspace machines are
// SkyPilot's paperspace cloud (skyPilotCloud) and RunPod's data centers are
// SkyPilot zones of a country region (skyPilotPlacement).
var skyPilotClouds = map[string]string{"aws": "aws", "azure": "azure", "gcp": "gcp", "oci": "oci", "lambda": "lambda",
	"runpod": "runpod", "nebius": "nebius", "hyperstack": "hyperstack", "verda": "verda", "digitalocean": "do"}

// dstackBackends maps gpuscout provider IDs to dstack backend types.
var dstackBackends = map[string]string{"aws": "aws", "azure": "azure", "gcp": "gcp", "oci": "oci", "lambda": "lambda"}

// noSpot are providers that sell no spot capacity.
var noSpot = map[string]bool{"lambda": true}

// SkyPilotAccelerator is SkyPilot's accelerator name for an instance's GPU:
// the family, with -80GB and -32GB for the larger A100 and V100 and
// H100-MEGA for GCP's a3-megagpu machines.
func SkyPilotAccelerator(it *catalog.InstanceType) string {
	fam := gpuFamily(it)
	mem := gpuMemory(it)
	switch {
	case fam == "A100" && mem.GreaterThanOrEqual(decimal.NewFromInt(80)):
		return "A100-80GB"
	case fam == "V100" && mem.GreaterThanOrEqual(decimal.NewFromInt(32)):
		return "V100-32GB"
	case fam == "H100" && it.Provider == "gcp" && strings.HasPrefix(it.Name, "a3-megagpu"):
		return "H100-MEGA"
	case fam == "T4G":
		return "T4g"
	case fam == "V520":
		return "Radeon Pro V520"
	case fam == "RTX6000Ada":
		return "RTX6000-Ada"
	}
	return fam
}

// DstackGPUName is dstack's GPU name for an instance's GPU: the family
// (memory is a separate field), H100NVL for the H100 NVL.
func DstackGPUName(it *catalog.InstanceType) string {
	if strings.HasPrefix(it.GPUID, "H100-NVL") {
		return "H100NVL"
	}
	return gpuFamily(it)
}

func gpuFamily(it *catalog.InstanceType) string {
	if it.GPU != nil && it.GPU.Family != "" {
		return it.GPU.Family
	}
	fam, _, _ := strings.Cut(it.GPUID, "-")
	return fam
}

// gpuMemory is the memory of one GPU in GB.
func gpuMemory(it *catalog.InstanceType) decimal.Decimal {
	if it.GPU != nil && it.GPU.MemoryGB.IsPositive() {
		return it.GPU.MemoryGB
	}
	if it.GPUCount.IsPositive() {
		return it.GPUMemoryGB.Div(it.GPUCount).Round(0)
	}
	return decimal.Zero
}

// skyPilotCloud is SkyPilot's cloud for an offer: the provider's, except
// Paperspace machines (region NY2 of provider digitalocean), which SkyPilot
// reaches as its paperspace cloud.
func skyPilotCloud(off *catalog.Offer) (string, bool) {
	if off.Provider == "digitalocean" && off.Region != nil && strings.HasPrefix(off.Region.NameEN, "Paperspace") {
		return "paperspace", true
	}
	c, ok := skyPilotClouds[off.Provider]
	return c, ok
}

// skyPilotPlacement is SkyPilot's region and zone for an offer. RunPod data
// centers (US-TX-3) are zones of a country region (US) in SkyPilot's catalog,
// and the ANY region of a price list (RunPod, Lambda, OCI: one price in every
// region, no evidence of capacity in one) has neither, so SkyPilot may pick;
// Paperspace's NY2 is the region "East Coast (NY2)".
func skyPilotPlacement(off *catalog.Offer) (region, zone string) {
	switch {
	case off.RegionCode == "ANY":
		return "", ""
	case off.Provider == "runpod" && off.Region != nil:
		return off.Region.Country, off.RegionCode
	case off.Provider == "digitalocean" && off.RegionCode == "NY2":
		return "East Coast (NY2)", ""
	}
	return off.RegionCode, ""
}

// SkyPilot exports off as a SkyPilot task (YAML): resources with cloud,
// region, instance_type, accelerators {NAME: count} and use_spot, and
// num_nodes = opt.Count. Providers SkyPilot does not support return an
// *UnsupportedError.
func SkyPilot(off *catalog.Offer, opt Options) ([]byte, error) {
	spot, err := check(off, opt)
	if err != nil {
		return nil, err
	}
	cloud, ok := skyPilotCloud(off)
	if !ok {
		return nil, unsupported("SkyPilot supports aws, azure, gcp, oci, lambda, runpod, nebius, hyperstack, verda and digitalocean offers here; use gpuscout export terraform --offer "+off.ID()+" for "+providerName(off.Provider)+".",
			"SkyPilot does not support provider %s (%s)", off.Provider, providerName(off.Provider))
	}
	if spot && noSpot[off.Provider] {
		return nil, unsupported("drop --spot.", "%s sells no spot instances", providerName(off.Provider))
	}
	it := off.Instance
	if !it.GPUCount.IsPositive() {
		return nil, unsupported("", "%s has no GPU count in the catalog", it.ID())
	}
	n := opt.count()
	res := mapping()
	res.add("cloud", str2(cloud))
	region, zone := skyPilotPlacement(off)
	if region != "" {
		res.add("region", str2(region))
	} else {
		res.HeadCommentNext("No region: the price is the same in every data center; SkyPilot tries them in turn.")
	}
	if zone != "" {
		res.add("zone", str2(zone))
	}
	var count *yaml.Node
	if isGCPAttachment(it) {
		_, c := gcpAttachment(it)
		count = intNode(int64(c))
		res.HeadCommentNext("N1 VM with an attached GPU: SkyPilot picks the N1 host type (billed besides the GPU).")
	} else {
		res.add("instance_type", str2(it.Name))
		if it.GPUCount.IsInteger() {
			count = intNode(it.GPUCount.IntPart())
		} else {
			count = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: it.GPUCount.Round(3).String()}
		}
	}
	acc := mapping()
	acc.Style = yaml.FlowStyle
	acc.add(SkyPilotAccelerator(it), count)
	res.add("accelerators", acc.Node)
	res.add("use_spot", boolNode(spot))

	doc := mapping()
	doc.add("name", str2(baseName(off)))
	doc.add("num_nodes", intNode(int64(n)))
	doc.add("resources", res.Node)
	doc.HeadCommentNext("Replace with your job's commands (and add setup:, workdir: or file_mounts: as needed).")
	doc.add("run", str2("nvidia-smi"))

	lines := header("skypilot", off, opt, spot)
	lines = append(lines, yamlNotes(off, n)...)
	lines = append(lines, "", "Launch: sky launch -c "+baseName(off)+" task.yaml (fill in run: first)")
	return encodeYAML(lines, doc.Node)
}

// Dstack exports off as a dstack configuration (YAML): a fleet (opt.Kind
// "fleet", the default) or a task ("task"), with resources.gpu name, memory
// and count, backends, regions, instance_types, spot_policy and nodes =
// opt.Count. Providers dstack does not support return an *UnsupportedError.
func Dstack(off *catalog.Offer, opt Options) ([]byte, error) {
	spot, err := check(off, opt)
	if err != nil {
		return nil, err
	}
	kind := strings.ToLower(strings.TrimSpace(opt.Kind))
	if kind == "" {
		kind = "fleet"
	}
	if kind != "fleet" && kind != "task" {
		return nil, unsupported("use --kind fleet or --kind task.", "unknown dstack configuration type %q", opt.Kind)
	}
	backend, ok := dstackBackends[off.Provider]
	if !ok {
		return nil, unsupported("dstack supports aws, azure, gcp, oci and lambda offers here; use gpuscout export terraform --offer "+off.ID()+" for "+providerName(off.Provider)+".",
			"dstack does not support provider %s (%s)", off.Provider, providerName(off.Provider))
	}
	if spot && noSpot[off.Provider] {
		return nil, unsupported("drop --spot.", "%s sells no spot instances", providerName(off.Provider))
	}
	it := off.Instance
	if !it.GPUCount.IsPositive() || !it.GPUCount.IsInteger() {
		return nil, unsupported("pick an instance with whole GPUs.", "dstack requests whole GPUs; %s has %s GPUs", it.ID(), it.GPUCount)
	}
	n := opt.count()
	gpuCount := it.GPUCount.IntPart()
	if isGCPAttachment(it) {
		_, c := gcpAttachment(it)
		gpuCount = int64(c)
	}
	gpu := mapping()
	names := seq(str2(DstackGPUName(it)))
	names.Style = yaml.FlowStyle
	gpu.add("name", names)
	if m := gpuMemory(it); m.IsPositive() {
		gpu.add("memory", str2(qty(m)+"GB"))
	}
	gpu.add("count", intNode(gpuCount))
	res := mapping()
	res.add("gpu", gpu.Node)

	name := baseName(off)
	if len(name) > 40 {
		name = strings.TrimSuffix(name[:40], "-")
	}
	doc := mapping()
	doc.add("type", str2(kind))
	doc.add("name", str2(name))
	doc.add("nodes", intNode(int64(n)))
	if n > 1 {
		if kind == "fleet" {
			doc.HeadCommentNext("Interconnected instances in one backend and region (EFA on AWS where the instance type supports it).")
			doc.add("placement", str2("cluster"))
		}
	}
	if kind == "task" {
		doc.HeadCommentNext("Replace with your job's commands.")
		doc.add("commands", seq(str2("nvidia-smi")))
	}
	doc.add("resources", res.Node)
	doc.add("backends", flowSeq(backend))
	if off.RegionCode == "ANY" {
		doc.HeadCommentNext("No regions: the price is the same in every region; dstack picks one with capacity.")
	} else {
		doc.add("regions", flowSeq(off.RegionCode))
	}
	if isGCPAttachment(it) {
		doc.HeadCommentNext("A GPU attached to an N1 VM: dstack picks the N1 host type (billed besides the GPU).")
	} else {
		doc.add("instance_types", flowSeq(it.Name))
	}
	if off.Billing == catalog.CapacityBlock {
		doc.HeadCommentNext("Capacity Block: buy it first, then uncomment and set its ID:")
		doc.HeadCommentNext("reservation: cr-0123456789abcdef0")
	}
	policy := "on-demand"
	if spot {
		policy = "spot"
	}
	doc.add("spot_policy", str2(policy))

	lines := header("dstack", off, opt, spot)
	lines = append(lines, yamlNotes(off, n)...)
	lines = append(lines, "", "Apply: dstack apply -f "+kind+".dstack.yml")
	return encodeYAML(lines, doc.Node)
}

// yamlNotes are header notes for billing models that SkyPilot and dstack
// cannot select.
func yamlNotes(off *catalog.Offer, n int) []string {
	if note := commitmentNote(off, n); note != nil {
		return append([]string{""}, note...)
	}
	if off.Billing == catalog.CapacityBlock {
		return []string{"", "A Capacity Block is bought ahead (EC2 console > Capacity Reservations > Capacity Blocks); the",
			"instances must launch into it during its window."}
	}
	return nil
}

// encodeYAML writes the comment lines, then the document.
func encodeYAML(comments []string, doc *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	for _, l := range comments {
		if l = oneLine(l); l == "" {
			buf.WriteString("#\n")
		} else {
			buf.WriteString("# " + l + "\n")
		}
	}
	if len(comments) > 0 {
		buf.WriteString("\n")
	}
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	return buf.Bytes(), nil
}

// ymap builds a YAML mapping in order.
type ymap struct {
	*yaml.Node
	pending []string // head comments for the next key
}

func mapping() *ymap { return &ymap{Node: &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}} }

func (m *ymap) add(key string, v *yaml.Node) {
	k := str2(key)
	if len(m.pending) > 0 {
		k.HeadComment = strings.Join(m.pending, "\n")
		m.pending = nil
	}
	m.Content = append(m.Content, k, v)
}

// HeadCommentNext puts a comment line above the next key.
func (m *ymap) HeadCommentNext(line string) { m.pending = append(m.pending, "# "+oneLine(line)) }

func str2(s string) *yaml.Node {
	n := &yaml.Node{}
	n.SetString(s)
	return n
}

func intNode(v int64) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: fmt.Sprint(v)}
}

func boolNode(v bool) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: fmt.Sprint(v)}
}

func seq(items ...*yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: items}
}

func flowSeq(items ...string) *yaml.Node {
	s := seq()
	s.Style = yaml.FlowStyle
	for _, it := range items {
		s.Content = append(s.Content, str2(it))
	}
	return s
}
