package server

import (
	"net/http"
	"strings"

	"github.com/gpuscout/gpuscout/internal/i18n"
)

// fieldLabels are the message keys of form fields whose label key is not
// the page's prefix plus the field's name.
var fieldLabels = map[string]map[string]string{
	"spot": {"offer": "web.spot.f.offer", "work_hours": "web.spot.f.work", "checkpoint_minutes": "web.spot.f.checkpoint",
		"restart_minutes": "web.spot.f.restart", "deadline_hours": "web.spot.f.deadline", "mtbi": "web.spot.f.mtbi", "currency": "web.f.currency"},
	"compare": {"offer": "web.f.add_offer", "onprem": "web.f.onprem", "currency": "web.f.currency"},
	"offers":  {"gpu": "web.f.gpu", "provider": "web.f.provider", "currency": "web.f.currency"},
	"advisor": {"job": "web.advisor.job"},
}

// fieldPrefixes are the message-key prefixes of each page's field labels.
var fieldPrefixes = map[string][]string{
	"estimate":  {"web.est.f."},
	"compare":   {"web.f."},
	"offers":    {"web.f.", "web.col."},
	"advisor":   {"web.form."},
	"rightsize": {"web.rs.f."},
}

// fieldLabel is the label of a page's form field in the page's language,
// or "" when the page has no such field.
func fieldLabel(p *i18n.Printer, page, field string) string {
	if field == "" {
		return ""
	}
	if k, ok := fieldLabels[page][field]; ok {
		return strings.TrimRight(p.T(k), " :：")
	}
	for _, pre := range fieldPrefixes[page] {
		if s := p.T(pre + field); s != pre+field {
			return strings.TrimRight(s, " :：")
		}
	}
	return ""
}

// webMsg renders an engine's message for a web page: its web wording (the
// same key under "web.", which names form fields instead of the CLI's
// flags) when it has one.
func webMsg(p *i18n.Printer, m i18n.Msg) string {
	raw := p.Or("web."+m.Key, "")
	switch {
	case raw == "":
		return p.M(m)
	case !strings.Contains(raw, "%"): // a wording that needs none of the arguments
		return raw
	}
	return p.M(i18n.M("web."+m.Key, m.Args...))
}

// pageError is a page's error box in the page's language. A message of
// ours (Msg) is rendered in it, in its web wording; an error naming a
// form field says which field to check, in words, with the reason as the
// detail; another error passed through from elsewhere keeps its English
// words as the detail, marked as English, under a sentence in the page's
// language. An error already written in the page's language (Local) is
// left as it is.
func pageError(p *i18n.Printer, ae *apiError, page string) *apiError {
	if ae == nil || ae.Local {
		return ae
	}
	out := *ae
	out.Local = true
	label := fieldLabel(p, page, ae.Field)
	if ae.Msg.Key != "" {
		msg := webMsg(p, ae.Msg)
		hint := ""
		if ae.HintMsg.Key != "" {
			hint = webMsg(p, ae.HintMsg)
		}
		out.Message, out.Hint, out.Detail = msg, hint, ""
		if label != "" {
			out.Message = p.T("web.form.bad_input", label)
			out.Detail, out.DetailLocal = joinSentences(msg, hint), true
			out.Hint = ""
		}
		return &out
	}
	if p.Lang() == i18n.EN {
		return &out
	}
	switch {
	case label != "":
		out.Message = p.T("web.form.bad_input", label)
	case ae.Status == http.StatusNotFound:
		out.Message = p.T("web.err.not_found")
	case ae.Status == http.StatusUnprocessableEntity:
		out.Message = p.T("web.err.no_plan")
	case ae.Status >= 500:
		out.Message = p.T("web.err.server")
	default:
		out.Message = p.T("web.err.bad_request")
	}
	out.Detail, out.DetailLocal, out.Hint = strings.TrimSpace(ae.Message+" "+ae.Hint), false, ""
	return &out
}

// joinSentences joins a message and its hint (either may be empty), ending
// the message first when it has no final punctuation.
func joinSentences(msg, hint string) string {
	if hint == "" || msg == "" {
		return msg + hint
	}
	if !strings.HasSuffix(msg, ".") && !strings.HasSuffix(msg, "。") && !strings.HasSuffix(msg, ":") && !strings.HasSuffix(msg, "：") && !strings.HasSuffix(msg, "）") && !strings.HasSuffix(msg, ")") {
		msg += "; "
	} else if !strings.HasSuffix(msg, "。") && !strings.HasSuffix(msg, "：") && !strings.HasSuffix(msg, "）") {
		msg += " "
	}
	return msg + hint
}

// withNotFound gives an error whose cause is a *catalog.NotFoundError (an
// unknown offer, GPU, provider ...) that message, so a page can show it in
// its language.
func withNotFound(ae *apiError, err error) *apiError {
	if m, ok := notFoundMsg(err); ok && ae.Msg.Key == "" {
		ae.Msg = m
	}
	return ae
}

// badField is a 400 naming field whose message is err's.
func badField(field string, err error) *apiError {
	return withNotFound(badRequest(field, "", "%v", err), err)
}

// notFoundErr is a 404 whose message is err's.
func notFoundErr(err error) *apiError {
	return withNotFound(notFound("%v", err), err)
}
