package pdl

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// DataHub checks every value of an entity's aspect (and key aspect) whose schema is a typeref
// named "...Urn" (see [Type.URN]) with its entity-registry URN validator, once the record is
// otherwise valid; [ValidateIn], [ConformsIn] and [ConformsCompactHashIn] make those checks,
// the other validators none. What a URN value must be (it parses, its entity type is in the
// registry, its parts fit that entity's key, the typeref's Java class accepts it) is the check
// [SetURNCheck] installs; where it must point is given by the @Relationship annotations at its
// path in any aspect of the entity holding it. A refused value is reported as
// `"Provided urn <urn>" is invalid: <reason>` at its path, with [ValidationError.URN] set.

// urnValueCheck is the check SetURNCheck installed, nil if none.
var urnValueCheck func(u URNTyperef, s string) string

// SetURNCheck installs check, which returns why a value s of the URN typeref u is refused (""
// if it is accepted), as the check [ValidateIn] and its kin make of every URN-typed value.
// Without one (nil) URN-typed values are checked as strings only. It is meant to be
// called once, from an init function, before any validation: the mock's core installs
// DataHub's rule, which needs the URN parser of package urn (whose tests import this package).
func SetURNCheck(check func(u URNTyperef, s string) string) { urnValueCheck = check }

// urnCheck is the URN typeref a string's values are checked as, with the values it accepted
// lately: the same URNs (actors, platforms, owners) come back in write after write, and the
// check's answer depends on the value alone.
type urnCheck struct {
	typeref URNTyperef
	// ok holds accepted values, one a slot by their hash (a later one takes the slot), so
	// that a read takes no lock and writes to no shared memory; nil until the first.
	ok atomic.Pointer[acceptedURNs]
}

// acceptedURNs are the slots of the values a urnCheck accepted.
type acceptedURNs [acceptedSlots]atomic.Pointer[string]

// acceptedSlots is the number of accepted values a urnCheck remembers at most, and
// maxAcceptedLen the length of one it remembers.
const (
	acceptedSlots  = 1024
	maxAcceptedLen = 1024
)

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

// accepts reports whether the JSON string body (plain: without escapes, see strBody) is
// accepted as a value of c's typeref. h is hashBytes(tagString, body) when the caller has it
// (0: not known).
func (c *urnCheck) accepts(body []byte, plain bool, h uint64) bool {
	if urnValueCheck == nil {
		return true
	}
	if plain && h == 0 {
		h = hashBytes(tagString, body)
	}
	slots := c.ok.Load()
	if plain && slots != nil {
		if s := slots[h%acceptedSlots].Load(); s != nil && *s == string(body) {
			return true
		}
	}
	s := string(body)
	if !plain {
		s = unquote(body)
	}
	if urnValueCheck(c.typeref, s) != "" {
		return false
	}
	if plain && len(s) <= maxAcceptedLen {
		if slots == nil {
			c.ok.CompareAndSwap(nil, new(acceptedURNs))
			slots = c.ok.Load()
		}
		slots[h%acceptedSlots].Store(&s)
	}
	return true
}

