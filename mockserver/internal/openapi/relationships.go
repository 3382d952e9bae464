package openapi

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

const (
	msgRelDirection     = "Direction must be INCOMING or OUTGOING"
	msgLineageDirection = "direction must be UPSTREAM or DOWNSTREAM, got: %s"
	msgRelScrollID      = "Invalid scroll id %s (datahub-mock)"
	msgRelMissingParam  = "Required request parameter '%s' for method parameter type %s is not present"
)

// edgeScrollID is the scroll id of the page after offset edges.
func edgeScrollID(offset int) string {
	return base64.RawURLEncoding.EncodeToString([]byte("edges:" + strconv.Itoa(offset)))
}

// edgeOffset reads an edge scroll id ("": 0).
func edgeOffset(id string) (int, *openAPIError) {
	if id == "" {
		return 0, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(id)
	if err == nil {
		if n, ok := strings.CutPrefix(string(b), "edges:"); ok {
			if v, err := strconv.Atoi(n); err == nil && v >= 0 {
				return v, nil
			}
		}
	}
	return 0, v3Errorf(http.StatusBadRequest, msgRelScrollID, id)
}

// edgePage reads count and scrollId and returns the page of edges and the
// next page's scroll id ("" on the last).
func edgePage(q url.Values, edges []gms.Edge) ([]gms.Edge, string, *openAPIError) {
	count, e := intParam(q, "count", 10)
	if e != nil {
		return nil, "", e
	}
	from, e := edgeOffset(q.Get("scrollId"))
	if e != nil {
		return nil, "", e
	}
	n := gms.ClampCount(int(min(max(count, -1), gms.MaxCount+1)))
	from = min(from, len(edges))
	to := min(from+n, len(edges))
	next := ""
	if to < len(edges) {
		next = edgeScrollID(to)
	}
	return edges[from:to], next, nil
}

// appendNode appends a GenericNode.
func appendNode(b *bytes.Buffer, u string) {
	b.WriteString(`{"entityType":`)
	writeString(b, gms.EntityTypeOf(u))
	b.WriteString(`,"urn":`)
	writeString(b, u)
	b.WriteByte('}')
}

// appendRelationship appends a GenericRelationship (with upstream and
// downstream when lineage: a LineageRelationship), without its closing
// brace.
func appendRelationship(b *bytes.Buffer, e gms.Edge) {
	b.WriteString(`{"relationshipType":`)
	writeString(b, e.Type)
	b.WriteString(`,"destination":`)
	appendNode(b, e.Destination)
	b.WriteString(`,"source":`)
	appendNode(b, e.Source)
}

// writeEdgeScroll answers a GenericScrollResult of relationships.
func writeEdgeScroll(w http.ResponseWriter, page []gms.Edge, next string, lineage bool) {
	var b bytes.Buffer
	b.WriteByte('{')
	if next != "" {
		b.WriteString(`"scrollId":`)
		writeString(&b, next)
		b.WriteByte(',')
	}
	b.WriteString(`"results":[`)
	for i, e := range page {
		if i > 0 {
			b.WriteByte(',')
		}
		appendRelationship(&b, e)
		if lineage {
			up, down := e.Destination, e.Source
			if !lineageUpstream()[e.Type] {
				up, down = e.Source, e.Destination
			}
			b.WriteString(`,"upstream":`)
			writeString(&b, up)
			b.WriteString(`,"downstream":`)
			writeString(&b, down)
		}
		b.WriteByte('}')
	}
	b.WriteString(`]}`)
	writeV3JSON(w, http.StatusOK, b.Bytes())
}

// lineageUpstream are the lineage relationships by name, true when their
// destination is upstream of their source (isUpstream).
var lineageUpstream = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, le := range pdl.LineageEdges() {
		m[le.Name] = le.IsUpstream
	}
	return m
})

// RelationshipsByType serves GET /openapi/v{2,3}/relationship/{relationshipType}:
// every edge of the type, a page at a time.
func (s *Handler) RelationshipsByType(w http.ResponseWriter, r *http.Request, rt Request) {
	q := r.URL.Query()
	removed, e := boolParam(q, "includeSoftDelete", false)
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	edges, err := s.core.Edges(r.Context(), gms.EdgeQuery{Types: []string{rt.Vars["relationshipType"]}, IncludeRemoved: removed})
	if err != nil {
		writeOpenAPIError(w, fromCoreV3(err), "")
		return
	}
	page, next, e := edgePage(q, edges)
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	writeEdgeScroll(w, page, next, false)
}

