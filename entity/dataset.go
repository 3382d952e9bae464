package entity

import (
	"slices"
	"strings"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/internal/entitystate"
	"github.com/catalogkit/datahub-go/urn"
)

// Dataset is a dataset (a table, a topic, a file...) with its aspects.
type Dataset struct {
	Meta
	// URN is the dataset's URN.
	URN urn.Dataset
	// Properties is datasetProperties: what its platform says of it.
	Properties *aspects.DatasetProperties
	// EditableProperties is editableDatasetProperties: its description as
	// edited in DataHub.
	EditableProperties *aspects.EditableDatasetProperties
	// Schema is schemaMetadata: its columns as its platform has them.
	Schema *aspects.SchemaMetadata
	// EditableSchema is editableSchemaMetadata: column descriptions, tags
	// and terms edited in DataHub.
	EditableSchema *aspects.EditableSchemaMetadata
	// Ownership is ownership: its owners.
	Ownership *aspects.Ownership
	// GlobalTags is globalTags: its tags.
	GlobalTags *aspects.GlobalTags
	// GlossaryTerms is glossaryTerms: its glossary terms.
	GlossaryTerms *aspects.GlossaryTerms
	// InstitutionalMemory is institutionalMemory: its links.
	InstitutionalMemory *aspects.InstitutionalMemory
	// UpstreamLineage is upstreamLineage: the datasets it is derived from.
	UpstreamLineage *aspects.UpstreamLineage
	// SubTypes is subTypes: what kind of dataset this is, such as "Table"
	// or "View".
	SubTypes *aspects.SubTypes
	// Container is container: the container (a database, a schema) it is
	// in.
	Container *aspects.Container
	// DataPlatformInstance is dataPlatformInstance: its platform and
	// platform instance.
	DataPlatformInstance *aspects.DataPlatformInstance
	// BrowsePathsV2 is browsePathsV2: where DataHub's UI shows it when
	// browsing.
	BrowsePathsV2 *aspects.BrowsePathsV2
	// Domains is domains: the domains it belongs to.
	Domains *aspects.Domains
	// Deprecation is deprecation: whether it is deprecated, and why.
	Deprecation *aspects.Deprecation
	// Status is status: whether it is soft-deleted.
	Status *aspects.Status
}

func init() {
	register(urn.TypeDataset, func(u urn.URN) (Entity, error) {
		t, err := typed(u, urn.ParseDataset)
		return &Dataset{URN: t}, err
	})
}

// EntityURN returns d.URN.
func (d *Dataset) EntityURN() urn.URN { return d.URN }

// KeyAspect returns the datasetKey of d.URN.
func (d *Dataset) KeyAspect() aspects.Aspect {
	return aspects.DatasetKey{Platform: d.URN.Platform().String(), Name: d.URN.Name(), Origin: aspects.FabricType(d.URN.Env())}
}

func (d *Dataset) access() entitystate.Access {
	return access(&d.Meta, field(&d.Properties), field(&d.EditableProperties), field(&d.Schema),
		field(&d.EditableSchema), field(&d.Ownership), field(&d.GlobalTags), field(&d.GlossaryTerms),
		field(&d.InstitutionalMemory), field(&d.UpstreamLineage), field(&d.SubTypes), field(&d.Container),
		field(&d.DataPlatformInstance), field(&d.BrowsePathsV2), field(&d.Domains), field(&d.Deprecation), field(&d.Status))
}

// Column is a column of a dataset's schema, for NewDataset.
type Column struct {
	// Name is the column's field path, such as "id" or "address.zip".
	Name string
	// Type is the platform's type name, such as "bigint" or "varchar(64)".
	Type string
	// Description documents the column; "" writes none.
	Description string
	// Nullable reports whether the column may be null.
	Nullable bool
	// Logical is the column's logical type; nil means the one Type names
	// (see LogicalType).
	Logical aspects.FieldType
}

// NewDataset returns a dataset with a description (in datasetProperties,
// none when "") and a schema of columns (in schemaMetadata, none when
// there are no columns), as its platform would describe it.
func NewDataset(u urn.Dataset, description string, columns ...Column) *Dataset {
	d := &Dataset{URN: u}
	if description != "" {
		d.Properties = &aspects.DatasetProperties{Description: aspects.Ptr(description)}
	}
	if len(columns) > 0 {
		s := &aspects.SchemaMetadata{
			SchemaName:     u.Name(),
			Platform:       u.Platform().String(),
			PlatformSchema: aspects.OtherSchema{RawSchema: ""},
			Fields:         make([]aspects.SchemaField, 0, len(columns)),
		}
		for _, c := range columns {
			t := c.Logical
			if t == nil {
				t = LogicalType(c.Type)
			}
			f := aspects.SchemaField{FieldPath: c.Name, NativeDataType: c.Type, Nullable: c.Nullable, Type: aspects.DataType(t)}
			if c.Description != "" {
				f.Description = aspects.Ptr(c.Description)
			}
			s.Fields = append(s.Fields, f)
		}
		d.Schema = s
	}
	return d
}

// LogicalType returns DataHub's logical type for a platform's type name.
// It looks at the name's leading word (up to "(", " " or "<"), in any
// case, and maps it by this table:
//
//	NumberType   int, integer, bigint, smallint, tinyint, long, short, int8,
//	             int16, int32, int64, uint8, uint16, uint32, uint64, decimal,
//	             numeric, number, float, float32, float64, double, real
//	StringType   string, varchar, char, nvarchar, nchar, text, character,
//	             uuid, json
//	BooleanType  bool, boolean
//	DateType     date
//	TimeType     timestamp, timestamptz, datetime, time
//	BytesType    bytes, binary, varbinary, blob, bytea
//	EnumType     enum
//	MapType      map
//	ArrayType    array, list
//	RecordType   struct, record
//
// So "VARCHAR(255)" is a StringType and "array<int>" an ArrayType. Any
// other name is a NullType (DataHub's "unknown").
func LogicalType(native string) aspects.FieldType {
	n := strings.ToLower(strings.TrimSpace(native))
	if i := strings.IndexAny(n, "( <"); i >= 0 {
		n = n[:i]
	}
	for _, row := range logicalTypes {
		if slices.Contains(row.names, n) {
			return row.typ
		}
	}
	return aspects.NullType{}
}

// logicalTypes is LogicalType's table, as its doc lists it (a test checks
// that they agree).
var logicalTypes = []struct {
	typ   aspects.FieldType
	names []string
}{
	{aspects.NumberType{}, []string{"int", "integer", "bigint", "smallint", "tinyint", "long", "short", "int8",
		"int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "decimal",
		"numeric", "number", "float", "float32", "float64", "double", "real"}},
	{aspects.StringType{}, []string{"string", "varchar", "char", "nvarchar", "nchar", "text", "character", "uuid", "json"}},
	{aspects.BooleanType{}, []string{"bool", "boolean"}},
	{aspects.DateType{}, []string{"date"}},
	{aspects.TimeType{}, []string{"timestamp", "timestamptz", "datetime", "time"}},
	{aspects.BytesType{}, []string{"bytes", "binary", "varbinary", "blob", "bytea"}},
	{aspects.EnumType{}, []string{"enum"}},
	{aspects.MapType{}, []string{"map"}},
	{aspects.ArrayType{}, []string{"array", "list"}},
	{aspects.RecordType{}, []string{"struct", "record"}},
}
