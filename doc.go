// Package datahub is the root of datahub-go, the Go SDK for DataHub-compatible
// metadata catalogs.
//
// The module is split by concern:
//
//   - [github.com/catalogkit/datahub-go/urn]: typed URN builders and parsers
//     with DataHub's exact escaping.
//   - [github.com/catalogkit/datahub-go/aspects]: typed aspect structs whose
//     JSON matches DataHub's PDL schemas, and the entity registry.
//   - [github.com/catalogkit/datahub-go/fieldpath]: version-2 field paths.
//   - [github.com/catalogkit/datahub-go/emitter]: metadata change proposals
//     over DataHub's REST write path (one, batch, async, file).
//   - [github.com/catalogkit/datahub-go/emitter/patch]: PATCH proposals
//     (tags, terms, owners, links, lineage, ML features...) the server merges.
//   - github.com/catalogkit/datahub-go/emitter/kafka (its own module):
//     proposals to DataHub's MetadataChangeProposal Kafka topic.
//   - [github.com/catalogkit/datahub-go/client]: reads, version-checked
//     read-modify-write and its helpers (AddFeatureToTable and friends),
//     GraphQL queries and the updateDescription mutation, the operations
//     endpoints and metadata tests.
//   - [github.com/catalogkit/datahub-go/mockserver]: an in-process and
//     standalone DataHub mock for tests (REST, GraphQL, operations, PATCH).
//
// This root package holds what every other package shares.
//
// # Options
//
// One option set configures every package that talks to DataHub:
// [WithToken], [WithHeaders], [WithHTTPClient], [WithTimeout], [WithRetry],
// [WithLogger] and [WithEndpoint] are [Option] values, which client.New
// (as client.Option) and emitter.NewREST (as emitter.Option) both take.
// Options that only one package reads are declared there, of that
// package's option type (emitter.WithEmitMode, client.WithActor, ...):
// giving one to the other package's constructor does not compile. The
// last of two options wins.
//
// [FromEnv] reads the server URL and token from DATAHUB_GMS_URL and
// DATAHUB_GMS_TOKEN, or else from the ~/.datahubenv file DataHub's CLI
// writes, as DataHub's Python SDK does. Nothing reads the environment
// unless it is called (client.FromEnv builds a client from it):
//
//	server, opts, err := datahub.FromEnv()
//	if err != nil { ... }
//	emOpts := []emitter.Option{emitter.WithEmitMode(emitter.EmitAsync)}
//	for _, o := range opts {
//		emOpts = append(emOpts, o)
//	}
//	em, err := emitter.NewREST(server, emOpts...)
//
// # Retries
//
// A [RetryPolicy] says which failed attempts are retried ([CheckRetry],
// default [DefaultCheckRetry]: 429, 500, 502, 503, 504 and network errors,
// as DataHub's Python emitter) and how long to wait in between ([Backoff],
// default [DefaultBackoff]: capped, jittered exponential waits that honour
// Retry-After up to a cap), in go-retryablehttp's model. Waits end as soon
// as the context is done.
//
// DataHub's writes of whole aspects (UPSERT) are idempotent, so they are
// replayed after any retryable failure. A write that is not (a proposal
// with If-Version-Match, If-None-Match, If-Modified-Since or
// If-Unmodified-Since, or change type CREATE or CREATE_ENTITY) is replayed
// only when the request provably did not reach the server (the connection
// was refused) or the server said it did not apply it (429, 503): a replay
// of a write that was applied but whose answer was lost would fail its own
// condition. Such a failure is reported as [ErrOutcomeUnknown], not as a
// refusal. A write whose caller stopped it (its context cancelled or past
// its deadline before the outcome was known) also matches [ErrStopped]: it
// may have been applied as well, but the caller, not the server, ended it,
// so work that owns it (a consumer's offset) should keep it to do again.
//
// # Errors
//
// The [Error] type carries a server's answer (status, message, exception
// class, response header), and the sentinel errors ([ErrNotFound],
// [ErrUnauthorized], [ErrPreconditionFailed], [ErrPayloadTooLarge],
// [ErrValidation], [ErrOutcomeUnknown], [ErrStopped]) are matched with [errors.Is]:
//
//	if errors.Is(err, datahub.ErrPreconditionFailed) {
//		// someone else wrote the aspect first: read again and retry
//	}
package datahub
