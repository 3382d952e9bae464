package aspects

// DataPlatformInfo describes a data platform (aspect "dataPlatformInfo",
// com.linkedin.dataplatform.DataPlatformInfo).
type DataPlatformInfo struct {
	// Name is the platform's name, at most 15 characters.
	Name string `json:"name"`
	// DisplayName is the name shown for the platform.
	DisplayName *string `json:"displayName,omitempty"`
	// Type is the kind of platform.
	Type PlatformType `json:"type"`
	// DatasetNameDelimiter separates parts of dataset names on the
	// platform, e.g. "/" for HDFS and "." for Oracle.
	DatasetNameDelimiter string `json:"datasetNameDelimiter"`
	// Logical reports whether the platform's datasets are hand-authored
	// logical models.
	Logical *bool `json:"logical,omitempty"`
	// LogoURL is the URL of the platform's logo.
	LogoURL *string `json:"logoUrl,omitempty"`
}

// AspectName returns "dataPlatformInfo".
func (DataPlatformInfo) AspectName() string { return "dataPlatformInfo" }

// PlatformType is the kind of a data platform
// (com.linkedin.dataplatform.PlatformType).
type PlatformType string

// PlatformType values, in PDL order.
const (
	PlatformTypeFileSystem    PlatformType = "FILE_SYSTEM"     // e.g. hdfs
	PlatformTypeKeyValueStore PlatformType = "KEY_VALUE_STORE" // e.g. espresso
	PlatformTypeMessageBroker PlatformType = "MESSAGE_BROKER"  // e.g. kafka
	PlatformTypeObjectStore   PlatformType = "OBJECT_STORE"    // e.g. ambry
	PlatformTypeOLAPDatastore PlatformType = "OLAP_DATASTORE"  // e.g. pinot
	PlatformTypeOthers        PlatformType = "OTHERS"          // anything else
	PlatformTypeQueryEngine   PlatformType = "QUERY_ENGINE"    // e.g. presto
	PlatformTypeRelationalDB  PlatformType = "RELATIONAL_DB"   // e.g. mysql
	PlatformTypeSearchEngine  PlatformType = "SEARCH_ENGINE"   // e.g. elasticsearch
)
