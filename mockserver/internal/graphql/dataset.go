package graphql

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// --- Dataset (DatasetMapper) ---

type datasetR struct{ *entity }

func (d *datasetR) props() *datasetPropertiesJSON {
	p, _ := d.entity.props.(*datasetPropertiesJSON)
	return p
}

// Name is datasetProperties.name when set, else the key's name.
func (d *datasetR) Name() string {
	if p := d.props(); p != nil && p.Name != nil {
		return *p.Name
	}
	return d.key.Name
}

func (d *datasetR) Platform() *dataPlatformR { return platformOf(d.key.Platform) }
func (d *datasetR) Origin() string           { return d.key.Origin }

func (d *datasetR) Description() *string {
	if p := d.props(); p != nil {
		return p.Description
	}
	return nil
}

func (d *datasetR) Properties() *datasetPropertiesR {
	p := d.props()
	if p == nil {
		return nil
	}
	return &datasetPropertiesR{p: p, d: d}
}

func (d *datasetR) EditableProperties() *editableR {
	return d.editableDescription("editableDatasetProperties")
}

// SchemaMetadata is the latest schemaMetadata, or the version asked (0 the
// latest, as GMS numbers them); null when there is none.
func (d *datasetR) SchemaMetadata(ctx context.Context, a struct{ Version *Long }) (*schemaMetadataR, error) {
	raw, ok := d.raw("schemaMetadata")
	var aspectVersion int64
	if a.Version != nil && *a.Version != 0 {
		v, err := d.r.core.GetAspect(ctx, d.urn, "schemaMetadata", int64(*a.Version))
		if e := gms.AsError(err); e != nil && e.Kind == gms.NotFound {
			return nil, nil
		} else if err != nil {
			return nil, fromCore(err)
		}
		raw, ok, aspectVersion = v.Value, true, int64(*a.Version)
	}
	if !ok {
		return nil, nil
	}
	var s schemaMetadataJSON
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, serverError(fmt.Sprintf(msgMapAspect, "schemaMetadata", gms.Abbreviate(d.urn), err))
	}
	return &schemaMetadataR{s: &s, urn: d.urn, aspectVersion: aspectVersion}, nil
}

func (d *datasetR) EditableSchemaMetadata() *editableSchemaMetadataR {
	s := must(aspectOf[editableSchemaMetadataJSON](d.entity, "editableSchemaMetadata"))
	if s == nil {
		return nil
	}
	out := make([]*editableFieldR, 0, len(s.EditableSchemaFieldInfo))
	for i := range s.EditableSchemaFieldInfo {
		out = append(out, &editableFieldR{f: &s.EditableSchemaFieldInfo[i], urn: d.urn})
	}
	return &editableSchemaMetadataR{out}
}

type datasetPropertiesR struct {
	p *datasetPropertiesJSON
	d *datasetR
}

func (p *datasetPropertiesR) Name() string {
	if p.p.Name != nil {
		return *p.p.Name
	}
	return p.d.key.Name
}
func (p *datasetPropertiesR) QualifiedName() *string { return p.p.QualifiedName }
func (p *datasetPropertiesR) Origin() string         { return p.d.key.Origin }
func (p *datasetPropertiesR) Description() *string   { return p.p.Description }
func (p *datasetPropertiesR) ExternalUrl() *string   { return p.p.ExternalURL }
func (p *datasetPropertiesR) CustomProperties() *[]*customPropertyR {
	return customProperties(p.p.CustomProperties, p.d.urn)
}

// LastModified defaults to {time: 0, actor: null} as DataHub's mapper does.
func (p *datasetPropertiesR) LastModified() *auditStampR {
	if p.p.LastModified == nil {
		return &auditStampR{}
	}
	return auditStamp(*p.p.LastModified)
}

// --- SchemaMetadata (SchemaMetadataMapper, SchemaFieldMapper) ---

type schemaMetadataR struct {
	s             *schemaMetadataJSON
	urn           string
	aspectVersion int64
}

