package index

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// searchDoc is an entity's search document: the values of its aspects'
// searchable fields by index field name, each list sorted and without
// repeats.
type searchDoc struct {
	urn    string
	entity string // registry entity name
	// per holds each aspect's fields and the value they came from, so that
	// a write of one aspect extracts only that aspect again.
	per    map[string]aspectFields
	fields map[string][]string
}

type aspectFields struct {
	raw    json.RawMessage
	fields map[string][]string
}

// searchIdx is the search side of one entity index: the documents and, for
// every field and value, the URNs that have it (the postings a selective
// filter starts from).
type searchIdx struct {
	entity string
	docs   map[string]*searchDoc
	post   map[string]map[string]map[string]struct{}
	// pending are the documents written (nil: deleted) since the last
	// search, by URN: a write only records its document here, and the next
	// search extracts the fields ([searchIdx.flush]), so that ingestion pays
	// nothing for search until something searches.
	pending map[string]*Document
}

func newSearchIdx(entity string) *searchIdx {
	return &searchIdx{entity: entity, docs: map[string]*searchDoc{}, post: map[string]map[string]map[string]struct{}{},
		pending: map[string]*Document{}}
}

// put records d as the entity's latest document (indexed at the next
// flush). A document changed in place again before the flush is pending
// already.
func (s *searchIdx) put(d *Document) {
	if !d.queued {
		d.queued = true
		s.pending[d.URN] = d
	}
}

// drop records that urn's document was deleted.
func (s *searchIdx) drop(urn string) { s.pending[urn] = nil }

// flush indexes the pending documents; the index's lock is held.
func (s *searchIdx) flush() {
	if len(s.pending) == 0 {
		return
	}
	for u, d := range s.pending {
		if d == nil {
			s.remove(u)
		} else {
			d.queued = false
			s.update(d)
		}
	}
	clear(s.pending)
}

// sameRaw reports whether a and b hold the same bytes, by identity first
// (an unchanged aspect shares its slice with the previous document).
func sameRaw(a, b json.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 || &a[0] == &b[0] {
		return true
	}
	return string(a) == string(b)
}

// update indexes d, replacing the entity's previous document.
func (s *searchIdx) update(d *Document) {
	old := s.docs[d.URN]
	nd := &searchDoc{urn: d.URN, entity: s.entity, per: make(map[string]aspectFields, len(d.Aspects)),
		fields: map[string][]string{"urn": {d.URN}}}
	for name, raw := range d.Aspects {
		if old != nil {
			if af, ok := old.per[name]; ok && sameRaw(af.raw, raw) {
				nd.per[name] = af
				continue
			}
		}
		if len(SearchFields(name)) == 0 && len(LineageEdges(name)) == 0 && len(relationshipPaths()[name]) == 0 {
			continue
		}
		af := aspectFields{raw: raw, fields: map[string][]string{}}
		extract(name, raw, af.fields)
		nd.per[name] = af
	}
	for name, af := range nd.per {
		for k, vs := range af.fields {
			nd.fields[k] = append(nd.fields[k], vs...)
		}
		for _, sf := range SearchFields(name) {
			if sf.HasValues != "" {
				nd.fields[sf.HasValues] = nil // set below, once every aspect is merged
			}
		}
	}
	for k, vs := range nd.fields {
		if vs == nil {
			continue
		}
		slices.Sort(vs)
		nd.fields[k] = slices.Compact(vs)
	}
	defaultPlatform(nd, d)
	for name := range nd.per {
		for _, sf := range SearchFields(name) {
			if sf.HasValues != "" {
				v := "false"
				if len(nd.fields[sf.Name]) > 0 {
					v = "true"
				}
				nd.fields[sf.HasValues] = []string{v}
			}
		}
	}
	if old != nil {
		s.unpost(old)
	}
	s.docs[d.URN] = nd
	for k, vs := range nd.fields {
		m := s.post[k]
		if m == nil {
			m = map[string]map[string]struct{}{}
			s.post[k] = m
		}
		for _, v := range vs {
			set := m[v]
			if set == nil {
				set = map[string]struct{}{}
				m[v] = set
			}
			set[d.URN] = struct{}{}
		}
	}
}

// defaultPlatform indexes the platform of an entity that has no
// dataPlatformInstance aspect from its key, as the dataPlatformInstance
// that DataHub writes by default when it creates the entity would
// (DefaultAspectsUtil); the mock does not store default aspects.
func defaultPlatform(nd *searchDoc, d *Document) {
	if _, ok := d.Aspects["dataPlatformInstance"]; ok || len(nd.fields["platform"]) > 0 {
		return
	}
	e, ok := pdl.Registered(nd.entity)
	if !ok {
		return
	}
	var key struct {
		Platform string `json:"platform"`
	}
	if raw, ok := d.Aspects[e.KeyAspect]; !ok || json.Unmarshal(raw, &key) != nil || !strings.HasPrefix(key.Platform, "urn:li:dataPlatform:") {
		return
	}
	nd.fields["platform"] = []string{key.Platform}
}

// remove drops urn's document.
func (s *searchIdx) remove(urn string) {
	if old, ok := s.docs[urn]; ok {
		s.unpost(old)
		delete(s.docs, urn)
	}
}

func (s *searchIdx) unpost(d *searchDoc) {
	for k, vs := range d.fields {
		m := s.post[k]
		for _, v := range vs {
			if set := m[v]; set != nil {
				delete(set, d.urn)
				if len(set) == 0 {
					delete(m, v)
				}
			}
		}
	}
}
