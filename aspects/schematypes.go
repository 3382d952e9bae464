package aspects

import (
	"encoding/json"
	"errors"
	"fmt"
)

// SchemaFieldDataType is the logical type of a schema field
// (com.linkedin.schema.SchemaFieldDataType). Its JSON form is a record whose
// "type" is a Pegasus union keyed by the member's record name:
//
//	{"type": {"com.linkedin.schema.StringType": {}}}
//
// Build one with [DataType]:
//
//	aspects.DataType(aspects.StringType{})
//	aspects.DataType(aspects.ArrayType{NestedType: []string{"string"}})
type SchemaFieldDataType struct {
	// Type is the union member; it must be set to encode.
	Type FieldType `json:"type"`
}

// DataType returns the SchemaFieldDataType whose type is t.
func DataType(t FieldType) SchemaFieldDataType {
	return SchemaFieldDataType{Type: t}
}

// MarshalJSON encodes t as DataHub's union JSON. It fails when Type is nil.
func (t SchemaFieldDataType) MarshalJSON() ([]byte, error) {
	if t.Type == nil {
		return nil, errors.New("schema field data type: type is not set")
	}
	u, err := encodeUnion(t.Type)
	if err != nil {
		return nil, err
	}
	return marshal(map[string]json.RawMessage{"type": u})
}

// UnmarshalJSON decodes DataHub's union JSON into t.
func (t *SchemaFieldDataType) UnmarshalJSON(data []byte) error {
	var rec struct {
		Type json.RawMessage `json:"type"`
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		return fmt.Errorf("schema field data type: %w", err)
	}
	if rec.Type == nil {
		return errors.New(`schema field data type: missing required field "type"`)
	}
	key, raw, err := decodeUnion(rec.Type)
	if err != nil {
		return fmt.Errorf("schema field data type: %w", err)
	}
	ft, err := decodeMember(fieldTypes, key, raw)
	if err != nil {
		return fmt.Errorf("schema field data type: %w", err)
	}
	t.Type = ft
	return nil
}

// FieldType is a member of the SchemaFieldDataType union: one of
// [BooleanType], [FixedType], [StringType], [BytesType], [NumberType],
// [DateType], [TimeType], [EnumType], [NullType], [MapType], [ArrayType],
// [UnionType] and [RecordType]. Both T and *T are FieldTypes.
type FieldType interface {
	unionMember
	isFieldType()
}

// fieldTypes lists the members of the SchemaFieldDataType union in PDL order.
var fieldTypes = []FieldType{
	BooleanType{}, FixedType{}, StringType{}, BytesType{}, NumberType{}, DateType{},
	TimeType{}, EnumType{}, NullType{}, MapType{}, ArrayType{}, UnionType{}, RecordType{},
}

// BooleanType is the boolean field type (com.linkedin.schema.BooleanType).
type BooleanType struct{}

// FixedType is the fixed-length bytes field type (com.linkedin.schema.FixedType).
type FixedType struct{}

// StringType is the string field type (com.linkedin.schema.StringType).
type StringType struct{}

// BytesType is the bytes field type (com.linkedin.schema.BytesType).
type BytesType struct{}

// NumberType is the numeric field type (com.linkedin.schema.NumberType).
type NumberType struct{}

// DateType is the date field type (com.linkedin.schema.DateType).
type DateType struct{}

// TimeType is the time field type (com.linkedin.schema.TimeType).
type TimeType struct{}

// EnumType is the enum field type (com.linkedin.schema.EnumType).
type EnumType struct{}

// NullType is the null field type (com.linkedin.schema.NullType).
type NullType struct{}

// RecordType is the record (struct) field type (com.linkedin.schema.RecordType).
type RecordType struct{}

// MapType is the map field type (com.linkedin.schema.MapType).
type MapType struct {
	// KeyType is the native type of the keys.
	KeyType *string `json:"keyType,omitempty"`
	// ValueType is the native type of the values.
	ValueType *string `json:"valueType,omitempty"`
}

// ArrayType is the array field type (com.linkedin.schema.ArrayType).
type ArrayType struct {
	// NestedType lists the native types of the items.
	NestedType []string `json:"nestedType,omitzero"`
}

// UnionType is the union field type (com.linkedin.schema.UnionType).
type UnionType struct {
	// NestedTypes lists the native types of the union's members.
	NestedTypes []string `json:"nestedTypes,omitzero"`
}

