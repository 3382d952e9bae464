package urn

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxDepth bounds how deeply URNs may nest inside one another (a schema field
// of a schema field of ...), so that hostile input cannot make Parse recurse
// without end. Real URNs nest two or three levels.
const maxDepth = 8

// raw is a URN split into its entity type and id, before any typed checks.
// It keeps its parts in place, so that splitting allocates nothing.
type raw struct {
	s          string           // the whole URN
	entityType string           // such as "dataset"
	id         string           // everything after "urn:li:<entityType>:"
	parts      [maxParts]string // the first tuple parts, or the id alone
	n          int              // how many parts the id has (more than maxParts are counted, not kept)
	tuple      bool             // id is "(...)" and parts were split from it
	depth      int              // nesting level: 0 for the URN the caller passed
}

// split checks the syntax every URN shares and splits s into parts. kind, when
// not "", is the entity type the caller wants. limit applies DataHub's 512-byte
// encoded length limit (nested URNs are covered by their outer URN's limit).
func split(s, kind string, limit bool, depth int) (raw, *ParseError) {
	if s == "" {
		return raw{}, newError(kind, s, "empty string")
	}
	if depth > maxDepth {
		return raw{}, newError(kind, s, "urns nested more than %d deep", maxDepth)
	}
	if r, _ := utf8.DecodeRuneInString(s); isTrimmed(r) {
		return raw{}, newError(kind, s, "leading whitespace")
	}
	if r, _ := utf8.DecodeLastRuneInString(s); isTrimmed(r) {
		return raw{}, newError(kind, s, "trailing whitespace")
	}
	if strings.Contains(s, unitSeparator) {
		return raw{}, newError(kind, s, "contains the reserved character \"\u241f\" (U+241F)")
	}
	if !strings.HasPrefix(s, prefix) {
		return raw{}, newError(kind, s, "missing %q prefix", prefix)
	}
	rest := s[len(prefix):]
	colon := strings.IndexByte(rest, ':')
	if colon < 0 {
		return raw{}, newError(kind, s, "missing \":\" after the entity type")
	}
	et := rest[:colon]
	if reason := checkEntityType(et); reason != "" {
		return raw{}, newError(kind, s, "%s", reason)
	}
	if kind != "" && et != kind {
		return raw{}, newError(kind, s, "entity type is %q, want %q", et, kind)
	}
	if kind == "" {
		kind = et
	}
	id := rest[colon+1:]
	if id == "" {
		return raw{}, newError(kind, s, "empty entity id")
	}
	r := raw{s: s, entityType: et, id: id, depth: depth}
	n, tuple, enc, reason := scanID(id, r.parts[:])
	if limit && et != TypeSchemaField {
		if reason != "" {
			enc = encodedLen(id) // scanID stopped early
		}
		// "urn:li:<et>:" before the id: et is letters, digits and "_".
		if n := encodedPrefix + len(et) + 3 + enc; n > MaxEncodedLength {
			return raw{}, newError(kind, s, "%d bytes when URL-encoded, over DataHub's limit of %d", n, MaxEncodedLength)
		}
	}
	if reason != "" {
		return raw{}, newError(kind, s, "%s", reason)
	}
	r.n, r.tuple = n, tuple
	return r, nil
}

// isTrimmed reports whether r counts as surrounding whitespace: a control
// character or space (what Java's String.trim removes) or Unicode white space.
func isTrimmed(r rune) bool {
	return r <= ' ' || unicode.IsSpace(r)
}

// checkEntityType returns why et is not a valid entity type, or "".
func checkEntityType(et string) string {
	if et == "" {
		return "empty entity type"
	}
	for i := 0; i < len(et); i++ {
		c := et[i]
		switch {
		case 'a' <= c && c <= 'z':
		case i > 0 && (c == '_' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'):
		default:
			return fmt.Sprintf("entity type %q must be a lower-case letter followed by letters, digits or \"_\"", et)
		}
	}
	return ""
}

// splitID splits a tuple id "(a,b,...)" on the commas outside nested
// parentheses, as DataHub's TupleKey does. Any other id is one part; its
// parentheses must still balance. It stores the first len(parts) parts in
// parts and returns how many there are.
func splitID(id string, parts []string) (n int, tuple bool, reason string) {
	n, tuple, _, reason = scanID(id, parts)
	return n, tuple, reason
}

// scanID is splitID and encodedLen of id in one pass: it also returns id's
// URL-encoded length, when reason is "".
func scanID(id string, parts []string) (n int, tuple bool, encoded int, reason string) {
	if len(id) < 2 || id[0] != '(' || id[len(id)-1] != ')' {
		depth := 0
		for i := 0; i < len(id); i++ {
			switch id[i] {
			case '(':
				depth++
			case ')':
				depth--
				if depth < 0 {
					return 0, false, 0, "mismatched parentheses"
				}
			}
		}
		if depth != 0 {
			return 0, false, 0, "mismatched parentheses"
		}
		if len(parts) > 0 {
			parts[0] = id
		}
		return 1, false, encodedLen(id), ""
	}
	inner := id[1 : len(id)-1]
	encoded = len(id) + 2*2 // the parentheses
	depth, start, empty := 0, 0, 0
	for i := 0; i < len(inner); i++ {
		c := inner[i]
		k := byteClass[c]
		if k == 0 {
			continue
		}
		encoded += 2
		if k == classReserved {
			continue
		}
		switch c {
		case '(':
			depth++
		case ')':
			depth--
			if depth < 0 {
				return 0, false, 0, "mismatched parentheses"
			}
		case ',':
			if depth == 0 {
				if n < len(parts) {
					parts[n] = inner[start:i]
				}
				if i == start && empty == 0 {
					empty = n + 1
				}
				n++
				start = i + 1
			}
		}
	}
	if depth != 0 {
		return 0, false, 0, "mismatched parentheses"
	}
	if n < len(parts) {
		parts[n] = inner[start:]
	}
	if start == len(inner) && empty == 0 {
		empty = n + 1
	}
	n++
	if empty != 0 {
		return 0, false, 0, fmt.Sprintf("part %d of %d is empty", empty, n)
	}
	return n, true, encoded, ""
}

// plain returns why a part that is not a URN holds a reserved character raw,
// or "". Builders escape these characters; a parsed part must not hold them.
func plain(field, part string) string {
	for i := 0; i < len(part); i++ {
		if byteClass[part[i]] == classSplit {
			return fmt.Sprintf("%s contains the reserved character %q", field, part[i:i+1])
		}
	}
	return ""
}

// wantParts checks that r is a tuple of n parts.
func wantParts(r raw, kind string, n int) *ParseError {
	if !r.tuple || r.n != n {
		return newError(kind, r.s, "want %d parts, got %d", n, r.n)
	}
	return nil
}

// Parse parses s as a DataHub URN. It returns the typed value of this package
// for the entity types it knows (a [Dataset] for "urn:li:dataset:...", and so
// on) and a [Generic] for every other entity type. An error is a
// [*ParseError] that names s and what is wrong with it.
func Parse(s string) (URN, error) {
	u, err := parse(s, true, 0)
	if err != nil {
		return nil, err
	}
	return u, nil
}

// parse is Parse with the length limit optional and the nesting depth given.
func parse(s string, limit bool, depth int) (URN, *ParseError) {
	r, err := split(s, "", limit, depth)
	if err != nil {
		return nil, err
	}
	var u URN
	switch r.entityType {
	case TypeDataset:
		u, err = unerr(datasetFrom(r))
	case TypeMLFeature:
		u, err = unerr(mlFeatureFrom(r))
	case TypeMLFeatureTable:
		u, err = unerr(mlFeatureTableFrom(r))
	case TypeMLModel:
		u, err = unerr(mlModelFrom(r))
	case TypeMLModelGroup:
		u, err = unerr(mlModelGroupFrom(r))
	case TypeCorpUser:
		u, err = unerr(corpUserFrom(r))
	case TypeDataPlatform:
		u, err = unerr(dataPlatformFrom(r))
	case TypeTest:
		u, err = unerr(testFrom(r))
	case TypeTag:
		u, err = unerr(tagFrom(r))
	case TypeGlossaryTerm:
		u, err = unerr(glossaryTermFrom(r))
	case TypeSchemaField:
		u, err = unerr(schemaFieldFrom(r))
	default:
		var typed bool
		if u, typed, err = typedFrom(r); !typed {
			u = genericFrom(r)
		}
	}
	if err != nil {
		return nil, err
	}
	return u, nil
}

// unerr converts a typed result to a URN result.
func unerr[T URN](v T, err *ParseError) (URN, *ParseError) {
	if err != nil {
		return nil, err
	}
	return v, nil
}

// parseTyped is the body of every ParseX function.
func parseTyped[T any](s, kind string, from func(raw) (T, *ParseError)) (T, error) {
	var zero T
	r, err := split(s, kind, true, 0)
	if err != nil {
		return zero, err
	}
	v, err := from(r)
	if err != nil {
		return zero, err
	}
	return v, nil
}

// MustParse is like [Parse] but panics if s is not a valid URN. It is meant
// for URN literals in tests and examples, never for input.
func MustParse(s string) URN {
	u, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}

// unmarshal is the body of every UnmarshalText method: empty text gives the
// zero value, anything else must parse.
func unmarshal[T any](dst *T, text []byte, parse func(string) (T, error)) error {
	if len(text) == 0 {
		var zero T
		*dst = zero
		return nil
	}
	v, err := parse(string(text))
	if err != nil {
		return err
	}
	*dst = v
	return nil
}
