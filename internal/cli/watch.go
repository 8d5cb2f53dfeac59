package cli

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/output"
	"github.com/gpuscout/gpuscout/internal/pricing/planfile"
	"github.com/gpuscout/gpuscout/internal/watch"
	"github.com/shopspring/decimal"
	"github.com/spf13/cobra"
)

// watchOptions are the flags of `gpuscout watch`.
type watchOptions struct {
	file, offer, below, above, per, webhook string
	failOnAlert, quiet                      bool
	timeout                                 time.Duration
}

// defaultWebhookTimeout bounds each webhook POST.
const defaultWebhookTimeout = 10 * time.Second

func (a *app) watchCmd() *cobra.Command {
	o := &watchOptions{}
	cmd := &cobra.Command{
		Use:   "watch",
		Short: "Check offer prices against alert rules once (for cron): below or above a price, with an optional webhook",
		Long: `Check the current price of offers against alert rules and report each rule that fires: the
price is below (strictly less than) or above (strictly more than) its threshold. The current price
is the embedded catalog overlaid with --catalog and with the newest imported snapshot of each
source, as in every other command; refresh it with gpuscout catalog update (which runs this check
itself with --watch rules.yaml).

Rules come from --offer with --below and/or --above, or from a rules file (-f; default
~/.config/gpuscout/watch.yaml when it exists). A check runs once and exits: 0, or 1 with
--fail-on-alert when a rule fired. Each fired rule with a webhook gets a JSON POST
({"schema":"gpuscout/watch@v1", ...}). A check keeps no state: a rule fires on every run while
its condition holds. See docs/export.md for the rules format.`,
		Example: `  # Alert when the 8×H100 on-demand price drops below 50 USD an hour
  gpuscout watch --offer aws/p5.48xlarge/us-east-1/on-demand --below 50

  # Rules from a file, posting alerts to a webhook, failing for cron when one fires
  gpuscout watch -f rules.yaml --webhook https://hooks.example.com/gpu --fail-on-alert

  # A monthly subscription price in CNY
  gpuscout watch --offer tencent/GT4.4XLARGE96/ap-guangzhou/subscription-1m --below 12000 --per month --currency CNY`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return a.runWatch(cmd.Context(), o) },
	}
	f := cmd.Flags()
	f.StringVarP(&o.file, "file", "f", "", "rules file (YAML): rules with offer, below and/or above, currency, per, webhook")
	f.StringVar(&o.offer, "offer", "", "offer ID to watch (with --below and/or --above)")
	f.StringVar(&o.below, "below", "", "alert when the price is below this (in --currency, default the offer's currency, per --per)")
	f.StringVar(&o.above, "above", "", "alert when the price is above this")
	f.StringVar(&o.per, "per", "instance-hour", "price unit of --below/--above: instance-hour, gpu-hour, month")
	f.StringVar(&o.webhook, "webhook", "", "URL to POST each alert to as JSON (for rules without their own webhook)")
	f.DurationVar(&o.timeout, "timeout", defaultWebhookTimeout, "time limit of each webhook POST")
	f.BoolVar(&o.failOnAlert, "fail-on-alert", false, "exit 1 when a rule fires (for cron and CI)")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "print only alerts, no summary")
	return cmd
}

// watchRules collects the rules of a run: the --offer rule, the file's, or
// the default file's.
func (a *app) watchRules(o *watchOptions) ([]watch.Rule, string, error) {
	var rules []watch.Rule
	file := o.file
	if o.offer != "" {
		r := watch.Rule{Offer: o.offer, Per: catalog.PriceUnit(o.per), Webhook: o.webhook}
		for _, t := range []struct {
			name, val string
			dst       **decimal.Decimal
		}{{"below", o.below, &r.Below}, {"above", o.above, &r.Above}} {
			if t.val == "" {
				continue
			}
			d, err := decimal.NewFromString(strings.TrimSpace(t.val))
			if err != nil {
				return nil, "", usagef("", "--%s: %q is not a number", t.name, t.val)
			}
			*t.dst = &d
		}
		if err := r.Validate(); err != nil {
			return nil, "", usagef("gpuscout watch --offer ID --below PRICE (or --above PRICE).", "%v", err)
		}
		rules = append(rules, r)
	} else if o.below != "" || o.above != "" {
		return nil, "", usagef("gpuscout watch --offer ID --below PRICE.", "--below and --above need --offer")
	}
	if file == "" && o.offer == "" {
		if def := a.defaultWatchFile(); def != "" {
			if _, err := os.Stat(def); err == nil {
				file = def
			}
		}
		if file == "" {
			return nil, "", usagef("gpuscout watch --offer ID --below PRICE, or -f rules.yaml (default ~/.config/gpuscout/watch.yaml); see docs/export.md.",
				"nothing to watch")
		}
	}
	if file != "" {
		fr, err := readWatchFile(file)
		if err != nil {
			return nil, "", err
		}
		for i := range fr {
			if fr[i].Webhook == "" {
				fr[i].Webhook = o.webhook
			}
		}
		rules = append(rules, fr...)
	}
	return rules, file, nil
}

