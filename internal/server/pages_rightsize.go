package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuscout/gpuscout/internal/document"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/pricing/planfile"
	"github.com/gpuscout/gpuscout/internal/rightsize"
)

// rsGPURow is a line of the per-GPU usage table.
type rsGPURow struct {
	GPU, Samples, Mean, P50, P95, Idle, MemPeak, MemP95, MemTotal string
	Active, All                                                   bool
}

// rsRec is a recommendation in the page's words.
type rsRec struct {
	N                             int
	Kind, Action, Monthly, Saving string
	Share, Reason, Figures        string
	Caveats                       []string
}

type rightsizePage struct {
	// The form, as sent.
	Offer, Metrics, Format, Instances, Headroom string
	Formats                                     []option
	MaxMiB                                      string
	Doc                                         *document.Rightsize
	Read, Skipped, Busy, Peak, Coverage, Now    string
	BadLines                                    []document.RightsizeBadLine
	GPUs                                        []rsGPURow
	Recs                                        []rsRec
	BreakEven, Notes                            []string
}

// pageRightsize is gpuscout rightsize as a form: a metrics log (pasted or
// uploaded, nvidia-smi CSV or DCGM exporter text, gzip or not, at most the
// server's body limit) and the offer it was taken on, answered with the
// CLI's report (internal/rightsize and document.BuildRightsize).
func (s *Server) pageRightsize(w http.ResponseWriter, r *http.Request) {
	d := s.Data()
	v := s.view(r, d, "rightsize")
	p := v.P
	page := &rightsizePage{Format: "auto", Headroom: strconv.FormatFloat(rightsize.DefaultHeadroom, 'f', -1, 64),
		MaxMiB: strconv.FormatFloat(float64(s.cfg.MaxBody)/(1<<20), 'f', -1, 64), Offer: r.URL.Query().Get("offer")}
	v.Page = page
	render := func(status int) {
		for _, f := range []string{"auto", "nvidia-smi", "dcgm"} {
			page.Formats = append(page.Formats, option{Value: f, Label: p.T("web.rs.format." + f), Selected: f == page.Format})
		}
		s.render(w, r, status, "rightsize", v)
	}
	if r.Method != http.MethodPost {
		render(http.StatusOK)
		return
	}
	fail := func(status int, field, key string, detail error, args ...any) {
		v.Error = &apiError{Status: status, Code: "bad_request", Field: field, Message: p.T(key, args...), Local: true}
		var nd *rightsize.NoDataError
		nf, isNF := notFoundMsg(detail)
		switch {
		case isNF:
			v.Error.Detail, v.Error.DetailLocal = p.M(nf), true // ours: in the page's language
		case errors.As(detail, &nd):
			shown := *nd
			if shown.File == "pasted" {
				shown.File = p.T("web.rs.pasted")
			}
			v.Error.Detail, v.Error.DetailLocal = shown.Text(p), true // ours: in the page's language
		case detail != nil:
			v.Error.Detail = detail.Error()
		}
		render(status)
	}
	r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBody)
	if err := r.ParseMultipartForm(s.cfg.MaxBody); err != nil && !errors.Is(err, http.ErrNotMultipart) {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			fail(http.StatusRequestEntityTooLarge, "metrics", "web.rs.err.too_big", nil, page.MaxMiB)
			return
		}
		fail(http.StatusBadRequest, "metrics", "web.rs.err.form", err)
		return
	}
	if r.MultipartForm != nil {
		defer r.MultipartForm.RemoveAll()
	}
	page.Offer = strings.TrimSpace(r.FormValue("offer"))
	page.Metrics = r.FormValue("metrics")
	page.Format = r.FormValue("format")
	page.Instances = strings.TrimSpace(r.FormValue("instances"))
	if h := strings.TrimSpace(r.FormValue("headroom")); h != "" {
		page.Headroom = h
	}
	format, err := rightsize.ParseFormat(page.Format)
	if err != nil {
		page.Format = "auto"
		fail(http.StatusBadRequest, "format", "web.rs.err.format", nil)
		return
	}
	instances := 0
	if page.Instances != "" {
		if instances, err = strconv.Atoi(page.Instances); err != nil || instances < 0 || instances > 100_000 {
			fail(http.StatusBadRequest, "instances", "web.rs.err.instances", nil)
			return
		}
	}
	headroom, err := strconv.ParseFloat(page.Headroom, 64)
	if err != nil || headroom < 1 || headroom > 4 {
		fail(http.StatusBadRequest, "headroom", "web.rs.err.headroom", nil)
		return
	}
	if page.Offer == "" {
		fail(http.StatusBadRequest, "offer", "web.rs.err.no_offer", nil)
		return
	}
	off, err := planfile.ResolveOffer(d.Catalog, page.Offer)
	if err != nil {
		fail(http.StatusBadRequest, "offer", "web.rs.err.offer", err, page.Offer)
		return
	}
	if off.Instance == nil || off.Instance.GPU == nil || !off.Instance.GPUCount.IsPositive() {
		fail(http.StatusBadRequest, "offer", "web.rs.err.no_gpu", nil, off.ID())
		return
	}
	in, name, closer, err := metricsInput(r, page.Metrics)
	if err != nil {
		fail(http.StatusBadRequest, "metrics", "web.rs.err.form", err)
		return
	}
	if in == nil {
		fail(http.StatusBadRequest, "metrics", "web.rs.err.no_metrics", nil)
		return
	}
	if closer != nil {
		defer closer.Close()
	}
	st, rep, err := rightsize.Analyze(in, name, rightsize.Options{Format: format}, 0)
	if err != nil {
		shown := name
		if name == "pasted" {
			shown = p.T("web.rs.pasted")
		}
		var nd *rightsize.NoDataError
		if errors.As(err, &nd) {
			fail(http.StatusBadRequest, "metrics", "web.rs.err.no_data", err, shown)
		} else {
			fail(http.StatusBadRequest, "metrics", "web.rs.err.unreadable", err, shown)
		}
		return
	}
	adv, err := (&rightsize.Advisor{Catalog: d.Catalog, Engine: d.Pricing, Currency: v.Currency, Headroom: headroom}).Advise(off, st, instances)
	if err != nil {
		fail(http.StatusBadRequest, "offer", "web.rs.err.advise", err, off.ID())
		return
	}
	doc := document.BuildRightsize(rep, st, adv, d.FX, p)
	page.fill(p, &doc, rep, st, adv)
	render(http.StatusOK)
}

