package cli

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/gpuscout/gpuscout/internal/importer/aws"
	"github.com/spf13/cobra"
)

// fetchJob is one live source to fetch.
type fetchJob struct {
	name string
	ref  string
	run  func(ctx context.Context, p importer.Progress) (*importer.Result, error)
	// plan, when set, lists the requests run would make (--dry-run).
	plan func() []string
}

// awsJobs are the AWS sources: an offer file per region and the Spot Advisor feed.
func (a *app) awsJobs(ctx context.Context, regions []string) ([]fetchJob, error) {
	c := a.client()
	base := a.env.Getenv("GPUSCOUT_AWS_PRICING_URL")
	urls, err := aws.RegionOfferURLs(ctx, c, base, regions)
	if err != nil {
		return nil, err
	}
	var codes []string
	for k := range urls {
		codes = append(codes, k)
	}
	sort.Strings(codes)
	var jobs []fetchJob
	for _, code := range codes {
		o := &aws.Offers{URL: urls[code], Ref: urls[code], Now: a.env.Now}
		jobs = append(jobs, fetchJob{name: "aws", ref: code, run: func(ctx context.Context, p importer.Progress) (*importer.Result, error) {
			return o.Fetch(ctx, c, p)
		}})
	}
	adv := a.env.Getenv("GPUSCOUT_AWS_SPOT_ADVISOR_URL")
	if adv == "" {
		adv = aws.DefaultSpotAdvisorURL
	}
	jobs = append(jobs, fetchJob{name: "aws-spot-advisor", ref: adv, run: func(ctx context.Context, p importer.Progress) (*importer.Result, error) {
		resp, err := importer.GetWithRetry(ctx, c, adv, nil, 3)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		return (&aws.SpotAdvisor{Ref: adv, Now: a.env.Now}).Parse(ctx, resp.Body, p)
	}})
	return jobs, nil
}

