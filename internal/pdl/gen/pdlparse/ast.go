// Package pdlparse parses the subset of Pegasus Data Language (PDL) used by DataHub's metadata
// models into a small syntax tree that the pdl generators turn into Go tables and types.
//
// The subset: namespace, package (ignored), imports, records with includes, optional fields,
// defaults, arrays, maps, unions with and without member aliases, enums, typerefs, fixed,
// inline records and enums, doc comments (kept as Doc) and annotations (kept as JSON on
// declarations and fields; @Aspect also decoded).
// Every type name in the tree is resolved to its fully qualified name.
package pdlparse

import "encoding/json"

// DeclKind is the kind of a named type declaration.
type DeclKind string

// Declaration kinds.
const (
	DeclRecord  DeclKind = "record"
	DeclEnum    DeclKind = "enum"
	DeclTyperef DeclKind = "typeref"
	DeclFixed   DeclKind = "fixed"
)

// Decl is a named type: a record, enum, typeref or fixed.
type Decl struct {
	Kind     DeclKind
	Name     string   // fully qualified name
	Includes []string // records whose fields are included (records only), fully qualified
	Fields   []Field  // own fields (records only), in declaration order
	Symbols  []string // enum symbols
	Ref      *TypeExpr
	Size     int     // fixed size
	Aspect   *Aspect // from an @Aspect annotation, nil if none
	// Annotations holds the declaration's annotations that have a value, as compact JSON by the
	// name written after "@" (e.g. "Searchable", "java.class"); nil if none.
	Annotations map[string]json.RawMessage
	File        string // source file, for error messages
	// Doc is the declaration's doc comment (/** ... */) without its
	// stars, lines kept; "" if none.
	Doc string
	// SymbolDocs holds the doc comments of enum symbols that have one.
	SymbolDocs map[string]string
	// Deprecated is nil unless the declaration is marked @deprecated: then
	// it is the mark's text ("" for a bare @deprecated).
	Deprecated *string
}

// Aspect holds the facts of an @Aspect annotation.
type Aspect struct {
	Name string `json:"name"`
	Type string `json:"type"` // "timeseries" or ""
	// SchemaVersion is the aspect's schema version (0 when the annotation
	// names none: DataHub then takes 1).
	SchemaVersion int64 `json:"schemaVersion"`
}

// Field is a record field.
type Field struct {
	Name     string
	Optional bool
	Default  json.RawMessage // compact JSON, nil if none
	Type     TypeExpr
	// Annotations holds the field's annotations that have a value, as compact JSON by the name
	// written after "@" (e.g. "Searchable", "Relationship"); nil if none.
	Annotations map[string]json.RawMessage
	// Doc is the field's doc comment without its stars, lines kept; "" if
	// none.
	Doc string
	// Deprecated is nil unless the field is marked @deprecated: then it is
	// the mark's text ("" for a bare @deprecated).
	Deprecated *string
}

// ExprKind is the kind of a type expression.
type ExprKind string

// Type expression kinds.
const (
	ExprPrimitive ExprKind = "primitive" // Name is string, int, long, float, double, boolean, bytes or null
	ExprRef       ExprKind = "ref"       // Name is a fully qualified named type (possibly declared inline)
	ExprArray     ExprKind = "array"
	ExprMap       ExprKind = "map"
	ExprUnion     ExprKind = "union"
)

// TypeExpr is a type as written at a use site.
type TypeExpr struct {
	Kind    ExprKind
	Name    string
	Items   *TypeExpr // array items or map values
	Members []Member  // union members
}

// Member is a union member, with its alias when the union is aliased.
type Member struct {
	Alias string
	Type  TypeExpr
}

// IsPrimitive reports whether name is a Pegasus primitive type name.
func IsPrimitive(name string) bool {
	switch name {
	case "string", "int", "long", "float", "double", "boolean", "bytes", "null":
		return true
	}
	return false
}
