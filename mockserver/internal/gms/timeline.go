package gms

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/catalogkit/datahub-go/fieldpath"
	"github.com/catalogkit/datahub-go/internal/jsonx"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// The change categories of DataHub's timeline the mock computes, and the
// aspects each reads (TimelineServiceImpl's table, for the aspects of these
// categories that hold no per-field facts).
var timelineAspects = map[string][]string{
	"TECHNICAL_SCHEMA": {"schemaMetadata"},
	"TAG":              {"globalTags"},
	"GLOSSARY_TERM":    {"glossaryTerms"},
	"OWNER":            {"ownership"},
	"DOCUMENTATION":    {"datasetProperties", "editableDatasetProperties"},
	"DOMAIN":           {"domains"},
}

// TimelineCategories are the change categories [Core.Timeline] computes.
func TimelineCategories() []string {
	out := make([]string, 0, len(timelineAspects))
	for c := range timelineAspects {
		out = append(out, c)
	}
	slices.Sort(out)
	return out
}

// ChangeEvent is one change of a [ChangeTransaction].
type ChangeEvent struct {
	EntityURN    string         `json:"entityUrn"`
	Category     string         `json:"category"`
	Operation    string         `json:"operation"`
	Modifier     string         `json:"modifier,omitempty"`
	Parameters   map[string]any `json:"parameters,omitempty"`
	SemVerChange string         `json:"semVerChange"`
	Description  string         `json:"description"`
}

// ChangeTransaction is the changes made at one time (DataHub's timeline).
type ChangeTransaction struct {
	Timestamp    int64         `json:"timestamp"`
	Actor        string        `json:"actor"`
	SemVer       string        `json:"semVer"`
	SemVerChange string        `json:"semVerChange"`
	ChangeEvents []ChangeEvent `json:"changeEvents"`
	VersionStamp string        `json:"versionStamp"`
}

// semRank orders SemanticChangeType as DataHub's enum does.
var semRank = map[string]int{"NONE": 0, "PATCH": 1, "MINOR": 2, "MAJOR": 3, "EXCEPTIONAL": 4}

// TimelineQuery is a timeline request.
type TimelineQuery struct {
	URN        string
	Categories []string
	// StartMillis and EndMillis bound the versions' times (0: unbounded).
	StartMillis, EndMillis int64
}

// timelineRow is one version of an aspect.
type timelineRow struct {
	aspect  string
	version int64 // the stored row's version (0 the latest)
	created int64
	actor   string
	value   json.RawMessage
}