// metricsInput is the uploaded file when there is one, else the pasted
// text; nil when neither was sent.
func metricsInput(r *http.Request, pasted string) (io.Reader, string, io.Closer, error) {
	f, h, err := r.FormFile("metrics_file")
	switch {
	case err == nil && h.Size > 0:
		return f, h.Filename, f, nil
	case err == nil:
		f.Close()
	case !errors.Is(err, http.ErrMissingFile) && !errors.Is(err, http.ErrNotMultipart) && !errors.Is(err, multipart.ErrMessageTooLarge):
		return nil, "", nil, err
	}
	if strings.TrimSpace(pasted) == "" {
		return nil, "", nil, nil
	}
	return strings.NewReader(pasted), "pasted", nil, nil
}

// fill renders the report as gpuscout rightsize prints it, in the page's
// language; the engine's sentences (actions, reasons, caveats, notes) stay
// as it writes them.
func (page *rightsizePage) fill(p *i18n.Printer, doc *document.Rightsize, rep *rightsize.ParseReport, st *rightsize.Stats, adv *rightsize.Advice) {
	page.Doc = doc
	file := rep.File
	if file == "pasted" {
		file = p.T("web.rs.pasted")
	}
	gz := ""
	if rep.Gzip {
		gz = " (gzip)"
	}
	page.Read = p.T("web.rs.read", file, p.M(rightsize.FormatMsg(rep.Format))+gz, rep.Samples, len(st.GPUs))
	if st.TimeKnown {
		page.Read += " " + p.T("web.rs.span", st.Start.Format("2006-01-02 15:04"), st.End.Format("2006-01-02 15:04"), st.SpanHours, st.IntervalSeconds)
	}
	page.Skipped = p.T("web.rs.skipped", rep.Skipped, rep.Lines)
	page.BadLines = doc.Metrics.BadLines
	page.Notes = append(page.Notes, doc.Metrics.Notes...)
	row := func(name string, u document.RightsizeUsage, active, all bool) rsGPURow {
		idle, _ := u.IdleShare.Float64()
		return rsGPURow{GPU: name, Samples: strconv.FormatInt(u.Samples, 10), Mean: pct1(u.MeanUtil), P50: pct1(u.P50Util), P95: pct1(u.P95Util),
			Idle: fmt.Sprintf("%.1f%%", idle*100), MemPeak: pct1(u.MemPeakGiB), MemP95: pct1(u.MemP95GiB), MemTotal: pct1(u.MemTotalGiB), Active: active, All: all}
	}
	for _, g := range doc.Stats.GPUs {
		page.GPUs = append(page.GPUs, row(g.GPU, g.RightsizeUsage, g.Active, false))
	}
	page.GPUs = append(page.GPUs, row(p.T("web.rs.all"), doc.Stats.Overall, false, true))
	if st.HasUtil {
		page.Busy = p.T("web.rs.busy", rightsize.IdleBelow, st.BusyShare*100, st.BusyHourShare*100, st.BusyClockHours, st.SpanClockHours,
			msgOr(p, "web.rs.pattern."+st.Pattern, st.Pattern))
		if st.BusyRuns > 1 {
			page.Busy += " " + p.T("web.rs.runs", st.BusyRuns, st.MeanBusyRunMinutes)
		}
		if len(st.GPUs) == 1 {
			page.Peak = p.T("web.rs.peak1", st.SummedUtilP95)
		} else {
			page.Peak = p.T("web.rs.peak", st.ActiveGPUs, len(st.GPUs), st.SummedUtilP95)
		}
		if st.Coverage < 0.995 {
			page.Coverage = p.T("web.rs.coverage", st.Coverage*100)
		}
	}
	cur := doc.Currency
	page.Now = p.T("web.rs.now", adv.Instances, adv.Offer.ID(), money(adv.CurrentMonthly), cur)
	if !adv.Offer.Billing.IsCommitment() && adv.BilledShare < 1 {
		page.Now += " " + p.T("web.rs.billed", adv.BilledShare*100)
	}
	for i, rec := range adv.Recommendations {
		var figs []string
		for _, f := range rec.Figures {
			figs = append(figs, f.Text(p))
		}
		page.Recs = append(page.Recs, rsRec{N: i + 1, Kind: msgOr(p, "web.rs.kind."+rec.Kind, rec.Kind), Action: p.M(rec.Action),
			Monthly: money(rec.Monthly), Saving: money(rec.Saving), Share: fmt.Sprintf("%.1f%%", rec.SavingShare()*100),
			Reason: p.Sentences(rec.Reason), Figures: strings.Join(figs, p.T("list.semi")), Caveats: p.Ms(rec.Caveats)})
	}
	for _, b := range adv.BreakEven {
		if b.Key != "" {
			page.BreakEven = append(page.BreakEven, p.T(b.Key, b.Args...))
		} else {
			page.BreakEven = append(page.BreakEven, b.Text)
		}
	}
	page.Notes = append(page.Notes, p.Ms(adv.Notes)...)
}

// pct1 renders a JSON number with one decimal, as gpuscout rightsize does.
func pct1(n json.Number) string {
	x, err := decimal.NewFromString(n.String())
	if err != nil {
		return n.String()
	}
	return x.Round(1).String()
}