// relTypes reads relationship types of a parameter ("*" or none: any).
func relTypes(q url.Values, names ...string) []string {
	ts := setParam(q, names...)
	if len(ts) == 0 || ts[0] == "*" {
		return nil
	}
	return ts
}

// RelationshipsOf serves GET /openapi/v{2,3}/relationship/{entityName}/{urn}
// ?relationshipType[]=…&direction=OUTGOING|INCOMING: the edges from (or to)
// the entity.
func (s *Handler) RelationshipsOf(w http.ResponseWriter, r *http.Request, rt Request) {
	q := r.URL.Query()
	removed, e := boolParam(q, "includeSoftDelete", false)
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	eq := gms.EdgeQuery{Types: relTypes(q, "relationshipType[]", "relationshipType"), IncludeRemoved: removed}
	switch d := strings.ToUpper(q.Get("direction")); d {
	case "", "OUTGOING":
		eq.Source = rt.Vars["urn"]
	case "INCOMING":
		eq.Destination = rt.Vars["urn"]
	default:
		writeOpenAPIError(w, v3Errorf(http.StatusBadRequest, msgRelDirection), "")
		return
	}
	edges, err := s.core.Edges(r.Context(), eq)
	if err != nil {
		writeOpenAPIError(w, fromCoreV3(err), "")
		return
	}
	page, next, e := edgePage(q, edges)
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	writeEdgeScroll(w, page, next, false)
}

// relFilter is a Filter of ScrollRelationshipsRequestBody: the mock reads
// its criteria on "urn" (EQUAL, one value) only.
type relFilter struct {
	Or []struct {
		And []struct {
			Field  string   `json:"field"`
			Value  string   `json:"value"`
			Values []string `json:"values"`
		} `json:"and"`
	} `json:"or"`
}

// urnOf returns the URN an urn criterion of f names, "" for none.
func (f *relFilter) urnOf() string {
	if f == nil {
		return ""
	}
	for _, c := range f.Or {
		for _, a := range c.And {
			if a.Field == "urn" {
				if a.Value != "" {
					return a.Value
				}
				if len(a.Values) > 0 {
					return a.Values[0]
				}
			}
		}
	}
	return ""
}

// RelationshipScroll serves POST /openapi/v{2,3}/relationship/scroll
// ?relationshipTypes=…: edges whose source and destination match the
// body's sourceFilter and destinationFilter (their urn criteria).
func (s *Handler) RelationshipScroll(w http.ResponseWriter, r *http.Request, rt Request) {
	q := r.URL.Query()
	removed, e := boolParam(q, "includeSoftDelete", false)
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	body, ok := readV3TypedBody(w, r)
	if !ok {
		return
	}
	var req struct {
		Source      *relFilter `json:"sourceFilter"`
		Destination *relFilter `json:"destinationFilter"`
	}
	if len(bytes.TrimSpace(body)) > 0 {
		if err := json.Unmarshal(body, &req); err != nil {
			writeOpenAPIError(w, &openAPIError{status: http.StatusBadRequest, err: msgV3Malformed}, "")
			return
		}
	}
	edges, err := s.core.Edges(r.Context(), gms.EdgeQuery{Types: relTypes(q, "relationshipTypes", "relationshipType[]"),
		Source: req.Source.urnOf(), Destination: req.Destination.urnOf(), IncludeRemoved: removed})
	if err != nil {
		writeOpenAPIError(w, fromCoreV3(err), "")
		return
	}
	page, next, e := edgePage(q, edges)
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	writeEdgeScroll(w, page, next, false)
}