// Timeline computes the change transactions of an entity from the stored
// versions of its aspects, as DataHub's TimelineServiceImpl does for the
// categories in [TimelineCategories]: each version of an aspect compared
// with the one before (none for the first), the events of one time merged
// into one transaction, semantic versions assigned from 0.0.0 by each
// transaction's highest change. An unknown category is BadArgument.
func (c *Core) Timeline(ctx context.Context, q TimelineQuery) ([]ChangeTransaction, error) {
	c.barrier()
	if _, err := CheckURN(q.URN); err != nil {
		return nil, err
	}
	aspects := map[string][]string{} // aspect → categories
	for _, cat := range q.Categories {
		as, ok := timelineAspects[cat]
		if !ok {
			return nil, errorf(BadArgument, "Unsupported change category %s (datahub-mock computes %s)", Abbreviate(cat), strings.Join(TimelineCategories(), ", "))
		}
		for _, a := range as {
			if !slices.Contains(aspects[a], cat) {
				aspects[a] = append(aspects[a], cat)
			}
		}
	}
	ent, _ := lookupEntity(EntityTypeOf(q.URN))
	var all []timelineRow
	rowsOf := map[string][]timelineRow{}
	for _, a := range append([]string{ent.KeyAspect}, ent.Aspects...) {
		if IsTimeseries(a) {
			continue
		}
		rows, err := c.aspectVersions(ctx, q.URN, a)
		if err != nil {
			return nil, err
		}
		rowsOf[a] = rows
		all = append(all, rows...)
	}
	byTime := map[int64]*ChangeTransaction{}
	for a, cats := range aspects {
		rows := rowsOf[a]
		var prev json.RawMessage
		for _, row := range rows {
			if (q.StartMillis <= 0 || row.created >= q.StartMillis) && (q.EndMillis <= 0 || row.created <= q.EndMillis) {
				for _, cat := range cats {
					evs := diffAspect(cat, q.URN, prev, row.value)
					if len(evs) == 0 {
						continue
					}
					tx := byTime[row.created]
					if tx == nil {
						tx = &ChangeTransaction{Timestamp: row.created, Actor: row.actor, SemVerChange: "NONE"}
						byTime[row.created] = tx
					}
					tx.ChangeEvents = append(tx.ChangeEvents, evs...)
					for _, ev := range evs {
						if semRank[ev.SemVerChange] > semRank[tx.SemVerChange] {
							tx.SemVerChange = ev.SemVerChange
						}
					}
				}
			}
			prev = row.value
		}
	}
	out := make([]ChangeTransaction, 0, len(byTime))
	for _, tx := range byTime {
		tx.VersionStamp = versionStamp(all, tx.Timestamp)
		out = append(out, *tx)
	}
	slices.SortFunc(out, func(a, b ChangeTransaction) int { return int(a.Timestamp - b.Timestamp) })
	var major, minor, patch int
	for i := range out {
		if i > 0 {
			switch out[i].SemVerChange {
			case "MAJOR":
				major, minor, patch = major+1, 0, 0
			case "MINOR":
				minor, patch = minor+1, 0
			case "PATCH":
				patch++
			}
		}
		out[i].SemVer = fmt.Sprintf("%d.%d.%d-computed", major, minor, patch)
	}
	return out, nil
}

// aspectVersions are the stored versions of an aspect, oldest first (the
// history 1, 2, … then the latest), with their creation times.
func (c *Core) aspectVersions(ctx context.Context, urn, aspect string) ([]timelineRow, error) {
	var out []timelineRow
	for v := int64(1); ; v++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		a, err := c.st.Get(urn, aspect, v)
		if errors.Is(err, store.ErrNotFound) {
			break
		}
		if err != nil {
			return nil, errorf(Internal, MsgStore, err)
		}
		out = append(out, timelineRow{aspect: aspect, version: v, created: a.CreatedOn.UnixMilli(), actor: a.CreatedBy, value: a.Value})
	}
	a, err := c.st.Get(urn, aspect, 0)
	if errors.Is(err, store.ErrNotFound) {
		return out, nil
	}
	if err != nil {
		return nil, errorf(Internal, MsgStore, err)
	}
	return append(out, timelineRow{aspect: aspect, version: 0, created: a.CreatedOn.UnixMilli(), actor: a.CreatedBy, value: a.Value}), nil
}

// versionStamp is "aspect:version;…" (by aspect name) of the version of
// each aspect current at time ms, as DataHub's timestamp version cache
// makes it.
func versionStamp(rows []timelineRow, ms int64) string {
	cur := map[string]int64{}
	for _, r := range rows {
		if r.created <= ms {
			cur[r.aspect] = r.version
		}
	}
	names := make([]string, 0, len(cur))
	for n := range cur {
		names = append(names, n)
	}
	slices.Sort(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + ":" + strconv.FormatInt(cur[n], 10)
	}
	return strings.Join(parts, ";")
}

// diffAspect is the change events of a category between two values of an
// aspect (prev nil: none before).
func diffAspect(cat, urn string, prev, cur json.RawMessage) []ChangeEvent {
	switch cat {
	case "TECHNICAL_SCHEMA":
		return diffSchema(urn, prev, cur)
	case "TAG":
		return diffSet(urn, cat, prev, cur, "tags", "tag", "tagUrn", "Tag '%s' added to entity '%s'.", "Tag '%s' removed from entity '%s'.")
	case "GLOSSARY_TERM":
		return diffSet(urn, cat, prev, cur, "terms", "urn", "termUrn", "Term '%s' added to entity '%s'.", "Term '%s' removed from entity '%s'.")
	case "OWNER":
		return diffOwners(urn, prev, cur)
	case "DOCUMENTATION":
		return diffDescription(urn, prev, cur)
	case "DOMAIN":
		return diffDomain(urn, prev, cur)
	}
	return nil
}

