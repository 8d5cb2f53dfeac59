package server

import (
	"context"
	"errors"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/document"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/pricing"
	"github.com/gpuscout/gpuscout/internal/pricing/planfile"
)

// The cost, estimate, spot and price-history endpoints answer the CLI's
// questions through the same functions (document.AnswerCost,
// AnswerEstimate, AnswerSpot, BuildPriceHistory), so they return exactly
// the documents gpuscout cost, estimate, spot and catalog history print
// with -o json. Query parameters are the CLI's flags in snake_case.

// HistorySource answers price-history questions from a database of
// imported snapshots: an offer's price in the curated catalog and in every
// snapshot, oldest first; no points when it has none.
type HistorySource interface {
	PriceHistory(ctx context.Context, offerID string) (document.PriceHistory, error)
}

// HistoryFunc adapts a function to a HistorySource.
type HistoryFunc func(ctx context.Context, offerID string) (document.PriceHistory, error)

// PriceHistory calls f.
func (f HistoryFunc) PriceHistory(ctx context.Context, offerID string) (document.PriceHistory, error) {
	return f(ctx, offerID)
}

// Bounds on the Monte Carlo work of one spot request: the CLI takes up to
// ten million trials; a server answers many people.
const (
	maxSpotTrials = 200_000
	// maxSpotSteps bounds trials × (checkpoints + interruptions) of a run,
	// about a second of simulation.
	maxSpotSteps = 5e7
)

// jobError turns the shared answers' input errors into 400s naming the field.
// notFoundMsg is a *catalog.NotFoundError (an unknown offer, GPU ...) as
// a message, with its suggestions, for a page in any language.
func notFoundMsg(err error) (i18n.Msg, bool) {
	var nf *catalog.NotFoundError
	if !errors.As(err, &nf) {
		return i18n.Msg{}, false
	}
	what := i18n.M("err.what." + strings.ReplaceAll(nf.What, " ", "_"))
	if i18n.NewPrinter(i18n.EN).M(what) == what.Key {
		what = i18n.Text(nf.What) // a kind of record with no message: as the catalog names it
	}
	m := i18n.M("err.nf", what, nf.Name)
	if len(nf.Suggestions) > 0 {
		s := make(i18n.Seq, len(nf.Suggestions))
		for i, x := range nf.Suggestions {
			s[i] = x
		}
		m = i18n.M("err.nf.suggest", m, s)
	}
	return m, true
}

func jobError(err error) error {
	var ie *document.InputError
	var fe *pricing.FieldError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ie):
		ae := badRequest(ie.Field, ie.Hint, "%v", ie.Err)
		ae.Msg, ae.HintMsg = ie.Msg, ie.HintMsg
		if m, ok := notFoundMsg(ie.Err); ok && ae.Msg.Key == "" {
			ae.Msg = m
		}
		return ae
	case errors.As(err, &fe):
		return badRequest(fe.Field, "", "%s", fe.Msg)
	}
	return err
}

// paramFloat reads a finite number (negative numbers pass, for the answer
// to refuse with its own message).
func paramFloat(p params, name string, def float64) (float64, error) {
	s := p.str(name)
	if s == "" {
		return def, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		e := badRequest(name, "", "%q is not a number", s)
		e.Msg = i18n.M("err.param.num", s)
		return 0, e
	}
	return v, nil
}

