package gcp

import "github.com/shopspring/decimal"

// Machine is a Compute Engine machine type with its shape: the SKUs price
// resources, so a machine's price is assembled from them.
type Machine struct {
	// Name is the machine type, e.g. "a2-highgpu-1g".
	Name string
	// Family is the series as the core and RAM SKU descriptions name it:
	// "A2" matches "A2 Instance Core running in Americas".
	Family string
	// VCPU is the number of vCPUs.
	VCPU int
	// MemGiB is the memory in GiB.
	MemGiB decimal.Decimal
	// GPU is the GPU model as the GPU SKU descriptions name it, without
	// the vendor: "A100" matches "Nvidia Tesla A100 GPU running in
	// Americas", "A100 80GB" matches "Nvidia Tesla A100 80GB GPU ...".
	// Spaces, hyphens and case do not matter.
	GPU string
	// GPUCount is the number of GPUs attached; zero for none.
	GPUCount int
}

func machine(name, family string, vcpu, memGiB int, gpu string, gpus int) Machine {
	return Machine{Name: name, Family: family, VCPU: vcpu, MemGiB: decimal.NewFromInt(int64(memGiB)), GPU: gpu, GPUCount: gpus}
}

// DefaultMachines returns the accelerator-optimized machine types with
// their documented shapes (vCPUs, memory in GiB, GPU model and count), from
// https://cloud.google.com/compute/docs/gpus and
// https://cloud.google.com/compute/docs/accelerator-optimized-machines
// (A2 Standard: A100 40GB; A2 Ultra: A100 80GB; A3 High: H100 80GB;
// G2: L4).
func DefaultMachines() []Machine {
	return []Machine{
		machine("a2-highgpu-1g", "A2", 12, 85, "A100", 1),
		machine("a2-highgpu-2g", "A2", 24, 170, "A100", 2),
		machine("a2-highgpu-4g", "A2", 48, 340, "A100", 4),
		machine("a2-highgpu-8g", "A2", 96, 680, "A100", 8),
		machine("a2-megagpu-16g", "A2", 96, 1360, "A100", 16),
		machine("a2-ultragpu-1g", "A2", 12, 170, "A100 80GB", 1),
		machine("a2-ultragpu-2g", "A2", 24, 340, "A100 80GB", 2),
		machine("a2-ultragpu-4g", "A2", 48, 680, "A100 80GB", 4),
		machine("a2-ultragpu-8g", "A2", 96, 1360, "A100 80GB", 8),
		machine("a3-highgpu-8g", "A3", 208, 1872, "H100 80GB", 8),
		machine("g2-standard-4", "G2", 4, 16, "L4", 1),
		machine("g2-standard-8", "G2", 8, 32, "L4", 1),
		machine("g2-standard-12", "G2", 12, 48, "L4", 1),
		machine("g2-standard-16", "G2", 16, 64, "L4", 1),
		machine("g2-standard-24", "G2", 24, 96, "L4", 2),
		machine("g2-standard-32", "G2", 32, 128, "L4", 1),
		machine("g2-standard-48", "G2", 48, 192, "L4", 4),
		machine("g2-standard-96", "G2", 96, 384, "L4", 8),
	}
}
