package i18n

// webJobMessages are the web UI's strings for the spot, cost and estimate
// pages.
var webJobMessages = map[Lang]map[string]string{
	EN: {},
	ZH: {},
}
