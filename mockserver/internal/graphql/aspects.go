package graphql

// The stored aspects as this package reads them: its own small types with
// DataHub's PDL field names (metadata-models), deliberately not the SDK's
// aspects package. Optional PDL fields are pointers so that absent reads as
// null.

// keyJSON holds the fields of every key aspect the mock serves
// (datasetKey, mlFeatureKey, mlFeatureTableKey, mlModelKey,
// mlModelGroupKey, dataPlatformKey).
type keyJSON struct {
	Platform         string `json:"platform"`
	Name             string `json:"name"`
	Origin           string `json:"origin"`
	FeatureNamespace string `json:"featureNamespace"`
	PlatformName     string `json:"platformName"`
}

// stampJSON is an AuditStamp or an ML TimeStamp.
type stampJSON struct {
	Time  int64   `json:"time"`
	Actor *string `json:"actor"`
}

type versionTagJSON struct {
	VersionTag *string `json:"versionTag"`
}

type mlFeaturePropertiesJSON struct {
	Description      *string           `json:"description"`
	DataType         *string           `json:"dataType"`
	Version          *versionTagJSON   `json:"version"`
	Sources          *[]string         `json:"sources"`
	CustomProperties map[string]string `json:"customProperties"`
}

type mlFeatureTablePropertiesJSON struct {
	Description      *string           `json:"description"`
	MLFeatures       *[]string         `json:"mlFeatures"`
	CustomProperties map[string]string `json:"customProperties"`
}

type mlModelPropertiesJSON struct {
	Name             *string           `json:"name"`
	Description      *string           `json:"description"`
	Version          *versionTagJSON   `json:"version"`
	Type             *string           `json:"type"`
	MLFeatures       *[]string         `json:"mlFeatures"`
	Tags             *[]string         `json:"tags"`
	Groups           *[]string         `json:"groups"`
	CustomProperties map[string]string `json:"customProperties"`
	ExternalURL      *string           `json:"externalUrl"`
	Created          *stampJSON        `json:"created"`
	LastModified     *stampJSON        `json:"lastModified"`
}

type mlModelGroupPropertiesJSON struct {
	Name             *string           `json:"name"`
	Description      *string           `json:"description"`
	Created          *stampJSON        `json:"created"`
	LastModified     *stampJSON        `json:"lastModified"`
	Version          *versionTagJSON   `json:"version"`
	CustomProperties map[string]string `json:"customProperties"`
	ExternalURL      *string           `json:"externalUrl"`
}

type datasetPropertiesJSON struct {
	Name             *string           `json:"name"`
	QualifiedName    *string           `json:"qualifiedName"`
	Description      *string           `json:"description"`
	CustomProperties map[string]string `json:"customProperties"`
	ExternalURL      *string           `json:"externalUrl"`
	LastModified     *stampJSON        `json:"lastModified"`
}

// editableJSON is every editable*Properties aspect (description, and name on
// editableDatasetProperties).
type editableJSON struct {
	Description *string `json:"description"`
	Name        *string `json:"name"`
}

type schemaMetadataJSON struct {
	SchemaName  string            `json:"schemaName"`
	Platform    string            `json:"platform"`
	Version     int64             `json:"version"`
	Hash        string            `json:"hash"`
	Fields      []schemaFieldJSON `json:"fields"`
	PrimaryKeys *[]string         `json:"primaryKeys"`
	Dataset     *string           `json:"dataset"`
}

type schemaFieldJSON struct {
	FieldPath         string                        `json:"fieldPath"`
	JSONPath          *string                       `json:"jsonPath"`
	Label             *string                       `json:"label"`
	Nullable          bool                          `json:"nullable"`
	Description       *string                       `json:"description"`
	Type              struct{ Type map[string]any } `json:"type"`
	NativeDataType    *string                       `json:"nativeDataType"`
	Recursive         bool                          `json:"recursive"`
	GlobalTags        *globalTagsJSON               `json:"globalTags"`
	GlossaryTerms     *glossaryTermsJSON            `json:"glossaryTerms"`
	IsPartOfKey       *bool                         `json:"isPartOfKey"`
	IsPartitioningKey *bool                         `json:"isPartitioningKey"`
}

type editableSchemaMetadataJSON struct {
	EditableSchemaFieldInfo []editableFieldJSON `json:"editableSchemaFieldInfo"`
}

type editableFieldJSON struct {
	FieldPath     string             `json:"fieldPath"`
	Description   *string            `json:"description"`
	GlobalTags    *globalTagsJSON    `json:"globalTags"`
	GlossaryTerms *glossaryTermsJSON `json:"glossaryTerms"`
}

type ownershipJSON struct {
	Owners []struct {
		Owner string  `json:"owner"`
		Type  *string `json:"type"`
	} `json:"owners"`
	LastModified *stampJSON `json:"lastModified"`
}

type globalTagsJSON struct {
	Tags []struct {
		Tag     string  `json:"tag"`
		Context *string `json:"context"`
	} `json:"tags"`
}

type glossaryTermsJSON struct {
	Terms []struct {
		URN     string  `json:"urn"`
		Context *string `json:"context"`
	} `json:"terms"`
}

type statusJSON struct {
	Removed bool `json:"removed"`
}
