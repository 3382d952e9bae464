package pdl

import (
	"encoding/json"
	"sync"
)

// Kind is the kind of a Pegasus type.
type Kind uint8

// Pegasus type kinds. Typerefs do not appear: they are replaced by the type they refer to.
const (
	KindString Kind = iota + 1
	KindInt
	KindLong
	KindFloat
	KindDouble
	KindBoolean
	KindBytes
	KindEnum
	KindRecord
	KindArray
	KindMap
	KindUnion
	KindFixed
	KindNull // only as a union member
)

var kindNames = [...]string{
	KindString: "string", KindInt: "int", KindLong: "long", KindFloat: "float", KindDouble: "double",
	KindBoolean: "boolean", KindBytes: "bytes", KindEnum: "enum", KindRecord: "record", KindArray: "array",
	KindMap: "map", KindUnion: "union", KindFixed: "fixed", KindNull: "null",
}

// String returns the Pegasus name of the kind, e.g. "long" or "record".
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "invalid"
}

// RecordSchema is a Pegasus record.
type RecordSchema struct {
	// Name is the fully qualified record name, e.g. "com.linkedin.schema.SchemaMetadata".
	Name string
	// Fields holds the fields of included records first (in include order), then the record's own.
	Fields []Field
}

// Field is a record field.
type Field struct {
	Name     string
	Optional bool
	// Default is the field's PDL default as compact JSON, nil if it has none. A field with a
	// default may be absent from JSON.
	Default json.RawMessage
	Type    Type
}

// Type is a Pegasus type at a use site.
type Type struct {
	Kind Kind
	// Name is the fully qualified name of a record, enum or fixed type.
	Name string
	// Items is the item type of an array or the value type of a map.
	Items *Type
	// Members are the members of a union.
	Members []UnionMember
	// Symbols are the symbols of an enum.
	Symbols []string
	// Size is the byte length of a fixed type.
	Size int
	// URN is, for a string declared through a typeref whose name ends in "Urn" (such as
	// com.linkedin.common.Urn or com.linkedin.common.DatasetUrn), that typeref's fully qualified
	// name: DataHub checks such a value as a URN (see [LookupURNTyperef]). "" otherwise.
	URN string
}

// URNTyperef is a typeref DataHub checks as a URN, with what its Java class checks.
type URNTyperef struct {
	// Name is the typeref's fully qualified name, e.g. "com.linkedin.common.MLFeatureUrn".
	Name string
	// Class is the typeref's Java class, e.g. "com.linkedin.common.urn.MLFeatureUrn".
	Class string
	// EntityType is the entity type the class requires of a URN, with the parts of that type's
	// URN form (e.g. "mlFeature"); "" for the generic class, which checks the URN syntax only.
	EntityType string
}

// LookupURNTyperef returns the URN typeref named name (fully qualified).
func LookupURNTyperef(name string) (URNTyperef, bool) {
	u, ok := urnTyperefs[name]
	return u, ok
}

// UnionMember is a member of a union.
type UnionMember struct {
	// Alias is the member's alias in an aliased union, "" otherwise.
	Alias string
	Type  Type
}

// Key returns the JSON key that selects the member: the alias if set, else the member's fully
// qualified name, else the primitive type name (e.g. "string").
func (m UnionMember) Key() string {
	if m.Alias != "" {
		return m.Alias
	}
	if m.Type.Name != "" {
		return m.Type.Name
	}
	switch m.Type.Kind {
	case KindArray:
		return "array"
	case KindMap:
		return "map"
	}
	return m.Type.Kind.String()
}

var recordTable struct {
	once sync.Once
	m    map[string]*RecordSchema
}

// records returns the record table, building it on first use: a program that never looks a
// schema up neither builds nor links it.
func records() map[string]*RecordSchema {
	recordTable.once.Do(func() { recordTable.m = buildRecords() })
	return recordTable.m
}

// Record returns the schema of the record with the fully qualified name name.
// The result is shared: callers must not modify it.
func Record(name string) (*RecordSchema, bool) {
	r, ok := records()[name]
	return r, ok
}

// RecordNames returns the fully qualified names of every record in the tables, unsorted.
func RecordNames() []string {
	m := records()
	out := make([]string, 0, len(m))
	for n := range m {
		out = append(out, n)
	}
	return out
}
