package urn

import (
	"slices"
	"strings"
)

// Generic is a URN of any entity type, kept as its entity type and id with
// only the syntax every DataHub URN shares checked. [Parse] returns a Generic
// for entity types this package has no type for, those outside DataHub's
// entity registry, such as "urn:li:myEntity:(a,b)".
// [ParseGeneric] returns one for any URN, which is also the way to read a URN
// of a known type that breaks that type's stricter rules.
// The zero value is empty and its String method returns "".
type Generic struct {
	entityType, id string
}

// NewGeneric returns the URN of entityType with the given id parts: one part
// gives urn:li:<entityType>:<part>, more give the tuple form
// urn:li:<entityType>:(<part1>,<part2>,...). A part that starts with "urn:li:"
// is a nested URN and is kept as it is; reserved characters in any other part
// are escaped with [Escape].
//
// [Parse] of the result returns a typed value, not a Generic, when entityType
// is one this package types; [ParseGeneric] always gives the Generic back.
func NewGeneric(entityType string, parts ...string) (Generic, error) {
	kind := entityType
	if reason := checkEntityType(entityType); reason != "" {
		return Generic{}, newError("", prefix+entityType+":", "%s", reason)
	}
	enc := make([]string, len(parts))
	for i, p := range parts {
		enc[i] = p
		if !strings.HasPrefix(p, prefix) {
			enc[i] = Escape(p)
		}
	}
	id := ""
	if len(enc) == 1 {
		id = enc[0]
	} else {
		id = "(" + strings.Join(enc, ",") + ")"
	}
	input := prefix + entityType + ":" + id
	if len(parts) == 0 {
		return Generic{}, newError(kind, input, "no parts")
	}
	for i, p := range enc {
		if p == "" {
			return Generic{}, newError(kind, input, "part %d of %d is empty", i+1, len(parts))
		}
		if strings.HasPrefix(p, prefix) {
			if _, err := split(p, "", false, 1); err != nil {
				return Generic{}, newError(kind, input, "part %d: %s", i+1, err.Reason)
			}
		}
	}
	g, err := ParseGeneric(input)
	if err != nil {
		return Generic{}, err
	}
	if got := g.Parts(); !slices.Equal(got, enc) {
		return Generic{}, newError(kind, input, "the nested urns split into %d parts, not %d", len(got), len(enc))
	}
	return g, nil
}

// ParseGeneric parses s as a URN of any entity type without the checks of the
// typed parsers: "urn:li:" prefix, entity type, non-empty id, balanced
// parentheses, no empty tuple parts, no "␟", no surrounding white space and the
// 512-byte limit (schema fields exempt).
func ParseGeneric(s string) (Generic, error) {
	return parseTyped(s, "", func(r raw) (Generic, *ParseError) { return genericFrom(r), nil })
}

func genericFrom(r raw) Generic {
	return Generic{entityType: r.entityType, id: r.id}
}

// String returns the URN, or "" for the zero value.
func (u Generic) String() string {
	if u.id == "" {
		return ""
	}
	return prefix + u.entityType + ":" + u.id
}

// EntityType returns the entity type, such as "dataJob".
func (u Generic) EntityType() string { return u.entityType }

// ID returns everything after "urn:li:<entityType>:", parentheses included.
func (u Generic) ID() string { return u.id }

// Parts returns the id split into its parts: the tuple parts of
// "(a,b,...)", with nested URNs kept whole, or the id alone. Parts are in URN
// form (reserved characters escaped). The slice is the caller's to keep.
func (u Generic) Parts() []string {
	if u.id == "" {
		return nil
	}
	n, _, _ := splitID(u.id, nil)
	parts := make([]string, n)
	splitID(u.id, parts)
	return parts
}

// MarshalText returns the URN as text; the zero value gives empty text.
func (u Generic) MarshalText() ([]byte, error) { return []byte(u.String()), nil }

// UnmarshalText parses text with [ParseGeneric]; empty text gives the zero value.
func (u *Generic) UnmarshalText(text []byte) error { return unmarshal(u, text, ParseGeneric) }
