// Package emitter writes metadata change proposals to DataHub: over GMS's
// Rest.li write path or its OpenAPI v3 entity API ([REST]), from a bounded
// background queue ([Async]), or to a file in DataHub's file-sink format
// ([File]).
//
// # Options
//
// [NewREST] takes [Option] values: the shared ones of package datahub
// ([datahub.WithToken], [datahub.WithHeaders], [datahub.WithHTTPClient],
// [datahub.WithTimeout], [datahub.WithRetry], [datahub.WithLogger]), which
// client.New takes too, [datahub.WithEndpoint] among them, and the
// emitter's own ([WithEmitMode], [WithMaxBatchSize],
// [WithMaxBatchBytes], [WithIsolateRejected]), mixed in one list. The
// client's own options are not emitter Options: giving one to NewREST does
// not compile.
// [datahub.FromEnv] reads the URL and token from the environment.
//
// # Rest.li or OpenAPI
//
// [datahub.WithEndpoint] picks the write path: Rest.li (the default, every
// DataHub version), OpenAPI v3 (DataHub 1.0.1 and later), or Auto, which
// reads GET /config once and picks OpenAPI for a server that has it, as
// DataHub's Python emitter does ([datahub.EndpointFromEnv] adds its
// environment override). Both paths take the same [Proposal] values and
// report the same outcomes ([Status], [*BatchError]); on OpenAPI:
//
//   - UPSERTs go in batches of one entity type, POST
//     /openapi/v3/entity/{entityType}, and PATCHes in PATCH batches of the
//     same path, within the same count and byte limits; a proposal never
//     goes before an earlier one of the same URN.
//   - A CREATE or CREATE_ENTITY goes alone, POST
//     /openapi/v3/entity/{entityType}/{urn}/{aspect} with createIfNotExists
//     or createIfEntityNotExists, so that it stays create-only (DataHub's
//     Python emitter sends it in a batch, where GMS makes it an UPSERT).
//     Rest.li applies a CREATE_ENTITY and the proposals after it in one
//     request, all or nothing; here the proposals of the same URN that
//     follow a refused CREATE_ENTITY are not sent ([NotAttempted]).
//   - A DELETE (of the key aspect, the only one the emitter takes) is
//     DELETE /openapi/v3/entity/{entityType}/{urn}: the entity is deleted,
//     which is what the proposal means (DataHub's Python emitter turns a
//     DELETE of any aspect into that).
//   - If-Version-Match and the other headers go in each aspect's "headers";
//     a failed condition is a 412, Rejected.
//   - UPDATE and RESTATE, and proposals naming their entity by key aspect
//     alone, have no OpenAPI form: they are Rejected before anything is
//     sent (use Rest.li for them).
//
// [WithEmitMode] says when Emit returns: [EmitSyncPrimary] (stored),
// [EmitSyncWait] (stored and indexed), [EmitAsync] (queued by GMS), or
// [EmitAsyncWait], which sends asynchronously and then polls DataHub's write
// trace (POST /openapi/v1/trace/write/{traceId}) until each proposal is
// stored and indexed or failed: a proposal GMS refused after queueing it is
// Rejected with a [*TraceError]. On Rest.li, which has no trace, EmitSyncWait
// and EmitAsyncWait write synchronously.
//
// # Proposals
//
// A [Proposal] changes one aspect of one entity. [NewProposal] builds an
// upsert from a typed URN and a typed aspect and refuses, before anything is
// sent, an aspect DataHub's entity registry does not allow on the entity:
//
//	u, _ := urn.NewDataset("hive", "db.orders", "PROD")
//	p, err := emitter.NewProposal(u, aspects.Status{Removed: false})
//
// System metadata is filled when a proposal is sent, as DataHub's Python SDK
// fills it: lastObserved (now, in milliseconds), runId and lastRunId
// ("no-run-id-provided"), and the properties clientId ("datahub-go") and
// clientVersion. Headers such as If-Version-Match travel in the proposal.
//
// # The wire
//
// [REST.Emit] sends exactly what DataHub's Python emitter sends: one proposal
// as POST {server}/aspects?action=ingestProposal with the body
//
//	{"proposal":{"entityType":...,"entityUrn":...,"changeType":"UPSERT","aspectName":...,
//	  "aspect":{"value":"<the aspect's JSON, as a string>","contentType":"application/json"},
//	  "systemMetadata":{...}},"async":"false"}
//
// and several as ingestProposalBatch ({"proposals":[...],"async":"false"}),
// in requests of at most 200 proposals and 15 MiB. The headers are
// X-RestLi-Protocol-Version 2.0.0, Content-Type and Accept application/json,
// Authorization Bearer when a token is set, User-Agent
// "datahub-go/<version> (go; <Go version>)", then [datahub.WithHeaders]. The server
// URL is a GMS root or a front end's {base}/api/gms.
//
// The aspect's JSON text is ASCII: other characters are written as \uXXXX
// escapes, as Python's json.dumps writes them. GMS reads aspect.value as
// Pegasus bytes, one character per byte, so raw UTF-8 there would be refused
// (above U+00FF) or garbled; escapes reach the stored aspect intact.
//
// Requests are retried as the Python emitter retries them (429, 500, 502,
// 503, 504 and network errors, POST included, 4 retries with exponential
// backoff and jitter, Retry-After honoured up to a cap; see
// [datahub.RetryPolicy] to change it); no other 4xx is retried, and once
// the context is done no request is started or retried. Each proposal is
// encoded once; a retry resends the same bytes. A call of 64 proposals or
// more encodes them on several goroutines (up to GOMAXPROCS, at least 32
// proposals each) and waits for them before it sends anything: the bytes
// and the outcomes are those of one goroutine, but an aspect's MarshalJSON
// may run on another goroutine than the caller's, at the same time as
// other proposals' (a panic in it goes on on the caller's).
//
// Replaying an UPSERT whose answer was lost is harmless (it writes the
// same aspect again), but replaying a conditional write (If-Version-Match,
// If-None-Match, If-Modified-Since, If-Unmodified-Since) or a
// CREATE/CREATE_ENTITY that was applied would fail its own condition: a
// request carrying one is replayed only when the connection was refused or
// the server answered 429 or 503, and is otherwise reported [Unknown].
//
// # Failures
//
// [REST.Emit] returns nil or a [*BatchError], for one proposal as for many,
// with the outcome of each: [Written], [Rejected] (refused for its
// content, with the server's reason), [Failed] (not written, the server
// unreachable or unavailable: emitting again later is safe), [Unknown]
// (the answer was lost: it may be written), [Stopped] (the caller's
// context ended while it was in flight: it may be written) or
// [NotAttempted]. errors.Is and
// errors.As see through it: a [*datahub.Error] carries the status, the
// message of the server's Rest.li error body and the response header, and
// matches datahub.ErrValidation (400, 422), datahub.ErrUnauthorized (401,
// 403), datahub.ErrPreconditionFailed (412) or datahub.ErrPayloadTooLarge
// (413); an Unknown outcome matches datahub.ErrOutcomeUnknown, a Stopped
// one datahub.ErrStopped as well (and the context's error). A proposal
// too large to send alone is a [*TooLargeError] before anything is sent.
//
// [REST.EmitResults] returns the same outcomes on success too, one
// [Result] per proposal, with the aspect's version after the write where
// the server answers it (OpenAPI's synchronous writes; not Rest.li's
// ingestProposal).
//
// # Outcomes, and what is kept
//
// The REST emitter keeps nothing once Emit returns: the caller holds the
// proposals and decides from each outcome. Written needs nothing more;
// Rejected fails again unchanged; Failed and NotAttempted were not applied
// and may be emitted again, conditional writes included; Unknown (the
// server or the network lost the answer) and Stopped (the caller ended the
// wait) may have been applied: an upsert may be emitted again, a
// conditional write or a CREATE is read back first. The two are told apart
// so that work with an owner can act on it: a consumer keeps a Stopped
// message uncommitted for the next run (as the Kafka module's Bridge
// does), while an Unknown one is reported and passed. With
// [EmitAsyncWait], a proposal the server accepted is Written only once its
// write trace says it was applied; a trace that cannot be read makes it
// Unknown, never Written, and a context that ends during the wait makes it
// Stopped. [Async] hands every outcome to its handlers and keeps nothing
// either (see [AsyncResult]).
// One error type whatever the count lets callers treat a single proposal
// and a batch alike; errors.Is(err, datahub.ErrPreconditionFailed) works on
// both.
//
// DataHub rejects a batch as a whole when one of its proposals is invalid,
// so one bad proposal would fail up to 199 good ones. By default
// ([WithIsolateRejected]) the emitter splits a batch refused with 400, 412,
// 413 or 422 in halves and sends them again, down to single proposals: the
// proposals at fault get the server's own error and the others are
// written, in their order, at a cost of about 2·log2(n) extra requests per
// bad proposal. This relies on GMS validating a whole batch before it
// writes any of it, which it does (and the mock server too).
//
// # Background emitting
//
// [NewAsync] wraps a REST emitter with a bounded queue and workers that send
// batches by size and linger time. [Async.Emit] checks and encodes the
// proposals during the call, before it queues them, so an invalid
// or oversized proposal fails Emit itself, and changing the caller's
// structs, maps or slices afterwards does not change what is written. The
// queue is bounded in proposals ([WithQueueSize]) and bytes
// ([WithQueueBytes]); a full queue blocks, or returns [ErrQueueFull]
// ([WithBlock]). A proposal for a URN with others queued or in flight goes
// through the same worker, behind them, so they are written in the order
// they were queued; proposals of other URNs fill one worker's batch, then
// the next one's.
//
// Every proposal's outcome ([AsyncResult]: its sequence number, [Status]
// and error) goes to [WithResultHandler], so that a long ingestion can
// checkpoint what the server acknowledged; those not written go to
// [WithErrorHandler] too, and are counted by [Async.Err]. Handlers run on
// one goroutine of the emitter and may queue again. [Async.Flush] waits
// until everything queued before it is reported; [Async.Close] flushes and
// stops the workers. When Close's context ends first, the proposals in
// flight are reported [Stopped] (they may have been applied) and those
// still queued [NotAttempted]; nothing is dropped silently.
//
// # Differences from DataHub's Python emitter
//
//   - Aspect JSON is compact ({"a":1}); Python writes {"a": 1}. GMS parses
//     both alike. Non-ASCII text is written as \u escapes in both (see
//     above).
//   - A 429 costs a whole attempt; Python's emitter counts it as half.
//   - A conditional write or a CREATE is not replayed after a lost answer
//     (it is reported Unknown); Python's emitter replays every POST.
//   - TestConnection does not retry a server that cannot be reached, and
//     it checks the token with one authenticated read; Python's reads only
//     /config, which GMS serves to anyone.
//   - System metadata properties the caller set (clientId, clientVersion)
//     are kept; Python overwrites them.
//   - A proposal too large for the limit is refused before sending; Python
//     only warns and sends it.
//   - A refused batch is split to find the proposals at fault (see above);
//     Python fails the whole batch.
//   - Rest.li is the default endpoint; Python picks OpenAPI by the
//     server's version unless told otherwise (here: EndpointAuto).
//   - On OpenAPI a CREATE stays create-only and a DELETE deletes only what
//     it names (see above); Python loses both.
//   - ASYNC_WAIT polls the trace from 50 ms, doubling up to 5 s, for as
//     long as the context allows; Python starts at 1 s, up to 300 s, for
//     an hour.
//
// # Files
//
// [NewFile] writes proposals to a file in DataHub's file-sink format, a JSON
// array of proposals whose aspects are inline JSON objects
// ("aspect": {"json": {...}}), as the Python file sink writes and the mock
// server's -seed flag reads. [ReadFile] reads such a file back.
package emitter
