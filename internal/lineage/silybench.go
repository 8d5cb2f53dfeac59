package lineage

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

const (
	silybenchRef     = "tgarg01/silybench-data derived/csv/gpu_prices.csv@94d2bb9525ff0f3fb9ea6648724cc5d1c85ee696"
	silybenchVersion = "version read: commit 94d2bb9, the stored version with the latest checked_at in the file; the figure is the same in every version read"
)

// silybenchPrice is one row of the benchmark repository's GPU price list
// (derived/csv/gpu_prices.csv): a per-GPU hourly price someone read off a
// provider's page on checked_at.
type silybenchPrice struct {
	Line         int
	Provider     string
	GPUType      string
	Provisioning string
	PerGPUHour   decimal.Decimal
	MinGPUs      int
	Product      string
	Source       string
	CheckedAt    string
	Notes        string
}

var silybenchHeader = []string{"provider", "gpu_type", "provisioning", "usd_per_gpu_hour", "min_gpus", "product", "source", "checked_at", "notes"}

// parseSilybenchPrices reads gpu_prices.csv. The header must be the file's
// known one; a bad price, GPU count or date is an error naming the line and
// field.
func parseSilybenchPrices(r io.Reader) ([]silybenchPrice, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = len(silybenchHeader)
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("gpu_prices.csv: header: %w", err)
	}
	for i, h := range silybenchHeader {
		if head[i] != h {
			return nil, fmt.Errorf("gpu_prices.csv: header column %d is %q, want %q", i+1, head[i], h)
		}
	}
	var out []silybenchPrice
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("gpu_prices.csv: %w", err)
		}
		line, _ := cr.FieldPos(0)
		p := silybenchPrice{Line: line, Provider: rec[0], GPUType: rec[1], Provisioning: rec[2], Product: rec[5], Source: rec[6], CheckedAt: rec[7], Notes: rec[8]}
		bad := func(field string, err error) error {
			return fmt.Errorf("gpu_prices.csv line %d: field %s: %q: %w", line, field, rec[indexOf(silybenchHeader, field)], err)
		}
		if p.Provider == "" || p.Product == "" {
			return nil, bad("product", errors.New("provider and product are required"))
		}
		if p.PerGPUHour, err = decimal.NewFromString(rec[3]); err != nil || !p.PerGPUHour.IsPositive() {
			return nil, bad("usd_per_gpu_hour", errors.New("not a positive number"))
		}
		if p.MinGPUs, err = strconv.Atoi(rec[4]); err != nil || p.MinGPUs < 1 || p.MinGPUs > 64 {
			return nil, bad("min_gpus", errors.New("not a GPU count"))
		}
		if _, err := time.Parse("2006-01-02", p.CheckedAt); err != nil {
			return nil, bad("checked_at", errors.New("not a YYYY-MM-DD date"))
		}
		out = append(out, p)
	}
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return 0
}

func readSilybench(excerpt fs.FS) ([]silybenchPrice, error) {
	f, err := excerpt.Open("gpu_prices.csv")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseSilybenchPrices(f)
}

// silybenchLambdaTypes maps the file's Lambda product names to catalog
// instance types; an empty value leaves the product out (see SOURCE.md).
var silybenchLambdaTypes = map[string]string{
	"1x A10":           "gpu_1x_a10",
	"1x A100 SXM 40GB": "gpu_1x_a100_sxm4",
	"1x GH200":         "gpu_1x_gh200",
	"1x H100 PCIe":     "gpu_1x_h100_pcie",
	"1x H100 SXM":      "gpu_1x_h100_sxm5",
	"8x A100 SXM 80GB": "gpu_8x_a100_80gb_sxm4",
	"8x H100 SXM":      "gpu_8x_h100_sxm5",
	"1x B200 SXM6":     "gpu_1x_b200_sxm6",
}

func silybenchLambda() Source {
	return Source{
		Name:   "silybench-lambda",
		Output: "offers/lambda-silybench.csv",
		Generate: func(excerpt fs.FS) ([]Row, error) {
			prices, err := readSilybench(excerpt)
			if err != nil {
				return nil, err
			}
			var rows []Row
			for _, p := range prices {
				if p.Provider != "lambda" {
					continue
				}
				typ, ok := silybenchLambdaTypes[p.Product]
				if !ok {
					return nil, fmt.Errorf("gpu_prices.csv line %d: Lambda product %q has no catalog instance type", p.Line, p.Product)
				}
				if typ == "" {
					continue
				}
				if p.Provisioning != "on-demand" {
					return nil, fmt.Errorf("gpu_prices.csv line %d: provisioning %q for Lambda", p.Line, p.Provisioning)
				}
				hourly := p.PerGPUHour.Mul(decimal.NewFromInt(int64(p.MinGPUs)))
				notes := fmt.Sprintf("%s USD per GPU-hour for %q x %d GPUs, as read off %s on %s (checked_at) and written into the repo's price list; "+
					"PRICE LIST: Lambda publishes one on-demand price for every region and the page says nothing of capacity, so the row stands for any Lambda region (region ANY) until a live answer places it; "+
					"as_of = the file's checked_at; %s", p.PerGPUHour, p.Product, p.MinGPUs, p.Source, p.CheckedAt, silybenchVersion)
				rows = append(rows, Row{
					Provider: "lambda", InstanceType: typ, Region: lambdaAnyRegion, Billing: "on-demand",
					Hourly: hourly.String(), Currency: "USD", Notes: notes,
					SourceKind: "third-party", SourceRef: silybenchRef, AsOf: p.CheckedAt,
				})
			}
			return rows, nil
		},
	}
}