func (BooleanType) unionKey() string { return "com.linkedin.schema.BooleanType" }
func (FixedType) unionKey() string   { return "com.linkedin.schema.FixedType" }
func (StringType) unionKey() string  { return "com.linkedin.schema.StringType" }
func (BytesType) unionKey() string   { return "com.linkedin.schema.BytesType" }
func (NumberType) unionKey() string  { return "com.linkedin.schema.NumberType" }
func (DateType) unionKey() string    { return "com.linkedin.schema.DateType" }
func (TimeType) unionKey() string    { return "com.linkedin.schema.TimeType" }
func (EnumType) unionKey() string    { return "com.linkedin.schema.EnumType" }
func (NullType) unionKey() string    { return "com.linkedin.schema.NullType" }
func (MapType) unionKey() string     { return "com.linkedin.schema.MapType" }
func (ArrayType) unionKey() string   { return "com.linkedin.schema.ArrayType" }
func (UnionType) unionKey() string   { return "com.linkedin.schema.UnionType" }
func (RecordType) unionKey() string  { return "com.linkedin.schema.RecordType" }

func (BooleanType) isFieldType() {}
func (FixedType) isFieldType()   {}
func (StringType) isFieldType()  {}
func (BytesType) isFieldType()   {}
func (NumberType) isFieldType()  {}
func (DateType) isFieldType()    {}
func (TimeType) isFieldType()    {}
func (EnumType) isFieldType()    {}
func (NullType) isFieldType()    {}
func (MapType) isFieldType()     {}
func (ArrayType) isFieldType()   {}
func (UnionType) isFieldType()   {}
func (RecordType) isFieldType()  {}

// PlatformSchema is a member of SchemaMetadata's platformSchema union, the
// schema in the platform's own terms: one of [EspressoSchema], [OracleDDL],
// [MySQLDDL], [PrestoDDL], [KafkaSchema], [BinaryJSONSchema], [OrcSchema],
// [Schemaless], [KeyValueSchema] and [OtherSchema]. Both T and *T are
// PlatformSchemas. Its JSON form is keyed by the member's record name:
//
//	{"com.linkedin.schema.OtherSchema": {"rawSchema": "..."}}
type PlatformSchema interface {
	unionMember
	isPlatformSchema()
}

// platformSchemas lists the members of the platformSchema union in PDL order.
var platformSchemas = []PlatformSchema{
	EspressoSchema{}, OracleDDL{}, MySQLDDL{}, PrestoDDL{}, KafkaSchema{},
	BinaryJSONSchema{}, OrcSchema{}, Schemaless{}, KeyValueSchema{}, OtherSchema{},
}

// EspressoSchema is an Espresso document and table schema
// (com.linkedin.schema.EspressoSchema).
type EspressoSchema struct {
	// DocumentSchema is the document schema.
	DocumentSchema string `json:"documentSchema"`
	// TableSchema is the table schema.
	TableSchema string `json:"tableSchema"`
}

// OracleDDL is an Oracle table DDL (com.linkedin.schema.OracleDDL).
type OracleDDL struct {
	// TableSchema is the DDL text.
	TableSchema string `json:"tableSchema"`
}

// MySQLDDL is a MySQL table DDL (com.linkedin.schema.MySqlDDL).
type MySQLDDL struct {
	// TableSchema is the DDL text.
	TableSchema string `json:"tableSchema"`
}

// PrestoDDL is a Presto table DDL (com.linkedin.schema.PrestoDDL).
type PrestoDDL struct {
	// RawSchema is the DDL text.
	RawSchema string `json:"rawSchema"`
}

// KafkaSchema is a Kafka topic's value and key schemas
// (com.linkedin.schema.KafkaSchema).
type KafkaSchema struct {
	// DocumentSchema is the value schema text.
	DocumentSchema string `json:"documentSchema"`
	// DocumentSchemaType is the value schema's format, e.g. "AVRO".
	DocumentSchemaType *string `json:"documentSchemaType,omitempty"`
	// KeySchema is the key schema text.
	KeySchema *string `json:"keySchema,omitempty"`
	// KeySchemaType is the key schema's format.
	KeySchemaType *string `json:"keySchemaType,omitempty"`
}

// BinaryJSONSchema is a binary JSON schema
// (com.linkedin.schema.BinaryJsonSchema).
type BinaryJSONSchema struct {
	// Schema is the schema text.
	Schema string `json:"schema"`
}