// urnFailure is the validation failure of the URN s refused for reason.
func urnFailure(s, reason string) *verr {
	msg := `"Provided urn ` + s + `" is invalid: ` + reason
	return &verr{reason: msg, pegasus: msg, urn: true, value: s}
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
			if t.dest != nil && !t.dest.allows([]byte(s)) {
				return t.dest.refusal(s)
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
		for _, k := range slices.Sorted(maps.Keys(m)) {
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

// destCheck is the relationship check of the URN-typed values at one path of an aspect held
// by an entity type: their entity type must be one of each set's.
type destCheck struct {
	spec string     // the path as DataHub prints it, e.g. "/groups/*"
	sets [][]string // the entity types of each relationship at the path
}

// allows reports whether the URN s (or the JSON string body of one, without escapes) points at
// an entity type d allows. A value that is no URN is the URN check's to refuse.
func (d *destCheck) allows(s []byte) bool {
	et, ok := bytes.CutPrefix(s, []byte("urn:li:"))
	i := bytes.IndexByte(et, ':')
	if !ok || i < 0 {
		return true
	}
	et = et[:i]
	for _, set := range d.sets {
		if !slices.ContainsFunc(set, func(t string) bool { return t == string(et) }) {
			return false
		}
	}
	return true
}

// refusal is the failure of the URN s, which d does not allow.
func (d *destCheck) refusal(s string) *verr {
	return urnFailure(s, "Entity type for urn: "+s+" is not a valid destination for field path: "+d.spec)
}

var heldTable struct {
	once sync.Once
	m    map[string]map[string]*cRecord // entity type -> record name -> record with its destCheck
}

// heldRecord returns the compiled record recordName as an aspect (or key aspect) of the entity
// type entity: where a relationship of entity (in any of its aspects) has a path of the record
// that holds URN-typed values, a copy of the record whose strings there carry the relationship
// check; the record itself where none has.
func heldRecord(entity, recordName string) *cRecord {
	heldTable.once.Do(func() { heldTable.m = buildHeld() })
	if r := heldTable.m[entity][recordName]; r != nil {
		return r
	}
	return compiled().records[recordName]
}

func buildHeld() map[string]map[string]*cRecord {
	return buildHeldRecords(entities, Relationships, true)
}

// buildHeldRecords builds the held records of the entity types ents whose
// aspects have the relationships rels gives; with share, entity types whose
// relationships give a record the same checks share one copy of it
// (ownership's owners are checked alike in every entity type), which the
// collector then marks once; without (the tests' general path) each has its
// own.
func buildHeldRecords(ents []Entity, rels func(aspect string) []Relationship, share bool) map[string]map[string]*cRecord {
	c := compiled()
	out := map[string]map[string]*cRecord{}
	copies := map[string]*cRecord{} // by the record's name and its checks (see appendHeldKey)
	var key []byte
	for _, e := range ents {
		sets := map[string][][]string{}
		var paths []string
		all := append([]string{e.KeyAspect}, e.Aspects...)
		for _, a := range all {
			for _, r := range rels(a) {
				if _, ok := sets[r.Path]; !ok {
					paths = append(paths, r.Path)
				}
				sets[r.Path] = append(sets[r.Path], r.EntityTypes)
			}
		}
		for _, a := range all {
			info, ok := aspectInfos[a]
			if !ok || c.records[info.RecordName] == nil {
				continue
			}
			root := &cType{kind: KindRecord, name: info.RecordName, rec: c.records[info.RecordName]}
			changed := false
			key = strconv.AppendQuote(key[:0], info.RecordName)
			for _, p := range paths {
				segs := strings.Split(strings.TrimPrefix(p, "/"), "/")
				if t := resolvePath(root, segs); t != nil && t.kind == KindString && t.urn != nil {
					root = withDest(root, segs, &destCheck{spec: p, sets: sets[p]})
					changed = true
					key = appendHeldKey(key, p, sets[p])
				}
			}
			if changed && share {
				if r := copies[string(key)]; r != nil {
					root.rec = r
				} else {
					copies[string(key)] = root.rec
				}
			}
			if changed {
				if out[e.Name] == nil {
					out[e.Name] = map[string]*cRecord{}
				}
				out[e.Name][info.RecordName] = root.rec
			}
		}
	}
	return out
}

// appendHeldKey appends to key the check a held record's copy carries at
// the path p: p and the entity types of each of its relationships' sets.
func appendHeldKey(key []byte, p string, sets [][]string) []byte {
	key = strconv.AppendQuote(key, p)
	for _, set := range sets {
		key = append(key, '[')
		for _, et := range set {
			key = strconv.AppendQuote(key, et)
		}
		key = append(key, ']')
	}
	return key
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

// withDest returns a copy of t whose type at segs (which resolvePath finds) carries d, copying
// the records, containers and unions on the way and sharing the rest.
func withDest(t *cType, segs []string, d *destCheck) *cType {
	cp := *t
	if len(segs) == 0 {
		cp.dest = d
		return &cp
	}
	switch {
	case t.kind == KindRecord:
		r := *t.rec
		r.fields = slices.Clone(t.rec.fields)
		i := r.index[segs[0]]
		r.fields[i].typ = withDest(r.fields[i].typ, segs[1:], d)
		cp.rec = &r
	case t.kind == KindArray || t.kind == KindMap:
		cp.items = withDest(t.items, segs[1:], d)
	case t.kind == KindUnion:
		cp.members = maps.Clone(t.members)
		cp.members[segs[0]] = withDest(t.members[segs[0]], segs[1:], d)
		cp.fillMembers()
	}
	return &cp
}

// ValidateIn is Validate for a value of the record recordName held by an entity of type
// entity, as an aspect or its key aspect: once the record is valid, it makes DataHub's URN
// checks: each URN-typed value passes the check [SetURNCheck] installed, and one at the path of
// a @Relationship of any of entity's aspects has one of its entity types. It reports their
// first failure as a *ValidationError with URN set.
func ValidateIn(entity, recordName string, v any) error {
	rec := heldRecord(entity, recordName)
	if rec == nil {
		return fmt.Errorf("%w %q", ErrUnknownRecord, recordName)
	}
	if e := checkRecord(rec, v); e != nil {
		return e.toError()
	}
	if e := urnsRecord(rec, v); e != nil {
		return e.toError()
	}
	return nil
}

// ConformsIn is Conforms for a value of recordName held by entity, as ValidateIn checks it
// (entity "": held by an entity type without relationships).
func ConformsIn(entity, recordName string, data []byte) bool {
	_, ok := conformsRoot(heldRecord(entity, recordName), data, nil, false, true)
	return ok
}

// ConformsCompactHashIn is ConformsCompactHash for a value of recordName held by entity, as
// ValidateIn checks it.
func ConformsCompactHashIn(entity, recordName string, data []byte, mem Memory) (compact []byte, hash uint64, ok bool) {
	compact, hash, _, ok = Held{heldRecord(entity, recordName)}.ConformsCompactHash(data, mem)
	return compact, hash, ok
}
