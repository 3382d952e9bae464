package graphql

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
)

// varDef is one variable definition of an operation: its name, type and
// where it starts (its "$").
type varDef struct {
	name string
	typ  varType
	loc  location
}

// varType is a variable's type: a named type, or a list of one; nonNull
// when it ends in "!".
type varType struct {
	name    string   // "" for a list
	elem    *varType // the list's element type
	nonNull bool
}

// checkVariables coerces the values of the built-in scalar variables of the
// operation named op (the only one when op is "") as graphql-java does
// before it executes anything, and returns the error it answers for the
// first value it refuses: "Variable 'c' has an invalid value: ...", at the
// variable's definition, a ValidationError. gqlparser's coercion checks
// the other types (enums, input objects, null for a non-null type) after
// it. Queries it cannot read are left to gqlparser.
func checkVariables(query, op string, vars map[string]json.RawMessage) *queryError {
	if len(vars) == 0 {
		return nil
	}
	defs, ok := operationVariables(query, op)
	return checkVariableDefs(defs, ok, vars)
}

// checkVariableDefs is checkVariables with the operation's variable
// definitions read (ok false: not readable, nothing checked).
func checkVariableDefs(defs []varDef, ok bool, vars map[string]json.RawMessage) *queryError {
	if len(vars) == 0 || !ok {
		return nil
	}
	for _, d := range defs {
		raw, ok := vars[d.name]
		if !ok {
			continue
		}
		if msg := coerceValue(d.typ, raw); msg != "" {
			return &queryError{
				Message:    fmt.Sprintf("Variable '%s' has an invalid value: %s", d.name, msg),
				Locations:  []location{d.loc},
				Extensions: map[string]any{"classification": "ValidationError"},
			}
		}
	}
	return nil
}

// coerceValue returns why graphql-java's coercion refuses raw for t, or "".
// Only the built-in scalars are checked.
func coerceValue(t varType, raw json.RawMessage) string {
	raw = json.RawMessage(strings.TrimSpace(string(raw)))
	if string(raw) == "null" || len(raw) == 0 {
		return "" // null for a non-null type is gqlparser's to refuse
	}
	if t.elem != nil {
		var items []json.RawMessage
		if raw[0] != '[' {
			return coerceValue(*t.elem, raw) // a single value is a list of one
		}
		if json.Unmarshal(raw, &items) != nil {
			return ""
		}
		for _, it := range items {
			if msg := coerceValue(*t.elem, it); msg != "" {
				return msg
			}
		}
		return ""
	}
	class := javaClass(raw)
	switch t.name {
	case "Int":
		switch class {
		case "Integer":
			return ""
		case "Long", "BigInteger":
			return fmt.Sprintf("Expected value to be in the integer range, but it was a '%s'", raw)
		case "Double":
			if f, ok := new(big.Float).SetString(string(raw)); ok && f.IsInt() {
				if i, _ := f.Int(nil); i.IsInt64() && i.Int64() >= -1<<31 && i.Int64() < 1<<31 {
					return ""
				}
				i, _ := f.Int(nil)
				return fmt.Sprintf("Expected value to be in the integer range, but it was a '%s'", i)
			}
		}
		return fmt.Sprintf("Expected a value that can be converted to type 'Int' but it was a '%s'", class)
	case "Float":
		if class == "Integer" || class == "Long" || class == "BigInteger" || class == "Double" {
			return ""
		}
		return fmt.Sprintf("Expected a value that can be converted to type 'Float' but it was a '%s'", class)
	case "Boolean":
		if class != "Boolean" {
			return fmt.Sprintf("Expected a Boolean input, but it was a '%s'", class)
		}
	case "String":
		if class != "String" {
			return fmt.Sprintf("Expected a String input, but it was a '%s'", class)
		}
	case "ID":
		if class != "String" && class != "Integer" && class != "Long" && class != "BigInteger" {
			return fmt.Sprintf("Expected a value that can be converted to type 'ID' but it was a '%s'", class)
		}
	}
	return ""
}

