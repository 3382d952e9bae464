package generate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/catalogkit/datahub-go/internal/pdl/gen/pdlparse"
)

// This file resolves DataHub's @Searchable and @Relationship annotations of each aspect record to
// the paths of the values they apply to, as DataHub's entity registry does when it builds an
// aspect's field specs:
//
//   - An annotation on a field whose type (after typerefs) is a primitive, enum or fixed applies to
//     that field. On any other field it is a map of overrides keyed by a path relative to the field
//     ("/tags/*/tag"; "*" is an array item or a map value, "$key" a map key, a union member is
//     named by its key), each applying to the value at that path.
//   - A record that includes others may carry the same kind of override map for the fields it
//     includes; a typeref's annotation applies to the values of that typeref.
//   - Where several apply to one value, the outermost wins (a field's overrides beat the
//     annotations inside the record it holds); a JSON null switches the annotation off.
//   - Searchable values are the leaves (primitive, enum, fixed) outside maps, and the maps
//     themselves, whose annotation is that of their key, else that of their values. Relationship
//     values are string leaves.
//   - Searchable index names default to the last path segment that is not "*"; a name taken by an
//     earlier path is replaced by the path joined with "_" (without "*"), and a name that then
//     holds "__" is dropped, as DataHub does.

// searchableFact is a resolved @Searchable annotation at a path of an aspect record.
type searchableFact struct {
	Path string
	Kind string // Go name of the pdl.Kind constant of the value at Path
	Ann  searchableAnn
}

// searchableAnn is the @Searchable annotation object with DataHub's defaults applied.
type searchableAnn struct {
	FieldName, FieldType                                    string
	QueryByDefault                                          *bool
	EnableAutocomplete, AddToFilters, AddHasValuesToFilters bool
	FilterNameOverride, HasValuesFilterNameOverride         string
	BoostScore                                              *float64
	HasValuesFieldName, NumValuesFieldName                  string
	WeightsPerFieldValue                                    map[string]float64
	FieldNameAliases                                        []string
	IncludeQueryEmptyAggregation, IncludeSystemModifiedAt   bool
	SystemModifiedAtFieldName                               string
	SearchTier                                              int
	SearchLabel                                             string
	SearchIndexed                                           bool
	EntityFieldName                                         string
	EagerGlobalOrdinals, SanitizeRichText                   bool
}

// relationshipFact is a resolved @Relationship annotation at a path of an aspect record.
type relationshipFact struct {
	Path, Name                                                        string
	EntityTypes                                                       []string
	IsUpstream, IsLineage                                             bool
	CreatedOn, CreatedActor, UpdatedOn, UpdatedActor, Properties, Via string
}

// annObject reads an annotation object the way DataHub does: a member is taken only when its
// JSON value has the expected type (a Java Boolean, String, Double, Integer or List once Pegasus
// has parsed it); any other value counts as absent, so the default applies.
type annObject map[string]json.RawMessage

func (o annObject) bool(name string) (v, ok bool) {
	switch string(o[name]) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

func (o annObject) string(name string) string {
	var s string
	if raw := o[name]; len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s
	}
	return ""
}

// double reads a number written with a fraction or exponent (Pegasus parses those as Double).
func (o annObject) double(name string) (float64, bool) {
	raw := string(o[name])
	if !strings.ContainsAny(raw, ".eE") {
		return 0, false
	}
	v, err := strconv.ParseFloat(raw, 64)
	return v, err == nil
}

// integer reads a number written without fraction or exponent that fits an int32.
func (o annObject) integer(name string) (int, bool) {
	v, err := strconv.ParseInt(string(o[name]), 10, 32)
	return int(v), err == nil
}

// strings reads the string items of a list.
func (o annObject) strings(name string) []string {
	var items []json.RawMessage
	if json.Unmarshal(o[name], &items) != nil {
		return nil
	}
	var out []string
	for _, it := range items {
		var s string
		if len(it) > 0 && it[0] == '"' && json.Unmarshal(it, &s) == nil {
			out = append(out, s)
		}
	}
	return out
}

