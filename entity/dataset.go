package entity

import (
	"slices"
	"strings"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/urn"
)

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
