// Package client reads DataHub metadata and changes it without losing
// concurrent updates.
//
// A [Client] talks to one DataHub GMS (or a front end's /api/gms) with the
// module's shared options ([github.com/catalogkit/datahub-go.Option]: token,
// headers, HTTP client, timeout, retry policy, logger) plus its own
// ([WithActor], [WithConflictPolicy]):
//
//	c, err := client.New("http://localhost:8080", datahub.WithToken(token))
//
// # Reads
//
// [GetAspect] reads the latest value of one aspect into its typed struct, as
// DataHub's Python client's get_aspect does (GET /aspects/{urn}); it answers
// an error matching datahub.ErrNotFound when there is none. That read reports
// "version 0", meaning "the latest": it is not the version a conditional
// write needs. [GetVersioned] also returns that one, the aspect's
// systemMetadata.version, read from GET /entitiesV2/{urn}?aspects=List(name).
// [Client.GetEntity] reads several aspects or a whole entity; [Client.Exists]
// says whether an entity exists (its key aspect is stored: GMS stores it with
// an entity's first aspect and synthesises it in entitiesV2 answers, which
// are therefore no existence test; a soft-deleted entity exists).
// [GetTimeseries] and [LatestTimeseries] read timeseries aspects, which the
// other reads refuse. URNs are path-escaped as DataHub's Python client
// escapes them (every byte but letters, digits and "_.-~").
//
// # Changes without lost updates
//
// A DataHub write replaces a whole aspect, lists included, so adding an item
// means reading, combining and writing back; two writers doing so at once
// lose one's item. [Modify] reads with the version, applies a function and
// writes with If-Version-Match, retrying with jittered backoff when another
// writer got there first, and keeps the stored members its Go type does not
// know. A write whose answer was lost is resolved by reading it back, never
// by applying the function twice.
//
// The helpers are built on it: [Client.AddFeatureToTable],
// [Client.AddFeatureToModel], [Client.AddModelToGroup],
// [Client.AddSourceToFeature] and their Remove forms, [Client.AddLink],
// [Client.AddTag], [Client.AddTerm], [Client.AddOwner] (and removals),
// [Client.SetDescription] (to the editable aspect, which DataHub's UI edits
// and ingestion leaves alone), [Client.SetFieldDescription],
// [Client.SoftDelete] and [Client.HardDelete]. Each is idempotent (adding
// what is there writes nothing), refuses with an [*EntityNotFoundError] an
// entity that does not exist, and never requires the entity it refers to
// to exist, as DataHub does not.
//
// # Differences from DataHub's Python client
//
//   - Python's helpers (and its patch builders) write without a condition;
//     these write with If-Version-Match. A server that ignores the header
//     (an open DataHub pull request, #18869, reports one in v1.5) makes
//     them as racy as Python's.
//   - Members unknown to the Go type are kept at the aspect's top level and
//     inside plain struct members; a list element's unknown members are
//     lost when the list is written back.
package client
