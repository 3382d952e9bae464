// Package jsonx is the module's one set of JSON helpers on text: the
// object check, compaction and equality that the rules core, the store and
// the HTTP adapter share, so that each exists once.
//
// They are built on internal/pdl's hand-written scanners, which
// BenchmarkCompact and BenchmarkValid measure against encoding/json's
// Compact and Valid on a 100-field schemaMetadata: the scanners are several
// times faster there, so they stay.
package jsonx