func (a *app) catalogUpdateCmd() *cobra.Command {
	var providers, regions []string
	var watchFile string
	var timeout time.Duration
	var allowShrink, dryRun bool
	cmd := &cobra.Command{
		Use:   "update [--provider P ...]",
		Short: "Fetch current prices from the providers' own price sources into the database (live)",
		Long: `Fetch the providers' own published price sources and store each as a new snapshot: AWS (the
Price List bulk offer files of --region, and the Spot Advisor feed), Azure (the Retail Prices API),
GCP (the Cloud Billing Catalog; GOOGLE_API_KEY), Alibaba Cloud, Tencent Cloud, Huawei Cloud and Baidu
AI Cloud (their signed price APIs; ALIBABA_CLOUD_ACCESS_KEY_ID/SECRET, TENCENTCLOUD_SECRET_ID/KEY,
HUAWEICLOUD_SDK_AK/SK, BCE_ACCESS_KEY_ID/BCE_SECRET_ACCESS_KEY — read from the environment, never
stored), the GPU clouds' own APIs with what they say about capacity now (Vast.ai's public offer
search, VAST_API_KEY optional; Lambda's Cloud API, LAMBDA_API_KEY; RunPod's GraphQL API,
RUNPOD_API_KEY; DigitalOcean's sizes list, DIGITALOCEAN_TOKEN; Oracle's public price
list for OCI, no key; Hyperstack's flavors and pricebook, HYPERSTACK_API_KEY; Verda's instance types and
availability, VERDA_CLIENT_ID/SECRET; without their keys, their SkyPilot files), and the SkyPilot
catalog.
--dry-run prints what would be fetched and sends nothing. Requests time out, retry with backoff, and show progress;
Ctrl-C cancels cleanly. Each source is one transaction: a failed source stores nothing and the
others still land. A source fails when the provider refuses the credentials (HTTP 401/403, with the
provider's message, credentials redacted), when more than 5% of its requests fail, when nothing
usable is left after the checks gpuscout catalog import makes, or when it holds fewer than half
the offers of its previous snapshot (unless --allow-shrink).`,
		Example: `  gpuscout catalog update --provider aws --region us-east-1 --region us-west-2
  gpuscout catalog update --provider azure,skypilot
  gpuscout catalog update --provider huawei --dry-run
  gpuscout catalog update --provider vast,lambda,runpod,digitalocean,oci,hyperstack,verda --dry-run`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ds, err := a.data()
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			provs := splitFlags(providers)
			if len(provs) == 0 {
				provs = []string{"aws", "azure", "skypilot"}
			}
			var jobs []fetchJob
			for _, p := range provs {
				switch p {
				case "aws":
					if dryRun {
						for _, r := range splitFlags(regions) {
							jobs = append(jobs, fetchJob{name: "aws", ref: r, plan: func() []string {
								return []string{"GET the Price List region index, then " + r + "'s current offer file"}
							}})
						}
						continue
					}
					js, err := a.awsJobs(ctx, splitFlags(regions))
					if err != nil {
						return err
					}
					jobs = append(jobs, js...)
				default:
					js, err := a.moreFetchJobs(ctx, p, dryRun)
					if err != nil {
						return err
					}
					jobs = append(jobs, js...)
				}
			}
			if dryRun {
				a.printPlan(jobs)
				return nil
			}
			var failed []string
			for _, j := range jobs {
				jctx, cancel := context.WithTimeout(ctx, timeout)
				res, err := j.run(jctx, a.progress(j.name+" "+j.ref))
				cancel()
				if a.progress(j.name) != nil {
					fmt.Fprintln(a.io.Err)
				}
				if err == nil {
					err = a.checker(ds, j.ref).Check(res)
				}
				if err == nil {
					err = a.store(ctx, res, "", j.ref, allowShrink)
				}
				if err != nil {
					if errors.Is(ctx.Err(), context.Canceled) {
						return fmt.Errorf("update cancelled during %s %s: it stored nothing; earlier sources were kept", j.name, j.ref)
					}
					le := importError(j.name, j.ref, err)
					if le.key == "import.err.parse" {
						le.key = "update.err.source"
					}
					failed = append(failed, j.name+" "+j.ref)
					fmt.Fprintf(a.io.Err, "gpuscout: %s\n", a.printer.T(le.key, le.args...))
					continue
				}
			}
			if len(failed) < len(jobs) {
				a.warmOverlayCache(ctx, ds.FX)
			}
			if len(failed) > 0 {
				return &localError{key: "update.err.failed", args: []any{len(failed), len(jobs), strings.Join(failed, "; ")}, exit: ExitFailure}
			}
			return a.watchAfterUpdate(ctx, watchFile)
		},
	}
	cmd.Flags().StringSliceVar(&providers, "provider", nil, "providers to update: aws, azure, gcp, alibaba, tencent, huawei, baidu, vast, lambda, runpod, digitalocean, oci, hyperstack, verda, skypilot (default aws, azure, skypilot)")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print what would be fetched (sources, endpoints, request counts) without sending a request or storing anything; credentials are not needed")
	cmd.Flags().StringSliceVar(&regions, "region", []string{"us-east-1"}, "AWS regions whose offer files to fetch (each is hundreds of MB)")
	cmd.Flags().DurationVar(&timeout, "timeout", 15*time.Minute, "time limit per source")
	cmd.Flags().BoolVar(&allowShrink, "allow-shrink", false, "store a source even when it holds fewer than half the offers of its previous snapshot")
	cmd.Flags().StringVar(&watchFile, "watch", "", "after a successful update, check the price alert rules of this file (see gpuscout watch)")
	return cmd
}

// printPlan prints, for --dry-run, each job and the requests it would make.
func (a *app) printPlan(jobs []fetchJob) {
	fmt.Fprintln(a.io.Out, a.printer.T("update.dry_run", len(jobs)))
	for _, j := range jobs {
		fmt.Fprintln(a.io.Out, a.printer.T("update.dry_run_job", j.name, j.ref))
		if j.plan == nil {
			fmt.Fprintln(a.io.Out, a.printer.T("update.dry_run_nodetail"))
			continue
		}
		for _, l := range j.plan() {
			fmt.Fprintln(a.io.Out, "  "+l)
		}
	}
}
