package pdlparse

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// File is the result of parsing one PDL source file.
type File struct {
	Namespace string
	Imports   []string
	// Decls holds every named type of the file: the top-level one first, then the types declared
	// inline (records and enums inside unions, fields, arrays or maps), in source order.
	Decls []*Decl
}

// SyntaxError reports where a PDL source is malformed.
type SyntaxError struct {
	File   string
	Line   int
	Reason string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Reason)
}

type parser struct {
	file    string
	src     []byte
	pos     int
	ns      string
	imports map[string]string // simple name -> fully qualified name
	out     *File

	// doc is the text of the last /** doc comment */ skipped, which ends at
	// docEnd; takeDoc hands it to the declaration, field or symbol it
	// directly precedes.
	doc    string
	docEnd int
	// deprecated is the @deprecated (or @Deprecated) mark of the last
	// annotations read: nil for none, "" for a bare one, else its text.
	deprecated *string
}

// Parse parses the PDL source src; name is used in error messages and recorded in each Decl.
func Parse(name string, src []byte) (*File, error) {
	p := &parser{file: name, src: src, imports: map[string]string{}, out: &File{}}
	if err := p.parseFile(); err != nil {
		return nil, err
	}
	return p.out, nil
}

func (p *parser) errorf(format string, args ...any) error {
	line := 1 + bytes.Count(p.src[:min(p.pos, len(p.src))], []byte{'\n'})
	return &SyntaxError{File: p.file, Line: line, Reason: fmt.Sprintf(format, args...)}
}

// skip moves past white space, commas (PDL treats them as white space) and comments.
func (p *parser) skip() {
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',':
			p.pos++
		case c == '/' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '/':
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.pos++
			}
		case c == '/' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '*':
			end := bytes.Index(p.src[p.pos+2:], []byte("*/"))
			if end < 0 {
				p.pos = len(p.src)
				return
			}
			if text := p.src[p.pos+2 : p.pos+2+end]; bytes.HasPrefix(text, []byte("*")) {
				p.doc, p.docEnd = cleanDoc(string(text[1:])), p.pos+2+end+2
			}
			p.pos += 2 + end + 2
		default:
			return
		}
	}
}

// takeDoc returns the doc comment that directly precedes the next token
// (only white space, commas or annotations between them), and forgets it.
func (p *parser) takeDoc() string {
	p.skip()
	if p.docEnd == 0 || p.docEnd > p.pos || strings.Trim(string(p.src[p.docEnd:p.pos]), " \t\r\n,") != "" {
		return ""
	}
	d := p.doc
	p.doc, p.docEnd = "", 0
	return d
}

