package aspects

// DatasetKey is the key aspect of a dataset (aspect "datasetKey",
// com.linkedin.metadata.key.DatasetKey): the parts of
// urn:li:dataset:(<platform>,<name>,<origin>).
type DatasetKey struct {
	// Platform is the data platform URN, e.g. "urn:li:dataPlatform:hive".
	Platform string `json:"platform"`
	// Name is the dataset's name on the platform.
	Name string `json:"name"`
	// Origin is the environment, e.g. FabricProd.
	Origin FabricType `json:"origin"`
}

// AspectName returns "datasetKey".
func (DatasetKey) AspectName() string { return "datasetKey" }

// MLFeatureKey is the key aspect of an ML feature (aspect "mlFeatureKey",
// com.linkedin.metadata.key.MLFeatureKey): the parts of
// urn:li:mlFeature:(<featureNamespace>,<name>).
type MLFeatureKey struct {
	// FeatureNamespace is the feature's namespace (its feature table's name).
	FeatureNamespace string `json:"featureNamespace"`
	// Name is the feature's name.
	Name string `json:"name"`
}

// AspectName returns "mlFeatureKey".
func (MLFeatureKey) AspectName() string { return "mlFeatureKey" }

// MLFeatureTableKey is the key aspect of an ML feature table (aspect
// "mlFeatureTableKey", com.linkedin.metadata.key.MLFeatureTableKey): the
// parts of urn:li:mlFeatureTable:(<platform>,<name>).
type MLFeatureTableKey struct {
	// Platform is the data platform URN.
	Platform string `json:"platform"`
	// Name is the feature table's name.
	Name string `json:"name"`
}

// AspectName returns "mlFeatureTableKey".
func (MLFeatureTableKey) AspectName() string { return "mlFeatureTableKey" }

// MLModelKey is the key aspect of an ML model (aspect "mlModelKey",
// com.linkedin.metadata.key.MLModelKey): the parts of
// urn:li:mlModel:(<platform>,<name>,<origin>).
type MLModelKey struct {
	// Platform is the data platform URN.
	Platform string `json:"platform"`
	// Name is the model's name.
	Name string `json:"name"`
	// Origin is the environment.
	Origin FabricType `json:"origin"`
}

// AspectName returns "mlModelKey".
func (MLModelKey) AspectName() string { return "mlModelKey" }

// MLModelGroupKey is the key aspect of an ML model group (aspect
// "mlModelGroupKey", com.linkedin.metadata.key.MLModelGroupKey): the parts of
// urn:li:mlModelGroup:(<platform>,<name>,<origin>).
type MLModelGroupKey struct {
	// Platform is the data platform URN.
	Platform string `json:"platform"`
	// Name is the model group's name.
	Name string `json:"name"`
	// Origin is the environment.
	Origin FabricType `json:"origin"`
}

// AspectName returns "mlModelGroupKey".
func (MLModelGroupKey) AspectName() string { return "mlModelGroupKey" }

// DataPlatformKey is the key aspect of a data platform (aspect
// "dataPlatformKey", com.linkedin.metadata.key.DataPlatformKey): the part of
// urn:li:dataPlatform:<platformName>.
type DataPlatformKey struct {
	// PlatformName is the platform's name, e.g. "hive".
	PlatformName string `json:"platformName"`
}

// AspectName returns "dataPlatformKey".
func (DataPlatformKey) AspectName() string { return "dataPlatformKey" }

// TestKey is the key aspect of a metadata test (aspect "testKey",
// com.linkedin.metadata.key.TestKey): the part of urn:li:test:<id>.
type TestKey struct {
	// ID is the test's id.
	ID string `json:"id"`
}

// AspectName returns "testKey".
func (TestKey) AspectName() string { return "testKey" }
