package urn

// MLFeature is an ML feature URN, urn:li:mlFeature:(<namespace>,<name>), where
// the namespace is usually the name of the feature table.
// Build one with [NewMLFeature] or read one with [ParseMLFeature]; the zero
// value is empty and its String method returns "".
type MLFeature struct {
	namespace, name string
}

// NewMLFeature returns the ML feature URN for namespace and name. Reserved
// characters in both are escaped with [Escape].
//
//	NewMLFeature("users", "age") // urn:li:mlFeature:(users,age)
func NewMLFeature(namespace, name string) (MLFeature, error) {
	var u MLFeature
	if f := (fastBuild{kind: TypeMLFeature}); f.part(&u.namespace, namespace) && f.part(&u.name, name) && f.fits() {
		return u, nil
	}
	return generalMLFeature(namespace, name)
}

// generalMLFeature is NewMLFeature without the fast path: it writes the
// URN and parses it.
func generalMLFeature(namespace, name string) (MLFeature, error) {
	input := prefix + TypeMLFeature + ":(" + Escape(namespace) + "," + Escape(name) + ")"
	switch {
	case namespace == "":
		return MLFeature{}, newError(TypeMLFeature, input, "empty namespace")
	case name == "":
		return MLFeature{}, newError(TypeMLFeature, input, "empty name")
	}
	return parseTyped(input, TypeMLFeature, mlFeatureFrom)
}

// ParseMLFeature parses s as an ML feature URN. Neither part may hold a raw
// "," "(" or ")".
func ParseMLFeature(s string) (MLFeature, error) {
	return parseTyped(s, TypeMLFeature, mlFeatureFrom)
}

func mlFeatureFrom(r raw) (MLFeature, *ParseError) {
	if err := wantParts(r, TypeMLFeature, 2); err != nil {
		return MLFeature{}, err
	}
	if reason := plain("namespace", r.parts[0]); reason != "" {
		return MLFeature{}, newError(TypeMLFeature, r.s, "%s", reason)
	}
	if reason := plain("name", r.parts[1]); reason != "" {
		return MLFeature{}, newError(TypeMLFeature, r.s, "%s", reason)
	}
	return MLFeature{namespace: r.parts[0], name: r.parts[1]}, nil
}

// String returns the URN, or "" for the zero value.
func (u MLFeature) String() string {
	if u.name == "" {
		return ""
	}
	return prefix + TypeMLFeature + ":(" + u.namespace + "," + u.name + ")"
}

// EntityType returns "mlFeature".
func (u MLFeature) EntityType() string { return TypeMLFeature }

// Namespace returns the namespace part in URN form: reserved characters escaped.
func (u MLFeature) Namespace() string { return u.namespace }

// Name returns the name part in URN form: reserved characters escaped.
func (u MLFeature) Name() string { return u.name }

// MarshalText returns the URN as text; the zero value gives empty text.
func (u MLFeature) MarshalText() ([]byte, error) { return []byte(u.String()), nil }

// UnmarshalText parses text with [ParseMLFeature]; empty text gives the zero value.
func (u *MLFeature) UnmarshalText(text []byte) error { return unmarshal(u, text, ParseMLFeature) }

// MLFeatureTable is an ML feature table URN,
// urn:li:mlFeatureTable:(urn:li:dataPlatform:<platform>,<name>).
// Build one with [NewMLFeatureTable] or read one with [ParseMLFeatureTable];
// the zero value is empty and its String method returns "".
type MLFeatureTable struct {
	platform DataPlatform
	name     string
}

// NewMLFeatureTable returns the ML feature table URN for platform (bare, such
// as "feast", or a URN such as "urn:li:dataPlatform:feast") and name. Reserved
// characters in name and a bare platform are escaped with [Escape].
//
//	NewMLFeatureTable("feast", "users") // urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users)
func NewMLFeatureTable(platform, name string) (MLFeatureTable, error) {
	var u MLFeatureTable
	if f := (fastBuild{kind: TypeMLFeatureTable}); f.platform(&u.platform, platform) && f.part(&u.name, name) && f.fits() {
		return u, nil
	}
	return generalMLFeatureTable(platform, name)
}

// generalMLFeatureTable is NewMLFeatureTable without the fast path: it writes the
// URN and parses it.
func generalMLFeatureTable(platform, name string) (MLFeatureTable, error) {
	p, reason := platformArg(platform)
	input := prefix + TypeMLFeatureTable + ":(" + p + "," + Escape(name) + ")"
	switch {
	case reason != "":
		return MLFeatureTable{}, newError(TypeMLFeatureTable, input, "%s", reason)
	case name == "":
		return MLFeatureTable{}, newError(TypeMLFeatureTable, input, "empty name")
	}
	return parseTyped(input, TypeMLFeatureTable, mlFeatureTableFrom)
}

// ParseMLFeatureTable parses s as an ML feature table URN. The platform must
// be a dataPlatform URN and the name must hold no raw "," "(" or ")".
func ParseMLFeatureTable(s string) (MLFeatureTable, error) {
	return parseTyped(s, TypeMLFeatureTable, mlFeatureTableFrom)
}

func mlFeatureTableFrom(r raw) (MLFeatureTable, *ParseError) {
	if err := wantParts(r, TypeMLFeatureTable, 2); err != nil {
		return MLFeatureTable{}, err
	}
	p, err := platformFrom(r, TypeMLFeatureTable, r.parts[0])
	if err != nil {
		return MLFeatureTable{}, err
	}
	if reason := plain("name", r.parts[1]); reason != "" {
		return MLFeatureTable{}, newError(TypeMLFeatureTable, r.s, "%s", reason)
	}
	return MLFeatureTable{platform: p, name: r.parts[1]}, nil
}

// String returns the URN, or "" for the zero value.
func (u MLFeatureTable) String() string {
	if u.name == "" {
		return ""
	}
	return prefix + TypeMLFeatureTable + ":(" + u.platform.String() + "," + u.name + ")"
}

// EntityType returns "mlFeatureTable".
func (u MLFeatureTable) EntityType() string { return TypeMLFeatureTable }

// Platform returns the platform part.
func (u MLFeatureTable) Platform() DataPlatform { return u.platform }

// Name returns the name part in URN form: reserved characters escaped.
func (u MLFeatureTable) Name() string { return u.name }

// MarshalText returns the URN as text; the zero value gives empty text.
func (u MLFeatureTable) MarshalText() ([]byte, error) { return []byte(u.String()), nil }

// UnmarshalText parses text with [ParseMLFeatureTable]; empty text gives the zero value.
func (u *MLFeatureTable) UnmarshalText(text []byte) error {
	return unmarshal(u, text, ParseMLFeatureTable)
}