// cleanDoc strips a doc comment's leading stars and common indentation,
// keeping its lines.
func cleanDoc(text string) string {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for i, l := range lines {
		t := strings.TrimLeft(l, " \t")
		if strings.HasPrefix(t, "*") {
			t = strings.TrimPrefix(t[1:], " ")
		} else if i > 0 {
			t = l
		}
		lines[i] = strings.TrimRight(t, " \t")
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

func (p *parser) peek() byte {
	p.skip()
	if p.pos >= len(p.src) {
		return 0
	}
	return p.src[p.pos]
}

func (p *parser) expect(c byte) error {
	if p.peek() != c {
		if p.pos >= len(p.src) {
			return p.errorf("expected %q, found end of file", c)
		}
		return p.errorf("expected %q, found %q", c, p.src[p.pos])
	}
	p.pos++
	return nil
}

func isIdentByte(c byte, first bool) bool {
	if c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') {
		return true
	}
	return !first && ((c >= '0' && c <= '9') || c == '.' || c == '-')
}

// ident reads a possibly dotted identifier whose segments may be escaped with backquotes
// (e.g. validate.`com.example.Validator`); "" if none is next.
func (p *parser) ident() string {
	p.skip()
	var b strings.Builder
	for {
		if p.pos < len(p.src) && p.src[p.pos] == '`' {
			end := bytes.IndexByte(p.src[p.pos+1:], '`')
			if end < 0 {
				return b.String()
			}
			b.Write(p.src[p.pos+1 : p.pos+1+end])
			p.pos += end + 2
		} else {
			start := p.pos
			for p.pos < len(p.src) && isIdentByte(p.src[p.pos], p.pos == start) {
				p.pos++
			}
			if p.pos == start {
				return b.String()
			}
			b.Write(p.src[start:p.pos])
		}
		if p.pos < len(p.src) && p.src[p.pos] == '.' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '`' {
			b.WriteByte('.')
			p.pos++
			continue
		}
		if b.Len() > 0 && b.String()[b.Len()-1] == '.' && p.pos < len(p.src) && p.src[p.pos] == '`' {
			continue
		}
		return b.String()
	}
}

// peekIdent returns the next identifier without consuming it.
func (p *parser) peekIdent() string {
	save := p.pos
	id := p.ident()
	p.pos = save
	return id
}

func (p *parser) mustIdent(what string) (string, error) {
	id := p.ident()
	if id == "" {
		if p.pos >= len(p.src) {
			return "", p.errorf("expected %s, found end of file", what)
		}
		return "", p.errorf("expected %s, found %q", what, p.src[p.pos])
	}
	return id, nil
}

// rawValue reads a JSON-like value (object, array, string or bare literal) and returns its text.
func (p *parser) rawValue() ([]byte, error) {
	p.skip()
	start := p.pos
	if p.pos >= len(p.src) {
		return nil, p.errorf("expected a value, found end of file")
	}
	switch c := p.src[p.pos]; c {
	case '{', '[':
		depth := 0
		for p.pos < len(p.src) {
			switch p.src[p.pos] {
			case '"':
				if err := p.skipString(); err != nil {
					return nil, err
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					p.pos++
					return p.src[start:p.pos], nil
				}
			}
			p.pos++
		}
		return nil, p.errorf("unterminated %q value", c)
	case '"':
		if err := p.skipString(); err != nil {
			return nil, err
		}
		return p.src[start:p.pos], nil
	default:
		for p.pos < len(p.src) {
			c := p.src[p.pos]
			if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == '}' || c == ']' || c == ')' {
				break
			}
			p.pos++
		}
		if p.pos == start {
			return nil, p.errorf("expected a value, found %q", p.src[p.pos])
		}
		return p.src[start:p.pos], nil
	}
}

func (p *parser) skipString() error {
	p.pos++ // opening quote
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case '\\':
			p.pos += 2
			continue
		case '"':
			p.pos++
			return nil
		}
		p.pos++
	}
	return p.errorf("unterminated string")
}

// lenientJSON turns an annotation or default value into compact JSON. PDL treats commas in its
// JSON values as optional white space, so DataHub's files have trailing commas and values with no
// comma between members; both are accepted.
func lenientJSON(raw []byte) (json.RawMessage, error) {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err == nil {
		return json.RawMessage(b.Bytes()), nil
	}
	// Drop every comma outside strings, then put one back between two consecutive values (or
	// between a value and the next member's key).
	var clean []byte
	ended := false // the last token ended a value
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c == ',' || c == ' ' || c == '\n' || c == '\t' || c == '\r':
			continue
		case c == '"':
			if ended {
				clean = append(clean, ',')
			}
			j := i + 1
			for j < len(raw) && raw[j] != '"' {
				if raw[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(raw) {
				return nil, fmt.Errorf("unterminated string")
			}
			clean = append(clean, raw[i:j+1]...)
			i = j
			ended = true
		case c == ':':
			clean = append(clean, c)
			ended = false
		case c == '{' || c == '[':
			if ended {
				clean = append(clean, ',')
			}
			clean = append(clean, c)
			ended = false
		case c == '}' || c == ']':
			clean = append(clean, c)
			ended = true
		default: // a number or a literal
			if ended {
				clean = append(clean, ',')
			}
			j := i
			for j < len(raw) && !strings.ContainsRune(",:{}[]\" \n\t\r", rune(raw[j])) {
				j++
			}
			clean = append(clean, raw[i:j]...)
			i = j - 1
			ended = true
		}
	}
	b.Reset()
	if err := json.Compact(&b, clean); err != nil {
		return nil, err
	}
	return json.RawMessage(b.Bytes()), nil
}

// annotations reads consecutive annotations and returns the @Aspect one, if any, and every
// annotation with a value by the name written after "@" (dotted names are not merged).
func (p *parser) annotations() (*Aspect, map[string]json.RawMessage, error) {
	var aspect *Aspect
	var all map[string]json.RawMessage
	p.deprecated = nil
	for p.peek() == '@' {
		p.pos++
		name, err := p.mustIdent("annotation name")
		if err != nil {
			return nil, nil, err
		}
		isDeprecated := strings.EqualFold(name, "deprecated")
		if isDeprecated {
			p.deprecated = new(string)
		}
		if p.peek() != '=' {
			continue
		}
		p.pos++
		raw, err := p.rawValue()
		if err != nil {
			return nil, nil, err
		}
		js, err := lenientJSON(raw)
		if err != nil {
			return nil, nil, p.errorf("bad @%s value: %v", name, err)
		}
		if all == nil {
			all = map[string]json.RawMessage{}
		}
		all[name] = js
		if isDeprecated {
			var text string
			if json.Unmarshal(js, &text) == nil {
				p.deprecated = &text
			}
		}
		if name != "Aspect" {
			continue
		}
		var a Aspect
		if err := json.Unmarshal(js, &a); err != nil {
			return nil, nil, p.errorf("bad @Aspect value: %v", err)
		}
		if a.Name == "" {
			return nil, nil, p.errorf("@Aspect without a name")
		}
		aspect = &a
	}
	return aspect, all, nil
}

