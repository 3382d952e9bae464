// Package graphql is the mock's GraphQL adapter: DataHub's /api/graphql on
// the rules core (package gms), serving DataHub's whole schema with the
// package's own synchronous executor.
//
// # Schema
//
// schema.graphql is generated from DataHub's SDL (every type, field,
// argument, enum value, union member, interface and directive of
// datahub-graphql-core's *.graphql files, descriptions left out) by
// `go generate` (see gen and sdlgen); TestSchemaGenerated fails when it is
// stale. Documents are parsed and validated by gqlparser
// (github.com/vektah/gqlparser/v2) against it, so that every document
// DataHub accepts validates here, with graphql-js's texts for validation
// errors (answered with HTTP 200 and classification ValidationError, as
// DataHub does). A validated document is kept by its text and reused.
//
// # Execution
//
// The executor (exec.go) walks the chosen operation on the goroutine that
// serves the request (no goroutine per field): aliases, fragments and
// inline fragments (on objects, interfaces and unions), @skip/@include,
// __typename, variables coerced by the schema, non-null propagation (a
// null in a non-null field nulls its nearest nullable parent), errors with
// message, locations (the failing field's), path and extensions in
// DataHub's shape (code, type, classification; see errors.go), and
// introspection (__schema, __type) over the schema. The root fields of an
// operation run in order.
//
// # Resolvers
//
// A field is resolved by the resolver registered for "Type.field", else by
// the default resolver. Register one from an init function of a new file:
//
//	func init() {
//		mutation("addTag", func(c *Ctx, a Args) (any, error) {
//			var in struct {
//				Input struct {
//					TagUrn, ResourceUrn string
//					SubResource        *string
//				}
//			}
//			if err := a.Decode(&in); err != nil {
//				return nil, badRequest(err.Error())
//			}
//			if err := c.Core().AddTag(c, ...); err != nil { // the rule is the core's
//				return nil, fromCore(err)
//			}
//			return true, nil
//		})
//		query("listTags", func(c *Ctx, a Args) (any, error) { ... })
//		Register("Dataset.health", func(c *Ctx, a Args) (any, error) { ... }) // c.Parent is the dataset
//	}
//
// query(name, fn) and mutation(name, fn) register Query.name and
// Mutation.name; Register("Type.field", fn) any other field (TestRegistry
// checks every key names a field of the schema; two resolvers for one field
// panic). A resolver gets a *Ctx, which is the request's context.Context
// (pass it to the core: cancellation is honoured) and carries the field's
// parent value (c.Parent), the core (c.Core()), whether the answer selects
// a subfield (c.Selects) and the field's path; and the field's arguments
// (Args: coerced by the schema, defaults applied; Args.Decode reads them
// into a struct, case-insensitively). It returns the value or an error: a
// *gqlError (badRequest, serverError, fromCore for a core error) keeps
// DataHub's code and type; any other error is a SERVER_ERROR. A resolver may
// also end its field with fail(err), a panic the executor recovers into the
// same error. Every write goes through gms.Core; a rule lives there, the
// resolver only translates.
//
// A value may be: nil (null); a Go string, bool, integer, float, Long or
// json.Marshaler for a scalar or enum (an enum as its name); a slice for a
// list; for an object, a map[string]any (fields read by name) or any Go
// value, whose fields are read by the default resolver: its method named as
// the field (case aside; it may take a context.Context, which is the *Ctx,
// and then a struct of the arguments, and return the value alone or with an
// error), else its exported struct field of that name. A value of an
// interface or union type names its object type: a Typed value
// (GraphQLType() (name, value)) or a map with "__typename". A field with no
// resolver and no value is null, or for a non-null field the error "does
// not serve ... yet".
//
// The root fields not served by a registered resolver are read from the
// package's resolver type (its methods Dataset, Search, UpdateLineage, ...).
//
// # Rules of the reads
//
// The resolvers read and write only through [gms.Core]: entities are loaded
// with GetEntity (the key aspect synthesised from the URN for a never-written
// entity, as DataHub's batch loaders do) and decoded here with the package's
// own small JSON types, never the SDK's aspect structs, so that a wrong JSON
// tag cannot hide on both sides. The mutations only translate: their rules
// (what updateDescription accepts and merges, the edges updateLineage
// writes, the UI's systemMetadata) are the core's (Core.UpdateDescription,
// Core.UpdateLineage), whose errors the resolvers map to DataHub's GraphQL
// errors.
//
// Requests are bounded (see MaxDepth and the limits beside it): a document
// beyond a limit is refused with one ExecutionAborted error naming it, before
// it is validated.
//
// Semantics follow DataHub's mappers: name, featureNamespace, platform and
// origin come from the key; description from the *Properties aspect; absent
// values are null; a model without groups has groups: []; a never-written URN
// answers an object built from its key with exists: false.
//
// For speed, decoded aspects are cached by their stored JSON; the answer to
// a request that only reads the store is kept by its body until the store
// changes, and an entity loaded at a store position is reused by the
// requests that begin at it (see answers.go).
package graphql

//go:generate go run ./gen -sdl ../../../../shared/reference/datahub/datahub-graphql-core/src/main/resources -out schema.graphql -entities entitymap_gen.go
