package fieldpath

import (
	"fmt"
	"strings"

	"github.com/catalogkit/datahub-go/internal/errs"
)

// Builder builds a version-2 field path one token at a time. A Builder is a
// small immutable value: each method returns a new Builder and leaves its
// receiver as it was, so a common prefix can be built once and extended in
// several ways.
//
//	rec := fieldpath.New().Type("ABUnion").Type("union")
//	rec.Type("A").Field("a").Type("string").Field("f").String()
//	// [version=2.0].[type=ABUnion].[type=union].[type=A].a.[type=string].f
//
// The zero Builder is not usable; start with [New] or [NewKey].
type Builder struct {
	path string
	err  error
}

// New returns a Builder for a field of a value schema; its path starts with
// "[version=2.0]".
func New() Builder {
	return Builder{path: VersionToken}
}

// NewKey returns a Builder for a field of a key schema; its path starts with
// "[version=2.0].[key=True]".
func NewKey() Builder {
	return Builder{path: VersionToken + "." + KeyToken}
}

// Type appends the type token "[type=<name>]". name is a record name (short,
// without its namespace) or one of union, array, map, string, int, long,
// float, double, boolean, bytes, fixed, enum, null. It must be non-empty and
// hold no ".", "[" or "]".
func (b Builder) Type(name string) Builder {
	var reason string
	switch {
	case name == "":
		reason = "is empty"
	case strings.ContainsAny(name, ".[]"):
		reason = `holds ".", "[" or "]"`
	}
	return b.add("type name", name, reason, "[type="+name+"]")
}

// Field appends the field name token name. It must be non-empty, hold no ".",
// and neither start with "[" nor end with "]", or [Simplify] would drop or
// split it.
func (b Builder) Field(name string) Builder {
	var reason string
	switch {
	case name == "":
		reason = "is empty"
	case strings.Contains(name, "."):
		reason = `holds "."`
	case strings.HasPrefix(name, "["):
		reason = `starts with "["`
	case strings.HasSuffix(name, "]"):
		reason = `ends with "]"`
	}
	return b.add("field name", name, reason, name)
}

// add appends token, or records the first error.
func (b Builder) add(what, name, reason, token string) Builder {
	if b.err == nil && b.path == "" {
		b.err = fmt.Errorf("fieldpath: builder not started with New or NewKey: %w", errs.ErrValidation)
	}
	if b.err == nil && reason != "" {
		b.err = fmt.Errorf("fieldpath: %s %q %s: %w", what, name, reason, errs.ErrValidation)
	}
	b.path += "." + token
	return b
}

// Build returns the path, or the error about the first invalid name given to
// the Builder. Errors match datahub.ErrValidation.
func (b Builder) Build() (string, error) {
	if b.err != nil {
		return "", b.err
	}
	if b.path == "" {
		return "", fmt.Errorf("fieldpath: builder not started with New or NewKey: %w", errs.ErrValidation)
	}
	return b.path, nil
}

// String returns the path built so far, invalid names included; use
// [Builder.Build] to learn whether every name was valid.
func (b Builder) String() string {
	return b.path
}