// members reads the string member key of each element of the array member
// list of an aspect value, in order, with the elements.
func members(v json.RawMessage, list, key string) ([]string, []map[string]any) {
	var doc map[string]any
	if len(v) == 0 || json.Unmarshal(v, &doc) != nil {
		return nil, nil
	}
	arr, _ := doc[list].([]any)
	var ids []string
	var els []map[string]any
	for _, e := range arr {
		m, ok := e.(map[string]any)
		if !ok {
			continue
		}
		id, _ := m[key].(string)
		ids = append(ids, id)
		els = append(els, m)
	}
	return ids, els
}

// diffSet is the ADD and REMOVE events of the associations of a list
// (tags, terms): removals first, then additions, each by URN.
func diffSet(urn, cat string, prev, cur json.RawMessage, list, key, param, added, removed string) []ChangeEvent {
	before, _ := members(prev, list, key)
	after, _ := members(cur, list, key)
	var out []ChangeEvent
	for _, id := range sortedDiff(before, after) {
		out = append(out, ChangeEvent{EntityURN: urn, Category: cat, Operation: "REMOVE", Modifier: id,
			Parameters: map[string]any{param: id}, SemVerChange: "MINOR", Description: fmt.Sprintf(removed, id, urn)})
	}
	for _, id := range sortedDiff(after, before) {
		out = append(out, ChangeEvent{EntityURN: urn, Category: cat, Operation: "ADD", Modifier: id,
			Parameters: map[string]any{param: id}, SemVerChange: "MINOR", Description: fmt.Sprintf(added, id, urn)})
	}
	return out
}