// javaClass is the simple name of the class Jackson reads a JSON value
// into, as graphql-java's messages name it.
func javaClass(raw json.RawMessage) string {
	switch raw[0] {
	case '"':
		return "String"
	case 't', 'f':
		return "Boolean"
	case '[':
		return "ArrayList"
	case '{':
		return "LinkedHashMap"
	}
	s := string(raw)
	if strings.ContainsAny(s, ".eE") {
		return "Double"
	}
	n, ok := new(big.Int).SetString(s, 10)
	switch {
	case !ok:
		return "Double"
	case n.IsInt64() && n.Int64() >= -1<<31 && n.Int64() < 1<<31:
		return "Integer"
	case n.IsInt64():
		return "Long"
	}
	return "BigInteger"
}

// operationVariables reads the variable definitions of the operation named
// op in query (the only operation when op is ""); ok is false when the
// query cannot be read or has no such operation.
func operationVariables(query, op string) (defs []varDef, ok bool) {
	lx := lexer{src: query, line: 1, col: 1}
	found := false
	for {
		t := lx.next()
		switch {
		case t.kind == tokEOF:
			return defs, found
		case t.kind == tokPunct && t.text == "{": // an anonymous query, or a fragment's body
			if !lx.skipBlock() {
				return nil, false
			}
			if op == "" {
				if found {
					return nil, false
				}
				found = true
			}
		case t.kind == tokName && (t.text == "query" || t.text == "mutation" || t.text == "subscription"):
			name := ""
			t = lx.next()
			if t.kind == tokName {
				name, t = t.text, lx.next()
			}
			var ds []varDef
			if t.kind == tokPunct && t.text == "(" {
				var good bool
				if ds, good = lx.varDefs(); !good {
					return nil, false
				}
				t = lx.next()
			}
			for t.kind != tokEOF && !(t.kind == tokPunct && t.text == "{") { // directives
				t = lx.next()
			}
			if t.kind == tokEOF || !lx.skipBlock() {
				return nil, false
			}
			if op == "" || name == op {
				if found {
					return nil, false // two operations and no name to choose: refused later
				}
				found, defs = true, ds
			}
		case t.kind == tokName && t.text == "fragment":
			for t.kind != tokEOF && !(t.kind == tokPunct && t.text == "{") {
				t = lx.next()
			}
			if t.kind == tokEOF || !lx.skipBlock() {
				return nil, false
			}
		default:
			return nil, false
		}
	}
}

type tokKind int

const (
	tokEOF tokKind = iota
	tokName
	tokPunct
	tokOther // a string, a number or "..."
)

type token struct {
	kind tokKind
	text string
	loc  location
}

// lexer splits a GraphQL document into tokens, skipping white space,
// commas and comments.
type lexer struct {
	src       string
	i         int
	line, col int
}

func (lx *lexer) advance(n int) {
	for range n {
		if lx.src[lx.i] == '\n' {
			lx.line, lx.col = lx.line+1, 1
		} else {
			lx.col++
		}
		lx.i++
	}
}

func (lx *lexer) next() token {
	for lx.i < len(lx.src) {
		c := lx.src[lx.i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == 0xEF || c == 0xBB || c == 0xBF:
			lx.advance(1)
		case c == '#':
			for lx.i < len(lx.src) && lx.src[lx.i] != '\n' {
				lx.advance(1)
			}
		default:
			return lx.token()
		}
	}
	return token{kind: tokEOF}
}

