package fieldpath

import "strings"

// VersionToken starts every version-2 field path.
const VersionToken = "[version=2.0]"

// KeyToken follows [VersionToken] in the paths of fields that belong to a key
// schema rather than a value schema.
const KeyToken = "[key=True]"

// IsV2 reports whether path is a version-2 field path: whether it starts with
// "[version=2.0]".
func IsV2(path string) bool {
	return strings.HasPrefix(path, VersionToken)
}

// IsKey reports whether path is a version-2 field path of a key-schema field:
// whether it starts with "[version=2.0].[key=True]".
func IsKey(path string) bool {
	return strings.HasPrefix(path, VersionToken+"."+KeyToken) &&
		(len(path) == len(VersionToken+"."+KeyToken) || path[len(VersionToken+"."+KeyToken)] == '.')
}

// Simplify returns the simple (version-1) form of a version-2 field path: the
// path split on ".", without every token that starts with "[" or ends with
// "]", joined with ".". Any other path is returned unchanged.
//
//	[version=2.0].[type=ABFooUnion].[type=union].[type=array].[type=array].[type=Foo].a.[type=long].f → a.f
//	customer_id → customer_id
//
// Several version-2 paths can share one simple form (the members of a union
// all simplify to the union field's name); see the package documentation for
// why Simplify does not keep such paths in version-2 form.
func Simplify(path string) string {
	if !IsV2(path) {
		return path
	}
	var b strings.Builder
	b.Grow(len(path))
	first := true
	for tok := range strings.SplitSeq(path, ".") {
		if strings.HasPrefix(tok, "[") || strings.HasSuffix(tok, "]") {
			continue
		}
		if !first {
			b.WriteByte('.')
		}
		b.WriteString(tok)
		first = false
	}
	return b.String()
}