// parseCost reads offer, currency and the usage profile: months (default
// 1), instances, hours_per_day, days_per_month, utilization, start,
// storage_gb, object_storage_gb, egress_gb, inter_region_gb,
// load_balancers and support — gpuscout cost's flags.
func (d *Data) parseCost(v url.Values) (document.CostRequest, error) {
	p := params{v}
	var req document.CostRequest
	var err error
	if req.Currency, err = d.currency(p); err != nil {
		return req, err
	}
	id := p.str("offer")
	if id == "" {
		return req, badRequest("offer", "pass ?offer=provider/instance_type/region/billing (see /api/v1/offers).", "an offer ID is required")
	}
	if req.Offer, err = document.ResolveOffer(d.Catalog, id); err != nil {
		return req, jobError(err)
	}
	u := pricing.DefaultUsage()
	if u.Months, err = p.int("months", 1, 1, 240); err != nil {
		return req, err
	}
	if u.Instances, err = p.int("instances", 1, 1, 100000); err != nil {
		return req, err
	}
	if u.LoadBalancers, err = p.int("load_balancers", 0, 0, 10000); err != nil {
		return req, err
	}
	for _, f := range []struct {
		name string
		dst  *decimal.Decimal
	}{{"hours_per_day", &u.HoursPerDay}, {"days_per_month", &u.DaysPerMonth}, {"utilization", &u.Utilization},
		{"storage_gb", &u.StorageGB}, {"object_storage_gb", &u.ObjectStorageGB}, {"egress_gb", &u.EgressGB}, {"inter_region_gb", &u.InterRegionGB}} {
		if p.str(f.name) == "" {
			continue
		}
		if *f.dst, err = p.dec(f.name); err != nil {
			return req, err
		}
	}
	if s := p.str("start"); s != "" {
		if u.Start, err = planfile.ParseMonth(s); err != nil {
			return req, badRequest("start", "", "%v", err)
		}
	}
	if s := p.str("support"); s != "" {
		if err := planfile.SetSupport(&u, s); err != nil {
			return req, jobError(err)
		}
	}
	req.Usage = u
	return req, nil
}

func (s *Server) apiCost(r *http.Request, d *Data) (any, error) {
	req, err := d.parseCost(r.URL.Query())
	if err != nil {
		return nil, err
	}
	req.Lang = requestLang(r) // notes in the requested language, as the advisor's reasons
	doc, err := document.AnswerCost(d.Pricing, d.FX, req)
	return doc, jobError(err)
}

// parseEstimate reads gpuscout estimate's flags: benchmark or workload,
// gpu or offer, count, nodes, instances, precision, samples, params,
// tokens, images, epochs, gflops_per_image, flops, the LLM serving request
// (input_tokens, output_tokens, active_params, max_batch), the model's
// layout (layers, kv_heads, head_dim, hidden_size, experts,
// experts_per_token), the fabric of a
// GPU count without an offer (fabric, fabric_gbps) and currency.
func (d *Data) parseEstimate(v url.Values) (document.EstimateRequest, error) {
	p := params{v}
	req := document.EstimateRequest{Benchmark: p.str("benchmark"), Workload: p.str("workload"), GPU: p.str("gpu"), Offer: p.str("offer"),
		Precision: p.str("precision")}
	var err error
	if req.Currency, err = d.currency(p); err != nil {
		return req, err
	}
	for _, f := range []struct {
		name          string
		dst           *int
		def, min, max int
	}{{"count", &req.Count, 1, 1, 1_000_000}, {"nodes", &req.Nodes, 0, 0, 100_000}, {"instances", &req.Instances, 1, 1, 100_000}} {
		if *f.dst, err = p.int(f.name, f.def, f.min, f.max); err != nil {
			return req, err
		}
	}
	for _, f := range []struct {
		name string
		dst  *float64
	}{{"samples", &req.Samples}, {"params", &req.Params}, {"tokens", &req.Tokens}, {"images", &req.Images}, {"epochs", &req.Epochs},
		{"gflops_per_image", &req.GFLOPsPerImage}, {"flops", &req.FLOPs},
		{"input_tokens", &req.InputTokens}, {"output_tokens", &req.OutputTokens}, {"active_params", &req.ActiveParams}} {
		if *f.dst, err = paramFloat(p, f.name, 0); err != nil {
			return req, err
		}
	}
	if req.MaxBatch, err = p.int("max_batch", 0, 0, 1_000_000); err != nil {
		return req, err
	}
	for _, f := range []struct {
		name string
		dst  *int
	}{{"layers", &req.Layers}, {"kv_heads", &req.KVHeads}, {"head_dim", &req.HeadDim}, {"hidden_size", &req.Hidden},
		{"experts", &req.Experts}, {"experts_per_token", &req.ExpertsPerToken}} {
		if *f.dst, err = p.int(f.name, 0, 0, 1<<20); err != nil {
			return req, err
		}
	}
	req.Fabric = p.str("fabric")
	if req.FabricGbps, err = paramFloat(p, "fabric_gbps", 0); err != nil {
		return req, err
	}
	return req, nil
}

