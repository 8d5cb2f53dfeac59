// Package watch checks offer prices against alert rules: "tell me when this
// offer costs less than X (or more than Y)". A check is stateless: a rule
// fires whenever the current price is on its alert side of the threshold,
// so a scheduler (cron) that runs the check repeats the alert for as long as
// the condition holds. Fired rules may be posted to a webhook as JSON.
package watch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/shopspring/decimal"
	"gopkg.in/yaml.v3"
)

// Schema names the webhook payload's format.
const Schema = "gpuscout/watch@v1"

// Rule is one alert rule. Prices are effective prices (hourly + upfront
// over the term + monthly / 730 h) per Per, in Currency.
type Rule struct {
	Offer string
	// Below fires the rule when the price is strictly less; Above when it
	// is strictly more. At least one is set; with both, the rule fires
	// outside the band [Below, Above].
	Below, Above *decimal.Decimal
	// Currency of the thresholds; "" means the offer's own currency.
	Currency string
	// Per is the price unit: instance-hour (default), gpu-hour or month.
	Per catalog.PriceUnit
	// Webhook receives a POST for each alert; "" for none.
	Webhook string
	// Line is the rule's line in its file (0 for a rule from flags).
	Line int
}

// Validate checks a rule's fields (not that its offer exists).
func (r *Rule) Validate() error {
	if strings.TrimSpace(r.Offer) == "" {
		return errors.New("offer: an offer ID is required (provider/instance_type/region/billing)")
	}
	if r.Below == nil && r.Above == nil {
		return errors.New("set below, above or both: the price that triggers the alert")
	}
	for name, v := range map[string]*decimal.Decimal{"below": r.Below, "above": r.Above} {
		if v != nil && v.IsNegative() {
			return fmt.Errorf("%s: %s is negative", name, v)
		}
	}
	if r.Below != nil && r.Above != nil && r.Below.GreaterThan(*r.Above) {
		return fmt.Errorf("below (%s) is more than above (%s): the rule would always fire", r.Below, r.Above)
	}
	if r.Per == "" {
		r.Per = catalog.PerInstanceHour
	}
	if _, err := catalog.ParsePriceUnit(string(r.Per)); err != nil {
		return fmt.Errorf("per: %v", err)
	}
	r.Currency = strings.ToUpper(strings.TrimSpace(r.Currency))
	if r.Webhook != "" {
		u, err := url.Parse(r.Webhook)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("webhook: %q is not an http or https URL", r.Webhook)
		}
	}
	return nil
}

// FileError is a problem in a rules file, with its line.
type FileError struct {
	Line int
	Err  error
}

func (e *FileError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %v", e.Line, e.Err)
	}
	return e.Err.Error()
}

func (e *FileError) Unwrap() error { return e.Err }

// price is a threshold in a rules file, parsed exactly.
type price struct{ d *decimal.Decimal }

func (p *price) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return &FileError{Line: n.Line, Err: errors.New("a price must be a number")}
	}
	d, err := decimal.NewFromString(strings.TrimSpace(n.Value))
	if err != nil {
		return &FileError{Line: n.Line, Err: fmt.Errorf("%q is not a number", n.Value)}
	}
	p.d = &d
	return nil
}

type fileRule struct {
	Offer    string `yaml:"offer"`
	Below    price  `yaml:"below"`
	Above    price  `yaml:"above"`
	Currency string `yaml:"currency"`
	Per      string `yaml:"per"`
	Webhook  string `yaml:"webhook"`
}

type file struct {
	Currency string      `yaml:"currency"`
	Webhook  string      `yaml:"webhook"`
	Rules    []yaml.Node `yaml:"rules"`
}

