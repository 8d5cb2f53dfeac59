// Package deps holds the test that keeps gpuscout's imports flowing one
// way (docs/architecture.md, "Packages and import direction"): the domain
// depends on nothing internal but leaf utilities, importers on the domain
// and the import use case, engines never on importers or storage, and the
// API client on nothing but the importer package. It has no code.
package deps
