package urn

import "strings"

// SchemaField is a schema field URN, urn:li:schemaField:(<parent>,<fieldPath>):
// one column of a dataset (or of another entity with a schema). Its field path
// is escaped like any URN part, so "a,b" is held as "a%2Cb". Schema field URNs
// are exempt from DataHub's 512-byte limit, and so are their parents.
// Build one with [NewSchemaField] or read one with [ParseSchemaField]; the
// zero value is empty and its String method returns "".
type SchemaField struct {
	parent    URN
	fieldPath string
}

// NewSchemaField returns the URN of the field at fieldPath (v1 or v2 form,
// see package fieldpath) in parent. Reserved characters in fieldPath are
// escaped with [Escape].
//
//	NewSchemaField(ds, "Split 1 - final (Investment Income Details")
//	// urn:li:schemaField:(<ds>,Split 1 - final %28Investment Income Details)
func NewSchemaField(parent URN, fieldPath string) (SchemaField, error) {
	// Schema field URNs are exempt from the length limit: the fast path
	// checks only its parts.
	var u SchemaField
	if f := (fastBuild{kind: TypeSchemaField}); f.urn(&u.parent, parent) && f.part(&u.fieldPath, fieldPath) {
		return u, nil
	}
	return generalSchemaField(parent, fieldPath)
}

// generalSchemaField is NewSchemaField without the fast path: it writes the
// URN and parses it.
func generalSchemaField(parent URN, fieldPath string) (SchemaField, error) {
	p := ""
	if parent != nil {
		p = parent.String()
	}
	input := prefix + TypeSchemaField + ":(" + p + "," + Escape(fieldPath) + ")"
	switch {
	case p == "":
		return SchemaField{}, newError(TypeSchemaField, input, "empty parent")
	case fieldPath == "":
		return SchemaField{}, newError(TypeSchemaField, input, "empty field path")
	}
	return parseTyped(input, TypeSchemaField, schemaFieldFrom)
}

// ParseSchemaField parses s as a schema field URN. The parent must be a URN
// that [Parse] accepts (without the length limit) and the field path must hold
// no raw "," "(" or ")".
func ParseSchemaField(s string) (SchemaField, error) {
	return parseTyped(s, TypeSchemaField, schemaFieldFrom)
}

func schemaFieldFrom(r raw) (SchemaField, *ParseError) {
	if err := wantParts(r, TypeSchemaField, 2); err != nil {
		return SchemaField{}, err
	}
	if !strings.HasPrefix(r.parts[0], prefix) {
		return SchemaField{}, newError(TypeSchemaField, r.s, "parent %q is not a urn", r.parts[0])
	}
	parent, err := parse(r.parts[0], false, r.depth+1)
	if err != nil {
		return SchemaField{}, newError(TypeSchemaField, r.s, "parent: %s", err.Reason)
	}
	if reason := plain("field path", r.parts[1]); reason != "" {
		return SchemaField{}, newError(TypeSchemaField, r.s, "%s", reason)
	}
	return SchemaField{parent: parent, fieldPath: r.parts[1]}, nil
}

// String returns the URN, or "" for the zero value.
func (u SchemaField) String() string {
	if u.parent == nil {
		return ""
	}
	return prefix + TypeSchemaField + ":(" + u.parent.String() + "," + u.fieldPath + ")"
}

// EntityType returns "schemaField".
func (u SchemaField) EntityType() string { return TypeSchemaField }

// Parent returns the URN of the entity the field belongs to, typed as [Parse]
// types it (usually a [Dataset]), or nil for the zero value.
func (u SchemaField) Parent() URN { return u.parent }

// FieldPath returns the field path in URN form: reserved characters escaped.
func (u SchemaField) FieldPath() string { return u.fieldPath }

// MarshalText returns the URN as text; the zero value gives empty text.
func (u SchemaField) MarshalText() ([]byte, error) { return []byte(u.String()), nil }

// UnmarshalText parses text with [ParseSchemaField]; empty text gives the zero value.
func (u *SchemaField) UnmarshalText(text []byte) error {
	return unmarshal(u, text, ParseSchemaField)
}