// ReadRules reads a rules file (YAML):
//
//	currency: USD                # default for rules without one (optional)
//	webhook: https://example.com # default for rules without one (optional)
//	rules:
//	  - offer: aws/p5.48xlarge/us-east-1/on-demand
//	    below: 50
//	  - offer: tencent/GT4.4XLARGE96/ap-guangzhou/subscription-1m
//	    above: 15000
//	    per: month
//	    currency: CNY
//
// A bare list of rules is accepted too. Unknown fields are errors. Every
// rule is validated; errors carry the line (*FileError).
func ReadRules(r io.Reader) ([]Rule, error) {
	var root yaml.Node
	if err := yaml.NewDecoder(r).Decode(&root); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &FileError{Err: errors.New("the file has no rules")}
		}
		return nil, &FileError{Err: err}
	}
	doc := &root
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		doc = doc.Content[0]
	}
	var f file
	switch doc.Kind {
	case yaml.SequenceNode:
		for _, n := range doc.Content {
			f.Rules = append(f.Rules, *n)
		}
	case yaml.MappingNode:
		if err := decodeStrict(doc, &f); err != nil {
			return nil, err
		}
	default:
		return nil, &FileError{Line: doc.Line, Err: errors.New("want a mapping with rules: or a list of rules")}
	}
	if len(f.Rules) == 0 {
		return nil, &FileError{Line: doc.Line, Err: errors.New("the file has no rules")}
	}
	var rules []Rule
	for i := range f.Rules {
		n := &f.Rules[i]
		var fr fileRule
		if err := decodeStrict(n, &fr); err != nil {
			return nil, err
		}
		rule := Rule{Offer: strings.TrimSpace(fr.Offer), Below: fr.Below.d, Above: fr.Above.d, Currency: fr.Currency,
			Per: catalog.PriceUnit(fr.Per), Webhook: fr.Webhook, Line: n.Line}
		if rule.Currency == "" {
			rule.Currency = f.Currency
		}
		if rule.Webhook == "" {
			rule.Webhook = f.Webhook
		}
		if err := rule.Validate(); err != nil {
			return nil, &FileError{Line: n.Line, Err: fmt.Errorf("rules[%d]: %w", i, err)}
		}
		rules = append(rules, rule)
	}
	return rules, nil
}

// decodeStrict decodes n into v, rejecting unknown fields (yaml.v3 checks
// KnownFields only in a Decoder, which would lose the lines of a sub-node).
func decodeStrict(n *yaml.Node, v any) error {
	if n.Kind != yaml.MappingNode {
		return &FileError{Line: n.Line, Err: errors.New("want a mapping of fields")}
	}
	var known map[string]bool
	switch v.(type) {
	case *file:
		known = map[string]bool{"currency": true, "webhook": true, "rules": true}
	default:
		known = map[string]bool{"offer": true, "below": true, "above": true, "currency": true, "per": true, "webhook": true}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; !known[k.Value] {
			return &FileError{Line: k.Line, Err: fmt.Errorf("field %s not found (fields: %s)", k.Value, fieldList(known))}
		}
	}
	if err := n.Decode(v); err != nil {
		var fe *FileError
		if errors.As(err, &fe) {
			return fe
		}
		var te *yaml.TypeError
		if errors.As(err, &te) {
			return &FileError{Err: errors.New(strings.Join(te.Errors, "; "))}
		}
		return &FileError{Line: n.Line, Err: err}
	}
	return nil
}

func fieldList(m map[string]bool) string {
	order := []string{"offer", "below", "above", "currency", "per", "webhook", "rules"}
	var out []string
	for _, k := range order {
		if m[k] {
			out = append(out, k)
		}
	}
	return strings.Join(out, ", ")
}

// Prices looks offers up by ID; *catalog.Catalog implements it.
type Prices interface {
	Offer(id string) (*catalog.Offer, bool)
}

// Converter converts between currencies; *fx.Table implements it.
type Converter interface {
	Convert(amount decimal.Decimal, from, to string) (decimal.Decimal, error)
}

// Result is a rule checked against the current price.
type Result struct {
	Rule  Rule
	Offer *catalog.Offer
	// Price is the offer's effective price per Rule.Per in Currency.
	Price    decimal.Decimal
	Currency string
	// Fired reports whether the price is on the alert side; Condition is
	// then "below" or "above" and Threshold the price it crossed.
	Fired     bool
	Condition string
	Threshold decimal.Decimal
}

// UnknownOfferError says that a rule names an offer the prices lack.
type UnknownOfferError struct {
	Rule Rule
}

func (e *UnknownOfferError) Error() string { return fmt.Sprintf("unknown offer %q", e.Rule.Offer) }

// Check compares each rule with the current price of its offer.
func Check(rules []Rule, p Prices, fx Converter) ([]Result, error) {
	var out []Result
	for _, r := range rules {
		if err := r.Validate(); err != nil {
			return nil, err
		}
		off, ok := p.Offer(r.Offer)
		if !ok {
			return nil, &UnknownOfferError{Rule: r}
		}
		res, err := Evaluate(off, r, fx)
		if err != nil {
			return nil, err
		}
		out = append(out, res)
	}
	return out, nil
}

