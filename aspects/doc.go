// Package aspects holds typed Go structs for DataHub aspects and the facts of
// DataHub's entity registry.
//
// # Structs
//
// Each struct is named after its Pegasus (PDL) record and has every field of
// that record, fields of included records (CustomProperties,
// ExternalReference, ChangeAuditStamps, MLModelLineageInfo,
// SchemaMetadataKey, TimeseriesAspectBase) first, as DataHub orders them. JSON
// names are the PDL names. The typed aspects are the ML and dataset
// aspects ([MLFeatureProperties], [MLFeatureTableProperties],
// [MLModelProperties], [MLModelGroupProperties], [DatasetProperties],
// [SchemaMetadata], [EditableDatasetProperties], [InstitutionalMemory],
// [EditableSchemaMetadata]), the key aspects ([DatasetKey], [MLFeatureKey],
// [MLFeatureTableKey], [MLModelKey], [MLModelGroupKey], [DataPlatformKey],
// [TestKey]), [Status], the editable ML aspects that description updates write
// ([EditableMLFeatureProperties] and friends), [GlobalTags], [GlossaryTerms],
// [Ownership], the timeseries aspects [DatasetProfile],
// [DatasetUsageStatistics] and [Operation], [TestInfo], [TestResults] and
// [DataPlatformInfo]. Each implements [Aspect] with a value receiver, so both T
// and *T are Aspects. These are written by hand.
//
// Every other aspect of DataHub's entity registry, and every record, enum and
// union those aspects use, has a generated type (files *_gen.go, one per PDL
// namespace) that follows the same rules: [SubTypes], [Domains],
// [UpstreamLineage], [DataProcessInstanceRunEvent],
// [MLTrainingRunProperties], [ContainerProperties] and the rest, 255 aspects
// in all. Their names are the PDL names in Go case, with initialisms in
// capitals (externalUrl is ExternalURL, SqlAssertionInfo is SQLAssertionInfo).
// Should two PDL types of different namespaces want one name (none do
// today), each generated one takes the last part of its namespace as a
// prefix (com.linkedin.dataset.Foo would be DatasetFoo), a hand-written type
// keeping its name. A field named like a method of its type (aspectName)
// takes a trailing underscore (AspectName_). An enum's constants are the type's name followed
// by the symbol in Go case (PartitionTypeFullTable). A union is a struct with
// one pointer per member, exactly one of which is set, like
// [HyperParameterValueType]; an inline union is named after its record and
// field ([DataJobInfoType]). A defaulted field whose default is not Go's zero
// value is a pointer, nil standing for the default, except a required enum
// (the empty string stands for the default) and an audit stamp (the zero
// stamp does).
//
// URN-valued fields are plain strings, so that whatever a server holds
// decodes; build them with package
// [github.com/catalogkit/datahub-go/urn]. PDL enums are named string types
// with a constant per symbol ([MLFeatureDataType], [OwnershipType],
// [FabricType], [OperationType], ...); decoding does not check enum values.
//
// # Optional fields and defaults
//
// The JSON is what DataHub's Python SDK emits:
//
//   - A required field is always written. A nil required array or map is
//     written as [] or {}, never null.
//   - An optional scalar or record is a pointer, omitted when nil; set it
//     with [Ptr]: aspects.Ptr("daily orders").
//   - An optional array or map is omitted when nil; a non-nil empty one is
//     written as [] or {}.
//   - A field with a PDL default is always written, and its Go zero value
//     stands for the default: a nil customProperties is written as {},
//     nil tags as [], a nil ownerTypes as {}, a zero [AuditStamp] in
//     ChangeAuditStamps or Ownership.lastModified as
//     {"time": 0, "actor": "urn:li:corpuser:unknown"}, a nil PartitionSpec of a
//     timeseries aspect as {"type": "FULL_TABLE", "partition":
//     "FULL_TABLE_SNAPSHOT"}, a zero TimeWindowSize.Multiple as 1.
//
// Decoding (json.Unmarshal or [Decode]) fills absent defaulted fields with
// their defaults, so a decoded CustomProperties map is never nil and a decoded
// Ownership.LastModified with no stamp reads "urn:li:corpuser:unknown".
//
// Most types encode themselves without reflection: their MarshalJSON, and
// [AppendJSON], which appends an aspect's JSON to a buffer, write the same
// bytes encoding/json would, with <, > and & left unescaped as DataHub's
// Python SDK writes them (json.Marshal escapes them again around the
// result; a json.Encoder with SetEscapeHTML(false) does not).
// [AppendJSONString] appends that JSON as a JSON string in the form a Rest.li
// proposal carries an aspect (every non-ASCII character as a \uXXXX escape,
// then the text escaped as a string, all ASCII), in one pass for the types
// of this package.
//
// # Unions
//
// Pegasus unions are written as an object with one key, the member's fully
// qualified record name (or primitive type name):
//
//	{"type": {"com.linkedin.schema.StringType": {}}}
//
// [SchemaFieldDataType] holds a [FieldType] (build it with [DataType]),
// SchemaMetadata.PlatformSchema a [PlatformSchema] member such as
// [OtherSchema] or [KafkaSchema], [ForeignKeySpec] a [ForeignKey], and
// [HyperParameterValueType] one pointer per primitive member. Encoding fails
// when a required union has no member.
//
// # Registry
//
// [Lookup] returns the [Info] of every aspect of DataHub's entity registry:
// its Pegasus record name (the key of the aspect in a GET /aspects answer),
// whether it is a timeseries aspect, and whether this package types it.
// [LookupEntity] and [Entities] return the registry's entity types with their
// key aspect and allowed aspects ([Entity.Allows]). The facts are generated
// from DataHub's entity-registry.yml and PDL files and compiled into the
// module. [New] returns a new value for a typed aspect name and [Decode]
// decodes a named aspect's JSON strictly, rejecting fields the PDL record does
// not declare.
package aspects

//go:generate go run ../internal/pdl/gen/gotypes/cmd -aspects .
