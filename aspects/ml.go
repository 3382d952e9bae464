package aspects

// MLFeatureProperties describes an ML feature (aspect "mlFeatureProperties",
// com.linkedin.ml.metadata.MLFeatureProperties).
type MLFeatureProperties struct {
	// CustomProperties is a free-form property bag. It defaults to {}: nil
	// is encoded as {}.
	CustomProperties map[string]string `json:"customProperties"`
	// Description documents the feature.
	Description *string `json:"description,omitempty"`
	// DataType is the feature's data type.
	DataType *MLFeatureDataType `json:"dataType,omitempty"`
	// Version is the feature's version.
	Version *VersionTag `json:"version,omitempty"`
	// Sources are the URNs of the datasets the feature derives from.
	Sources []string `json:"sources,omitzero"`
}

// AspectName returns "mlFeatureProperties".
func (MLFeatureProperties) AspectName() string { return "mlFeatureProperties" }

// MarshalJSON encodes m with its PDL defaults.
func (m MLFeatureProperties) MarshalJSON() ([]byte, error) {
	type plain MLFeatureProperties
	p := plain(m)
	p.CustomProperties = nonNilMap(p.CustomProperties)
	return marshal(p)
}

// UnmarshalJSON decodes m; an absent customProperties becomes {}.
func (m *MLFeatureProperties) UnmarshalJSON(data []byte) error {
	type plain MLFeatureProperties
	var p plain
	if err := unmarshalPlain(data, &p, "MLFeatureProperties"); err != nil {
		return err
	}
	p.CustomProperties = nonNilMap(p.CustomProperties)
	*m = MLFeatureProperties(p)
	return nil
}

// MLFeatureTableProperties describes an ML feature table (aspect
// "mlFeatureTableProperties", com.linkedin.ml.metadata.MLFeatureTableProperties).
type MLFeatureTableProperties struct {
	// CustomProperties is a free-form property bag. It defaults to {}: nil
	// is encoded as {}.
	CustomProperties map[string]string `json:"customProperties"`
	// Description documents the feature table.
	Description *string `json:"description,omitempty"`
	// MLFeatures are the URNs of the features in the table.
	MLFeatures []string `json:"mlFeatures,omitzero"`
	// MLPrimaryKeys are the URNs of the table's primary keys (a composite
	// key when there are several).
	MLPrimaryKeys []string `json:"mlPrimaryKeys,omitzero"`
}

// AspectName returns "mlFeatureTableProperties".
func (MLFeatureTableProperties) AspectName() string { return "mlFeatureTableProperties" }

// MarshalJSON encodes m with its PDL defaults.
func (m MLFeatureTableProperties) MarshalJSON() ([]byte, error) {
	type plain MLFeatureTableProperties
	p := plain(m)
	p.CustomProperties = nonNilMap(p.CustomProperties)
	return marshal(p)
}

// UnmarshalJSON decodes m; an absent customProperties becomes {}.
func (m *MLFeatureTableProperties) UnmarshalJSON(data []byte) error {
	type plain MLFeatureTableProperties
	var p plain
	if err := unmarshalPlain(data, &p, "MLFeatureTableProperties"); err != nil {
		return err
	}
	p.CustomProperties = nonNilMap(p.CustomProperties)
	*m = MLFeatureTableProperties(p)
	return nil
}

