package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/urn"
)

// The results of the typed GraphQL reads, shaped as DataHub's GraphQL
// types. Absent values are nil: DataHub answers null for an aspect that was
// never written. An entity that was never written still comes back, built
// from its URN (name, platform, origin), with Exists false.

// EntityRef is a referenced entity: a platform, a group, a feature, a
// source dataset, a tag or glossary term, an owner.
type EntityRef struct {
	URN  string `json:"urn"`
	Type string `json:"type,omitempty"`
	Name string `json:"name,omitempty"`
}

// CustomProperty is one customProperties entry.
type CustomProperty struct {
	Key   string  `json:"key"`
	Value *string `json:"value"`
}

// AuditStampView is a time (epoch milliseconds) and the actor.
type AuditStampView struct {
	Time  int64   `json:"time"`
	Actor *string `json:"actor"`
}

// VersionTagView is a version label.
type VersionTagView struct {
	VersionTag *string `json:"versionTag"`
}

// EditableProperties are the description (and name) edited in the UI.
type EditableProperties struct {
	Description *string `json:"description"`
}

// StatusView says whether the entity is soft-deleted.
type StatusView struct {
	Removed bool `json:"removed"`
}

// GlobalTagsView are an entity's tags.
type GlobalTagsView struct {
	// Tags are the tags, each with its context.
	Tags []TagAssociationView `json:"tags"`
}

// TagAssociationView is a tag on an entity (GraphQL's TagAssociation).
type TagAssociationView struct {
	// Tag is the tag.
	Tag EntityRef `json:"tag"`
	// Context is the association's context, nil when none.
	Context *string `json:"context"`
}

// GlossaryTermsView are an entity's glossary terms.
type GlossaryTermsView struct {
	// Terms are the terms.
	Terms []GlossaryTermAssociationView `json:"terms"`
}

// GlossaryTermAssociationView is a glossary term on an entity (GraphQL's
// GlossaryTermAssociation).
type GlossaryTermAssociationView struct {
	// Term is the glossary term.
	Term EntityRef `json:"term"`
}

// OwnershipView lists an entity's owners.
type OwnershipView struct {
	// Owners are the owners.
	Owners []OwnerView `json:"owners"`
}

// OwnerView is one owner of an entity (GraphQL's Owner).
type OwnerView struct {
	// Owner is the user or group (its URN and type, CORP_USER or
	// CORP_GROUP).
	Owner EntityRef `json:"owner"`
	// Type is the ownership type, such as TECHNICAL_OWNER.
	Type *string `json:"type"`
}

// InstitutionalMemoryView lists an entity's links.
type InstitutionalMemoryView struct {
	// Elements are the links.
	Elements []InstitutionalMemoryMetadataView `json:"elements"`
}

// InstitutionalMemoryMetadataView is one documentation link (GraphQL's
// InstitutionalMemoryMetadata).
type InstitutionalMemoryMetadataView struct {
	// URL is the link.
	URL string `json:"url"`
	// Label is the link's text.
	Label string `json:"label"`
	// Created says when and by whom the link was added.
	Created AuditStampView `json:"created"`
}

// Common are the fields every typed result has.
type Common struct {
	URN                 string                   `json:"urn"`
	Type                string                   `json:"type"`
	Exists              *bool                    `json:"exists"`
	Status              *StatusView              `json:"status"`
	Tags                *GlobalTagsView          `json:"tags"`
	GlossaryTerms       *GlossaryTermsView       `json:"glossaryTerms"`
	Ownership           *OwnershipView           `json:"ownership"`
	InstitutionalMemory *InstitutionalMemoryView `json:"institutionalMemory"`
	EditableProperties  *EditableProperties      `json:"editableProperties"`
}

// MLFeatureView is GraphQL's MLFeature.
type MLFeatureView struct {
	Common
	Name             string  `json:"name"`
	FeatureNamespace string  `json:"featureNamespace"`
	Description      *string `json:"description"`
	DataType         *string `json:"dataType"`
	// Properties are the feature's ingested properties, nil when never
	// written.
	Properties *MLFeaturePropertiesView `json:"properties"`
}

