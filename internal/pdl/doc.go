// Package pdl holds DataHub's metadata model facts as Go tables, generated from DataHub's PDL
// files, Rest.li snapshot models and entity-registry.yml, and validates aspect JSON against them.
//
// The tables are committed, so the package needs nothing outside the module at run time:
//   - the entity registry: [Entities], [LookupEntity] (key aspect and allowed aspects per entity);
//   - aspect facts: [LookupAspect] (Pegasus record name and whether the aspect is timeseries);
//   - record schemas: [Record] ([RecordSchema], [Field], [Type]);
//   - [Validate] and [ValidateJSON], which check an aspect value against its record schema the
//     way GMS's Rest.li data layer does and report the first problem as a [*ValidationError]
//     (allocation-free on valid input; the schema graph is compiled once, on first use).
//   - a JSON scanner for the hot paths of the mock server and its store, which must not pay for
//     encoding/json's reflection on every write: [Valid], [Conforms] (a schema check over the
//     JSON text itself, with no decoding; [ValidateJSON] decodes only when it fails, to name the
//     problem), [ObjectMembers], [AppendMembers], [EachMember], [ObjectMap], [ArrayElements],
//     [UnquoteJSON], [AppendCompact], [EqualJSON] and [DecodeJSON]. Each answers as encoding/json
//     would or reports that it cannot (ok false), in which case callers fall back to
//     encoding/json; differential fuzz targets hold them to that.
//
// The registry covers every entity and aspect of entity-registry.yml. Schemas exist for the
// records found in the reference files (PDL first, then the Rest.li snapshot models, then the
// transcriptions in gen/extra); aspects without one (most of DataHub's ~250) have a record name
// but no schema: [Record] reports false for them and callers validate them structurally.
//
// Regenerate with `go generate ./internal/pdl` from the repository root; the generator under
// gen/ reads ../shared/reference/datahub (beside the repository) plus the hand-checked facts in
// gen/recordnames.txt and gen/extra/*.pdl. A test fails when the committed tables are stale.
package pdl

//go:generate go run ./gen -ref ../../../shared/reference/datahub -gen ./gen -out .
