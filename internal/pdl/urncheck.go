package pdl

import (
	"slices"
	"strings"
	"sync"
)

// DataHub checks every value whose schema is a typeref named "...Urn" (see [Type.URN]) as its
// entity-registry URN validator does, once the record is otherwise valid. What a URN value must
// be (it parses, its entity type is in the registry, its parts fit that entity's key, the
// typeref's Java class accepts it) is the check [SetURNCheck] installs, which [Validate],
// [Conforms] and their kin make of each such value; where the value must point (the entity
// types of the @Relationship annotations at its path, of the entity holding the aspect) is
// [CheckDestinations]'. A refused value is reported as `"Provided urn <urn>" is invalid:
// <reason>` at its path, with [ValidationError.URN] set.

// urnValueCheck is the check SetURNCheck installed, nil if none.
var urnValueCheck func(u URNTyperef, s string) string

// SetURNCheck installs check, which returns why a value s of the URN typeref u is refused (""
// if it is accepted), as the check [Validate], [Conforms] and their kin make of every URN-typed
// value. Without one (nil) URN-typed values are checked as strings only. It is meant to be
// called once, from an init function, before any validation: the mock's core installs
// DataHub's rule, which needs the URN parser of package urn (whose tests import this package).
func SetURNCheck(check func(u URNTyperef, s string) string) { urnValueCheck = check }

// urnCheck is the URN typeref a string's values are checked as.
type urnCheck struct {
	typeref URNTyperef
}

func newURNCheck(typeref string) *urnCheck {
	u, ok := urnTyperefs[typeref]
	if !ok {
		u = URNTyperef{Name: typeref}
	}
	return &urnCheck{typeref: u}
}

// reason returns why s is refused as a value of c's typeref, "" when it is accepted.
func (c *urnCheck) reason(s string) string {
	if urnValueCheck == nil {
		return ""
	}
	return urnValueCheck(c.typeref, s)
}

// urnFailure is the validation failure of the URN s refused for reason.
func urnFailure(s, reason string) *verr {
	msg := `"Provided urn ` + s + `" is invalid: ` + reason
	return &verr{reason: msg, pegasus: msg, urn: true, value: s}
}

// entityTypeOf returns the entity type of URN u, "" if u is none.
func entityTypeOf(u string) string {
	rest, ok := strings.CutPrefix(u, "urn:li:")
	if !ok {
		return ""
	}
	et, _, _ := strings.Cut(rest, ":")
	return et
}

// urnsRecord makes the URN checks of the values of v, an object that conforms to r.
func urnsRecord(r *cRecord, v any) *verr {
	obj, _ := v.(map[string]any)
	for i := range r.fields {
		f := &r.fields[i]
		if fv, ok := obj[f.name]; ok {
			if e := urnsValue(f.typ, fv); e != nil {
				return e.at(pathElem{field: f.name})
			}
		}
	}
	return nil
}

// urnsValue makes the URN checks of v, a value that conforms to t.
func urnsValue(t *cType, v any) *verr {
	switch t.kind {
	case KindRecord:
		if t.rec != nil {
			return urnsRecord(t.rec, v)
		}
	case KindString:
		if s, ok := v.(string); ok && t.urn != nil {
			if reason := t.urn.reason(s); reason != "" {
				return urnFailure(s, reason)
			}
		}
	case KindArray:
		arr, _ := v.([]any)
		for i, item := range arr {
			if e := urnsValue(t.items, item); e != nil {
				return e.at(pathElem{index: i})
			}
		}
	case KindMap:
		m, _ := v.(map[string]any)
		for _, k := range slices.Sorted(mapKeys(m)) {
			if e := urnsValue(t.items, m[k]); e != nil {
				return e.at(pathElem{key: k, isKey: true})
			}
		}
	case KindUnion:
		obj, _ := v.(map[string]any)
		for k, mv := range obj {
			if mt := t.members[k]; mt != nil {
				step := pathElem{field: k}
				if strings.Contains(k, ".") {
					step = pathElem{key: k, isKey: true}
				}
				if e := urnsValue(mt, mv); e != nil {
					return e.at(step)
				}
			}
		}
	}
	return nil
}

func mapKeys(m map[string]any) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// destination is a path of an aspect that holds URN-typed values which relationships of the
// entity holding the aspect point at.
type destination struct {
	segs []string
	spec string     // the path as DataHub prints it, e.g. "/groups/*"
	sets [][]string // the entity types of each relationship at the path
}

