package aspects

// DatasetProperties describes a dataset as its source platform knows it
// (aspect "datasetProperties", com.linkedin.dataset.DatasetProperties).
type DatasetProperties struct {
	// CustomProperties is a free-form property bag. It defaults to {}: nil
	// is encoded as {}.
	CustomProperties map[string]string `json:"customProperties"`
	// ExternalURL links to the dataset on its platform.
	ExternalURL *string `json:"externalUrl,omitempty"`
	// Name is the display name.
	Name *string `json:"name,omitempty"`
	// QualifiedName is the fully qualified name.
	QualifiedName *string `json:"qualifiedName,omitempty"`
	// Description documents the dataset.
	Description *string `json:"description,omitempty"`
	// URI is an abstract location such as hdfs:///data/tracking/PageViewEvent.
	//
	// Deprecated: DataHub deprecates this field; use ExternalURL.
	URI *string `json:"uri,omitempty"`
	// Created is when the dataset was created on its platform.
	Created *TimeStamp `json:"created,omitempty"`
	// LastModified is when the dataset was last modified on its platform.
	LastModified *TimeStamp `json:"lastModified,omitempty"`
	// Tags are legacy unstructured tags. It defaults to []: nil is encoded
	// as [].
	//
	// Deprecated: DataHub deprecates this field; use the GlobalTags aspect.
	Tags []string `json:"tags"`
}

// AspectName returns "datasetProperties".
func (DatasetProperties) AspectName() string { return "datasetProperties" }

// MarshalJSON encodes d with its PDL defaults.
func (d DatasetProperties) MarshalJSON() ([]byte, error) {
	if reflectEncoding {
		type plain DatasetProperties
		p := plain(d)
		p.CustomProperties = nonNilMap(p.CustomProperties)
		p.Tags = nonNil(p.Tags)
		return marshal(p)
	}
	return finishJSON(d.appendJSON(make([]byte, 0, 256), false))
}

// UnmarshalJSON decodes d; absent customProperties and tags become {} and [].
func (d *DatasetProperties) UnmarshalJSON(data []byte) error {
	type plain DatasetProperties
	var p plain
	if err := unmarshalPlain(data, &p, "DatasetProperties"); err != nil {
		return err
	}
	p.CustomProperties = nonNilMap(p.CustomProperties)
	p.Tags = nonNil(p.Tags)
	*d = DatasetProperties(p)
	return nil
}

// EditableDatasetProperties holds edits of a dataset made in DataHub (UI or
// API), kept apart from ingested properties so ingestion does not overwrite
// them (aspect "editableDatasetProperties",
// com.linkedin.dataset.EditableDatasetProperties).
type EditableDatasetProperties struct {
	// Created says who created the record and when. A zero value is encoded
	// as DataHub's default {"time": 0, "actor": "urn:li:corpuser:unknown"}.
	Created AuditStamp `json:"created"`
	// LastModified says who last modified the record and when. A zero value
	// is encoded as DataHub's default stamp.
	LastModified AuditStamp `json:"lastModified"`
	// Deleted says who deleted the record and when.
	Deleted *AuditStamp `json:"deleted,omitempty"`
	// Description documents the dataset; markdown is allowed.
	Description *string `json:"description,omitempty"`
	// Name is an edited display name.
	Name *string `json:"name,omitempty"`
}

// AspectName returns "editableDatasetProperties".
func (EditableDatasetProperties) AspectName() string { return "editableDatasetProperties" }

// MarshalJSON encodes e with its PDL defaults.
func (e EditableDatasetProperties) MarshalJSON() ([]byte, error) {
	type plain EditableDatasetProperties
	p := plain(e)
	p.Created = p.Created.orDefault()
	p.LastModified = p.LastModified.orDefault()
	return marshal(p)
}

// UnmarshalJSON decodes e; absent created and lastModified take DataHub's
// default stamp.
func (e *EditableDatasetProperties) UnmarshalJSON(data []byte) error {
	type plain EditableDatasetProperties
	var p plain
	if err := unmarshalPlain(data, &p, "EditableDatasetProperties"); err != nil {
		return err
	}
	p.Created = p.Created.orDefault()
	p.LastModified = p.LastModified.orDefault()
	*e = EditableDatasetProperties(p)
	return nil
}