// sortedDiff is the values of a not in b, sorted, each once.
func sortedDiff(a, b []string) []string {
	var out []string
	for _, v := range a {
		if !slices.Contains(b, v) && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}

// diffOwners is the ADD and REMOVE events of an ownership change, by
// (owner, type).
func diffOwners(urn string, prev, cur json.RawMessage) []ChangeEvent {
	key := func(m map[string]any) string {
		t, _ := m["type"].(string)
		o, _ := m["owner"].(string)
		return o + "\x00" + t
	}
	_, before := members(prev, "owners", "owner")
	_, after := members(cur, "owners", "owner")
	var bk, ak []string
	for _, m := range before {
		bk = append(bk, key(m))
	}
	for _, m := range after {
		ak = append(ak, key(m))
	}
	ev := func(k, op, format string) ChangeEvent {
		owner, typ, _ := strings.Cut(k, "\x00")
		return ChangeEvent{EntityURN: urn, Category: "OWNER", Operation: op, Modifier: owner,
			Parameters: map[string]any{"ownerUrn": owner, "ownerType": typ}, SemVerChange: "MINOR",
			Description: fmt.Sprintf(format, owner, typ, urn)}
	}
	var out []ChangeEvent
	for _, k := range sortedDiff(bk, ak) {
		out = append(out, ev(k, "REMOVE", "'%s' removed as a `%s` of '%s'."))
	}
	for _, k := range sortedDiff(ak, bk) {
		out = append(out, ev(k, "ADD", "'%s' added as a `%s` of '%s'."))
	}
	return out
}

// schemaField is what the schema diff reads of a field.
type schemaField struct {
	path, nativeType string
	nullable         bool
	description      *string
	raw              string // the field's JSON, compact: its identity
}

// fieldsOf reads the fields of a schemaMetadata value, sorted by path.
func fieldsOf(v json.RawMessage) []schemaField {
	var doc struct {
		Fields []json.RawMessage `json:"fields"`
	}
	if len(v) == 0 || json.Unmarshal(v, &doc) != nil {
		return nil
	}
	out := make([]schemaField, 0, len(doc.Fields))
	for _, raw := range doc.Fields {
		var f struct {
			FieldPath      string  `json:"fieldPath"`
			NativeDataType string  `json:"nativeDataType"`
			Nullable       bool    `json:"nullable"`
			Description    *string `json:"description"`
		}
		if json.Unmarshal(raw, &f) != nil {
			continue
		}
		out = append(out, schemaField{f.FieldPath, f.NativeDataType, f.Nullable, f.Description, string(jsonx.CompactShared(raw))})
	}
	slices.SortStableFunc(out, func(a, b schemaField) int { return strings.Compare(a.path, b.path) })
	return out
}

// downgradePath is a v2 field path as v1 (DataHub's downgradeFieldPath:
// the tokens in brackets dropped).
func downgradePath(p string) string { return fieldpath.Simplify(p) }

// diffSchema is SchemaMetadataChangeEventGenerator's TECHNICAL_SCHEMA
// events: fields compared in path order; a field only before is a REMOVE
// (MAJOR), only after an ADD (MINOR), unless a field of the other side
// with the same native type, parent path and description that matches no
// field by path takes its place (a rename: MODIFY, MINOR); a changed
// native type is a MODIFY (MAJOR).
func diffSchema(urn string, prev, cur json.RawMessage) []ChangeEvent {
	base, target := fieldsOf(prev), fieldsOf(cur)
	ev := func(f schemaField, op, sem, category, desc string) ChangeEvent {
		fieldURN := "urn:li:schemaField:(" + urn + "," + f.path + ")"
		return ChangeEvent{EntityURN: urn, Category: "TECHNICAL_SCHEMA", Operation: op, Modifier: fieldURN,
			Parameters:   map[string]any{"fieldPath": f.path, "fieldUrn": fieldURN, "nullable": f.nullable, "modificationCategory": category},
			SemVerChange: sem, Description: desc}
	}
	removal := func(f schemaField) ChangeEvent {
		return ev(f, "REMOVE", "MAJOR", "OTHER", "A backwards incompatible change due to removal of field: '"+downgradePath(f.path)+"'.")
	}
	add := func(f schemaField) ChangeEvent {
		return ev(f, "ADD", "MINOR", "OTHER", "A forwards & backwards compatible change due to the newly added field '"+downgradePath(f.path)+"'.")
	}
	rename := func(from, to schemaField) ChangeEvent {
		return ev(from, "MODIFY", "MINOR", "RENAME", "A forwards & backwards compatible change due to renaming of the field '"+
			downgradePath(from.path)+" to "+downgradePath(to.path)+"'.")
	}
	renamed := map[string]bool{} // by the field's JSON
	// findRenamed finds the field of others (from index j) that f was
	// renamed from or to: one not renamed yet that no field of own (from
	// index i) equals.
	findRenamed := func(f schemaField, own []schemaField, others []schemaField) (schemaField, bool) {
		for _, o := range others {
			if o.nativeType != f.nativeType || !parentsMatch(f.path, o.path) || !descriptionsMatch(f.description, o.description) || renamed[o.raw] {
				continue
			}
			if slices.ContainsFunc(own, func(x schemaField) bool { return x.raw == o.raw }) {
				continue
			}
			return o, true
		}
		return schemaField{}, false
	}
	var out []ChangeEvent
	i, j := 0, 0
	for i < len(base) && j < len(target) {
		b, t := base[i], target[j]
		switch c := strings.Compare(b.path, t.path); {
		case renamed[b.raw]:
			i++
		case renamed[t.raw]:
			j++
		case c == 0:
			if b.nativeType != t.nativeType {
				out = append(out, ev(b, "MODIFY", "MAJOR", "TYPE_CHANGE", fmt.Sprintf("A backwards incompatible change due to native datatype of the field '%s' changed from '%s' to '%s'.",
					downgradePath(t.path), b.nativeType, t.nativeType)))
			}
			i, j = i+1, j+1
		case c < 0:
			if r, ok := findRenamed(b, base[i:], target[j:]); ok {
				out = append(out, rename(b, r))
				renamed[r.raw] = true
			} else {
				out = append(out, removal(b))
			}
			i++
		default:
			if r, ok := findRenamed(t, target[j:], base[i:]); ok {
				out = append(out, rename(r, t))
				renamed[r.raw] = true
			} else {
				out = append(out, add(t))
			}
			j++
		}
	}
	for ; i < len(base); i++ {
		if !renamed[base[i].raw] {
			out = append(out, removal(base[i]))
		}
	}
	for ; j < len(target); j++ {
		if !renamed[target[j].raw] {
			out = append(out, add(target[j]))
		}
	}
	return out
}

// parentsMatch reports whether two field paths have the same parent path
// (or neither has one).
func parentsMatch(a, b string) bool {
	ia, ib := strings.LastIndexByte(a, '.'), strings.LastIndexByte(b, '.')
	if ia > 0 && ib > 0 {
		return a[:ia] == b[:ib]
	}
	return ia < 0 && ib < 0
}

// descriptionsMatch reports whether two optional descriptions are equal.
func descriptionsMatch(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// diffDescription is the DOCUMENTATION event of a change of an entity's
// description (DatasetPropertiesChangeEventGenerator and its editable
// twin): added, removed or changed.
func diffDescription(urn string, prev, cur json.RawMessage) []ChangeEvent {
	desc := func(v json.RawMessage) *string {
		var d struct {
			Description *string `json:"description"`
		}
		if len(v) == 0 || json.Unmarshal(v, &d) != nil {
			return nil
		}
		return d.Description
	}
	b, t := desc(prev), desc(cur)
	ev := func(op, d, text string) []ChangeEvent {
		return []ChangeEvent{{EntityURN: urn, Category: "DOCUMENTATION", Operation: op,
			Parameters: map[string]any{"description": d}, SemVerChange: "MINOR", Description: text}}
	}
	switch {
	case b == nil && t != nil:
		return ev("ADD", *t, fmt.Sprintf("Documentation for '%s' has been added: '%s'.", urn, *t))
	case b != nil && t == nil:
		return ev("REMOVE", *b, fmt.Sprintf("Documentation for '%s' has been removed: '%s'.", urn, *b))
	case b != nil && t != nil && *b != *t:
		return ev("MODIFY", *t, fmt.Sprintf("Documentation of '%s' has been changed from '%s' to '%s'.", urn, *b, *t))
	}
	return nil
}

// diffDomain is the DOMAIN events of a domains change
// (SingleDomainChangeEventGenerator): a domain set is an ADD, unset a
// REMOVE, replaced both.
func diffDomain(urn string, prev, cur json.RawMessage) []ChangeEvent {
	first := func(v json.RawMessage) string {
		var d struct {
			Domains []string `json:"domains"`
		}
		if len(v) == 0 || json.Unmarshal(v, &d) != nil || len(d.Domains) == 0 {
			return ""
		}
		return d.Domains[0]
	}
	b, t := first(prev), first(cur)
	ev := func(op, domain, format string) ChangeEvent {
		return ChangeEvent{EntityURN: urn, Category: "DOMAIN", Operation: op, Modifier: domain,
			Parameters: map[string]any{"domainUrn": domain}, SemVerChange: "MINOR",
			Description: fmt.Sprintf(format, strings.TrimPrefix(domain, "urn:li:domain:"), urn)}
	}
	if b == t {
		return nil
	}
	var out []ChangeEvent
	if b != "" {
		out = append(out, ev("REMOVE", b, "Domain '%s' removed from entity '%s'."))
	}
	if t != "" {
		out = append(out, ev("ADD", t, "Domain '%s' added to entity '%s'."))
	}
	return out
}
