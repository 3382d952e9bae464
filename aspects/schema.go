package aspects

import (
	"encoding/json"
	"errors"
	"fmt"
)

// SchemaMetadata is the schema of a dataset as ingested from its platform
// (aspect "schemaMetadata", com.linkedin.schema.SchemaMetadata).
type SchemaMetadata struct {
	// SchemaName is the schema's name, 1 to 500 characters.
	SchemaName string `json:"schemaName"`
	// Platform is the data platform URN, e.g. "urn:li:dataPlatform:hive".
	Platform string `json:"platform"`
	// Version is the schema version; 0 is common.
	Version int64 `json:"version"`
	// Created says who created the schema and when. A zero value is encoded
	// as DataHub's default {"time": 0, "actor": "urn:li:corpuser:unknown"}.
	Created AuditStamp `json:"created"`
	// LastModified says who last modified the schema and when. A zero value
	// is encoded as DataHub's default stamp.
	LastModified AuditStamp `json:"lastModified"`
	// Deleted says who deleted the schema and when.
	Deleted *AuditStamp `json:"deleted,omitempty"`
	// Dataset is the URN of the dataset the schema belongs to.
	Dataset *string `json:"dataset,omitempty"`
	// Cluster is the cluster the schema is in.
	Cluster *string `json:"cluster,omitempty"`
	// Hash is a hash of the schema; DataHub's tools often send "".
	Hash string `json:"hash"`
	// PlatformSchema is the schema in the platform's own terms; it must be
	// set to encode, e.g. aspects.OtherSchema{RawSchema: ""}.
	PlatformSchema PlatformSchema `json:"platformSchema"`
	// Fields are the schema's fields. Nil is encoded as [].
	Fields []SchemaField `json:"fields"`
	// PrimaryKeys are the field paths of the primary key.
	PrimaryKeys []string `json:"primaryKeys,omitzero"`
	// ForeignKeysSpecs maps names to foreign key specifications.
	//
	// Deprecated: DataHub deprecates this field; use ForeignKeys.
	ForeignKeysSpecs map[string]ForeignKeySpec `json:"foreignKeysSpecs,omitzero"`
	// ForeignKeys are the schema's foreign key constraints.
	ForeignKeys []ForeignKeyConstraint `json:"foreignKeys,omitzero"`
}

// AspectName returns "schemaMetadata".
func (SchemaMetadata) AspectName() string { return "schemaMetadata" }

// MarshalJSON encodes s with its PDL defaults and the platformSchema union,
// which it writes after the other fields (JSON key order carries no
// meaning). It fails when PlatformSchema is nil.
func (s SchemaMetadata) MarshalJSON() ([]byte, error) {
	if s.PlatformSchema == nil {
		return nil, errors.New("schema metadata: platformSchema is not set")
	}
	ps, err := encodeUnion(s.PlatformSchema)
	if err != nil {
		return nil, fmt.Errorf("schema metadata: platformSchema: %w", err)
	}
	type plain SchemaMetadata
	p := plain(s)
	p.Created = p.Created.orDefault()
	p.LastModified = p.LastModified.orDefault()
	p.Fields = nonNil(p.Fields)
	return marshal(struct {
		plain
		PlatformSchema json.RawMessage `json:"platformSchema"`
	}{p, ps})
}

// UnmarshalJSON decodes s; absent created and lastModified take DataHub's
// default stamp.
func (s *SchemaMetadata) UnmarshalJSON(data []byte) error {
	type plain SchemaMetadata
	var aux struct {
		plain
		PlatformSchema json.RawMessage `json:"platformSchema"`
	}
	if err := unmarshalPlain(data, &aux, "SchemaMetadata"); err != nil {
		return err
	}
	p := aux.plain
	if aux.PlatformSchema != nil {
		key, raw, err := decodeUnion(aux.PlatformSchema)
		if err != nil {
			return fmt.Errorf("schema metadata: platformSchema: %w", err)
		}
		if p.PlatformSchema, err = decodeMember(platformSchemas, key, raw); err != nil {
			return fmt.Errorf("schema metadata: platformSchema: %w", err)
		}
	}
	p.Created = p.Created.orDefault()
	p.LastModified = p.LastModified.orDefault()
	*s = SchemaMetadata(p)
	return nil
}

// SchemaField is one field of a dataset schema (com.linkedin.schema.SchemaField).
type SchemaField struct {
	// FieldPath is the field's path: a dotted path, or a version-2 path
	// starting with "[version=2.0]".
	FieldPath string `json:"fieldPath"`
	// JSONPath is the field's JSON path.
	//
	// Deprecated: DataHub deprecates this field.
	JSONPath *string `json:"jsonPath,omitempty"`
	// Nullable reports whether the field may be null. It defaults to false
	// and is always encoded.
	Nullable bool `json:"nullable"`
	// Description documents the field.
	Description *string `json:"description,omitempty"`
	// Label is a display label.
	//
	// Deprecated: DataHub deprecates this field.
	Label *string `json:"label,omitempty"`
	// Created says who created the field and when.
	Created *AuditStamp `json:"created,omitempty"`
	// LastModified says who last modified the field and when.
	LastModified *AuditStamp `json:"lastModified,omitempty"`
	// Type is the field's logical type, e.g. aspects.DataType(aspects.StringType{}).
	Type SchemaFieldDataType `json:"type"`
	// NativeDataType is the platform's type name, e.g. "varchar(64)".
	NativeDataType string `json:"nativeDataType"`
	// Recursive reports whether the field's type is recursive. It defaults
	// to false and is always encoded.
	Recursive bool `json:"recursive"`
	// GlobalTags are tags of the field set at ingestion.
	GlobalTags *GlobalTags `json:"globalTags,omitempty"`
	// GlossaryTerms are glossary terms of the field set at ingestion.
	GlossaryTerms *GlossaryTerms `json:"glossaryTerms,omitempty"`
	// IsPartOfKey reports whether the field is part of the key. It defaults
	// to false and is always encoded.
	IsPartOfKey bool `json:"isPartOfKey"`
	// IsPartitioningKey reports whether the field partitions the dataset.
	IsPartitioningKey *bool `json:"isPartitioningKey,omitempty"`
	// JSONProps holds extra properties of the field as JSON text.
	JSONProps *string `json:"jsonProps,omitempty"`
}