func (p *parser) resolve(name string) string {
	if strings.Contains(name, ".") || IsPrimitive(name) {
		return name
	}
	if fq, ok := p.imports[name]; ok {
		return fq
	}
	if p.ns == "" {
		return name
	}
	return p.ns + "." + name
}

func (p *parser) parseFile() error {
	for {
		switch p.peekIdent() {
		case "namespace":
			p.ident()
			ns, err := p.mustIdent("namespace name")
			if err != nil {
				return err
			}
			p.ns = ns
			p.out.Namespace = ns
		case "package":
			p.ident()
			if _, err := p.mustIdent("package name"); err != nil {
				return err
			}
		case "import":
			p.ident()
			imp, err := p.mustIdent("import name")
			if err != nil {
				return err
			}
			p.imports[imp[strings.LastIndexByte(imp, '.')+1:]] = imp
			p.out.Imports = append(p.out.Imports, imp)
		default:
			doc := p.takeDoc()
			aspect, annots, err := p.annotations()
			if err != nil {
				return err
			}
			if doc == "" {
				doc = p.takeDoc()
			}
			deprecated := p.deprecated
			if p.peek() == 0 {
				if aspect != nil {
					return p.errorf("@Aspect not followed by a declaration")
				}
				if len(p.out.Decls) == 0 {
					return p.errorf("no type declared")
				}
				return nil
			}
			if len(p.out.Decls) > 0 {
				return p.errorf("more than one top-level declaration")
			}
			if _, err := p.namedDecl(aspect, annots, doc, deprecated); err != nil {
				return err
			}
		}
	}
}

// namedDecl parses record/enum/typeref/fixed after its annotations and returns its full name.
func (p *parser) namedDecl(aspect *Aspect, annots map[string]json.RawMessage, doc string, deprecated *string) (string, error) {
	kw := p.ident()
	name, err := p.mustIdent(kw + " name")
	if err != nil {
		return "", err
	}
	d := &Decl{Name: p.resolveDecl(name), Aspect: aspect, Annotations: annots, File: p.file, Doc: doc, Deprecated: deprecated}
	// Reserve the slot so the top-level declaration comes first, then inline ones.
	p.out.Decls = append(p.out.Decls, d)
	switch kw {
	case "record":
		d.Kind = DeclRecord
		if p.peekIdent() == "includes" {
			p.ident()
			for p.peek() != '{' {
				inc, err := p.mustIdent("included record name")
				if err != nil {
					return "", err
				}
				d.Includes = append(d.Includes, p.resolve(inc))
			}
		}
		if err := p.expect('{'); err != nil {
			return "", err
		}
		for p.peek() != '}' {
			if p.peek() == 0 {
				return "", p.errorf("unterminated record %s", name)
			}
			f, err := p.field()
			if err != nil {
				return "", err
			}
			d.Fields = append(d.Fields, f)
		}
		p.pos++
	case "enum":
		d.Kind = DeclEnum
		if err := p.expect('{'); err != nil {
			return "", err
		}
		for p.peek() != '}' {
			if p.peek() == 0 {
				return "", p.errorf("unterminated enum %s", name)
			}
			symDoc := p.takeDoc()
			if _, _, err := p.annotations(); err != nil {
				return "", err
			}
			if symDoc == "" {
				symDoc = p.takeDoc()
			}
			if p.peek() == '}' {
				break
			}
			sym, err := p.mustIdent("enum symbol")
			if err != nil {
				return "", err
			}
			d.Symbols = append(d.Symbols, sym)
			if symDoc != "" {
				if d.SymbolDocs == nil {
					d.SymbolDocs = map[string]string{}
				}
				d.SymbolDocs[sym] = symDoc
			}
		}
		p.pos++
	case "typeref":
		d.Kind = DeclTyperef
		if err := p.expect('='); err != nil {
			return "", err
		}
		t, err := p.typeExpr()
		if err != nil {
			return "", err
		}
		d.Ref = &t
	case "fixed":
		d.Kind = DeclFixed
		raw, err := p.rawValue()
		if err != nil {
			return "", err
		}
		n, err := strconv.Atoi(string(raw))
		if err != nil || n < 0 {
			return "", p.errorf("bad fixed size %q", raw)
		}
		d.Size = n
	default:
		return "", p.errorf("expected record, enum, typeref or fixed, found %q", kw)
	}
	return d.Name, nil
}