func silybenchGCP() Source {
	return Source{
		Name:   "silybench-gcp",
		Output: "offers/gcp-silybench.csv",
		Generate: func(excerpt fs.FS) ([]Row, error) {
			prices, err := readSilybench(excerpt)
			if err != nil {
				return nil, err
			}
			var rows []Row
			for _, p := range prices {
				if p.Provider != "gcp" {
					continue
				}
				// The product names the shape and region: "a3-highgpu-1g Spot, us-central1".
				shape, region, ok := strings.Cut(p.Product, ", ")
				shape = strings.TrimSuffix(shape, " Spot")
				if !ok || shape == "" || region == "" || strings.Contains(shape, " ") {
					return nil, fmt.Errorf("gpu_prices.csv line %d: product %q is not \"<machine type>[ Spot], <region>\"", p.Line, p.Product)
				}
				if p.Provisioning != "on-demand" && p.Provisioning != "spot" {
					return nil, fmt.Errorf("gpu_prices.csv line %d: provisioning %q", p.Line, p.Provisioning)
				}
				hourly := p.PerGPUHour.Mul(decimal.NewFromInt(int64(p.MinGPUs)))
				notes := fmt.Sprintf("whole %s VM (%d GPU) per hour, %s; the repo's note: %s; priced from %s on %s (checked_at); as_of = the file's checked_at; %s",
					shape, p.MinGPUs, p.Provisioning, p.Notes, p.Source, p.CheckedAt, silybenchVersion)
				rows = append(rows, Row{
					Provider: "gcp", InstanceType: shape, Region: region, Billing: p.Provisioning,
					Hourly: hourly.String(), Currency: "USD", Notes: notes,
					SourceKind: "third-party", SourceRef: silybenchRef, AsOf: p.CheckedAt,
				})
			}
			return rows, nil
		},
	}
}

// silybenchRunPodTypes maps the file's RunPod Secure Cloud products to the
// catalog's pod types of that GPU, each with its GPU count. Community
// Cloud products and Secure Cloud GPUs the catalog does not describe (H100
// PCIe, RTX 4090) map to none.
var silybenchRunPodTypes = map[string][]struct {
	Type  string
	Count int64
}{
	"H100 SXM, Secure Cloud":  {{"1x_H100-SXM_SECURE", 1}, {"2x_H100-SXM_SECURE", 2}, {"8x_H100-SXM_SECURE", 8}},
	"H100 NVL, Secure Cloud":  {{"4x_H100-NVL_SECURE", 4}},
	"H200, Secure Cloud":      {{"1x_H200-SXM_SECURE", 1}, {"2x_H200-SXM_SECURE", 2}, {"4x_H200-SXM_SECURE", 4}},
	"B200, Secure Cloud":      {{"1x_B200_SECURE", 1}, {"8x_B200_SECURE", 8}},
	"A100 SXM, Secure Cloud":  {{"1x_A100-80GB-SXM_SECURE", 1}, {"2x_A100-80GB-SXM_SECURE", 2}, {"4x_A100-80GB-SXM_SECURE", 4}, {"8x_A100-80GB-SXM_SECURE", 8}},
	"A100 PCIe, Secure Cloud": {{"1x_A100-80GB_SECURE", 1}, {"2x_A100-80GB_SECURE", 2}},
	"L40S, Secure Cloud":      {{"8x_L40S_SECURE", 8}},
	"H100 PCIe, Secure Cloud": nil,
	"RTX 4090, Secure Cloud":  nil,
}

// silybenchRunPod prices RunPod's Secure Cloud pods from the dated copy of
// RunPod's pricing page: per GPU-hour × the pod's GPU count, one row per
// type in region ANY. These types are left out of skypilot-runpod: a dated
// price wins over the undated file's for the same offer.
func silybenchRunPod() Source {
	return Source{
		Name:   "silybench-runpod",
		Output: "offers/runpod-silybench.csv",
		Generate: func(excerpt fs.FS) ([]Row, error) {
			prices, err := readSilybench(excerpt)
			if err != nil {
				return nil, err
			}
			var rows []Row
			for _, p := range prices {
				if p.Provider != "runpod" || strings.HasSuffix(p.Product, ", Community Cloud") {
					continue
				}
				types, ok := silybenchRunPodTypes[p.Product]
				if !ok {
					return nil, fmt.Errorf("gpu_prices.csv line %d: RunPod product %q has no catalog pod types", p.Line, p.Product)
				}
				if p.Provisioning != "on-demand" || p.MinGPUs != 1 {
					return nil, fmt.Errorf("gpu_prices.csv line %d: %s, %d GPUs: want an on-demand price per single GPU", p.Line, p.Provisioning, p.MinGPUs)
				}
				for _, t := range types {
					notes := fmt.Sprintf("PRICE LIST: RunPod Secure Cloud price, the same in every data centre, so the row stands for any of them (region ANY); "+
						"%s USD per GPU-hour for %q as read off %s on %s (checked_at) and written into the repo's price list; "+
						"RunPod prices pods per GPU, so a %d-GPU pod is %d × that (as every row of the SkyPilot RunPod file is too); "+
						"this dated price replaces the undated SkyPilot v8 row for the same pod; as_of = the file's checked_at; %s",
						p.PerGPUHour, p.Product, p.Source, p.CheckedAt, t.Count, t.Count, silybenchVersion)
					rows = append(rows, Row{
						Provider: "runpod", InstanceType: t.Type, Region: runpodAnyRegion, Billing: "on-demand",
						Hourly: p.PerGPUHour.Mul(decimal.NewFromInt(t.Count)).String(), Currency: "USD", Notes: notes,
						SourceKind: "third-party", SourceRef: silybenchRef, AsOf: p.CheckedAt,
					})
				}
			}
			return rows, nil
		},
	}
}