// OrcSchema is an ORC schema (com.linkedin.schema.OrcSchema).
type OrcSchema struct {
	// Schema is the schema text.
	Schema string `json:"schema"`
}

// Schemaless marks a dataset without a schema (com.linkedin.schema.Schemaless).
type Schemaless struct{}

// KeyValueSchema is a key-value store's key and value schemas
// (com.linkedin.schema.KeyValueSchema).
type KeyValueSchema struct {
	// KeySchema is the key schema text.
	KeySchema string `json:"keySchema"`
	// ValueSchema is the value schema text.
	ValueSchema string `json:"valueSchema"`
}

// OtherSchema is a schema in any other format (com.linkedin.schema.OtherSchema).
type OtherSchema struct {
	// RawSchema is the schema text.
	RawSchema string `json:"rawSchema"`
}

func (EspressoSchema) unionKey() string   { return "com.linkedin.schema.EspressoSchema" }
func (OracleDDL) unionKey() string        { return "com.linkedin.schema.OracleDDL" }
func (MySQLDDL) unionKey() string         { return "com.linkedin.schema.MySqlDDL" }
func (PrestoDDL) unionKey() string        { return "com.linkedin.schema.PrestoDDL" }
func (KafkaSchema) unionKey() string      { return "com.linkedin.schema.KafkaSchema" }
func (BinaryJSONSchema) unionKey() string { return "com.linkedin.schema.BinaryJsonSchema" }
func (OrcSchema) unionKey() string        { return "com.linkedin.schema.OrcSchema" }
func (Schemaless) unionKey() string       { return "com.linkedin.schema.Schemaless" }
func (KeyValueSchema) unionKey() string   { return "com.linkedin.schema.KeyValueSchema" }
func (OtherSchema) unionKey() string      { return "com.linkedin.schema.OtherSchema" }

func (EspressoSchema) isPlatformSchema()   {}
func (OracleDDL) isPlatformSchema()        {}
func (MySQLDDL) isPlatformSchema()         {}
func (PrestoDDL) isPlatformSchema()        {}
func (KafkaSchema) isPlatformSchema()      {}
func (BinaryJSONSchema) isPlatformSchema() {}
func (OrcSchema) isPlatformSchema()        {}
func (Schemaless) isPlatformSchema()       {}
func (KeyValueSchema) isPlatformSchema()   {}
func (OtherSchema) isPlatformSchema()      {}

// ForeignKey is a member of ForeignKeySpec's foreignKey union: one of
// [DatasetFieldForeignKey] and [UrnForeignKey].
type ForeignKey interface {
	unionMember
	isForeignKey()
}

// foreignKeys lists the members of the foreignKey union in PDL order.
var foreignKeys = []ForeignKey{DatasetFieldForeignKey{}, UrnForeignKey{}}

// DatasetFieldForeignKey is a foreign key to a field of another dataset
// (com.linkedin.schema.DatasetFieldForeignKey).
type DatasetFieldForeignKey struct {
	// ParentDataset is the URN of the referenced dataset.
	ParentDataset string `json:"parentDataset"`
	// CurrentFieldPaths are the local fields of the key.
	CurrentFieldPaths []string `json:"currentFieldPaths"`
	// ParentField is the referenced field, or "*" for the whole dataset.
	ParentField string `json:"parentField"`
}

// MarshalJSON encodes k; nil CurrentFieldPaths is encoded as [].
func (k DatasetFieldForeignKey) MarshalJSON() ([]byte, error) {
	type plain DatasetFieldForeignKey
	p := plain(k)
	p.CurrentFieldPaths = nonNil(p.CurrentFieldPaths)
	return marshal(p)
}

// UrnForeignKey marks a field holding a URN as a foreign key
// (com.linkedin.schema.UrnForeignKey).
type UrnForeignKey struct {
	// CurrentFieldPath is the field holding the URN.
	CurrentFieldPath string `json:"currentFieldPath"`
}

func (DatasetFieldForeignKey) unionKey() string { return "com.linkedin.schema.DatasetFieldForeignKey" }
func (UrnForeignKey) unionKey() string          { return "com.linkedin.schema.UrnForeignKey" }

func (DatasetFieldForeignKey) isForeignKey() {}
func (UrnForeignKey) isForeignKey()          {}