func (lx *lexer) token() token {
	start := location{Line: lx.line, Column: lx.col}
	c := lx.src[lx.i]
	switch {
	case c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		j := lx.i
		for j < len(lx.src) && (lx.src[j] == '_' || 'a' <= lx.src[j] && lx.src[j] <= 'z' || 'A' <= lx.src[j] && lx.src[j] <= 'Z' || '0' <= lx.src[j] && lx.src[j] <= '9') {
			j++
		}
		text := lx.src[lx.i:j]
		lx.advance(j - lx.i)
		return token{kind: tokName, text: text, loc: start}
	case c == '"':
		if strings.HasPrefix(lx.src[lx.i:], `"""`) {
			end := strings.Index(lx.src[lx.i+3:], `"""`)
			for end >= 0 && lx.src[lx.i+3+end-1] == '\\' {
				next := strings.Index(lx.src[lx.i+3+end+3:], `"""`)
				if next < 0 {
					end = -1
					break
				}
				end += 3 + next
			}
			if end < 0 {
				lx.advance(len(lx.src) - lx.i)
				return token{kind: tokOther, loc: start}
			}
			lx.advance(end + 6)
			return token{kind: tokOther, loc: start}
		}
		lx.advance(1)
		for lx.i < len(lx.src) && lx.src[lx.i] != '"' && lx.src[lx.i] != '\n' {
			if lx.src[lx.i] == '\\' && lx.i+1 < len(lx.src) {
				lx.advance(1)
			}
			lx.advance(1)
		}
		if lx.i < len(lx.src) {
			lx.advance(1)
		}
		return token{kind: tokOther, loc: start}
	case c == '-' || '0' <= c && c <= '9':
		j := lx.i + 1
		for j < len(lx.src) && strings.IndexByte("0123456789.eE+-", lx.src[j]) >= 0 {
			j++
		}
		lx.advance(j - lx.i)
		return token{kind: tokOther, loc: start}
	case strings.HasPrefix(lx.src[lx.i:], "..."):
		lx.advance(3)
		return token{kind: tokOther, text: "...", loc: start}
	}
	lx.advance(1)
	return token{kind: tokPunct, text: string(c), loc: start}
}

// skipBlock skips to the "}" that closes the "{" just read.
func (lx *lexer) skipBlock() bool {
	depth := 1
	for depth > 0 {
		t := lx.next()
		switch {
		case t.kind == tokEOF:
			return false
		case t.kind == tokPunct && t.text == "{":
			depth++
		case t.kind == tokPunct && t.text == "}":
			depth--
		}
	}
	return true
}

// varDefs reads variable definitions up to the ")" that closes the "("
// just read.
func (lx *lexer) varDefs() ([]varDef, bool) {
	var defs []varDef
	for {
		t := lx.next()
		if t.kind == tokPunct && t.text == ")" {
			return defs, true
		}
		if t.kind != tokPunct || t.text != "$" {
			return nil, false
		}
		dollar := t.loc
		name := lx.next()
		if name.kind != tokName {
			return nil, false
		}
		if c := lx.next(); c.kind != tokPunct || c.text != ":" {
			return nil, false
		}
		typ, t, ok := lx.varType(lx.next())
		if !ok {
			return nil, false
		}
		defs = append(defs, varDef{name: name.text, typ: typ, loc: dollar})
		// A default value and directives: skip to the next "$" or ")".
		for depth := 0; depth > 0 || t.kind != tokPunct || (t.text != "$" && t.text != ")"); t = lx.next() {
			switch {
			case t.kind == tokEOF:
				return nil, false
			case t.kind == tokPunct && (t.text == "[" || t.text == "{" || t.text == "("):
				depth++
			case t.kind == tokPunct && (t.text == "]" || t.text == "}" || t.text == ")"):
				depth--
			}
		}
		if t.text == ")" {
			return defs, true
		}
		lx.unread(t)
	}
}

// unread steps back to token t, just read.
func (lx *lexer) unread(t token) {
	// t is one byte ("$"): step back over it.
	lx.i--
	lx.line, lx.col = t.loc.Line, t.loc.Column
}

// varType reads a type starting with t and returns it with the token after
// it.
func (lx *lexer) varType(t token) (varType, token, bool) {
	var vt varType
	switch {
	case t.kind == tokName:
		vt.name = t.text
	case t.kind == tokPunct && t.text == "[":
		elem, end, ok := lx.varType(lx.next())
		if !ok || end.kind != tokPunct || end.text != "]" {
			return varType{}, token{}, false
		}
		vt.elem = &elem
	default:
		return varType{}, token{}, false
	}
	t = lx.next()
	if t.kind == tokPunct && t.text == "!" {
		vt.nonNull = true
		t = lx.next()
	}
	return vt, t, true
}
