package urnold

// DataPlatform is a data platform URN, urn:li:dataPlatform:<name>.
// Build one with [NewDataPlatform] or read one with [ParseDataPlatform]; the zero value is
// empty and its String method returns "".
type DataPlatform struct {
	name string
}

// NewDataPlatform returns the data platform URN for name, given bare ("hive") or as the
// whole URN ("urn:li:dataPlatform:hive"). Reserved characters in a bare name are
// escaped with [Escape]; a whole URN is parsed as [ParseDataPlatform] does.
func NewDataPlatform(name string) (DataPlatform, error) {
	return buildSingle(TypeDataPlatform, "name", name, dataPlatformFrom)
}

// ParseDataPlatform parses s as a data platform URN. The name must hold no raw ","
// "(" or ")".
func ParseDataPlatform(s string) (DataPlatform, error) {
	return parseTyped(s, TypeDataPlatform, dataPlatformFrom)
}

func dataPlatformFrom(r raw) (DataPlatform, *ParseError) {
	v, err := singleFrom(r, TypeDataPlatform, "name")
	if err != nil {
		return DataPlatform{}, err
	}
	return DataPlatform{name: v}, nil
}

// String returns the URN, or "" for the zero value.
func (u DataPlatform) String() string {
	if u.name == "" {
		return ""
	}
	return prefix + TypeDataPlatform + ":" + u.name
}

// EntityType returns "dataPlatform".
func (u DataPlatform) EntityType() string { return TypeDataPlatform }

// Name returns the name in URN form: reserved characters escaped.
func (u DataPlatform) Name() string { return u.name }

// MarshalText returns the URN as text; the zero value gives empty text.
func (u DataPlatform) MarshalText() ([]byte, error) { return []byte(u.String()), nil }

// UnmarshalText parses text with [ParseDataPlatform]; empty text gives the zero value.
func (u *DataPlatform) UnmarshalText(text []byte) error { return unmarshal(u, text, ParseDataPlatform) }

// CorpUser is a user URN, urn:li:corpuser:<id>.
// Build one with [NewCorpUser] or read one with [ParseCorpUser]; the zero value is
// empty and its String method returns "".
type CorpUser struct {
	id string
}

// NewCorpUser returns the user URN for id, given bare ("jdoe") or as the
// whole URN ("urn:li:corpuser:jdoe"). Reserved characters in a bare id are
// escaped with [Escape]; a whole URN is parsed as [ParseCorpUser] does.
func NewCorpUser(id string) (CorpUser, error) {
	return buildSingle(TypeCorpUser, "id", id, corpUserFrom)
}

// ParseCorpUser parses s as a user URN. The id must hold no raw ","
// "(" or ")".
func ParseCorpUser(s string) (CorpUser, error) {
	return parseTyped(s, TypeCorpUser, corpUserFrom)
}

func corpUserFrom(r raw) (CorpUser, *ParseError) {
	v, err := singleFrom(r, TypeCorpUser, "id")
	if err != nil {
		return CorpUser{}, err
	}
	return CorpUser{id: v}, nil
}

// String returns the URN, or "" for the zero value.
func (u CorpUser) String() string {
	if u.id == "" {
		return ""
	}
	return prefix + TypeCorpUser + ":" + u.id
}

// EntityType returns "corpuser".
func (u CorpUser) EntityType() string { return TypeCorpUser }

// ID returns the id in URN form: reserved characters escaped.
func (u CorpUser) ID() string { return u.id }

// MarshalText returns the URN as text; the zero value gives empty text.
func (u CorpUser) MarshalText() ([]byte, error) { return []byte(u.String()), nil }

// UnmarshalText parses text with [ParseCorpUser]; empty text gives the zero value.
func (u *CorpUser) UnmarshalText(text []byte) error { return unmarshal(u, text, ParseCorpUser) }

// Test is a metadata test URN, urn:li:test:<id>.
// Build one with [NewTest] or read one with [ParseTest]; the zero value is
// empty and its String method returns "".
type Test struct {
	id string
}

// NewTest returns the metadata test URN for id, given bare ("my-test") or as the
// whole URN ("urn:li:test:my-test"). Reserved characters in a bare id are
// escaped with [Escape]; a whole URN is parsed as [ParseTest] does.
func NewTest(id string) (Test, error) {
	return buildSingle(TypeTest, "id", id, testFrom)
}

// ParseTest parses s as a metadata test URN. The id must hold no raw ","
// "(" or ")".
func ParseTest(s string) (Test, error) {
	return parseTyped(s, TypeTest, testFrom)
}