// MLFeaturePropertiesView are a feature's properties (GraphQL's
// MLFeatureProperties).
type MLFeaturePropertiesView struct {
	// Description is the ingested description.
	Description *string `json:"description"`
	// DataType is the feature's data type, such as CONTINUOUS.
	DataType *string `json:"dataType"`
	// Version is the feature's version label.
	Version *VersionTagView `json:"version"`
	// Sources are the datasets the feature is computed from.
	Sources []EntityRef `json:"sources"`
	// CustomProperties are free key-value pairs.
	CustomProperties []CustomProperty `json:"customProperties"`
}

// MLFeatureTableView is GraphQL's MLFeatureTable.
type MLFeatureTableView struct {
	Common
	Name        string    `json:"name"`
	Platform    EntityRef `json:"platform"`
	Description *string   `json:"description"`
	// Properties are the table's ingested properties, nil when never
	// written.
	Properties *MLFeatureTablePropertiesView `json:"properties"`
}

// MLFeatureTablePropertiesView are a feature table's properties (GraphQL's
// MLFeatureTableProperties).
type MLFeatureTablePropertiesView struct {
	// Description is the ingested description.
	Description *string `json:"description"`
	// MLFeatures are the table's features.
	MLFeatures []EntityRef `json:"mlFeatures"`
	// CustomProperties are free key-value pairs.
	CustomProperties []CustomProperty `json:"customProperties"`
}

// MLModelView is GraphQL's MLModel.
type MLModelView struct {
	Common
	Name        string    `json:"name"`
	Platform    EntityRef `json:"platform"`
	Origin      string    `json:"origin"`
	Description *string   `json:"description"`
	// Properties are the model's ingested properties, nil when never
	// written.
	Properties *MLModelPropertiesView `json:"properties"`
}

// MLModelPropertiesView are a model's properties (GraphQL's
// MLModelProperties).
type MLModelPropertiesView struct {
	// Name is the model's display name.
	Name *string `json:"name"`
	// Description is the ingested description.
	Description *string `json:"description"`
	// Version is the model's version label.
	Version *string `json:"version"`
	// Type is the free-text model type.
	Type *string `json:"type"`
	// MLFeatures are feature URNs; nil when unset.
	MLFeatures []string `json:"mlFeatures"`
	// Groups are the model's groups; empty (not nil) when it has none.
	Groups []EntityRef `json:"groups"`
	// Tags are free-text tags of the model's properties.
	Tags []string `json:"tags"`
	// CustomProperties are free key-value pairs.
	CustomProperties []CustomProperty `json:"customProperties"`
	// ExternalURL links to the model elsewhere.
	ExternalURL *string `json:"externalUrl"`
	// Created says when and by whom the model was created.
	Created *AuditStampView `json:"created"`
}

// MLModelGroupView is GraphQL's MLModelGroup.
type MLModelGroupView struct {
	Common
	Name        string    `json:"name"`
	Platform    EntityRef `json:"platform"`
	Origin      string    `json:"origin"`
	Description *string   `json:"description"`
	// Properties are the group's ingested properties, nil when never
	// written.
	Properties *MLModelGroupPropertiesView `json:"properties"`
}

// MLModelGroupPropertiesView are a model group's properties (GraphQL's
// MLModelGroupProperties).
type MLModelGroupPropertiesView struct {
	// Name is the group's display name.
	Name *string `json:"name"`
	// Description is the ingested description.
	Description *string `json:"description"`
	// Version is the group's version label.
	Version *VersionTagView `json:"version"`
	// Created says when and by whom the group was created.
	Created *AuditStampView `json:"created"`
	// CustomProperties are free key-value pairs.
	CustomProperties []CustomProperty `json:"customProperties"`
	// ExternalURL links to the group elsewhere.
	ExternalURL *string `json:"externalUrl"`
}

// DatasetView is GraphQL's Dataset, with its columns.
type DatasetView struct {
	Common
	Name     string    `json:"name"`
	Platform EntityRef `json:"platform"`
	Origin   string    `json:"origin"`
	// Properties are the dataset's ingested properties, nil when never
	// written.
	Properties *DatasetPropertiesView `json:"properties"`
	// SchemaMetadata is the dataset's ingested schema, nil when none.
	SchemaMetadata *SchemaMetadataView `json:"schemaMetadata"`
	// EditableSchemaMetadata holds the column descriptions edited in
	// DataHub, nil when none.
	EditableSchemaMetadata *EditableSchemaMetadataView `json:"editableSchemaMetadata"`
}

