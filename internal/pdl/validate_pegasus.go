package pdl

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/catalogkit/datahub-go/internal/javanum"
)

// This file words validation failures as Rest.li's data validation does (the messages GMS
// returns for an aspect that does not match its schema), beside the validator's own wording.

// says sets the failure's message in Rest.li's words.
func (e *verr) says(msg string) *verr {
	e.pegasus = msg
	return e
}

// javaClasses are the Java classes Rest.li names for Pegasus primitives.
var javaClasses = [...]string{
	KindString: "String", KindInt: "Integer", KindLong: "Long", KindFloat: "Float", KindDouble: "Double",
	KindBoolean: "Boolean",
}

// mismatch returns Rest.li's message for v, a value of the wrong JSON kind (or null), where a
// value of type t belongs; "" where the validator's own wording stands.
func mismatch(t *cType, v any) string {
	switch t.kind {
	case KindString, KindInt, KindLong, KindFloat, KindDouble, KindBoolean:
		return javaString(v) + " cannot be coerced to " + javaClasses[t.kind]
	case KindRecord:
		return "record type is not backed by a DataMap"
	case KindArray:
		return "array type is not backed by a DataList"
	case KindMap:
		return "map type is not backed by a DataMap"
	case KindEnum:
		return "enum type is not backed by a String"
	case KindBytes:
		return "bytes type is not backed by a String or ByteString"
	case KindFixed:
		return "fixed type is not backed by a String or ByteString"
	case KindUnion:
		if v == nil {
			return "null is not a member type of union " + unionKeys(t)
		}
		return "union type is not backed by a DataMap or null"
	}
	return ""
}

// unionKeys lists a union's member keys as "[ "a", "b" ]".
func unionKeys(t *cType) string {
	if t.keys == "" {
		return "[ ]"
	}
	return "[ " + t.keys + " ]"
}

// notMember is Rest.li's message for a union member key the union does not have.
func notMember(t *cType, key string) string {
	return fmt.Sprintf("%q is not a member type of union %s", key, unionKeys(t))
}

// javaString renders a decoded JSON value as Java's String.valueOf renders the value Rest.li
// decoded from the same JSON: strings unquoted, integers as written, other numbers as a Java
// double, objects as {k=v, ...} (keys sorted) and arrays as [a, b].
func javaString(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case json.Number:
		return javaNumber(string(x))
	case float64:
		return javanum.Double(x)
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + "=" + javaString(x[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = javaString(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return fmt.Sprint(v)
}

// javaNumber renders a JSON number's text as Java does once Jackson parsed it: integers as
// written, numbers with a fraction or exponent as a double.
func javaNumber(text string) string {
	if !strings.ContainsAny(text, ".eE") {
		return text
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return text
	}
	return javanum.Double(f)
}