func readWatchFile(path string) ([]watch.Rule, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, usagef("", "rules file: %v", err)
	}
	defer fh.Close()
	rules, err := watch.ReadRules(fh)
	if err != nil {
		return nil, &dataError{err: fmt.Errorf("%s: %w", path, err)}
	}
	return rules, nil
}

// defaultWatchFile is $XDG_CONFIG_HOME/gpuscout/watch.yaml, or
// ~/.config/gpuscout/watch.yaml.
func (a *app) defaultWatchFile() string {
	if d := a.env.Getenv("XDG_CONFIG_HOME"); d != "" {
		return filepath.Join(d, "gpuscout", "watch.yaml")
	}
	if h := a.env.Getenv("HOME"); h != "" {
		return filepath.Join(h, ".config", "gpuscout", "watch.yaml")
	}
	return ""
}

func (a *app) runWatch(ctx context.Context, o *watchOptions) error {
	rules, file, err := a.watchRules(o)
	if err != nil {
		return err
	}
	fired, err := a.checkWatch(ctx, rules, file, o.timeout, o.quiet)
	if err != nil {
		return err
	}
	if o.failOnAlert && fired > 0 {
		return fmt.Errorf("%d rule(s) fired (--fail-on-alert)", fired)
	}
	return nil
}

// checkWatch checks rules against the current data, prints the alerts,
// posts them to their webhooks and returns how many rules fired. A failed
// webhook is an error once every alert is out.
func (a *app) checkWatch(ctx context.Context, rules []watch.Rule, file string, timeout time.Duration, quiet bool) (int, error) {
	ds, err := a.data()
	if err != nil {
		return 0, err
	}
	for i, r := range rules {
		if r.Currency == "" && a.currency != "" {
			rules[i].Currency = a.cur
		}
		if _, ok := ds.Catalog.Offer(r.Offer); !ok {
			_, err := planfile.ResolveOffer(ds.Catalog, r.Offer)
			if file != "" && r.Line > 0 {
				return 0, &dataError{err: fmt.Errorf("%s: line %d: %w", file, r.Line, err)}
			}
			return 0, err
		}
	}
	results, err := watch.Check(rules, ds.Catalog, ds.FX)
	if err != nil {
		if file != "" {
			return 0, &dataError{err: fmt.Errorf("%s: %w", file, err)}
		}
		return 0, usagef("", "%v", err)
	}
	now := a.env.Now()
	var alerts []watch.Alert
	var firedResults []watch.Result
	for _, r := range results {
		if r.Fired {
			firedResults = append(firedResults, r)
			alerts = append(alerts, r.Alert(now))
		}
	}
	if a.out == output.JSON {
		if alerts == nil {
			alerts = []watch.Alert{}
		}
		if err := output.WriteJSON(a.io.Out, map[string]any{"schema": "gpuscout/watch-check@v1", "checked": len(results),
			"fired": len(alerts), "alerts": alerts, "checked_at": now.UTC().Format(time.RFC3339)}); err != nil {
			return 0, err
		}
	} else {
		for _, r := range firedResults {
			fmt.Fprintln(a.io.Out, "ALERT "+r.Message())
		}
		if !quiet {
			fmt.Fprintf(a.io.Out, "Checked %d rule(s): %d alert(s).\n", len(results), len(alerts))
		}
	}
	if timeout <= 0 {
		timeout = defaultWebhookTimeout
	}
	client := &http.Client{Timeout: timeout}
	var failed []string
	for i, r := range firedResults {
		if r.Rule.Webhook == "" {
			continue
		}
		if err := watch.Post(ctx, client, r.Rule.Webhook, alerts[i]); err != nil {
			fmt.Fprintf(a.io.Err, "gpuscout: %v\n", err)
			failed = append(failed, r.Rule.Webhook)
		}
	}
	if len(failed) > 0 {
		return len(alerts), fmt.Errorf("%d webhook POST(s) failed", len(failed))
	}
	return len(alerts), nil
}

// watchAfterUpdate runs the check of `catalog update --watch FILE` against
// the freshly stored prices; nothing when file is "".
func (a *app) watchAfterUpdate(ctx context.Context, file string) error {
	if file == "" {
		return nil
	}
	rules, err := readWatchFile(file)
	if err != nil {
		return err
	}
	a.ds = nil // reload: the update stored new snapshots
	_, err = a.checkWatch(ctx, rules, file, defaultWebhookTimeout, false)
	return err
}