// searchFieldTypes are the values DataHub accepts for fieldType.
var searchFieldTypes = []string{"KEYWORD", "TEXT", "TEXT_PARTIAL", "BROWSE_PATH", "URN", "URN_PARTIAL",
	"BOOLEAN", "COUNT", "DATETIME", "OBJECT", "BROWSE_PATH_V2", "WORD_GRAM", "DOUBLE", "MAP_ARRAY"}

// annEntry is an annotation value waiting for the value it applies to: rest is the part of its
// override path not yet walked.
type annEntry struct {
	rest  []string
	value json.RawMessage
}

// facts walks aspect records and collects their annotation facts.
type facts struct {
	src  *source
	errs []string
	// per aspect record, during one walk
	searchable    []searchableFact
	relationships []relationshipFact
	urnChecks     []urnValidationFact
}

// aspectFacts resolves the annotations of the aspect record recordName.
func (f *facts) aspect(recordName string) ([]searchableFact, []relationshipFact, []urnValidationFact) {
	f.searchable, f.relationships, f.urnChecks = nil, nil, nil
	f.walk(pdlparse.TypeExpr{Kind: pdlparse.ExprRef, Name: recordName}, nil, nil, false, map[string]bool{}, 0)
	seen := map[string]bool{}
	var rels []relationshipFact
	for _, r := range f.relationships {
		if !seen[r.Path] {
			seen[r.Path] = true
			rels = append(rels, r)
		}
	}
	// Field names: first path wins; a later path with the same name is renamed after its path.
	owner := map[string]string{}
	seen = map[string]bool{}
	var out []searchableFact
	for _, s := range f.searchable {
		if seen[s.Path] {
			continue
		}
		seen[s.Path] = true
		if p, ok := owner[s.Ann.FieldName]; ok && p != s.Path {
			name := strings.ReplaceAll(strings.ReplaceAll(s.Path, "/", "_"), "*", "")
			name = strings.TrimPrefix(name, "_")
			if p, ok := owner[name]; ok && p != s.Path {
				f.errs = append(f.errs, fmt.Sprintf("%s: two searchable fields named %s (%s)", recordName, s.Ann.FieldName, s.Path))
				continue
			}
			s.Ann.FieldName = name
		}
		owner[s.Ann.FieldName] = s.Path
		if strings.Contains(s.Ann.FieldName, "__") {
			continue
		}
		out = append(out, s)
	}
	return out, rels, f.urnChecks
}

// walk visits the value of type t at path (segments) with the annotation entries that reached it;
// inMap tells that a map encloses it. ancestors holds the records being walked.
func (f *facts) walk(t pdlparse.TypeExpr, path []string, entries []annEntry, inMap bool, ancestors map[string]bool, depth int) {
	if depth > 200 {
		f.errs = append(f.errs, "annotation walk too deep at /"+strings.Join(path, "/"))
		return
	}
	switch t.Kind {
	case pdlparse.ExprPrimitive:
		f.leaf(path, t.Name, "", entries, inMap)
	case pdlparse.ExprArray:
		f.walk(*t.Items, with(path, "*"), step(entries, "*"), inMap, ancestors, depth+1)
	case pdlparse.ExprMap:
		f.mapNode(t, path, entries)
		f.walk(pdlparse.TypeExpr{Kind: pdlparse.ExprPrimitive, Name: "string"}, with(path, "$key"), step(entries, "$key"), true, ancestors, depth+1)
		f.walk(*t.Items, with(path, "*"), step(entries, "*"), true, ancestors, depth+1)
	case pdlparse.ExprUnion:
		for _, m := range t.Members {
			key := f.memberKey(m)
			f.walk(m.Type, with(path, key), step(entries, key), inMap, ancestors, depth+1)
		}
	case pdlparse.ExprRef:
		d, ok := f.src.decls[t.Name]
		if !ok {
			f.errs = append(f.errs, "unresolved type "+t.Name)
			return
		}
		switch d.Kind {
		case pdlparse.DeclTyperef:
			entries = append(slices.Clone(entries), f.own(d.Annotations, d.Ref, "typeref "+d.Name)...)
			f.walk(*d.Ref, path, entries, inMap, ancestors, depth+1)
		case pdlparse.DeclEnum, pdlparse.DeclFixed:
			if v, ok := d.Annotations["Searchable"]; ok {
				entries = append(slices.Clone(entries), annEntry{value: v})
			}
			kind := "KindEnum"
			if d.Kind == pdlparse.DeclFixed {
				kind = "KindFixed"
			}
			f.leaf(path, "", kind, entries, inMap)
		case pdlparse.DeclRecord:
			if ancestors[d.Name] {
				return // a recursive record is not walked again below itself
			}
			ancestors[d.Name] = true
			defer delete(ancestors, d.Name)
			if len(d.Includes) > 0 {
				entries = append(slices.Clone(entries), f.overrides(d.Annotations, "record "+d.Name)...)
			}
			for _, fl := range f.recordFields(d, map[string]bool{}) {
				fe := append(step(entries, fl.Name), f.own(fl.Annotations, &fl.Type, d.Name+"."+fl.Name)...)
				if v, ok := fl.Annotations["UrnValidation"]; ok && !inMap {
					f.addURNValidation(with(path, fl.Name), v)
				}
				f.walk(fl.Type, with(path, fl.Name), fe, inMap, ancestors, depth+1)
			}
		}
	}
}

