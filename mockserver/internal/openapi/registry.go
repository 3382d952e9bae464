package openapi

import (
	"bytes"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// The registry routes answer a subset of DataHub's DTOs: the names, key
// aspects, aspect annotations (name, timeseries) and relationship field
// specs the mock's registry holds; the search and render facts DataHub
// adds are left out.

// msgStartOffset is PaginatedResponse's refusal of a start past the end.
const msgStartOffset = "Start offset %d exceeds total %d"

// paginate reads start and count (default def) and returns the page's
// bounds over n items, as PaginatedResponse.fromMap does.
func paginate(q url.Values, n int, def int64) (from, to int, e *openAPIError) {
	start, e := intParam(q, "start", 0)
	if e != nil {
		return 0, 0, e
	}
	count, e := intParam(q, "count", def)
	if e != nil {
		return 0, 0, e
	}
	if n == 0 {
		return 0, 0, nil
	}
	if start < 0 {
		start = 0
	}
	if start > int64(n-1) {
		return 0, 0, v3Errorf(http.StatusBadRequest, msgStartOffset, start, n-1)
	}
	end := min(start+max(count, 0), int64(n))
	return int(start), int(end), nil
}

// appendAspectSpec appends an AspectSpecDto of aspect.
func appendAspectSpec(b *bytes.Buffer, aspect string) {
	info, _ := pdl.LookupAspect(aspect)
	b.WriteString(`{"aspectAnnotation":{"name":`)
	writeString(b, aspect)
	b.WriteString(`,"timeseries":`)
	b.WriteString(boolText(info.Timeseries))
	b.WriteString(`,"autoRender":false,"renderSpec":null,"schemaVersion":1},"relationshipFieldSpec":{`)
	for i, rel := range pdl.Relationships(aspect) {
		writeMember(b, i, rel.Path)
		b.WriteString(`{"path":`)
		writeString(b, rel.Path)
		b.WriteString(`,"relationshipName":`)
		writeString(b, rel.Name)
		b.WriteString(`,"validDestinationTypes":`)
		types := rel.EntityTypes
		if types == nil {
			types = []string{}
		}
		appendStrings(b, types)
		b.WriteString(`,"isLineage":`)
		b.WriteString(boolText(rel.IsLineage))
		b.WriteString(`,"isUpstream":`)
		b.WriteString(boolText(rel.IsUpstream))
		b.WriteByte('}')
	}
	b.WriteString(`}}`)
}

// appendStrings appends a JSON array of strings.
func appendStrings(b *bytes.Buffer, ss []string) {
	b.WriteByte('[')
	for i, s := range ss {
		if i > 0 {
			b.WriteByte(',')
		}
		writeString(b, s)
	}
	b.WriteByte(']')
}

// boolText is a boolean's JSON.
func boolText(v bool) string {
	if v {
		return "true"
	}
	return "false"
}

// entityAspects are an entity's aspects, the key aspect first.
func entityAspects(e pdl.Entity) []string { return append([]string{e.KeyAspect}, e.Aspects...) }

// appendEntitySpec appends an EntitySpecDto of e.
func appendEntitySpec(b *bytes.Buffer, e pdl.Entity) {
	b.WriteString(`{"name":`)
	writeString(b, e.Name)
	b.WriteString(`,"entityAnnotation":{"name":`)
	writeString(b, e.Name)
	b.WriteString(`,"keyAspect":`)
	writeString(b, e.KeyAspect)
	b.WriteString(`},"keyAspectName":`)
	writeString(b, e.KeyAspect)
	b.WriteString(`,"keyAspectSpec":`)
	appendAspectSpec(b, e.KeyAspect)
	b.WriteString(`,"aspectSpecs":[`)
	for i, a := range entityAspects(e) {
		if i > 0 {
			b.WriteByte(',')
		}
		appendAspectSpec(b, a)
	}
	b.WriteString(`],"aspectSpecMap":{`)
	for i, a := range entityAspects(e) {
		writeMember(b, i, a)
		appendAspectSpec(b, a)
	}
	b.WriteString(`}}`)
}

// sortedEntities are the registry's entities by name, as fromMap sorts
// its map's keys.
func sortedEntities() []pdl.Entity {
	es := pdl.Entities()
	slices.SortFunc(es, func(a, b pdl.Entity) int { return strings.Compare(a.Name, b.Name) })
	return es
}

// EntitySpecs serves GET /openapi/v1/registry/models/entity/specifications
// ?start=&count= (default 5): a PaginatedResponse of EntitySpecDto.
func (s *Handler) EntitySpecs(w http.ResponseWriter, r *http.Request, rt Request) {
	es := sortedEntities()
	from, to, e := paginate(r.URL.Query(), len(es), 5)
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	var b bytes.Buffer
	b.WriteString(`{"elements":[`)
	for i, ent := range es[from:to] {
		if i > 0 {
			b.WriteByte(',')
		}
		appendEntitySpec(&b, ent)
	}
	b.WriteString(`],"start":` + itoa(from) + `,"count":` + itoa(to-from) + `,"total":` + itoa(len(es)) + `}`)
	writeV3JSON(w, http.StatusOK, b.Bytes())
}

// EntitySpec serves GET
// /openapi/v1/registry/models/entity/specifications/{entityName}:
// {"name":…,"aspectSpecs":[…]}, 404 for an unknown entity.
func (s *Handler) EntitySpec(w http.ResponseWriter, r *http.Request, rt Request) {
	ent, ok := gms.ResolveEntity(rt.Vars["entityName"])
	if !ok {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	var b bytes.Buffer
	b.WriteString(`{"name":`)
	writeString(&b, ent.Name)
	b.WriteString(`,"aspectSpecs":[`)
	for i, a := range entityAspects(ent) {
		if i > 0 {
			b.WriteByte(',')
		}
		appendAspectSpec(&b, a)
	}
	b.WriteString(`]}`)
	writeV3JSON(w, http.StatusOK, b.Bytes())
}

// EntityAspectSpecs serves GET
// /openapi/v1/registry/models/entity/specifications/{entityName}/aspects:
// the entity's AspectSpecDto by aspect name.
func (s *Handler) EntityAspectSpecs(w http.ResponseWriter, r *http.Request, rt Request) {
	ent, ok := gms.ResolveEntity(rt.Vars["entityName"])
	if !ok {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, a := range entityAspects(ent) {
		writeMember(&b, i, a)
		appendAspectSpec(&b, a)
	}
	b.WriteByte('}')
	writeV3JSON(w, http.StatusOK, b.Bytes())
}

// allAspects are every aspect of the registry, by name.
func allAspects() []string {
	var out []string
	for _, e := range pdl.Entities() {
		out = append(out, entityAspects(e)...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// AspectSpecs serves GET /openapi/v1/registry/models/aspect/specifications
// ?start=&count= (default 20).
func (s *Handler) AspectSpecs(w http.ResponseWriter, r *http.Request, rt Request) {
	as := allAspects()
	from, to, e := paginate(r.URL.Query(), len(as), 20)
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	var b bytes.Buffer
	b.WriteString(`{"elements":[`)
	for i, a := range as[from:to] {
		if i > 0 {
			b.WriteByte(',')
		}
		appendAspectSpec(&b, a)
	}
	b.WriteString(`],"start":` + itoa(from) + `,"count":` + itoa(to-from) + `,"total":` + itoa(len(as)) + `}`)
	writeV3JSON(w, http.StatusOK, b.Bytes())
}

// AspectSpec serves GET
// /openapi/v1/registry/models/aspect/specifications/{aspectName}; 404 for
// an aspect the registry does not have.
func (s *Handler) AspectSpec(w http.ResponseWriter, r *http.Request, rt Request) {
	name := rt.Vars["aspectName"]
	if _, found := slices.BinarySearch(allAspects(), name); !found {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	var b bytes.Buffer
	appendAspectSpec(&b, name)
	writeV3JSON(w, http.StatusOK, b.Bytes())
}

// EventSpecs serves GET /openapi/v1/registry/models/event/specifications:
// DataHub's registry has one event, EntityChangeEvent.
func (s *Handler) EventSpecs(w http.ResponseWriter, r *http.Request, rt Request) {
	const body = `{"elements":[{"name":"entityChangeEvent","eventAnnotation":{"name":"entityChangeEvent"}}],"start":0,"count":1,"total":1}`
	writeV3JSON(w, http.StatusOK, []byte(body))
}

// appendEdges appends a JSON array of EdgeInfo.
func appendEdges(b *bytes.Buffer, es []gms.EdgeInfo) {
	b.WriteByte('[')
	for i, e := range es {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"type":`)
		writeString(b, e.Type)
		b.WriteString(`,"direction":`)
		writeString(b, e.Direction)
		b.WriteString(`,"opposingEntityType":`)
		writeString(b, e.OpposingEntityType)
		b.WriteByte('}')
	}
	b.WriteByte(']')
}

// appendLineageSpec appends a LineageSpec.
func appendLineageSpec(b *bytes.Buffer, sp gms.LineageSpec) {
	b.WriteString(`{"upstreamEdges":`)
	appendEdges(b, sp.Upstream)
	b.WriteString(`,"downstreamEdges":`)
	appendEdges(b, sp.Downstream)
	b.WriteByte('}')
}

// LineageSpecs serves GET /openapi/v1/registry/lineage/specifications: the
// lineage specs of the entity types that have lineage edges, by lower-case
// name.
func (s *Handler) LineageSpecs(w http.ResponseWriter, r *http.Request, rt Request) {
	specs := gms.LineageSpecs()
	names := make([]string, 0, len(specs))
	for n, sp := range specs {
		if len(sp.Upstream)+len(sp.Downstream) > 0 {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	var b bytes.Buffer
	b.WriteByte('{')
	for i, n := range names {
		writeMember(&b, i, n)
		appendLineageSpec(&b, specs[n])
	}
	b.WriteByte('}')
	writeV3JSON(w, http.StatusOK, b.Bytes())
}

// LineageSpec serves GET
// /openapi/v1/registry/lineage/specifications/{entityName}: the entity
// type's lineage spec (an empty body for an unknown type, as DataHub's
// null).
func (s *Handler) LineageSpec(w http.ResponseWriter, r *http.Request, rt Request) {
	sp, ok := gms.LineageSpecs()[strings.ToLower(rt.Vars["entityName"])]
	if !ok {
		w.WriteHeader(http.StatusOK)
		return
	}
	var b bytes.Buffer
	appendLineageSpec(&b, sp)
	writeV3JSON(w, http.StatusOK, b.Bytes())
}

// LineageEdges serves GET /openapi/v1/registry/lineage/edges/{entityName}
// (upstream then downstream edges, each once) and
// .../edges/{entityName}/{direction} (UPSTREAM or DOWNSTREAM).
func (s *Handler) LineageEdges(w http.ResponseWriter, r *http.Request, rt Request) {
	sp := gms.LineageSpecs()[strings.ToLower(rt.Vars["entityName"])]
	var edges []gms.EdgeInfo
	switch dir, has := rt.Vars["direction"]; {
	case !has:
		edges = append(append(edges, sp.Upstream...), sp.Downstream...)
		edges = slices.Compact(edges)
	case dir == "UPSTREAM":
		edges = sp.Upstream
	case dir == "DOWNSTREAM":
		edges = sp.Downstream
	default:
		writeOpenAPIError(w, &openAPIError{status: http.StatusBadRequest, plain: true,
			err: "Failed to convert value of type 'java.lang.String' to required type 'com.linkedin.metadata.graph.LineageDirection'; Invalid value '" + gms.Abbreviate(dir) + "' for parameter direction"}, "")
		return
	}
	var b bytes.Buffer
	appendEdges(&b, edges)
	writeV3JSON(w, http.StatusOK, b.Bytes())
}
