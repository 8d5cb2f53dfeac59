package i18n

// webCatalogMessages are the web UI's strings for the providers, regions
// and instance pages.
var webCatalogMessages = map[Lang]map[string]string{
	EN: {},
	ZH: {},
}
