// Package urn builds and parses DataHub URNs with DataHub's own escaping and
// validation rules.
//
// A DataHub URN is urn:li:<entityType>:<id>, where the id is one value
// (urn:li:corpuser:jdoe) or a tuple of parts in parentheses that may hold
// other URNs whole:
//
//	urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)
//	urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD),address.zip)
//
// # Typed values
//
// [Dataset], [MLFeature], [MLFeatureTable], [MLModel], [MLModelGroup],
// [CorpUser], [DataPlatform], [Test], [Tag], [GlossaryTerm] and [SchemaField]
// are comparable structs, built by NewX functions ([NewDataset], ...) and read
// by ParseX functions ([ParseDataset], ...). Every other entity type of
// DataHub's entity registry has a generated type (file entities_gen.go) whose
// parts are the fields of the entity's key aspect, in order, as DataHub's own
// URN classes are generated: [DataJob] is (flow, jobId), [DataFlow]
// (orchestrator, flowId, cluster), [Container] a single guid. Their builders
// take a string per part, escaped; a platform bare or as a URN; an env as
// below; and a nested URN (a data job's flow) as a [URN]. Accessors are named
// after the key's fields (a field named like a method of every URN, such as
// entityType, takes a trailing underscore). [Generic] covers entity types
// outside the registry. All of them implement [URN] and encoding.TextMarshaler, and
// their pointers encoding.TextUnmarshaler, so they can be JSON object keys and
// string fields. A value keeps its parts in URN form (escaped), so for any
// value x a builder or parser returned, Parse(x.String()) == x, and for a
// parsed URN, x.String() is exactly the string that was parsed.
//
// [Parse] returns the typed value for every registry entity type and a
// [Generic] for the rest. [MustParse] is for literals in tests and examples.
//
// # Escaping
//
// DataHub reserves four characters inside URN parts. Builders escape them in
// the parts they are given, exactly as DataHub's UrnEncoder does, with
// [Escape]; nothing else is touched, not even "%":
//
//	,  →  %2C
//	(  →  %28
//	)  →  %29
//	␟  →  %E2%90%9F   (U+241F, the unit separator)
//
//	urn.NewDataset("hive", "db.t(1),x", "prod")
//	// urn:li:dataset:(urn:li:dataPlatform:hive,db.t%281%29%2Cx,PROD)
//
// Accessors (Name, ID, FieldPath, Parts) return parts in this escaped form.
// Parts that are URNs themselves (a dataset's platform, a schema field's
// parent, a part starting with "urn:li:" given to [NewGeneric]) are kept whole.
//
// A whole URN placed in a URL path, as in GET /aspects/{urn}, is encoded
// differently, with [PathEscape], the way DataHub's Python client does
// (urllib.parse.quote with no safe characters):
//
//	urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)
//	→ urn%3Ali%3Adataset%3A%28urn%3Ali%3AdataPlatform%3Ahive%2Cdb.t%2CPROD%29
//
// # Builders
//
// A platform is given bare ("hive") or as a URN ("urn:li:dataPlatform:hive").
// The single-id builders ([NewCorpUser], [NewDataPlatform], [NewTag],
// [NewGlossaryTerm], [NewTest]) likewise take the bare id or the whole URN;
// a URN of another entity type is refused. An env is one of DataHub's 17
// FabricType symbols ([FabricTypes]) in any case and is upper-cased; "" means
// "PROD". Empty parts are refused.
//
// # Validation
//
// Every parser checks what DataHub checks when it parses a URN or accepts one
// on write: the "urn:li:" prefix; an entity type that is a lower-case letter
// followed by letters, digits or "_"; a non-empty id; balanced parentheses;
// no empty tuple part; no "␟" anywhere; no white space or control characters
// at either end; and at most [MaxEncodedLength] (512) bytes once URL-encoded
// as [PathEscape] encodes it. Schema field URNs are exempt from the length
// limit, as in DataHub. (DataHub measures with Java's form encoding, which
// counts a few characters, such as a space, shorter; URNs within a few bytes
// of the limit can differ.) URNs may nest at most 8 levels deep.
//
// The typed parsers also check what DataHub's generated URN classes check:
// the number of parts, that parts which are not URNs hold no raw "," "(" or
// ")", that a platform is a dataPlatform URN, that a schema field's parent is
// a URN, and that an env is an upper-case FabricType symbol. DataHub's server
// only warns about raw reserved characters unless strict URN validation is
// on; to read such a URN use [ParseGeneric], which applies only the shared
// checks.
//
// Every failure is a [*ParseError] that names the input and what is wrong
// with it, and matches datahub.ErrValidation with errors.Is:
//
//	urn: invalid dataset urn "urn:li:dataset:(a,b)": want 3 parts, got 2
//
// No parser panics on any input.
package urn

//go:generate go run ../internal/pdl/gen/gotypes/cmd -urn .