func (s *Server) apiEstimate(r *http.Request, d *Data) (any, error) {
	req, err := d.parseEstimate(r.URL.Query())
	if err != nil {
		return nil, err
	}
	req.Lang = requestLang(r) // the assumptions' language, as the advisor's reasons
	doc, _, err := document.AnswerEstimate(d.Catalog, d.Perf, d.Pricing, d.FX, req)
	return doc, jobError(err)
}

// parseSpot reads gpuscout spot's flags: offer, work_hours,
// checkpoint_minutes (default 5), restart_minutes (15), deadline_hours,
// mtbi, trials (default 100000, at most 200000 here), seed (1), weibull (1)
// and currency.
func (d *Data) parseSpot(v url.Values) (document.SpotRequest, error) {
	p := params{v}
	req := document.SpotRequest{Offer: p.str("offer"), MaxSteps: maxSpotSteps}
	var err error
	if req.Currency, err = d.currency(p); err != nil {
		return req, err
	}
	for _, f := range []struct {
		name string
		dst  *float64
		def  float64
	}{{"work_hours", &req.WorkHours, 0}, {"checkpoint_minutes", &req.CheckpointMinutes, 5}, {"restart_minutes", &req.RestartMinutes, 15},
		{"deadline_hours", &req.DeadlineHours, 0}, {"mtbi", &req.MTBI, 0}, {"weibull", &req.Weibull, 1}} {
		if *f.dst, err = paramFloat(p, f.name, f.def); err != nil {
			return req, err
		}
	}
	if req.Trials, err = p.int("trials", 100000, 1, maxSpotTrials); err != nil {
		return req, err
	}
	req.Seed = 1
	if s := p.str("seed"); s != "" {
		if req.Seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			return req, badRequest("seed", "", "%q is not a whole number from 0 to 18446744073709551615", s)
		}
	}
	return req, nil
}

// spot answers a spot question with the server's bounds.
func (d *Data) spot(req document.SpotRequest) (*document.SpotAnswer, error) {
	ans, err := document.AnswerSpot(d.Catalog, d.FX, req)
	return ans, jobError(err)
}

func (s *Server) apiSpot(r *http.Request, d *Data) (any, error) {
	req, err := d.parseSpot(r.URL.Query())
	if err != nil {
		return nil, err
	}
	ans, err := d.spot(req)
	if err != nil {
		return nil, err
	}
	return ans.Doc, nil
}

// noHistory is the answer of a server started without a database.
const noHistory = "no price history: this server has no database of imported snapshots"

// historyAPI answers ?offer=ID from src, as gpuscout catalog history does;
// a nil src (no database) is a 404.
func (s *Server) historyAPI(src HistorySource) func(*http.Request, *Data) (any, error) {
	return func(r *http.Request, _ *Data) (any, error) {
		id := params{r.URL.Query()}.str("offer")
		if id == "" {
			return nil, badRequest("offer", "pass ?offer=provider/instance_type/region/billing (see /api/v1/offers).", "an offer ID is required")
		}
		parts := strings.Split(id, "/")
		if len(parts) == 5 && parts[4] == catalog.OSWindows {
			parts = parts[:4] // a Windows rate's history
		}
		if len(parts) != 4 || contains(parts, "") {
			return nil, badRequest("offer", "", "offer ID %q is not provider/instance_type/region/billing (with /windows for a Windows rate)", id)
		}
		if src == nil {
			return nil, notFound(noHistory)
		}
		doc, err := src.PriceHistory(r.Context(), id)
		if err != nil {
			return nil, jobError(err)
		}
		if len(doc.Points) == 0 {
			e := notFound("no price history for %s", id)
			e.Hint = "check the ID with /api/v1/offers."
			return nil, e
		}
		return doc, nil
	}
}

// PriceHistoryHandler serves GET /api/v1/history from src (nil: no
// database, every question a 404). The server mounts it with its own
// source; tests mount it with theirs.
func (s *Server) PriceHistoryHandler(src HistorySource) http.Handler {
	return s.api(s.historyAPI(src))
}