// DatasetPropertiesView are a dataset's properties (GraphQL's
// DatasetProperties).
type DatasetPropertiesView struct {
	// Name is the dataset's display name.
	Name string `json:"name"`
	// QualifiedName is the dataset's fully qualified name.
	QualifiedName *string `json:"qualifiedName"`
	// Description is the ingested description.
	Description *string `json:"description"`
	// CustomProperties are free key-value pairs.
	CustomProperties []CustomProperty `json:"customProperties"`
	// ExternalURL links to the dataset elsewhere.
	ExternalURL *string `json:"externalUrl"`
}

// SchemaMetadataView is a dataset's schema (GraphQL's SchemaMetadata).
type SchemaMetadataView struct {
	// Name is the schema's name.
	Name string `json:"name"`
	// PlatformURN is the schema's data platform.
	PlatformURN string `json:"platformUrn"`
	// Version is the schema's version.
	Version int64 `json:"version"`
	// Fields are the columns.
	Fields []SchemaFieldView `json:"fields"`
}

// EditableSchemaMetadataView holds the column descriptions, tags and glossary
// terms edited in DataHub (GraphQL's EditableSchemaMetadata).
type EditableSchemaMetadataView struct {
	// EditableSchemaFieldInfo are the edited columns.
	EditableSchemaFieldInfo []EditableSchemaFieldInfoView `json:"editableSchemaFieldInfo"`
}

// EditableSchemaFieldInfoView is one edited column (GraphQL's
// EditableSchemaFieldInfo).
type EditableSchemaFieldInfoView struct {
	// FieldPath is the column's path, as in the schema.
	FieldPath string `json:"fieldPath"`
	// Description is the edited description.
	Description *string `json:"description"`
	// Tags are the tags added to the column in DataHub, nil when none
	// were ever added.
	Tags *GlobalTagsView `json:"tags"`
	// GlossaryTerms are the glossary terms added to the column in
	// DataHub, nil when none were ever added.
	GlossaryTerms *GlossaryTermsView `json:"glossaryTerms"`
}

// SchemaFieldView is one column of a dataset's schemaMetadata.
type SchemaFieldView struct {
	FieldPath      string  `json:"fieldPath"`
	Description    *string `json:"description"`
	Type           string  `json:"type"`
	NativeDataType *string `json:"nativeDataType"`
	Nullable       bool    `json:"nullable"`
	// Tags are the column's tags in the schema (as ingested), nil when
	// none.
	Tags *GlobalTagsView `json:"tags"`
	// GlossaryTerms are the column's glossary terms in the schema (as
	// ingested), nil when none.
	GlossaryTerms *GlossaryTermsView `json:"glossaryTerms"`
}

// The documents of the typed reads. Each is checked against DataHub's SDL
// by TestGraphQLDocumentsValidate.
const (
	commonFields = `urn type exists status { removed }
    tags { tags { tag { urn type name } context } }
    glossaryTerms { terms { term { urn type name } } }
    ownership { owners { owner { ... on CorpUser { urn type } ... on CorpGroup { urn type } } type } }
    institutionalMemory { elements { url label created { time actor } } }
    editableProperties { description }`
	customProps = `customProperties { key value }`

	// The selections of the typed results, inside each type's field (and
	// inside the inline fragments of search results).
	mlFeatureFields = commonFields + `
    name featureNamespace description dataType
    properties { description dataType version { versionTag } sources { urn type name } ` + customProps + ` }`
	mlFeatureTableFields = commonFields + `
    name platform { urn type name } description
    properties { description mlFeatures { urn type name } ` + customProps + ` }`
	mlModelProperties = `properties { name description version type mlFeatures groups { urn type name } tags ` + customProps + ` externalUrl created { time actor } }`
	mlModelFields     = commonFields + `
    name platform { urn type name } origin description
    `
	mlModelGroupFields = commonFields + `
    name platform { urn type name } origin description
    properties { name description version { versionTag } created { time actor } ` + customProps + ` externalUrl }`
	datasetProperties = `properties { name qualifiedName description ` + customProps + ` externalUrl }`
	datasetFields     = commonFields + `
    name platform { urn type name } origin
    `
	columnLabels  = `tags { tags { tag { urn type name } context } } glossaryTerms { terms { term { urn type name } } }`
	datasetSchema = `
    schemaMetadata { name platformUrn version fields { fieldPath description type nativeDataType nullable ` + columnLabels + ` } }
    editableSchemaMetadata { editableSchemaFieldInfo { fieldPath description ` + columnLabels + ` } }`

	mlFeatureDocument = `query mlFeature($urn: String!) {
  mlFeature(urn: $urn) { ` + mlFeatureFields + ` } }`
	mlFeatureTableDocument = `query mlFeatureTable($urn: String!) {
  mlFeatureTable(urn: $urn) { ` + mlFeatureTableFields + ` } }`
	mlModelDocument = `query mlModel($urn: String!) {
  mlModel(urn: $urn) { ` + mlModelFields + mlModelProperties + ` } }`
	mlModelGroupDocument = `query mlModelGroup($urn: String!) {
  mlModelGroup(urn: $urn) { ` + mlModelGroupFields + ` } }`
	datasetDocument = `query dataset($urn: String!) {
  dataset(urn: $urn) { ` + datasetFields + datasetProperties + datasetSchema + ` } }`
)

