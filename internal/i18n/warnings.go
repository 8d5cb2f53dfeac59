package i18n

// Rejected renders a warning about an imported record left out of the
// catalog: kind is "offer" or "interruption-band", record its ID, reason
// "unknown-currency" (detail is the currency code) or "invalid" (detail is
// the validation message, which stays in English like every validation
// message).
func (p *Printer) Rejected(kind, record, reason, detail string) string {
	k := p.T("warn.kind." + kind)
	if reason == "unknown-currency" {
		return p.T("warn.rejected.unknown-currency", k, record, detail, detail)
	}
	return p.T("warn.rejected.invalid", k, record, detail)
}
