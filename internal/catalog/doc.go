// Package catalog holds gpuscout's domain model: providers, regions, GPU
// models, instance types, offers with their billing models and prices, and the
// sources behind every figure. It validates records, indexes them in an
// in-memory Catalog and answers queries that the engines and the CLI build on.
//
// The package depends only on the standard library and a decimal type; it
// knows nothing about files, storage, HTTP or the command line.
package catalog
