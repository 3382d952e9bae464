package aspects

// UnknownActor is the actor of DataHub's default audit stamps
// ({"time": 0, "actor": "urn:li:corpuser:unknown"}), used where a PDL record
// declares an audit stamp with a default value.
const UnknownActor = "urn:li:corpuser:unknown"

// AuditStamp records when and by whom something changed
// (com.linkedin.common.AuditStamp).
type AuditStamp struct {
	// Time is the change time in milliseconds since the Unix epoch.
	Time int64 `json:"time"`
	// Actor is the URN credited with the change, e.g. "urn:li:corpuser:jdoe".
	Actor string `json:"actor"`
	// Impersonator is the URN that made the change on behalf of Actor.
	Impersonator *string `json:"impersonator,omitempty"`
	// Message says how DataHub learned of the change.
	Message *string `json:"message,omitempty"`
}

// IsZero reports whether a is the zero AuditStamp. Fields whose PDL default
// is an audit stamp encode a zero stamp as that default.
func (a AuditStamp) IsZero() bool {
	return a.Time == 0 && a.Actor == "" && a.Impersonator == nil && a.Message == nil
}

// defaultStamp is the PDL default of ChangeAuditStamps.created/lastModified
// and Ownership.lastModified.
func defaultStamp() AuditStamp {
	return AuditStamp{Time: 0, Actor: UnknownActor}
}

// orDefault returns a, or DataHub's default stamp when a is zero.
func (a AuditStamp) orDefault() AuditStamp {
	if a.IsZero() {
		return defaultStamp()
	}
	return a
}

// TimeStamp is an event time with an optional actor
// (com.linkedin.common.TimeStamp).
type TimeStamp struct {
	// Time is the event time in milliseconds since the Unix epoch.
	Time int64 `json:"time"`
	// Actor is the URN involved in the event.
	Actor *string `json:"actor,omitempty"`
}

// VersionTag is a resource-defined version string
// (com.linkedin.common.VersionTag).
type VersionTag struct {
	// VersionTag is the version, e.g. "1" or "2024-05-01".
	VersionTag *string `json:"versionTag,omitempty"`
	// MetadataAttribution says who set the version and how.
	MetadataAttribution *MetadataAttribution `json:"metadataAttribution,omitempty"`
}

// MetadataAttribution says who applied a piece of metadata, when, and why
// (com.linkedin.common.MetadataAttribution).
type MetadataAttribution struct {
	// Time is when the metadata was applied, in epoch milliseconds.
	Time int64 `json:"time"`
	// Actor is the URN responsible (a user, or DataHub's system actor).
	Actor string `json:"actor"`
	// Source is the DataHub source (a metadata test, an automation) if any.
	Source *string `json:"source,omitempty"`
	// SourceDetail holds details such as the rule or pipeline id. It
	// defaults to {}: nil is encoded as {}.
	SourceDetail map[string]string `json:"sourceDetail"`
}

// MarshalJSON encodes m with its PDL defaults.
func (m MetadataAttribution) MarshalJSON() ([]byte, error) {
	if reflectEncoding {
		type plain MetadataAttribution
		p := plain(m)
		p.SourceDetail = nonNilMap(p.SourceDetail)
		return marshal(p)
	}
	return finishJSON(m.appendJSON(make([]byte, 0, 128), false))
}

// UnmarshalJSON decodes m; an absent sourceDetail becomes {}.
func (m *MetadataAttribution) UnmarshalJSON(data []byte) error {
	type plain MetadataAttribution
	var p plain
	if err := unmarshalPlain(data, &p, "MetadataAttribution"); err != nil {
		return err
	}
	p.SourceDetail = nonNilMap(p.SourceDetail)
	*m = MetadataAttribution(p)
	return nil
}

// FabricType is an environment label (com.linkedin.common.FabricType), the
// env part of dataset, mlModel and mlModelGroup URNs.
type FabricType string

// FabricType values, in PDL order.
const (
	FabricDev     FabricType = "DEV"      // development
	FabricTest    FabricType = "TEST"     // testing
	FabricQA      FabricType = "QA"       // quality assurance
	FabricUAT     FabricType = "UAT"      // user acceptance testing
	FabricEI      FabricType = "EI"       // early integration
	FabricPre     FabricType = "PRE"      // pre-production
	FabricStg     FabricType = "STG"      // staging
	FabricNonProd FabricType = "NON_PROD" // non-production
	FabricProd    FabricType = "PROD"     // production
	FabricCorp    FabricType = "CORP"     // corporation
	FabricRvw     FabricType = "RVW"      // review
	FabricPrd     FabricType = "PRD"      // alternative spelling of PROD
	FabricTst     FabricType = "TST"      // alternative spelling of TEST
	FabricSIT     FabricType = "SIT"      // system integration testing
	FabricSbx     FabricType = "SBX"      // alternative spelling of SANDBOX
	FabricSandbox FabricType = "SANDBOX"  // sandbox
	FabricCert    FabricType = "CERT"     // certification
)

// MLFeatureDataType is the data type of an ML feature or primary key
// (com.linkedin.common.MLFeatureDataType).
type MLFeatureDataType string

// MLFeatureDataType values, in PDL order.
const (
	MLFeatureDataTypeUseless    MLFeatureDataType = "USELESS"    // unique, discrete, unrelated to the outcome
	MLFeatureDataTypeNominal    MLFeatureDataType = "NOMINAL"    // discrete categories without order
	MLFeatureDataTypeOrdinal    MLFeatureDataType = "ORDINAL"    // discrete, rankable values
	MLFeatureDataTypeBinary     MLFeatureDataType = "BINARY"     // one of two categories
	MLFeatureDataTypeCount      MLFeatureDataType = "COUNT"      // non-negative whole numbers
	MLFeatureDataTypeTime       MLFeatureDataType = "TIME"       // cyclical time data
	MLFeatureDataTypeInterval   MLFeatureDataType = "INTERVAL"   // equally spaced, non-temporal numbers
	MLFeatureDataTypeImage      MLFeatureDataType = "IMAGE"      // image data
	MLFeatureDataTypeVideo      MLFeatureDataType = "VIDEO"      // video data
	MLFeatureDataTypeAudio      MLFeatureDataType = "AUDIO"      // audio data
	MLFeatureDataTypeText       MLFeatureDataType = "TEXT"       // text data
	MLFeatureDataTypeMap        MLFeatureDataType = "MAP"        // mappings such as dicts
	MLFeatureDataTypeSequence   MLFeatureDataType = "SEQUENCE"   // lists, tuples, ranges
	MLFeatureDataTypeSet        MLFeatureDataType = "SET"        // sets
	MLFeatureDataTypeContinuous MLFeatureDataType = "CONTINUOUS" // measurements
	MLFeatureDataTypeByte       MLFeatureDataType = "BYTE"       // binary-encoded values
	MLFeatureDataTypeUnknown    MLFeatureDataType = "UNKNOWN"    // type not known
)