// LineageScroll serves POST /openapi/v3/lineage/scroll?direction=&relationshipTypes=:
// the lineage edges touching any of the body's urns (either end), only
// those where the URN is downstream (UPSTREAM) or upstream (DOWNSTREAM)
// when direction is given; with no urns, every lineage edge.
func (s *Handler) LineageScroll(w http.ResponseWriter, r *http.Request, rt Request) {
	q := r.URL.Query()
	removed, e := boolParam(q, "includeSoftDelete", false)
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	dir := strings.ToUpper(q.Get("direction"))
	if dir != "" && dir != "UPSTREAM" && dir != "DOWNSTREAM" {
		writeOpenAPIError(w, v3Errorf(http.StatusBadRequest, msgLineageDirection, q.Get("direction")), "")
		return
	}
	body, ok := readV3TypedBody(w, r)
	if !ok {
		return
	}
	var req struct {
		URNs []string `json:"urns"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		writeOpenAPIError(w, &openAPIError{status: http.StatusBadRequest, err: msgV3Malformed}, "")
		return
	}
	types := relTypes(q, "relationshipTypes")
	if types == nil {
		for name := range lineageUpstream() {
			types = append(types, name)
		}
	}
	all, err := s.core.Edges(r.Context(), gms.EdgeQuery{Types: types, IncludeRemoved: removed})
	if err != nil {
		writeOpenAPIError(w, fromCoreV3(err), "")
		return
	}
	want := map[string]bool{}
	for _, u := range req.URNs {
		want[u] = true
	}
	var edges []gms.Edge
	for _, e := range all {
		up, down := e.Destination, e.Source
		if !lineageUpstream()[e.Type] {
			up, down = e.Source, e.Destination
		}
		switch {
		case len(want) == 0:
		case dir == "UPSTREAM" && !want[down], dir == "DOWNSTREAM" && !want[up]:
			continue
		case dir == "" && !want[up] && !want[down]:
			continue
		}
		edges = append(edges, e)
	}
	page, next, pe := edgePage(q, edges)
	if pe != nil {
		writeOpenAPIError(w, pe, "")
		return
	}
	writeEdgeScroll(w, page, next, true)
}

// V1Relationships serves GET /openapi/relationships/v1/?urn=…
// &relationshipTypes=…&direction=INCOMING|OUTGOING&start=&count= (200):
// RelatedEntitiesResult, the entities at the other end of the edges.
func (s *Handler) V1Relationships(w http.ResponseWriter, r *http.Request, rt Request) {
	q := r.URL.Query()
	for _, p := range []struct{ name, typ string }{{"urn", "String"}, {"relationshipTypes", "String[]"}, {"direction", "RelationshipDirection"}} {
		if !q.Has(p.name) {
			writeOpenAPIError(w, &openAPIError{status: http.StatusBadRequest, err: fmt.Sprintf(msgRelMissingParam, p.name, p.typ)}, "")
			return
		}
	}
	start, e := intParam(q, "start", 0)
	var count int64
	if e == nil {
		count, e = intParam(q, "count", 200)
	}
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	u := q.Get("urn")
	eq := gms.EdgeQuery{Types: setParam(q, "relationshipTypes")}
	dir := q.Get("direction")
	switch dir {
	case "OUTGOING":
		eq.Source = u
	case "INCOMING":
		eq.Destination = u
	default:
		writeOpenAPIError(w, &openAPIError{status: http.StatusBadRequest, plain: true,
			err: "Failed to convert value of type 'java.lang.String' to required type 'io.datahubproject.openapi.v1.relationships.RelationshipsController$RelationshipDirection'; Invalid value '" + gms.Abbreviate(dir) + "' for parameter direction"}, "")
		return
	}
	edges, err := s.core.Edges(r.Context(), eq)
	if err != nil {
		writeOpenAPIError(w, fromCoreV3(err), "")
		return
	}
	from := min(max(int(start), 0), len(edges))
	to := min(from+max(int(count), 0), len(edges))
	var b bytes.Buffer
	b.WriteString(`{"start":` + itoa(from) + `,"count":` + itoa(to-from) + `,"total":` + itoa(len(edges)) + `,"entities":[`)
	for i, e := range edges[from:to] {
		if i > 0 {
			b.WriteByte(',')
		}
		other := e.Destination
		if dir == "INCOMING" {
			other = e.Source
		}
		b.WriteString(`{"relationshipType":`)
		writeString(&b, e.Type)
		b.WriteString(`,"urn":`)
		writeString(&b, other)
		b.WriteByte('}')
	}
	b.WriteString(`]}`)
	writeV3JSON(w, http.StatusOK, b.Bytes())
}