// recordFields returns the fields of record d, included records' first.
func (f *facts) recordFields(d *pdlparse.Decl, seen map[string]bool) []pdlparse.Field {
	if seen[d.Name] {
		return nil
	}
	seen[d.Name] = true
	var out []pdlparse.Field
	for _, inc := range d.Includes {
		if id, ok := f.src.decls[inc]; ok && id.Kind == pdlparse.DeclRecord {
			out = append(out, f.recordFields(id, seen)...)
		}
	}
	return append(out, d.Fields...)
}

// own returns the entries of the annotations on a field or typeref of type t: the annotation
// itself when t is a leaf, else its override map.
func (f *facts) own(annots map[string]json.RawMessage, t *pdlparse.TypeExpr, where string) []annEntry {
	if f.isLeaf(*t) {
		var out []annEntry
		for _, name := range []string{"Searchable", "Relationship"} {
			if v, ok := annots[name]; ok {
				out = append(out, annEntry{rest: []string{"@" + name}, value: v})
			}
		}
		return out
	}
	return f.overrides(annots, where)
}

// overrides returns the entries of override maps ({"/path": value}) of both annotations.
func (f *facts) overrides(annots map[string]json.RawMessage, where string) []annEntry {
	var out []annEntry
	for _, name := range []string{"Searchable", "Relationship"} {
		v, ok := annots[name]
		if !ok {
			continue
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(v, &m); err != nil {
			f.errs = append(f.errs, fmt.Sprintf("%s: @%s on a complex type is not a map of paths", where, name))
			continue
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if !strings.HasPrefix(k, "/") {
				f.errs = append(f.errs, fmt.Sprintf("%s: @%s key %q is not a path", where, name, k))
				continue
			}
			rest := append(strings.Split(strings.TrimPrefix(k, "/"), "/"), "@"+name)
			out = append(out, annEntry{rest: rest, value: m[k]})
		}
	}
	return out
}

// step keeps the entries whose path continues with seg and moves past it.
func step(entries []annEntry, seg string) []annEntry {
	var out []annEntry
	for _, e := range entries {
		if len(e.rest) > 1 && e.rest[0] == seg {
			out = append(out, annEntry{rest: e.rest[1:], value: e.value})
		}
	}
	return out
}

// resolved returns the first entry of annotation name that ends here, nil if none or if it is
// JSON null.
func resolved(entries []annEntry, name string) json.RawMessage {
	for _, e := range entries {
		if len(e.rest) == 1 && e.rest[0] == "@"+name {
			if string(e.value) == "null" {
				return nil
			}
			return e.value
		}
	}
	return nil
}

// isLeaf reports whether t is, after typerefs, a primitive, enum or fixed.
func (f *facts) isLeaf(t pdlparse.TypeExpr) bool {
	for range 64 {
		switch t.Kind {
		case pdlparse.ExprPrimitive:
			return true
		case pdlparse.ExprRef:
			d, ok := f.src.decls[t.Name]
			if !ok {
				return false
			}
			switch d.Kind {
			case pdlparse.DeclEnum, pdlparse.DeclFixed:
				return true
			case pdlparse.DeclTyperef:
				t = *d.Ref
				continue
			}
		}
		return false
	}
	return false
}

// memberKey is the key of a union member in JSON and in paths: its alias, else the key of its
// type after typerefs (a named type's full name, a primitive's name, "array" or "map").
func (f *facts) memberKey(m pdlparse.Member) string {
	if m.Alias != "" {
		return m.Alias
	}
	t := m.Type
	for range 64 {
		switch t.Kind {
		case pdlparse.ExprPrimitive:
			return t.Name
		case pdlparse.ExprArray:
			return "array"
		case pdlparse.ExprMap:
			return "map"
		case pdlparse.ExprUnion:
			return "union"
		}
		d, ok := f.src.decls[t.Name]
		if !ok || d.Kind != pdlparse.DeclTyperef {
			return t.Name
		}
		t = *d.Ref
	}
	return t.Name
}

// with returns a new path: path followed by seg.
func with(path []string, seg string) []string {
	return append(slices.Clip(path), seg)
}

var primitiveKindNames = map[string]string{
	"string": "KindString", "int": "KindInt", "long": "KindLong", "float": "KindFloat", "double": "KindDouble",
	"boolean": "KindBoolean", "bytes": "KindBytes", "null": "KindNull",
}

// leaf records the annotations that apply to a primitive (prim), enum or fixed value (kind).
func (f *facts) leaf(path []string, prim, kind string, entries []annEntry, inMap bool) {
	if len(path) == 0 {
		return
	}
	if kind == "" {
		kind = primitiveKindNames[prim]
	}
	p := "/" + strings.Join(path, "/")
	if v := resolved(entries, "Relationship"); v != nil {
		if prim != "string" {
			f.errs = append(f.errs, fmt.Sprintf("%s: @Relationship on a %s value", p, strings.TrimPrefix(kind, "Kind")))
		} else if r, err := relationshipOf(p, v); err != nil {
			f.errs = append(f.errs, err.Error())
		} else {
			f.relationships = append(f.relationships, r)
		}
	}
	if inMap {
		return // values inside maps are indexed through the map itself
	}
	if v := resolved(entries, "Searchable"); v != nil {
		f.addSearchable(path, kind, v)
	}
}

// mapNode records the @Searchable annotation of a map: its key's, else its values'.
func (f *facts) mapNode(t pdlparse.TypeExpr, path []string, entries []annEntry) {
	if len(path) == 0 {
		return
	}
	v := resolved(step(entries, "$key"), "Searchable")
	if v == nil && t.Items.Kind != pdlparse.ExprRef {
		// Only a map whose values are written as a primitive carries their annotation.
		v = resolved(step(entries, "*"), "Searchable")
	}
	if v == nil && t.Items.Kind == pdlparse.ExprRef {
		if d, ok := f.src.decls[t.Items.Name]; ok && (d.Kind == pdlparse.DeclEnum || d.Kind == pdlparse.DeclFixed) {
			v = resolved(step(entries, "*"), "Searchable")
		}
	}
	if v != nil {
		f.addSearchable(path, "KindMap", v)
	}
}

func (f *facts) addSearchable(path []string, kind string, v json.RawMessage) {
	p := "/" + strings.Join(path, "/")
	var o annObject
	if err := json.Unmarshal(v, &o); err != nil {
		f.errs = append(f.errs, fmt.Sprintf("%s: @Searchable is not an object: %v", p, err))
		return
	}
	a := searchableAnn{
		FieldName:                   o.string("fieldName"),
		FieldType:                   o.string("fieldType"),
		FilterNameOverride:          o.string("filterNameOverride"),
		HasValuesFilterNameOverride: o.string("hasValuesFilterNameOverride"),
		HasValuesFieldName:          o.string("hasValuesFieldName"),
		NumValuesFieldName:          o.string("numValuesFieldName"),
		FieldNameAliases:            o.strings("fieldNameAliases"),
		SystemModifiedAtFieldName:   o.string("systemModifiedAtFieldName"),
		SearchLabel:                 o.string("searchLabel"),
		EntityFieldName:             o.string("entityFieldName"),
	}
	if q, ok := o.bool("queryByDefault"); ok {
		a.QueryByDefault = &q
	}
	if b, ok := o.double("boostScore"); ok {
		a.BoostScore = &b
	}
	a.EnableAutocomplete, _ = o.bool("enableAutocomplete")
	a.AddToFilters, _ = o.bool("addToFilters")
	a.AddHasValuesToFilters, _ = o.bool("addHasValuesToFilters")
	a.IncludeQueryEmptyAggregation, _ = o.bool("includeQueryEmptyAggregation")
	a.IncludeSystemModifiedAt, _ = o.bool("includeSystemModifiedAt")
	a.SearchIndexed, _ = o.bool("searchIndexed")
	a.EagerGlobalOrdinals, _ = o.bool("eagerGlobalOrdinals")
	a.SanitizeRichText, _ = o.bool("sanitizeRichText")
	a.SearchTier, _ = o.integer("searchTier")
	var weights annObject
	if json.Unmarshal(o["weightsPerFieldValue"], &weights) == nil && len(weights) > 0 {
		a.WeightsPerFieldValue = map[string]float64{}
		for k := range weights {
			if w, ok := weights.double(k); ok {
				a.WeightsPerFieldValue[k] = w
			}
		}
	}
	if a.FieldName == "" {
		a.FieldName = path[len(path)-1]
		if a.FieldName == "*" && len(path) > 1 {
			a.FieldName = path[len(path)-2]
		}
	}
	if a.FieldType == "" {
		switch kind {
		case "KindInt":
			a.FieldType = "COUNT"
		case "KindMap":
			a.FieldType = "KEYWORD"
		case "KindFloat", "KindDouble":
			a.FieldType = "DOUBLE"
		default:
			a.FieldType = "TEXT"
		}
	} else if !slices.Contains(searchFieldTypes, a.FieldType) {
		f.errs = append(f.errs, fmt.Sprintf("%s: unknown @Searchable fieldType %q", p, a.FieldType))
		return
	}
	if a.QueryByDefault == nil {
		q := slices.Contains([]string{"TEXT", "TEXT_PARTIAL", "WORD_GRAM", "URN", "URN_PARTIAL"}, a.FieldType)
		a.QueryByDefault = &q
	}
	if a.BoostScore == nil {
		one := 1.0
		a.BoostScore = &one
	}
	f.searchable = append(f.searchable, searchableFact{Path: p, Kind: kind, Ann: a})
}

// urnValidationFact is a resolved @UrnValidation annotation of a field: the URNs at Path (the
// field's value, or each string of its array) must be well formed (Strict), of one of
// EntityTypes (when any) and point at an existing entity (Exist).
type urnValidationFact struct {
	Path          string
	Exist, Strict bool
	EntityTypes   []string
}

// addURNValidation records the @UrnValidation annotation v of the field at path. As DataHub reads
// it, only the field's own annotation counts (no override paths), exist and strict default to
// true, and the path is the field's in the aspect's JSON ("*" for the items of an array of
// records, a union member by its key).
func (f *facts) addURNValidation(path []string, v json.RawMessage) {
	p := "/" + strings.Join(path, "/")
	var o annObject
	if err := json.Unmarshal(v, &o); err != nil {
		f.errs = append(f.errs, fmt.Sprintf("%s: @UrnValidation is not an object: %v", p, err))
		return
	}
	u := urnValidationFact{Path: p, Exist: true, Strict: true, EntityTypes: o.strings("entityTypes")}
	if b, ok := o.bool("exist"); ok {
		u.Exist = b
	}
	if b, ok := o.bool("strict"); ok {
		u.Strict = b
	}
	f.urnChecks = append(f.urnChecks, u)
}

func relationshipOf(path string, v json.RawMessage) (relationshipFact, error) {
	var o annObject
	if err := json.Unmarshal(v, &o); err != nil {
		return relationshipFact{}, fmt.Errorf("%s: @Relationship is not an object: %v", path, err)
	}
	r := relationshipFact{
		Path: path, Name: o.string("name"), EntityTypes: o.strings("entityTypes"),
		CreatedOn: o.string("createdOn"), CreatedActor: o.string("createdActor"),
		UpdatedOn: o.string("updatedOn"), UpdatedActor: o.string("updatedActor"),
		Properties: o.string("properties"), Via: o.string("via"),
	}
	if r.Name == "" {
		return r, fmt.Errorf("%s: @Relationship without a name", path)
	}
	up, ok := o.bool("isUpstream")
	r.IsUpstream = up || !ok
	r.IsLineage, _ = o.bool("isLineage")
	return r, nil
}

// goStrings writes a []string literal.
func goStrings(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return "[]string{" + strings.Join(q, ", ") + "}"
}

// searchFieldTypeConst maps a fieldType to the Go constant of package pdl.
func searchFieldTypeConst(t string) string {
	parts := strings.Split(strings.ToLower(t), "_")
	for i, p := range parts {
		switch p {
		case "urn":
			parts[i] = "URN"
		case "v2":
			parts[i] = "V2"
		default:
			parts[i] = strings.ToUpper(p[:1]) + p[1:]
		}
	}
	return "Search" + strings.Join(parts, "")
}

func emitFacts(src *source, aspects []aspectFact, st *Stats) ([]byte, error) {
	f := &facts{src: src}
	var sb, rb, ub bytes.Buffer
	for _, a := range aspects {
		ss, rs, us := f.aspect(a.Record)
		if len(us) > 0 {
			fmt.Fprintf(&ub, "%q: {\n", a.Name)
			for _, u := range us {
				fmt.Fprintf(&ub, "{Path: %q, Exist: %t, Strict: %t", u.Path, u.Exist, u.Strict)
				if len(u.EntityTypes) > 0 {
					fmt.Fprintf(&ub, ", EntityTypes: %s", goStrings(u.EntityTypes))
				}
				ub.WriteString("},\n")
			}
			ub.WriteString("},\n")
			st.URNValidations += len(us)
		}
		if len(ss) > 0 {
			fmt.Fprintf(&sb, "%q: {\n", a.Name)
			for _, s := range ss {
				writeSearchable(&sb, s)
			}
			sb.WriteString("},\n")
			st.Searchable += len(ss)
		}
		if len(rs) > 0 {
			fmt.Fprintf(&rb, "%q: {\n", a.Name)
			for _, r := range rs {
				writeRelationship(&rb, r)
			}
			rb.WriteString("},\n")
			st.Relationships += len(rs)
		}
	}
	if len(f.errs) > 0 {
		slices.Sort(f.errs)
		return nil, fmt.Errorf("annotations:\n\t%s", strings.Join(slices.Compact(f.errs), "\n\t"))
	}
	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString("package pdl\n\n")
	b.WriteString("// buildSearchable returns the @Searchable fields of every aspect that has any, by aspect\n")
	b.WriteString("// name, in the order DataHub's entity registry finds them. It is called once, on first use.\n")
	b.WriteString("func buildSearchable() map[string][]SearchableField {\nreturn map[string][]SearchableField{\n")
	b.Write(sb.Bytes())
	b.WriteString("}\n}\n\n")
	b.WriteString("// buildRelationships returns the @Relationship edges of every aspect that has any, by aspect\n")
	b.WriteString("// name, in the order DataHub's entity registry finds them. It is called once, on first use.\n")
	b.WriteString("func buildRelationships() map[string][]Relationship {\nreturn map[string][]Relationship{\n")
	b.Write(rb.Bytes())
	b.WriteString("}\n}\n\n")
	b.WriteString("// buildURNValidations returns the @UrnValidation checks of every aspect that has any, by aspect\n")
	b.WriteString("// name, in the order of the record's fields. It is called once, on first use.\n")
	b.WriteString("func buildURNValidations() map[string][]URNValidation {\nreturn map[string][]URNValidation{\n")
	b.Write(ub.Bytes())
	b.WriteString("}\n}\n")
	return format.Source(b.Bytes())
}

func writeSearchable(b *bytes.Buffer, s searchableFact) {
	a := s.Ann
	fmt.Fprintf(b, "{Path: %q, Kind: %s, FieldName: %q, FieldType: %s", s.Path, s.Kind, a.FieldName, searchFieldTypeConst(a.FieldType))
	flag := func(name string, v bool) {
		if v {
			fmt.Fprintf(b, ", %s: true", name)
		}
	}
	str := func(name, v string) {
		if v != "" {
			fmt.Fprintf(b, ", %s: %q", name, v)
		}
	}
	flag("QueryByDefault", *a.QueryByDefault)
	flag("EnableAutocomplete", a.EnableAutocomplete)
	flag("AddToFilters", a.AddToFilters)
	flag("AddHasValuesToFilters", a.AddHasValuesToFilters)
	str("FilterNameOverride", a.FilterNameOverride)
	str("HasValuesFilterNameOverride", a.HasValuesFilterNameOverride)
	fmt.Fprintf(b, ", BoostScore: %s", strconv.FormatFloat(*a.BoostScore, 'g', -1, 64))
	str("HasValuesFieldName", a.HasValuesFieldName)
	str("NumValuesFieldName", a.NumValuesFieldName)
	if len(a.WeightsPerFieldValue) > 0 {
		b.WriteString(", WeightsPerFieldValue: map[string]float64{")
		for i, k := range slices.Sorted(maps.Keys(a.WeightsPerFieldValue)) {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(b, "%q: %s", k, strconv.FormatFloat(a.WeightsPerFieldValue[k], 'g', -1, 64))
		}
		b.WriteString("}")
	}
	if len(a.FieldNameAliases) > 0 {
		fmt.Fprintf(b, ", FieldNameAliases: %s", goStrings(a.FieldNameAliases))
	}
	flag("IncludeQueryEmptyAggregation", a.IncludeQueryEmptyAggregation)
	flag("IncludeSystemModifiedAt", a.IncludeSystemModifiedAt)
	str("SystemModifiedAtFieldName", a.SystemModifiedAtFieldName)
	if a.SearchTier != 0 {
		fmt.Fprintf(b, ", SearchTier: %d", a.SearchTier)
	}
	str("SearchLabel", a.SearchLabel)
	flag("SearchIndexed", a.SearchIndexed)
	str("EntityFieldName", a.EntityFieldName)
	flag("EagerGlobalOrdinals", a.EagerGlobalOrdinals)
	flag("SanitizeRichText", a.SanitizeRichText)
	b.WriteString("},\n")
}

func writeRelationship(b *bytes.Buffer, r relationshipFact) {
	fmt.Fprintf(b, "{Path: %q, Name: %q, EntityTypes: %s", r.Path, r.Name, goStrings(r.EntityTypes))
	if r.IsUpstream {
		b.WriteString(", IsUpstream: true")
	}
	if r.IsLineage {
		b.WriteString(", IsLineage: true")
	}
	for _, kv := range [][2]string{{"CreatedOn", r.CreatedOn}, {"CreatedActor", r.CreatedActor}, {"UpdatedOn", r.UpdatedOn},
		{"UpdatedActor", r.UpdatedActor}, {"Properties", r.Properties}, {"Via", r.Via}} {
		if kv[1] != "" {
			fmt.Fprintf(b, ", %s: %q", kv[0], kv[1])
		}
	}
	b.WriteString("},\n")
}
