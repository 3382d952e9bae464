package gotypes

import (
	"bytes"
	"fmt"
	"go/ast"
	"strconv"
	"strings"

	"github.com/catalogkit/datahub-go/internal/jsonesc"
	"github.com/catalogkit/datahub-go/internal/pdl/gen/pdlparse"
)

// This file writes the appendJSON methods of the generated types: each
// appends the type's JSON as encoding/json (HTML escaping off) writes it,
// field by field in declaration order, with the PDL defaults applied, and
// without reflection. MarshalJSON calls it. With its esc argument set, it
// appends that JSON escaped as the body of a JSON string, in one pass: keys
// and punctuation as constants written both ways (pick(esc, plain,
// escaped)), strings through appendStringIn, which escapes them twice at
// once; numbers, booleans and null are the same either way.

// HandAppenders returns the types of the hand-written Go files of dir that
// declare an appendJSON method: generated code calls it directly, and goes
// through encoding/json for the other hand-written types.
func HandAppenders(dir string) (map[string]bool, error) {
	files, err := handFiles(dir, 0)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || fd.Name.Name != "appendJSON" || len(fd.Recv.List) != 1 {
				continue
			}
			rt := fd.Recv.List[0].Type
			if s, ok := rt.(*ast.StarExpr); ok {
				rt = s.X
			}
			if id, ok := rt.(*ast.Ident); ok {
				out[id.Name] = true
			}
		}
	}
	return out, nil
}

// marshalMethod writes the MarshalJSON of a generated type: appendJSON, or,
// when tests set reflectEncoding, encoding/json over a method-less copy with
// fixes applied (the encoding appendJSON must equal).
func marshalMethod(b *bytes.Buffer, recv, goName string, fixes []string) {
	fmt.Fprintf(b, "func (%s %s) MarshalJSON() ([]byte, error) {\nif reflectEncoding {\ntype plain %s\np := plain(%s)\n", recv, goName, goName, recv)
	for _, f := range fixes {
		b.WriteString(f + "\n")
	}
	fmt.Fprintf(b, "return marshal(p)\n}\nreturn finishJSON(%s.appendJSON(make([]byte, 0, 256), false))\n}\n\n", recv)
}

// text returns the Go expression of the JSON text t as appended: with
// esc false as it is, with esc true escaped as the body of a JSON string
// (jsonesc.AppendASCIIBody), both constants.
func text(t string) string {
	return fmt.Sprintf("pick(esc, %s, %s)", literal(t), literal(string(jsonesc.AppendASCIIBody(nil, []byte(t)))))
}