func (s *schemaMetadataR) AspectVersion() *Long {
	v := Long(s.aspectVersion)
	return &v
}
func (s *schemaMetadataR) DatasetUrn() *string    { return &s.urn }
func (s *schemaMetadataR) Name() string           { return s.s.SchemaName }
func (s *schemaMetadataR) PlatformUrn() string    { return s.s.Platform }
func (s *schemaMetadataR) Version() Long          { return Long(s.s.Version) }
func (s *schemaMetadataR) Hash() string           { return s.s.Hash }
func (s *schemaMetadataR) PrimaryKeys() *[]string { return s.s.PrimaryKeys }

// Fields are the schema's fields, without those with an empty fieldPath.
func (s *schemaMetadataR) Fields() []*schemaFieldR {
	out := make([]*schemaFieldR, 0, len(s.s.Fields))
	for i := range s.s.Fields {
		if s.s.Fields[i].FieldPath == "" {
			continue
		}
		out = append(out, &schemaFieldR{f: &s.s.Fields[i], urn: s.urn})
	}
	return out
}

type schemaFieldR struct {
	f   *schemaFieldJSON
	urn string
}

func (f *schemaFieldR) FieldPath() string              { return f.f.FieldPath }
func (f *schemaFieldR) JsonPath() *string              { return f.f.JSONPath }
func (f *schemaFieldR) Label() *string                 { return f.f.Label }
func (f *schemaFieldR) Nullable() bool                 { return f.f.Nullable }
func (f *schemaFieldR) Description() *string           { return f.f.Description }
func (f *schemaFieldR) NativeDataType() *string        { return f.f.NativeDataType }
func (f *schemaFieldR) Recursive() bool                { return f.f.Recursive }
func (f *schemaFieldR) IsPartOfKey() *bool             { return f.f.IsPartOfKey }
func (f *schemaFieldR) IsPartitioningKey() *bool       { return f.f.IsPartitioningKey }
func (f *schemaFieldR) Tags() *globalTagsR             { return tagsOf(f.f.GlobalTags, f.urn) }
func (f *schemaFieldR) GlobalTags() *globalTagsR       { return tagsOf(f.f.GlobalTags, f.urn) }
func (f *schemaFieldR) GlossaryTerms() *glossaryTermsR { return termsOf(f.f.GlossaryTerms, f.urn) }

// Type maps the PDL union member (com.linkedin.schema.StringType, ...) to
// DataHub's enum: RecordType is STRUCT, the others by name.
func (f *schemaFieldR) Type() string {
	for k := range f.f.Type.Type {
		name := strings.TrimSuffix(k[strings.LastIndexByte(k, '.')+1:], "Type")
		switch name = strings.ToUpper(name); name {
		case "RECORD":
			return "STRUCT"
		case "BOOLEAN", "FIXED", "STRING", "BYTES", "NUMBER", "DATE", "TIME", "ENUM", "NULL", "MAP", "ARRAY", "UNION":
			return name
		}
		fail(serverError(fmt.Sprintf(msgMapAspect, "schemaMetadata", gms.Abbreviate(f.urn), "unknown field type "+gms.Abbreviate(k))))
	}
	fail(serverError(fmt.Sprintf(msgMapAspect, "schemaMetadata", gms.Abbreviate(f.urn), errors.New("field without a type"))))
	return ""
}

type editableSchemaMetadataR struct{ fields []*editableFieldR }

func (e *editableSchemaMetadataR) EditableSchemaFieldInfo() []*editableFieldR { return e.fields }

type editableFieldR struct {
	f   *editableFieldJSON
	urn string
}

func (f *editableFieldR) FieldPath() string              { return f.f.FieldPath }
func (f *editableFieldR) Description() *string           { return f.f.Description }
func (f *editableFieldR) Tags() *globalTagsR             { return tagsOf(f.f.GlobalTags, f.urn) }
func (f *editableFieldR) GlobalTags() *globalTagsR       { return tagsOf(f.f.GlobalTags, f.urn) }
func (f *editableFieldR) GlossaryTerms() *glossaryTermsR { return termsOf(f.f.GlossaryTerms, f.urn) }
