// Package jsonrand writes JSON data as random texts of the same data, for
// the tests of code that must not care how data is written (equality,
// hashing, schema checks).
package jsonrand

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// Rewrite writes v (as encoding/json or pdl.DecodeJSON decode JSON: maps,
// slices, strings and scalars) as JSON text of its own: members in a
// random order, characters escaped at random, white space between tokens.
func Rewrite(r *rand.Rand, v any) string {
	sp := func() string { return []string{"", " ", "\n\t"}[r.IntN(3)] }
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		var parts []string
		for _, k := range keys {
			parts = append(parts, sp()+Quote(r, k)+sp()+":"+sp()+Rewrite(r, x[k])+sp())
		}
		return "{" + strings.Join(parts, ",") + sp() + "}"
	case []any:
		var parts []string
		for _, e := range x {
			parts = append(parts, sp()+Rewrite(r, e)+sp())
		}
		return "[" + strings.Join(parts, ",") + sp() + "]"
	case string:
		return Quote(r, x)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// Quote writes s as a JSON string, each character escaped or not at
// random (a character outside the Basic Multilingual Plane as a surrogate
// pair or as itself).
func Quote(r *rand.Rand, s string) string {
	var sb strings.Builder
	sb.WriteByte('"')
	for _, c := range s {
		switch {
		case c == '"' || c == '\\':
			sb.WriteByte('\\')
			sb.WriteRune(c)
		case c < 0x20:
			fmt.Fprintf(&sb, `\u%04x`, c)
		case c > 0xffff && r.IntN(2) == 0:
			c -= 0x10000
			fmt.Fprintf(&sb, `\u%04x\u%04x`, 0xd800+(c>>10), 0xdc00+(c&0x3ff))
		case c <= 0xffff && r.IntN(3) == 0:
			fmt.Fprintf(&sb, `\u%04x`, c)
		default:
			sb.WriteRune(c)
		}
	}
	sb.WriteByte('"')
	return sb.String()
}
