// Package store is the mock server's state: a versioned aspect store shaped
// like GMS's SQL aspect table (metadata_aspect_v2) plus a timeseries document
// index. It has no HTTP; the mockserver handlers translate to and from it.
package store