var destinationTable struct {
	once sync.Once
	m    map[string][]destination // entity + "\x00" + aspect -> paths
}

// destinations returns the relationship destinations of aspect when entity holds it.
func destinations(entity, aspect string) []destination {
	destinationTable.once.Do(func() { destinationTable.m = buildDestinations() })
	return destinationTable.m[entity+"\x00"+aspect]
}

func buildDestinations() map[string][]destination {
	c := compiled()
	out := map[string][]destination{}
	for _, e := range entities {
		byPath := map[string][][]string{}
		var paths []string
		all := append([]string{e.KeyAspect}, e.Aspects...)
		for _, a := range all {
			for _, r := range Relationships(a) {
				if _, ok := byPath[r.Path]; !ok {
					paths = append(paths, r.Path)
				}
				byPath[r.Path] = append(byPath[r.Path], r.EntityTypes)
			}
		}
		if len(paths) == 0 {
			continue
		}
		for _, a := range all {
			info, ok := aspectInfos[a]
			if !ok || c.records[info.RecordName] == nil {
				continue
			}
			var ds []destination
			for _, p := range paths {
				segs := strings.Split(strings.TrimPrefix(p, "/"), "/")
				if t := resolvePath(&cType{kind: KindRecord, rec: c.records[info.RecordName]}, segs); t != nil && t.kind == KindString && t.urn != nil {
					ds = append(ds, destination{segs: segs, spec: p, sets: byPath[p]})
				}
			}
			if len(ds) > 0 {
				out[e.Name+"\x00"+a] = ds
			}
		}
	}
	return out
}

// resolvePath returns the type at the schema path segs below t, nil if there is none.
func resolvePath(t *cType, segs []string) *cType {
	for _, s := range segs {
		switch {
		case t.kind == KindRecord && t.rec != nil:
			i, ok := t.rec.index[s]
			if !ok {
				return nil
			}
			t = t.rec.fields[i].typ
		case (t.kind == KindArray || t.kind == KindMap) && s == "*" && t.items != nil:
			t = t.items
		case t.kind == KindUnion && t.members[s] != nil:
			t = t.members[s]
		default:
			return nil
		}
	}
	return t
}

// CheckDestinations makes DataHub's relationship check of the URNs of an aspect's JSON data,
// which [Validate] accepts, when the entity type entity holds it: a URN-typed value at the path
// of a @Relationship of any of entity's aspects must have one of that relationship's entity
// types. It reports the first value refused as a *ValidationError with URN set, nil if none is.
func CheckDestinations(entity, aspect string, data []byte) error {
	ds := destinations(entity, aspect)
	for i := range ds {
		if e := checkDestination(&ds[i], data, ds[i].segs); e != nil {
			return e.toError()
		}
	}
	return nil
}

// HasDestinations reports whether CheckDestinations may refuse a value of aspect held by entity.
func HasDestinations(entity, aspect string) bool { return len(destinations(entity, aspect)) > 0 }

func checkDestination(d *destination, v []byte, segs []string) *verr {
	v = trimSpace(v)
	if len(v) == 0 {
		return nil
	}
	if len(segs) == 0 {
		s, ok := UnquoteJSON(v)
		if !ok || v[0] != '"' {
			return nil
		}
		et := entityTypeOf(s)
		if et == "" {
			return nil // no URN: the value check's to refuse
		}
		for _, set := range d.sets {
			if !slices.Contains(set, et) {
				return urnFailure(s, "Entity type for urn: "+s+" is not a valid destination for field path: "+d.spec)
			}
		}
		return nil
	}
	seg, rest := segs[0], segs[1:]
	switch v[0] {
	case '[':
		if seg != "*" {
			return nil
		}
		elems, _ := ArrayElements(v)
		for i, el := range elems {
			if e := checkDestination(d, el, rest); e != nil {
				return e.at(pathElem{index: i})
			}
		}
	case '{':
		var found *verr
		EachMember(v, func(key []byte, plain bool, value []byte) bool {
			name := string(key)
			if !plain {
				name = unquote(key)
			}
			if seg != "*" && name != seg {
				return true
			}
			if e := checkDestination(d, value, rest); e != nil {
				step := pathElem{field: name}
				if seg == "*" || strings.Contains(name, ".") {
					step = pathElem{key: name, isKey: true}
				}
				found = e.at(step)
				return false
			}
			return true
		})
		return found
	}
	return nil
}
