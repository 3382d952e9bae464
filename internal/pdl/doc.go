// Package pdl holds DataHub's metadata model facts as Go tables, generated from DataHub's PDL
// tree and entity-registry.yml, and validates aspect JSON against them.
//
// The tables are committed, so the package needs nothing outside the module at run time:
//   - the entity registry: [Entities], [LookupEntity] (key aspect and allowed aspects per entity);
//   - aspect facts: [LookupAspect] (Pegasus record name and whether the aspect is timeseries);
//   - record schemas: [Record] ([RecordSchema], [Field], [Type]);
//   - search and graph facts from the records' @Searchable and @Relationship annotations,
//     resolved to paths in the aspect as DataHub's entity registry resolves them:
//     [SearchableFields], [Relationships] and [LineageEdges] (package jsonx's ValuesAt finds
//     the values at such a path in an aspect's JSON);
//   - [Validate] and [ValidateJSON], which check an aspect value against its record schema the
//     way GMS's Rest.li data layer does and report the first problem as a [*ValidationError]
//     (allocation-free on valid input; the schema graph is compiled once, on first use), and
//     [ValidateIn] (with [ConformsIn], [ConformsCompactHashIn] and [HeldRecord], whose [Held]
//     is the record as an entity type holds it, found once; [Held.Marking] makes a copy whose
//     walk notes the places of chosen fields in [Marks], for a reader that would otherwise read
//     the value again), which adds DataHub's checks
//     of the URN-typed values of an entity's aspect ([Type.URN], [LookupURNTyperef]; the rule
//     for one value is the one [SetURNCheck] installs; the entity types a @Relationship lets
//     it have).
//   - a JSON scanner for the hot paths of the mock server and its store, which must not pay for
//     encoding/json's reflection on every write: [Valid], [Conforms] (a schema check over the
//     JSON text itself, with no decoding; [ValidateJSON] decodes only when it fails, to name the
//     problem; [ConformsCompact] compacts in the same pass, and [ConformsCompactHash] also
//     computes the value's [Hash], the mock store's hash of JSON data), [ObjectMembers],
//     [AppendMembers], [EachMember], [ObjectMap], [ArrayElements], [UnquoteJSON], [AppendCompact],
//     [CompactShared], [EqualJSON] and [DecodeJSON], and [Outline], which validates a document
//     once and records the members and elements of its first levels, so that a reader walking
//     them does not scan them again. Each answers as encoding/json would or reports that it
//     cannot (ok false), in which case callers fall back to encoding/json; differential fuzz
//     targets hold them to that.
//
// The registry covers every entity and aspect of entity-registry.yml, and the schemas every
// record of DataHub's PDL tree, so every aspect has one. The schema and annotation tables are
// built on first use, so a program that only asks for registry facts neither builds nor links
// them.
//
// Regenerate with `go generate ./internal/pdl` from the repository root; the generator under
// gen/ reads DataHub's PDL tree (../shared/reference/datahub-pegasus, beside the repository:
// records, enums, typerefs and their @Aspect, @Searchable and @Relationship annotations) and,
// from ../shared/reference/datahub, only entity-registry.yml. A test fails when the committed
// tables are stale.
package pdl

//go:generate go run ./gen -pegasus ../../../shared/reference/datahub-pegasus -ref ../../../shared/reference/datahub -out .