func testFrom(r raw) (Test, *ParseError) {
	v, err := singleFrom(r, TypeTest, "id")
	if err != nil {
		return Test{}, err
	}
	return Test{id: v}, nil
}

// String returns the URN, or "" for the zero value.
func (u Test) String() string {
	if u.id == "" {
		return ""
	}
	return prefix + TypeTest + ":" + u.id
}

// EntityType returns "test".
func (u Test) EntityType() string { return TypeTest }

// ID returns the id in URN form: reserved characters escaped.
func (u Test) ID() string { return u.id }

// MarshalText returns the URN as text; the zero value gives empty text.
func (u Test) MarshalText() ([]byte, error) { return []byte(u.String()), nil }

// UnmarshalText parses text with [ParseTest]; empty text gives the zero value.
func (u *Test) UnmarshalText(text []byte) error { return unmarshal(u, text, ParseTest) }

// Tag is a tag URN, urn:li:tag:<name>.
// Build one with [NewTag] or read one with [ParseTag]; the zero value is
// empty and its String method returns "".
type Tag struct {
	name string
}

// NewTag returns the tag URN for name, given bare ("pii") or as the
// whole URN ("urn:li:tag:pii"). Reserved characters in a bare name are
// escaped with [Escape]; a whole URN is parsed as [ParseTag] does.
func NewTag(name string) (Tag, error) {
	return buildSingle(TypeTag, "name", name, tagFrom)
}

// ParseTag parses s as a tag URN. The name must hold no raw ","
// "(" or ")".
func ParseTag(s string) (Tag, error) {
	return parseTyped(s, TypeTag, tagFrom)
}

func tagFrom(r raw) (Tag, *ParseError) {
	v, err := singleFrom(r, TypeTag, "name")
	if err != nil {
		return Tag{}, err
	}
	return Tag{name: v}, nil
}

// String returns the URN, or "" for the zero value.
func (u Tag) String() string {
	if u.name == "" {
		return ""
	}
	return prefix + TypeTag + ":" + u.name
}

// EntityType returns "tag".
func (u Tag) EntityType() string { return TypeTag }

// Name returns the name in URN form: reserved characters escaped.
func (u Tag) Name() string { return u.name }

// MarshalText returns the URN as text; the zero value gives empty text.
func (u Tag) MarshalText() ([]byte, error) { return []byte(u.String()), nil }

// UnmarshalText parses text with [ParseTag]; empty text gives the zero value.
func (u *Tag) UnmarshalText(text []byte) error { return unmarshal(u, text, ParseTag) }

// GlossaryTerm is a glossary term URN, urn:li:glossaryTerm:<name>.
// Build one with [NewGlossaryTerm] or read one with [ParseGlossaryTerm]; the zero value is
// empty and its String method returns "".
type GlossaryTerm struct {
	name string
}

// NewGlossaryTerm returns the glossary term URN for name, given bare ("Classification.Sensitive") or as the
// whole URN ("urn:li:glossaryTerm:Classification.Sensitive"). Reserved characters in a bare name are
// escaped with [Escape]; a whole URN is parsed as [ParseGlossaryTerm] does.
func NewGlossaryTerm(name string) (GlossaryTerm, error) {
	return buildSingle(TypeGlossaryTerm, "name", name, glossaryTermFrom)
}

// ParseGlossaryTerm parses s as a glossary term URN. The name must hold no raw ","
// "(" or ")".
func ParseGlossaryTerm(s string) (GlossaryTerm, error) {
	return parseTyped(s, TypeGlossaryTerm, glossaryTermFrom)
}

func glossaryTermFrom(r raw) (GlossaryTerm, *ParseError) {
	v, err := singleFrom(r, TypeGlossaryTerm, "name")
	if err != nil {
		return GlossaryTerm{}, err
	}
	return GlossaryTerm{name: v}, nil
}

// String returns the URN, or "" for the zero value.
func (u GlossaryTerm) String() string {
	if u.name == "" {
		return ""
	}
	return prefix + TypeGlossaryTerm + ":" + u.name
}

// EntityType returns "glossaryTerm".
func (u GlossaryTerm) EntityType() string { return TypeGlossaryTerm }

// Name returns the name in URN form: reserved characters escaped.
func (u GlossaryTerm) Name() string { return u.name }

// MarshalText returns the URN as text; the zero value gives empty text.
func (u GlossaryTerm) MarshalText() ([]byte, error) { return []byte(u.String()), nil }

// UnmarshalText parses text with [ParseGlossaryTerm]; empty text gives the zero value.
func (u *GlossaryTerm) UnmarshalText(text []byte) error { return unmarshal(u, text, ParseGlossaryTerm) }