// MLModelProperties describes an ML model, the outcome of one training run
// (aspect "mlModelProperties", com.linkedin.ml.metadata.MLModelProperties).
type MLModelProperties struct {
	// CustomProperties is a free-form property bag. It defaults to {}: nil
	// is encoded as {}.
	CustomProperties map[string]string `json:"customProperties"`
	// ExternalURL links to the model on an external platform.
	ExternalURL *string `json:"externalUrl,omitempty"`
	// TrainingJobs are the URNs of the jobs or process instances that
	// trained the model.
	TrainingJobs []string `json:"trainingJobs,omitzero"`
	// DownstreamJobs are the URNs of the jobs or process instances that use
	// the model.
	DownstreamJobs []string `json:"downstreamJobs,omitzero"`
	// Name is the display name.
	Name *string `json:"name,omitempty"`
	// Description documents the model.
	Description *string `json:"description,omitempty"`
	// Date is when the model was developed, in epoch milliseconds.
	//
	// Deprecated: DataHub deprecates this field; use Created.
	Date *int64 `json:"date,omitempty"`
	// Created says when and by whom the model was created.
	Created *TimeStamp `json:"created,omitempty"`
	// LastModified says when the model was last modified.
	LastModified *TimeStamp `json:"lastModified,omitempty"`
	// Version is the model's version.
	Version *VersionTag `json:"version,omitempty"`
	// Type is a free-text model type, e.g. "Naive Bayes classifier".
	Type *string `json:"type,omitempty"`
	// HyperParameters maps names to values. DataHub deprecates it in favour
	// of HyperParams.
	HyperParameters map[string]HyperParameterValueType `json:"hyperParameters,omitzero"`
	// HyperParams are the model's hyperparameters.
	HyperParams []MLHyperParam `json:"hyperParams,omitzero"`
	// TrainingMetrics are metrics measured in training.
	TrainingMetrics []MLMetric `json:"trainingMetrics,omitzero"`
	// OnlineMetrics are metrics measured in production.
	OnlineMetrics []MLMetric `json:"onlineMetrics,omitzero"`
	// MLFeatures are the URNs of the features used for training.
	MLFeatures []string `json:"mlFeatures,omitzero"`
	// Tags are free-form tags. It defaults to []: nil is encoded as [].
	Tags []string `json:"tags"`
	// Deployments are the URNs of the model's deployments.
	Deployments []string `json:"deployments,omitzero"`
	// Groups are the URNs of the model groups the model belongs to.
	Groups []string `json:"groups,omitzero"`
}

// AspectName returns "mlModelProperties".
func (MLModelProperties) AspectName() string { return "mlModelProperties" }

// MarshalJSON encodes m with its PDL defaults.
func (m MLModelProperties) MarshalJSON() ([]byte, error) {
	type plain MLModelProperties
	p := plain(m)
	p.CustomProperties = nonNilMap(p.CustomProperties)
	p.Tags = nonNil(p.Tags)
	return marshal(p)
}

// UnmarshalJSON decodes m; absent customProperties and tags become {} and [].
func (m *MLModelProperties) UnmarshalJSON(data []byte) error {
	type plain MLModelProperties
	var p plain
	if err := unmarshalPlain(data, &p, "MLModelProperties"); err != nil {
		return err
	}
	p.CustomProperties = nonNilMap(p.CustomProperties)
	p.Tags = nonNil(p.Tags)
	*m = MLModelProperties(p)
	return nil
}

// MLModelGroupProperties describes an ML model group, the container of all
// runs of one model (aspect "mlModelGroupProperties",
// com.linkedin.ml.metadata.MLModelGroupProperties).
type MLModelGroupProperties struct {
	// CustomProperties is a free-form property bag. It defaults to {}: nil
	// is encoded as {}.
	CustomProperties map[string]string `json:"customProperties"`
	// TrainingJobs are the URNs of the jobs or process instances that
	// trained the group's models.
	TrainingJobs []string `json:"trainingJobs,omitzero"`
	// DownstreamJobs are the URNs of the jobs or process instances that use
	// the group.
	DownstreamJobs []string `json:"downstreamJobs,omitzero"`
	// ExternalURL links to the group on an external platform.
	ExternalURL *string `json:"externalUrl,omitempty"`
	// Name is the display name.
	Name *string `json:"name,omitempty"`
	// Description documents the group.
	Description *string `json:"description,omitempty"`
	// CreatedAt is when the group was developed, in epoch milliseconds.
	//
	// Deprecated: DataHub deprecates this field; use Created.
	CreatedAt *int64 `json:"createdAt,omitempty"`
	// Created says when and by whom the group was created.
	Created *TimeStamp `json:"created,omitempty"`
	// LastModified says when the group was last modified.
	LastModified *TimeStamp `json:"lastModified,omitempty"`
	// Version is the group's version.
	Version *VersionTag `json:"version,omitempty"`
}