// Evaluate computes the offer's price in the rule's currency and unit and
// whether the rule fires.
func Evaluate(off *catalog.Offer, r Rule, fx Converter) (Result, error) {
	res := Result{Rule: r, Offer: off, Currency: off.Price.Currency}
	v := off.EffectiveHourly()
	switch r.Per {
	case catalog.PerGPUHour:
		if off.Instance == nil || !off.Instance.GPUCount.IsPositive() {
			return res, fmt.Errorf("offer %s: no GPU count for a per-GPU-hour price", off.ID())
		}
		v = v.Div(off.Instance.GPUCount)
	case catalog.PerMonth:
		v = v.Mul(decimal.NewFromInt(catalog.HoursPerMonth))
	}
	if r.Currency != "" && r.Currency != res.Currency {
		if fx == nil {
			return res, fmt.Errorf("offer %s: no exchange rates to convert %s to %s", off.ID(), res.Currency, r.Currency)
		}
		c, err := fx.Convert(v, res.Currency, r.Currency)
		if err != nil {
			return res, fmt.Errorf("offer %s: %w", off.ID(), err)
		}
		v, res.Currency = c, r.Currency
	}
	res.Price = v
	switch {
	case r.Below != nil && v.LessThan(*r.Below):
		res.Fired, res.Condition, res.Threshold = true, "below", *r.Below
	case r.Above != nil && v.GreaterThan(*r.Above):
		res.Fired, res.Condition, res.Threshold = true, "above", *r.Above
	}
	return res, nil
}

// Message is a one-line description of a fired rule.
func (r Result) Message() string {
	src := string(r.Offer.Source.Kind)
	if d := r.Offer.Source.AsOfString(); d != "" {
		src += ", as of " + d
	} else if r.Offer.Source.Undated() {
		src += ", undated (read " + r.Offer.Source.ReadOnString() + ")"
	}
	return fmt.Sprintf("%s costs %s %s per %s, %s %s %s (%s)", r.Offer.ID(), r.Price.Round(4), r.Currency, r.Rule.Per,
		r.Condition, r.Threshold, r.Currency, src)
}

// Alert is the JSON a webhook receives for a fired rule.
type Alert struct {
	Schema       string      `json:"schema"`
	Offer        string      `json:"offer"`
	Provider     string      `json:"provider"`
	InstanceType string      `json:"instance_type"`
	Region       string      `json:"region"`
	Billing      string      `json:"billing"`
	Condition    string      `json:"condition"`
	Threshold    json.Number `json:"threshold"`
	Price        json.Number `json:"price"`
	Currency     string      `json:"currency"`
	Per          string      `json:"per"`
	Source       AlertSource `json:"source"`
	CheckedAt    string      `json:"checked_at"`
	Message      string      `json:"message"`
}

// AlertSource is where the price comes from.
type AlertSource struct {
	Kind string `json:"kind"`
	Ref  string `json:"ref,omitempty"`
	AsOf string `json:"as_of,omitempty"`
	// ReadOn is the day an undated source (one without as_of) was read.
	ReadOn string `json:"read_on,omitempty"`
}

// Alert builds the webhook payload of a fired rule checked at now.
func (r Result) Alert(now time.Time) Alert {
	o := r.Offer
	return Alert{Schema: Schema, Offer: o.ID(), Provider: o.Provider, InstanceType: o.InstanceName, Region: o.RegionCode,
		Billing: string(o.Billing), Condition: r.Condition, Threshold: json.Number(r.Threshold.String()),
		Price: json.Number(r.Price.Round(6).String()), Currency: r.Currency, Per: string(r.Rule.Per),
		Source:    AlertSource{Kind: string(o.Source.Kind), Ref: o.Source.Ref, AsOf: o.Source.AsOfString(), ReadOn: o.Source.ReadOnString()},
		CheckedAt: now.UTC().Format(time.RFC3339), Message: r.Message()}
}

// Post sends a to a webhook as a JSON POST; a status other than 2xx is an
// error. The client's timeout (and ctx) bound the request.
func Post(ctx context.Context, c *http.Client, webhook string, a Alert) error {
	body, err := json.Marshal(a)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, webhook, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("webhook %s: %w", webhook, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "gpuscout-watch")
	resp, err := c.Do(req)
	if err != nil {
		return fmt.Errorf("webhook %s: %w", webhook, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("webhook %s: HTTP %s", webhook, resp.Status)
	}
	return nil
}