func (p *parser) resolveDecl(name string) string {
	if strings.Contains(name, ".") || p.ns == "" {
		return name
	}
	return p.ns + "." + name
}

func (p *parser) field() (Field, error) {
	doc := p.takeDoc()
	_, annots, err := p.annotations()
	if err != nil {
		return Field{}, err
	}
	if doc == "" {
		doc = p.takeDoc()
	}
	deprecated := p.deprecated
	name, err := p.mustIdent("field name")
	if err != nil {
		return Field{}, err
	}
	f := Field{Name: name, Annotations: annots, Doc: doc, Deprecated: deprecated}
	if p.peek() == '?' { // older syntax: name?: type
		p.pos++
		f.Optional = true
	}
	if err := p.expect(':'); err != nil {
		return Field{}, err
	}
	if p.peekIdent() == "optional" {
		// "optional" is a keyword unless it is the type name itself (never in DataHub's files).
		p.ident()
		f.Optional = true
	}
	if f.Type, err = p.typeExpr(); err != nil {
		return Field{}, err
	}
	if p.peek() == '=' {
		p.pos++
		raw, err := p.rawValue()
		if err != nil {
			return Field{}, err
		}
		if f.Default, err = lenientJSON(raw); err != nil {
			return Field{}, p.errorf("bad default of field %s: %v", name, err)
		}
	}
	return f, nil
}

func (p *parser) typeExpr() (TypeExpr, error) {
	doc := p.takeDoc()
	aspect, annots, err := p.annotations()
	if err != nil {
		return TypeExpr{}, err
	}
	if doc == "" {
		doc = p.takeDoc()
	}
	deprecated := p.deprecated
	id := p.peekIdent()
	switch id {
	case "record", "enum", "typeref", "fixed":
		name, err := p.namedDecl(aspect, annots, doc, deprecated)
		if err != nil {
			return TypeExpr{}, err
		}
		return TypeExpr{Kind: ExprRef, Name: name}, nil
	case "array":
		p.ident()
		if err := p.expect('['); err != nil {
			return TypeExpr{}, err
		}
		items, err := p.typeExpr()
		if err != nil {
			return TypeExpr{}, err
		}
		return TypeExpr{Kind: ExprArray, Items: &items}, p.expect(']')
	case "map":
		p.ident()
		if err := p.expect('['); err != nil {
			return TypeExpr{}, err
		}
		key, err := p.typeExpr()
		if err != nil {
			return TypeExpr{}, err
		}
		if key.Kind != ExprPrimitive || key.Name != "string" {
			// Pegasus maps always have string keys; a typeref to string is allowed too.
			if key.Kind != ExprRef {
				return TypeExpr{}, p.errorf("map key must be string")
			}
		}
		vals, err := p.typeExpr()
		if err != nil {
			return TypeExpr{}, err
		}
		return TypeExpr{Kind: ExprMap, Items: &vals}, p.expect(']')
	case "union":
		p.ident()
		if err := p.expect('['); err != nil {
			return TypeExpr{}, err
		}
		u := TypeExpr{Kind: ExprUnion}
		for p.peek() != ']' {
			if p.peek() == 0 {
				return TypeExpr{}, p.errorf("unterminated union")
			}
			if _, _, err := p.annotations(); err != nil {
				return TypeExpr{}, err
			}
			var m Member
			save := p.pos
			alias := p.ident()
			if alias != "" && p.peek() == ':' {
				p.pos++
				m.Alias = alias
			} else {
				p.pos = save
			}
			if m.Type, err = p.typeExpr(); err != nil {
				return TypeExpr{}, err
			}
			u.Members = append(u.Members, m)
		}
		p.pos++
		return u, nil // an empty union (DataHub's Delta) has no members and no valid value
	case "":
		if p.pos >= len(p.src) {
			return TypeExpr{}, p.errorf("expected a type, found end of file")
		}
		return TypeExpr{}, p.errorf("expected a type, found %q", p.src[p.pos])
	}
	p.ident()
	if IsPrimitive(id) {
		return TypeExpr{Kind: ExprPrimitive, Name: id}, nil
	}
	return TypeExpr{Kind: ExprRef, Name: p.resolve(id)}, nil
}