// graphQLDocuments returns every GraphQL document the typed methods send,
// by operation name (for tests and for checking a server's schema).
func graphQLDocuments() map[string]string {
	return map[string]string{
		"mlFeature": mlFeatureDocument, "mlFeatureTable": mlFeatureTableDocument, "mlModel": mlModelDocument,
		"mlModelGroup": mlModelGroupDocument, "dataset": datasetDocument, "updateDescription": updateDescriptionDocument,
		"scrollAcrossEntities": scrollDocument, "searchAcrossEntities": countDocument,
		"aggregateAcrossEntities": facetsDocument, "scrollAcrossLineage": lineageDocument,
	}
}

// MLFeature reads a feature through GraphQL.
func (c *Client) MLFeature(ctx context.Context, u urn.MLFeature) (*MLFeatureView, error) {
	return gqlRead[MLFeatureView](ctx, c, "mlFeature", mlFeatureDocument, u.String())
}

// MLFeatureTable reads a feature table, with its features' names, through
// GraphQL.
func (c *Client) MLFeatureTable(ctx context.Context, u urn.MLFeatureTable) (*MLFeatureTableView, error) {
	return gqlRead[MLFeatureTableView](ctx, c, "mlFeatureTable", mlFeatureTableDocument, u.String())
}

// MLModel reads a model, with its groups, through GraphQL.
func (c *Client) MLModel(ctx context.Context, u urn.MLModel) (*MLModelView, error) {
	return gqlRead[MLModelView](ctx, c, "mlModel", mlModelDocument, u.String())
}

// MLModelGroup reads a model group through GraphQL.
func (c *Client) MLModelGroup(ctx context.Context, u urn.MLModelGroup) (*MLModelGroupView, error) {
	return gqlRead[MLModelGroupView](ctx, c, "mlModelGroup", mlModelGroupDocument, u.String())
}

// Dataset reads a dataset, with its columns and their edited descriptions,
// through GraphQL.
func (c *Client) Dataset(ctx context.Context, u urn.Dataset) (*DatasetView, error) {
	return gqlRead[DatasetView](ctx, c, "dataset", datasetDocument, u.String())
}

// gqlRead runs a one-field query and decodes that field; a null answer
// without errors is a *datahub.Error matching datahub.ErrNotFound.
func gqlRead[T any](ctx context.Context, c *Client, field, document, u string) (*T, error) {
	data, err := c.GraphQL(ctx, document, map[string]any{"urn": u}, field)
	if err != nil {
		return nil, err
	}
	var out map[string]*T
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("datahub: graphql %s %s: decode the answer: %w", field, u, err)
	}
	v := out[field]
	if v == nil {
		return nil, &datahub.Error{StatusCode: http.StatusNotFound, Message: fmt.Sprintf("graphql %s(urn: %q) answered null", field, u),
			Method: http.MethodPost, URL: datahub.RedactURL(c.gql.url)}
	}
	return v, nil
}