// ForeignKeyConstraint is a foreign key of a schema
// (com.linkedin.schema.ForeignKeyConstraint).
type ForeignKeyConstraint struct {
	// Name is the constraint's name.
	Name string `json:"name"`
	// ForeignFields are the schemaField URNs of the referenced fields.
	ForeignFields []string `json:"foreignFields"`
	// SourceFields are the schemaField URNs of the local fields.
	SourceFields []string `json:"sourceFields"`
	// ForeignDataset is the URN of the referenced dataset.
	ForeignDataset string `json:"foreignDataset"`
}

// MarshalJSON encodes c; nil slices are encoded as [].
func (c ForeignKeyConstraint) MarshalJSON() ([]byte, error) {
	type plain ForeignKeyConstraint
	p := plain(c)
	p.ForeignFields = nonNil(p.ForeignFields)
	p.SourceFields = nonNil(p.SourceFields)
	return marshal(p)
}

// ForeignKeySpec is a deprecated foreign key specification
// (com.linkedin.schema.ForeignKeySpec).
type ForeignKeySpec struct {
	// ForeignKey is the key: a DatasetFieldForeignKey or an UrnForeignKey.
	// It must be set to encode.
	ForeignKey ForeignKey `json:"foreignKey"`
}

// MarshalJSON encodes f as {"foreignKey": {<member record name>: {...}}}.
func (f ForeignKeySpec) MarshalJSON() ([]byte, error) {
	if f.ForeignKey == nil {
		return nil, errors.New("foreign key spec: foreignKey is not set")
	}
	u, err := encodeUnion(f.ForeignKey)
	if err != nil {
		return nil, fmt.Errorf("foreign key spec: %w", err)
	}
	return marshal(map[string]json.RawMessage{"foreignKey": u})
}

// UnmarshalJSON decodes the union JSON written by MarshalJSON.
func (f *ForeignKeySpec) UnmarshalJSON(data []byte) error {
	var rec struct {
		ForeignKey json.RawMessage `json:"foreignKey"`
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		return fmt.Errorf("foreign key spec: %w", err)
	}
	if rec.ForeignKey == nil {
		return errors.New(`foreign key spec: missing required field "foreignKey"`)
	}
	key, raw, err := decodeUnion(rec.ForeignKey)
	if err != nil {
		return fmt.Errorf("foreign key spec: %w", err)
	}
	if f.ForeignKey, err = decodeMember(foreignKeys, key, raw); err != nil {
		return fmt.Errorf("foreign key spec: %w", err)
	}
	return nil
}

// EditableSchemaMetadata holds edits of a dataset's schema made in DataHub,
// kept apart from the ingested SchemaMetadata (aspect
// "editableSchemaMetadata", com.linkedin.schema.EditableSchemaMetadata).
type EditableSchemaMetadata struct {
	// Created says who created the record and when. A zero value is encoded
	// as DataHub's default {"time": 0, "actor": "urn:li:corpuser:unknown"}.
	Created AuditStamp `json:"created"`
	// LastModified says who last modified the record and when. A zero value
	// is encoded as DataHub's default stamp.
	LastModified AuditStamp `json:"lastModified"`
	// Deleted says who deleted the record and when.
	Deleted *AuditStamp `json:"deleted,omitempty"`
	// EditableSchemaFieldInfo holds the per-field edits. Nil is encoded as [].
	EditableSchemaFieldInfo []EditableSchemaFieldInfo `json:"editableSchemaFieldInfo"`
}

// AspectName returns "editableSchemaMetadata".
func (EditableSchemaMetadata) AspectName() string { return "editableSchemaMetadata" }

// MarshalJSON encodes e with its PDL defaults.
func (e EditableSchemaMetadata) MarshalJSON() ([]byte, error) {
	type plain EditableSchemaMetadata
	p := plain(e)
	p.Created = p.Created.orDefault()
	p.LastModified = p.LastModified.orDefault()
	p.EditableSchemaFieldInfo = nonNil(p.EditableSchemaFieldInfo)
	return marshal(p)
}

// UnmarshalJSON decodes e; absent created and lastModified take DataHub's
// default stamp.
func (e *EditableSchemaMetadata) UnmarshalJSON(data []byte) error {
	type plain EditableSchemaMetadata
	var p plain
	if err := unmarshalPlain(data, &p, "EditableSchemaMetadata"); err != nil {
		return err
	}
	p.Created = p.Created.orDefault()
	p.LastModified = p.LastModified.orDefault()
	*e = EditableSchemaMetadata(p)
	return nil
}

// EditableSchemaFieldInfo holds DataHub-side edits of one schema field
// (com.linkedin.schema.EditableSchemaFieldInfo).
type EditableSchemaFieldInfo struct {
	// FieldPath is the path of the edited field.
	FieldPath string `json:"fieldPath"`
	// Description documents the field; markdown is allowed.
	Description *string `json:"description,omitempty"`
	// GlobalTags are tags added to the field.
	GlobalTags *GlobalTags `json:"globalTags,omitempty"`
	// GlossaryTerms are glossary terms added to the field.
	GlossaryTerms *GlossaryTerms `json:"glossaryTerms,omitempty"`
}
