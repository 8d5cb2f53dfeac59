package export

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gpuscout/gpuscout/internal/catalog"
)

// tfProvider is a provider's official Terraform provider.
type tfProvider struct {
	name, source, version string
	resource              string // the instance resource type
}

// tfProviders are the providers with an official Terraform provider that
// Terraform exports know.
var tfProviders = map[string]tfProvider{
	// primary_network_interface (for an EFA primary interface) is in 6.10+.
	"aws":     {"aws", "hashicorp/aws", ">= 6.10", "aws_instance"},
	"azure":   {"azurerm", "hashicorp/azurerm", ">= 4.0", "azurerm_linux_virtual_machine"},
	"gcp":     {"google", "hashicorp/google", ">= 5.0", "google_compute_instance"},
	"alibaba": {"alicloud", "aliyun/alicloud", ">= 1.200.0", "alicloud_instance"},
	"tencent": {"tencentcloud", "tencentcloudstack/tencentcloud", ">= 1.81.0", "tencentcloud_instance"},
}

// ResourceType is the Terraform resource type an export for provider
// creates, or "" when there is no Terraform export for it.
func ResourceType(provider string) string { return tfProviders[provider].resource }

// Terraform exports off as a Terraform configuration (HCL) for the
// provider's official Terraform provider: a terraform block with
// required_providers, a provider block for the offer's region, variables for
// what the user must supply, and opt.Count instances of the offer's
// instance type under its billing model. Reserved, savings-plan and
// committed-use offers export on-demand instances with a comment naming the
// commitment to buy. OCI, Lambda and unknown providers return an
// *UnsupportedError.
func Terraform(off *catalog.Offer, opt Options) ([]byte, error) {
	spot, err := check(off, opt)
	if err != nil {
		return nil, err
	}
	p, ok := tfProviders[off.Provider]
	if !ok {
		return nil, unsupported(terraformHint(off.Provider), "no Terraform export for provider %s", off.Provider)
	}
	n := opt.count()
	b := &hclBody{}
	comment(b, header("terraform", off, opt, spot)...)
	if note := commitmentNote(off, n); note != nil {
		b.AppendNewline()
		comment(b, note...)
	}
	b.AppendNewline()
	tfb := b.AppendNewBlock("terraform")
	rp := tfb.AppendNewBlock("required_providers")
	ps := rp.SetAttributeObject(p.name, "{", "}")
	str(ps, "source", p.source)
	str(ps, "version", p.version)
	b.AppendNewline()
	g := &tfGen{b: b, off: off, n: n, spot: spot, name: baseName(off)}
	switch off.Provider {
	case "aws":
		err = g.aws()
	case "azure":
		err = g.azure()
	case "gcp":
		err = g.gcp()
	case "alibaba":
		err = g.alibaba()
	case "tencent":
		err = g.tencent()
	}
	if err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func terraformHint(provider string) string {
	switch provider {
	case "oci":
		return "OCI's own provider (oracle/oci, resource oci_core_instance) is not generated yet; gpuscout export skypilot or gpuscout export dstack support OCI."
	case "lambda":
		return "Lambda has no official Terraform provider; gpuscout export skypilot or gpuscout export dstack support Lambda."
	}
	return "Terraform exports cover aws, azure, gcp, alibaba and tencent offers."
}

// tfGen writes one provider's configuration.
type tfGen struct {
	b    *hclBody
	off  *catalog.Offer
	n    int
	spot bool
	name string
}

// comment appends "# line" comments.
func comment(b *hclBody, lines ...string) {
	for _, l := range lines {
		text := "#"
		if l = oneLine(l); l != "" {
			text += " " + l
		}
		b.AppendLine(text)
	}
}

func str(b *hclBody, name, v string) { b.SetAttribute(name, hclString(v)) }
func num(b *hclBody, name string, v int64) {
	b.SetAttribute(name, strconv.FormatInt(v, 10))
}
func boolean(b *hclBody, name string, v bool) { b.SetAttribute(name, strconv.FormatBool(v)) }

// ref sets an attribute to an HCL expression written as is (a reference, a
// template, a type); the expressions are gpuscout's own, already in
// canonical form.
func ref(b *hclBody, name, expr string) { b.SetAttribute(name, expr) }

// variable declares an input variable; def is a raw default ("" for none:
// the user must supply it).
func (g *tfGen) variable(name, typ, desc, def string) {
	v := g.b.AppendNewBlock("variable", name)
	str(v, "description", desc)
	ref(v, "type", typ)
	if def != "" {
		ref(v, "default", def)
	}
	g.b.AppendNewline()
}

func (g *tfGen) provider(name string, attrs func(b *hclBody)) {
	pb := g.b.AppendNewBlock("provider", name)
	attrs(pb)
	g.b.AppendNewline()
}

// instanceName is the name of instance count.index.
func (g *tfGen) instanceName() string { return g.name + "-${count.index}" }

func (g *tfGen) tags(b *hclBody, attr string) {
	t := b.SetAttributeObject(attr, "{", "}")
	ref(t, "Name", quote(g.instanceName()))
	t.SetAttribute(hclString("gpuscout-offer"), hclString(g.off.ID()))
}

// quote renders s as an HCL template string (interpolations kept).
func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

func (g *tfGen) aws() error {
	off, it := g.off, g.off.Instance
	g.provider("aws", func(b *hclBody) { str(b, "region", off.RegionCode) })
	g.variable("ami_id", "string", "AMI to boot, e.g. an AWS Deep Learning AMI (NVIDIA driver, CUDA, EFA software) for "+off.RegionCode, "")
	g.variable("key_name", "string", "name of an existing EC2 key pair for SSH", "")
	g.variable("subnet_id", "string", "subnet to launch in; its availability zone must offer "+it.Name, "")
	efa := it.RDMA == catalog.RDMAEFA
	sgDesc := "security groups for the instances"
	if efa {
		sgDesc += "; EFA needs one that allows all traffic to and from itself"
	}
	g.variable("security_group_ids", "list(string)", sgDesc, "")
	capacityBlock := off.Billing == catalog.CapacityBlock
	if capacityBlock {
		g.variable("capacity_block_id", "string", "ID of the purchased EC2 Capacity Block (cr-...)", "")
	}
	placement := efa && g.n > 1
	if placement {
		pg := g.b.AppendNewBlock("resource", "aws_placement_group", "gpu")
		str(pg, "name", g.name)
		str(pg, "strategy", "cluster")
		g.b.AppendNewline()
	}
	if efa {
		comment(g.b, fmt.Sprintf("%s supports EFA: each instance gets an EFA primary network interface.", it.Name),
			"Instances with several network cards can take more EFA interfaces (aws_network_interface_attachment).")
		ni := g.b.AppendNewBlock("resource", "aws_network_interface", "efa")
		num(ni, "count", int64(g.n))
		ref(ni, "subnet_id", "var.subnet_id")
		ref(ni, "security_groups", "var.security_group_ids")
		str(ni, "interface_type", "efa")
		g.b.AppendNewline()
	}
	r := g.b.AppendNewBlock("resource", "aws_instance", "gpu")
	num(r, "count", int64(g.n))
	ref(r, "ami", "var.ami_id")
	str(r, "instance_type", it.Name)
	ref(r, "key_name", "var.key_name")
	if placement {
		ref(r, "placement_group", "aws_placement_group.gpu.id")
	}
	if efa {
		r.AppendNewline()
		pni := r.AppendNewBlock("primary_network_interface")
		ref(pni, "network_interface_id", "aws_network_interface.efa[count.index].id")
	} else {
		ref(r, "subnet_id", "var.subnet_id")
		ref(r, "vpc_security_group_ids", "var.security_group_ids")
	}
	switch {
	case g.spot:
		r.AppendNewline()
		comment(r, "Spot: pays the current spot price (no max_price, capped at the on-demand price); AWS may reclaim the instance with a two-minute notice.")
		mo := r.AppendNewBlock("instance_market_options")
		str(mo, "market_type", "spot")
		so := mo.AppendNewBlock("spot_options")
		str(so, "instance_interruption_behavior", "terminate")
		str(so, "spot_instance_type", "one-time")
	case capacityBlock:
		r.AppendNewline()
		comment(r, "Capacity Block: buy it first (EC2 console > Capacity Reservations > Capacity Blocks, or aws ec2",
			"purchase-capacity-block); the instances launch into it during its reserved window.")
		mo := r.AppendNewBlock("instance_market_options")
		str(mo, "market_type", "capacity-block")
		cr := r.AppendNewBlock("capacity_reservation_specification")
		crt := cr.AppendNewBlock("capacity_reservation_target")
		ref(crt, "capacity_reservation_id", "var.capacity_block_id")
	}
	r.AppendNewline()
	g.tags(r, "tags")
	return nil
}

func (g *tfGen) azure() error {
	off, it := g.off, g.off.Instance
	g.provider("azurerm", func(b *hclBody) {
		b.AppendLine("features {}")
		ref(b, "subscription_id", "var.subscription_id")
	})
	comment(g.b, fmt.Sprintf("Azure sets the region per resource: every resource below is in %s.", off.RegionCode))
	g.b.AppendNewline()
	g.variable("subscription_id", "string", "Azure subscription to deploy into", "")
	g.variable("resource_group_name", "string", "existing resource group for the VMs and their network interfaces", "")
	g.variable("subnet_id", "string", "ID of an existing subnet in "+off.RegionCode, "")
	g.variable("zone", "string", "availability zone (1, 2 or 3) that offers "+it.Name+", or null to let Azure choose", "null")
	g.variable("admin_username", "string", "administrator user name", `"azureuser"`)
	g.variable("ssh_public_key", "string", "SSH public key (OpenSSH format) for the administrator", "")
	image := g.b.AppendNewBlock("variable", "image")
	str(image, "description", "marketplace image with the NVIDIA driver, e.g. an Ubuntu HPC image (publisher microsoft-dsvm, offer ubuntu-hpc)")
	imgType := image.SetAttributeObject("type", "object({", "})")
	for _, k := range []string{"publisher", "offer", "sku", "version"} {
		ref(imgType, k, "string")
	}
	g.b.AppendNewline()
	nic := g.b.AppendNewBlock("resource", "azurerm_network_interface", "gpu")
	num(nic, "count", int64(g.n))
	ref(nic, "name", quote(g.instanceName()+"-nic"))
	str(nic, "location", off.RegionCode)
	ref(nic, "resource_group_name", "var.resource_group_name")
	nic.AppendNewline()
	ipc := nic.AppendNewBlock("ip_configuration")
	str(ipc, "name", "internal")
	ref(ipc, "subnet_id", "var.subnet_id")
	str(ipc, "private_ip_address_allocation", "Dynamic")
	g.b.AppendNewline()
	if it.RDMA == catalog.RDMAInfiniBand {
		comment(g.b, it.Name+" has InfiniBand: it works within the VM's scale unit with an image that has the InfiniBand drivers (the HPC images do).")
	}
	vm := g.b.AppendNewBlock("resource", "azurerm_linux_virtual_machine", "gpu")
	num(vm, "count", int64(g.n))
	ref(vm, "name", quote(g.instanceName()))
	ref(vm, "resource_group_name", "var.resource_group_name")
	str(vm, "location", off.RegionCode)
	str(vm, "size", it.Name)
	ref(vm, "zone", "var.zone")
	ref(vm, "admin_username", "var.admin_username")
	ref(vm, "network_interface_ids", "[azurerm_network_interface.gpu[count.index].id]")
	if g.spot {
		vm.AppendNewline()
		comment(vm, "Spot: max_bid_price = -1 pays up to the on-demand price and evicts only for capacity; eviction deallocates the VM (its disks are kept and billed).")
		str(vm, "priority", "Spot")
		str(vm, "eviction_policy", "Deallocate")
		num(vm, "max_bid_price", -1)
	}
	vm.AppendNewline()
	key := vm.AppendNewBlock("admin_ssh_key")
	ref(key, "username", "var.admin_username")
	ref(key, "public_key", "var.ssh_public_key")
	vm.AppendNewline()
	disk := vm.AppendNewBlock("os_disk")
	str(disk, "caching", "ReadWrite")
	str(disk, "storage_account_type", "StandardSSD_LRS")
	vm.AppendNewline()
	img := vm.AppendNewBlock("source_image_reference")
	for _, k := range []string{"publisher", "offer", "sku", "version"} {
		ref(img, k, "var.image."+k)
	}
	vm.AppendNewline()
	g.tags(vm, "tags")
	return nil
}

func (g *tfGen) gcp() error {
	off, it := g.off, g.off.Instance
	attach := isGCPAttachment(it)
	g.provider("google", func(b *hclBody) {
		ref(b, "project", "var.project")
		str(b, "region", off.RegionCode)
		ref(b, "zone", "var.zone")
	})
	g.variable("project", "string", "Google Cloud project ID", "")
	g.variable("zone", "string", fmt.Sprintf("zone of %s that offers %s, e.g. %s-a", off.RegionCode, it.Name, off.RegionCode), "")
	g.variable("image", "string", "boot image with the NVIDIA driver, e.g. a Deep Learning VM image (projects/deeplearning-platform-release/global/images/family/...)", "")
	g.variable("subnetwork", "string", "subnetwork (name or self link) in "+off.RegionCode, "")
	g.variable("ssh_user", "string", "user name for the SSH key", "")
	g.variable("ssh_public_key", "string", "SSH public key (OpenSSH format)", "")
	var accel string
	var accelCount int
	if attach {
		accel, accelCount = gcpAttachment(it)
		g.variable("machine_type", "string", "N1 machine type to attach the GPU to (its vCPUs and memory are billed separately from the GPU price above)", `"n1-standard-8"`)
	}
	r := g.b.AppendNewBlock("resource", "google_compute_instance", "gpu")
	num(r, "count", int64(g.n))
	ref(r, "name", quote(g.instanceName()))
	if attach {
		ref(r, "machine_type", "var.machine_type")
	} else {
		str(r, "machine_type", it.Name)
	}
	ref(r, "zone", "var.zone")
	r.AppendNewline()
	bd := r.AppendNewBlock("boot_disk")
	ip := bd.AppendNewBlock("initialize_params")
	ref(ip, "image", "var.image")
	num(ip, "size", 200)
	str(ip, "type", gcpDiskType(it))
	r.AppendNewline()
	ni := r.AppendNewBlock("network_interface")
	ref(ni, "subnetwork", "var.subnetwork")
	r.AppendNewline()
	ref(r.SetAttributeObject("metadata", "{", "}"), "ssh-keys", `"${var.ssh_user}:${var.ssh_public_key}"`)
	r.AppendNewline()
	if attach {
		comment(r, "N1 VMs take GPUs as attached accelerators.")
		ga := r.AppendNewBlock("guest_accelerator")
		str(ga, "type", accel)
		num(ga, "count", int64(accelCount))
		r.AppendNewline()
	} else {
		comment(r, fmt.Sprintf("The %s machine type comes with its GPUs (%s× %s): no guest_accelerator block.", it.Name, it.GPUCount, it.GPUID))
	}
	sc := r.AppendNewBlock("scheduling")
	if g.spot {
		comment(sc, "Spot VM: Compute Engine may preempt it at any time; GPU VMs cannot live-migrate.")
		str(sc, "provisioning_model", "SPOT")
		boolean(sc, "preemptible", true)
		boolean(sc, "automatic_restart", false)
		str(sc, "on_host_maintenance", "TERMINATE")
	} else {
		comment(sc, "GPU VMs cannot live-migrate: they stop for host maintenance.")
		str(sc, "on_host_maintenance", "TERMINATE")
		boolean(sc, "automatic_restart", true)
	}
	r.AppendNewline()
	label := slug(off.ID()) // label values: at most 63 lower-case letters, digits, - and _
	if len(label) > 63 {
		label = strings.TrimSuffix(label[:63], "-")
	}
	str(r.SetAttributeObject("labels", "{", "}"), "gpuscout-offer", label)
	return nil
}

// gcpDiskType is a boot disk type the machine series supports: A3 Ultra and
// A4 take Hyperdisk only; the others take Persistent Disk balanced (none of
// the GPU series takes the provider's default, pd-standard, except N1).
func gcpDiskType(it *catalog.InstanceType) string {
	if strings.HasPrefix(it.Name, "a3-ultragpu") || strings.HasPrefix(it.Name, "a4") {
		return "hyperdisk-balanced"
	}
	return "pd-balanced"
}

// prepaidMonths is the subscription length of a subscription offer in months.
func prepaidMonths(b catalog.Billing) int64 {
	switch b {
	case catalog.Subscription1y:
		return 12
	case catalog.Subscription3y:
		return 36
	}
	return 1
}

func (g *tfGen) alibaba() error {
	off, it := g.off, g.off.Instance
	g.provider("alicloud", func(b *hclBody) { str(b, "region", off.RegionCode) })
	g.variable("image_id", "string", "image to boot, e.g. an Alibaba Cloud Linux or Ubuntu image with the GPU driver", "")
	g.variable("key_name", "string", "name of an existing ECS key pair for SSH", "")
	g.variable("vswitch_id", "string", "vSwitch to launch in; its zone (which fixes the instance's zone) must offer "+it.Name, "")
	g.variable("security_group_ids", "list(string)", "security groups for the instances", "")
	r := g.b.AppendNewBlock("resource", "alicloud_instance", "gpu")
	num(r, "count", int64(g.n))
	ref(r, "instance_name", quote(g.instanceName()))
	str(r, "instance_type", it.Name)
	ref(r, "image_id", "var.image_id")
	ref(r, "vswitch_id", "var.vswitch_id")
	ref(r, "security_groups", "var.security_group_ids")
	ref(r, "key_name", "var.key_name")
	str(r, "system_disk_category", "cloud_essd")
	r.AppendNewline()
	switch {
	case off.Billing.Family() == "subscription":
		comment(r, "Subscription (包年包月): paid in advance for the period, and not refundable in full if released early.")
		str(r, "instance_charge_type", "PrePaid")
		num(r, "period", prepaidMonths(off.Billing))
		str(r, "period_unit", "Month")
	case g.spot:
		comment(r, "Spot (抢占式实例): SpotAsPriceGo pays the market price, capped at the pay-as-you-go price; the instance may be reclaimed.")
		str(r, "instance_charge_type", "PostPaid")
		str(r, "spot_strategy", "SpotAsPriceGo")
	default:
		str(r, "instance_charge_type", "PostPaid")
	}
	r.AppendNewline()
	g.tags(r, "tags")
	return nil
}

func (g *tfGen) tencent() error {
	off, it := g.off, g.off.Instance
	g.provider("tencentcloud", func(b *hclBody) { str(b, "region", off.RegionCode) })
	g.variable("availability_zone", "string", fmt.Sprintf("zone of %s that offers %s, e.g. %s-3", off.RegionCode, it.Name, off.RegionCode), "")
	g.variable("image_id", "string", "image to boot (img-...), e.g. a public image with the GPU driver installed automatically", "")
	g.variable("key_ids", "list(string)", "SSH key IDs (skey-...)", "")
	g.variable("vpc_id", "string", "VPC to launch in", "")
	g.variable("subnet_id", "string", "subnet of the VPC in the availability zone", "")
	g.variable("security_group_ids", "list(string)", "security groups for the instances", "")
	if g.spot {
		def := ""
		desc := "highest hourly price to pay for the spot instance, in CNY, as a decimal string"
		if off.Billing == catalog.OnDemand && off.Price.Currency == "CNY" {
			def = quote(amount(off.EffectiveHourly()))
			desc += " (default: the on-demand price)"
		}
		g.variable("spot_max_price", "string", desc, def)
	}
	r := g.b.AppendNewBlock("resource", "tencentcloud_instance", "gpu")
	num(r, "count", int64(g.n))
	ref(r, "instance_name", quote(g.instanceName()))
	ref(r, "availability_zone", "var.availability_zone")
	str(r, "instance_type", it.Name)
	ref(r, "image_id", "var.image_id")
	ref(r, "vpc_id", "var.vpc_id")
	ref(r, "subnet_id", "var.subnet_id")
	ref(r, "orderly_security_groups", "var.security_group_ids")
	ref(r, "key_ids", "var.key_ids")
	r.AppendNewline()
	switch {
	case off.Billing.Family() == "subscription":
		comment(r, "Subscription (包年包月): paid in advance; a PREPAID instance cannot be deleted before it expires.")
		str(r, "instance_charge_type", "PREPAID")
		num(r, "instance_charge_type_prepaid_period", prepaidMonths(off.Billing))
		str(r, "instance_charge_type_prepaid_renew_flag", "NOTIFY_AND_MANUAL_RENEW")
	case g.spot:
		comment(r, "Spot (竞价实例): the instance may be reclaimed when the market price exceeds spot_max_price or capacity runs out.")
		str(r, "instance_charge_type", "SPOTPAID")
		str(r, "spot_instance_type", "ONE-TIME")
		ref(r, "spot_max_price", "var.spot_max_price")
	default:
		str(r, "instance_charge_type", "POSTPAID_BY_HOUR")
	}
	r.AppendNewline()
	g.tags(r, "tags")
	return nil
}
