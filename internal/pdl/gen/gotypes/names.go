package gotypes

import (
	"strings"
	"unicode"
)

// initialisms are the words written in capitals in Go names, as Go's own
// naming convention and package aspects' hand-written types do (ExternalURL,
// MLFeatures, TestDefinitionMD5).
var initialisms = map[string]bool{
	"acl": true, "ai": true, "api": true, "cpu": true, "css": true, "ddl": true, "dns": true, "er": true, "gpu": true,
	"html": true, "http": true, "https": true, "id": true, "ip": true, "json": true,
	"md5": true, "ml": true, "sla": true, "sql": true, "ssh": true, "tls": true, "ttl": true,
	"ui": true, "uid": true, "uri": true, "url": true, "urn": true, "uuid": true, "xml": true,
}

// pluralInitialisms are initialisms with a plural s, written as Go writes
// them (outputUrls is OutputURLs).
var pluralInitialisms = map[string]string{"ids": "IDs", "uris": "URIs", "urls": "URLs", "urns": "URNs"}

// words splits a PDL identifier (camelCase, PascalCase or SNAKE_CASE) into
// words: "mlFeatures" is [ml Features], "MySqlDDL" is [My Sql DDL],
// "FULL_TABLE" is [FULL TABLE].
func words(s string) []string {
	var out []string
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == '_' || r == '-' || r == '.' || r == ' ' }) {
		rs := []rune(part)
		start := 0
		for i := 1; i < len(rs); i++ {
			prev, cur := rs[i-1], rs[i]
			next := rune(0)
			if i+1 < len(rs) {
				next = rs[i+1]
			}
			switch {
			case unicode.IsLower(prev) && unicode.IsUpper(cur),
				unicode.IsDigit(prev) && unicode.IsUpper(cur) && unicode.IsLower(next),
				unicode.IsUpper(prev) && unicode.IsUpper(cur) && unicode.IsLower(next):
				out = append(out, string(rs[start:i]))
				start = i
			}
		}
		out = append(out, string(rs[start:]))
	}
	return out
}

// goName turns a PDL identifier into an exported Go name: each word starts
// with a capital, initialisms are all capitals ("externalUrl" is ExternalURL,
// "FULL_TABLE" is FullTable). An all-capital word that is not an initialism is
// written in title case only when the identifier has underscores or is all
// capitals; "MySqlDDL" keeps DDL.
func goName(s string) string {
	snake := strings.ContainsRune(s, '_') || strings.ToUpper(s) == s
	var b strings.Builder
	for _, w := range words(s) {
		lw := strings.ToLower(w)
		switch {
		case pluralInitialisms[lw] != "":
			b.WriteString(pluralInitialisms[lw])
		case initialisms[lw]:
			b.WriteString(strings.ToUpper(w))
		case snake:
			b.WriteString(strings.ToUpper(lw[:1]) + lw[1:])
		default:
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
	}
	out := b.String()
	if out == "" || !unicode.IsLetter([]rune(out)[0]) {
		out = "X" + out
	}
	return out
}

// simpleName returns the last dotted part of a fully qualified name.
func simpleName(fqn string) string {
	return fqn[strings.LastIndexByte(fqn, '.')+1:]
}

// namespace returns what comes before the last dot of a fully qualified name.
func namespace(fqn string) string {
	if i := strings.LastIndexByte(fqn, '.'); i >= 0 {
		return fqn[:i]
	}
	return ""
}

// lowerFirst returns s with its first letter in lower case.
func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// fieldName is the Go name of a record field: its goName, with an underscore
// after it when that would be the name of a method of the generated types
// (AspectName, MarshalJSON, UnmarshalJSON), as protoc-gen-go does.
func fieldName(pdlName string) string {
	n := goName(pdlName)
	switch n {
	case "AspectName", "MarshalJSON", "UnmarshalJSON":
		n += "_"
	}
	return n
}