// literal returns the Go literal of s: a raw string where it can be.
func literal(s string) string {
	if strconv.CanBackquote(s) {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}

// appendKey returns the statement appending a member's leading comma and
// key.
func appendKey(key string) string {
	return fmt.Sprintf("dst = append(dst, %s...)\n", text(","+strconv.Quote(key)+":"))
}

// recordAppend writes the appendJSON method of record t.
func (p *plan) recordAppend(b *bytes.Buffer, t *typeInfo, recv string) {
	fmt.Fprintf(b, "func (%s %s) appendJSON(dst []byte, esc bool) ([]byte, error) {\nvar err error\nstart := len(dst)\n", recv, t.goName)
	for _, f := range p.fields(t.decl) {
		s := p.shape(t.goName, f)
		te := p.deref(f.Type)
		n := recv + "." + fieldName(f.Name)
		isColl := te.Kind == pdlparse.ExprArray || te.Kind == pdlparse.ExprMap
		empty := "[]"
		if te.Kind == pdlparse.ExprMap {
			empty = "{}"
		}
		switch {
		case isColl && strings.HasSuffix(s.tag, ",omitzero"):
			fmt.Fprintf(b, "if %s != nil {\n%s%s}\n", n, appendKey(f.Name), p.encode(te, n, false, 0))
		case isColl:
			fmt.Fprintf(b, "%sif %s == nil {\ndst = append(dst, %q...)\n} else {\n%s}\n", appendKey(f.Name), n, empty, p.encode(te, n, false, 0))
		case strings.HasSuffix(s.tag, ",omitempty"):
			fmt.Fprintf(b, "if %s != nil {\n%s%s}\n", n, appendKey(f.Name), p.encode(te, n, true, 0))
		case strings.HasSuffix(s.fix, ".orDefault()"):
			b.WriteString(appendKey(f.Name) + p.encode(te, n+".orDefault()", false, 0))
		case strings.HasPrefix(s.goType, "*"): // a default other than an enum's
			fix := strings.ReplaceAll(s.fix, "p."+fieldName(f.Name), "x")
			fmt.Fprintf(b, "{\nx := %s\n%s\n%s%s}\n", n, fix, appendKey(f.Name), p.encode(te, "x", true, 0))
		case s.fix != "": // an enum's default
			fix := strings.ReplaceAll(s.fix, "p."+fieldName(f.Name), "x")
			fmt.Fprintf(b, "{\nx := %s\n%s\n%s%s}\n", n, fix, appendKey(f.Name), p.encode(te, "x", false, 0))
		default:
			b.WriteString(appendKey(f.Name) + p.encode(te, n, false, 0))
		}
	}
	b.WriteString("return closeObject(dst, start), err\n}\n\n")
}

// unionAppend writes the appendJSON method of union t.
func (p *plan) unionAppend(b *bytes.Buffer, t *typeInfo, sets string) {
	fmt.Fprintf(b, "func (u %s) appendJSON(dst []byte, esc bool) ([]byte, error) {\nif n := countSet(%s); n != 1 {\nreturn dst, unionCountError(%q, n)\n}\nvar err error\nswitch {\n", t.goName, sets, t.goName)
	for _, m := range t.union.Members {
		if m.Type.Kind == pdlparse.ExprPrimitive && m.Type.Name == "null" {
			continue
		}
		n := "u." + memberField(m)
		dt := p.deref(m.Type)
		ptr := dt.Kind != pdlparse.ExprArray && dt.Kind != pdlparse.ExprMap
		fmt.Fprintf(b, "case %s != nil:\ndst = append(dst, %s...)\n%s", n, text("{"+strconv.Quote(p.unionKey(m))+":"), p.encode(dt, n, ptr, 0))
	}
	b.WriteString("}\nreturn append(dst, '}'), err\n}\n\n")
}

// check is the statement after a call that may fail.
const check = "if err != nil {\nreturn dst, err\n}\n"

// encode returns statements appending the JSON of val, a Go expression of
// te's Go type (a pointer to it when ptr), to b.
func (p *plan) encode(te pdlparse.TypeExpr, val string, ptr bool, depth int) string {
	te = p.deref(te)
	deref := val
	if ptr {
		deref = "*" + val
	}
	switch te.Kind {
	case pdlparse.ExprPrimitive:
		return primitiveAppend(te.Name, deref)
	case pdlparse.ExprArray:
		i, x := fmt.Sprintf("i%d", depth), fmt.Sprintf("x%d", depth)
		return fmt.Sprintf("if %s == nil {\ndst = append(dst, \"null\"...)\n} else {\ndst = append(dst, '[')\nfor %s, %s := range %s {\nif %s > 0 {\ndst = append(dst, ',')\n}\n%s}\ndst = append(dst, ']')\n}\n",
			deref, i, x, deref, i, p.encode(*te.Items, x, false, depth+1))
	case pdlparse.ExprMap:
		if it := p.deref(*te.Items); it.Kind == pdlparse.ExprPrimitive && it.Name == "string" {
			return fmt.Sprintf("dst = appendStringMapIn(dst, %s, esc)\n", deref)
		}
		k, s := fmt.Sprintf("k%d", depth), fmt.Sprintf("s%d", depth)
		return fmt.Sprintf("if %s == nil {\ndst = append(dst, \"null\"...)\n} else {\n%s := len(dst)\nfor _, %s := range sortedKeys(%s) {\ndst = append(dst, ',')\ndst = appendStringIn(dst, %s, esc)\ndst = append(dst, ':')\n%s}\ndst = closeObject(dst, %s)\n}\n",
			deref, s, k, deref, k, p.encode(*te.Items, deref+"["+k+"]", false, depth+1), s)
	case pdlparse.ExprUnion:
		return fmt.Sprintf("dst, err = %s.appendJSON(dst, esc)\n%s", val, wrapCheck(val))
	}
	d := p.m.Decls[te.Name]
	if d != nil && d.Kind == pdlparse.DeclFixed {
		return primitiveAppend("string", deref)
	}
	t := p.types[te.Name]
	switch {
	case t == nil || (t.hand && !p.m.HandAppend[t.goName]):
		return fmt.Sprintf("dst, err = appendMarshalIn(dst, %s, esc)\n%s", val, check)
	case t.kind == pdlparse.DeclEnum && !t.hand:
		return fmt.Sprintf("dst = appendStringIn(dst, string(%s), esc)\n", deref)
	}
	if t.union != nil || (!t.hand && t.kind == pdlparse.DeclRecord && p.hasDefaults(t)) {
		return fmt.Sprintf("dst, err = %s.appendJSON(dst, esc)\n%s", val, wrapCheck(val))
	}
	return fmt.Sprintf("dst, err = %s.appendJSON(dst, esc)\n%s", val, check)
}

// wrapCheck is the statement after a call to the appendJSON of val, whose
// type has a MarshalJSON: its error is reported as encoding/json reports the
// error of a MarshalJSON.
func wrapCheck(val string) string {
	return fmt.Sprintf("if err != nil {\nreturn dst, marshalerError(err, %s)\n}\n", val)
}

// hasDefaults reports whether record t has a field whose encoding fills a
// default (and so a MarshalJSON).
func (p *plan) hasDefaults(t *typeInfo) bool {
	for _, f := range p.fields(t.decl) {
		if p.shape(t.goName, f).fix != "" {
			return true
		}
	}
	return false
}

// primitiveAppend returns the statement appending v of a Pegasus primitive.
func primitiveAppend(name, v string) string {
	switch name {
	case "string", "bytes":
		return fmt.Sprintf("dst = appendStringIn(dst, %s, esc)\n", v)
	case "int", "long":
		return fmt.Sprintf("dst = strconv.AppendInt(dst, int64(%s), 10)\n", v)
	case "float":
		return fmt.Sprintf("dst, err = appendFloat(dst, float64(%s), 32)\n%s", v, check)
	case "double":
		return fmt.Sprintf("dst, err = appendFloat(dst, %s, 64)\n%s", v, check)
	case "boolean":
		return fmt.Sprintf("dst = appendBool(dst, %s)\n", v)
	}
	return "dst = append(dst, \"{}\"...)\n" // null: struct{}
}
