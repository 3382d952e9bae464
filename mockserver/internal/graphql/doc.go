// Package graphql is the mock's GraphQL adapter: DataHub's /api/graphql on
// the rules core (package gms), with graph-gophers/graphql-go serving an
// embedded schema that is a strict subset of DataHub's SDL.
//
// The resolvers read and write only through [gms.Core]: entities are loaded
// with GetEntity (the key aspect synthesised from the URN for a never-written
// entity, as DataHub's batch loaders do) and decoded here with the package's
// own small JSON types, never the SDK's aspect structs, so that a wrong JSON
// tag cannot hide on both sides. The mutations only translate: their
// rules (what updateDescription accepts and merges, the edges
// updateLineage writes, the UI's systemMetadata) are the core's
// (Core.UpdateDescription, Core.UpdateLineage), whose errors the resolvers
// map to DataHub's GraphQL errors.
//
// Requests are bounded (see MaxDepth and the limits beside it): a document
// beyond a limit is refused with one ExecutionAborted error naming it.
//
// Semantics follow DataHub's mappers (../shared/reference/WIRE.md §4.3):
// name, featureNamespace, platform and origin come from the key; description
// from the *Properties aspect; absent values are null; a model without
// groups has groups: []; a never-written URN answers an object built from
// its key with exists: false.
//
// For speed, the resolvers below the root fields run inline (no goroutine
// per field; a failure travels as a recovered panic, see inline.go) and
// decoded aspects are cached by their stored JSON; the answer to a request
// that only reads the store is kept by its body until the store changes,
// and an entity loaded at a store position is reused by the requests that
// begin at it (see answers.go).
package graphql