// AspectName returns "mlModelGroupProperties".
func (MLModelGroupProperties) AspectName() string { return "mlModelGroupProperties" }

// MarshalJSON encodes m with its PDL defaults.
func (m MLModelGroupProperties) MarshalJSON() ([]byte, error) {
	type plain MLModelGroupProperties
	p := plain(m)
	p.CustomProperties = nonNilMap(p.CustomProperties)
	return marshal(p)
}

// UnmarshalJSON decodes m; an absent customProperties becomes {}.
func (m *MLModelGroupProperties) UnmarshalJSON(data []byte) error {
	type plain MLModelGroupProperties
	var p plain
	if err := unmarshalPlain(data, &p, "MLModelGroupProperties"); err != nil {
		return err
	}
	p.CustomProperties = nonNilMap(p.CustomProperties)
	*m = MLModelGroupProperties(p)
	return nil
}

// MLHyperParam is one hyperparameter of a model
// (com.linkedin.ml.metadata.MLHyperParam).
type MLHyperParam struct {
	// Name is the hyperparameter's name.
	Name string `json:"name"`
	// Description documents the hyperparameter.
	Description *string `json:"description,omitempty"`
	// Value is the hyperparameter's value as text.
	Value *string `json:"value,omitempty"`
	// CreatedAt is when it was set, in epoch milliseconds.
	CreatedAt *int64 `json:"createdAt,omitempty"`
}

// MLMetric is one metric of a model (com.linkedin.ml.metadata.MLMetric).
type MLMetric struct {
	// Name is the metric's name.
	Name string `json:"name"`
	// Description documents the metric.
	Description *string `json:"description,omitempty"`
	// Value is the metric's value as text.
	Value *string `json:"value,omitempty"`
	// CreatedAt is when it was measured, in epoch milliseconds.
	CreatedAt *int64 `json:"createdAt,omitempty"`
}

// EditableMLFeatureProperties holds UI edits of an ML feature (aspect
// "editableMlFeatureProperties",
// com.linkedin.ml.metadata.EditableMLFeatureProperties).
type EditableMLFeatureProperties struct {
	// Description documents the feature.
	Description *string `json:"description,omitempty"`
}

// AspectName returns "editableMlFeatureProperties".
func (EditableMLFeatureProperties) AspectName() string { return "editableMlFeatureProperties" }

// EditableMLFeatureTableProperties holds UI edits of an ML feature table
// (aspect "editableMlFeatureTableProperties",
// com.linkedin.ml.metadata.EditableMLFeatureTableProperties).
type EditableMLFeatureTableProperties struct {
	// Description documents the feature table.
	Description *string `json:"description,omitempty"`
}

// AspectName returns "editableMlFeatureTableProperties".
func (EditableMLFeatureTableProperties) AspectName() string {
	return "editableMlFeatureTableProperties"
}

// EditableMLModelProperties holds UI edits of an ML model (aspect
// "editableMlModelProperties",
// com.linkedin.ml.metadata.EditableMLModelProperties).
type EditableMLModelProperties struct {
	// Description documents the model.
	Description *string `json:"description,omitempty"`
}

// AspectName returns "editableMlModelProperties".
func (EditableMLModelProperties) AspectName() string { return "editableMlModelProperties" }

// EditableMLModelGroupProperties holds UI edits of an ML model group (aspect
// "editableMlModelGroupProperties",
// com.linkedin.ml.metadata.EditableMLModelGroupProperties).
type EditableMLModelGroupProperties struct {
	// Description documents the model group.
	Description *string `json:"description,omitempty"`
}

// AspectName returns "editableMlModelGroupProperties".
func (EditableMLModelGroupProperties) AspectName() string {
	return "editableMlModelGroupProperties"
}
