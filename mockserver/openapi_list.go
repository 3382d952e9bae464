package mockserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// decodeScrollID reads a scroll id of a list. Any other id fails as
// DataHub's decoding of it does: one that is not Base64 with Java's message
// (400), one that is but does not map to a cursor as Jackson's failure,
// which GMS's error handler answers "Invalid JSON format" (400).
func decodeScrollID(id string) (string, *openAPIError) {
	after, err := gms.ListCursor(id)
	switch {
	case err == nil:
		return after, nil
	case errors.Is(err, gms.ErrScrollBase64):
		return "", &openAPIError{status: http.StatusBadRequest, err: strings.TrimPrefix(err.Error(), gms.ErrScrollBase64.Error()+": ")}
	}
	return "", &openAPIError{status: http.StatusBadRequest, err: msgV3InvalidJSON, message: fmt.Sprintf(msgV3BadScrollID, abbreviate(id))}
}

// writeScroll answers a page as GenericEntityScrollResultV3: each entity's
// aspects named in names (all when names is empty; only the URN when
// urnOnly).
func (s *Server) writeScroll(w http.ResponseWriter, r *http.Request, page gms.EntityPage, names []string, urnOnly, withSM bool) {
	objs := make([]v3Object, 0, len(page.URNs))
	projections := map[string][]string{} // per entity type: names resolved, each once
	for _, u := range page.URNs {
		if urnOnly {
			objs = append(objs, v3Object{urn: u})
			continue
		}
		ent, ok := gms.ResolveEntity(gms.EntityTypeOf(u))
		if !ok {
			continue
		}
		projection, ok := projections[ent.Name]
		if !ok {
			projection = aspectProjection(ent, names)
			projections[ent.Name] = projection
		}
		if len(names) > 0 && len(projection) == 0 {
			continue // none of the aspects asked for is the entity's: dropped
		}
		obj, ok, err := s.readEntity(r, ent, u, projection, withSM)
		if err != nil {
			writeOpenAPIError(w, fromCoreV3(err), "")
			return
		}
		if ok { // entities without the aspects asked for are dropped, as DataHub does
			objs = append(objs, obj)
		}
	}
	var b bytes.Buffer
	b.WriteByte('{')
	if page.ScrollID != "" {
		b.WriteString(`"scrollId":`)
		writeString(&b, page.ScrollID)
		b.WriteByte(',')
	}
	b.WriteString(`"entities":`)
	b.Write(encodeList(objs))
	b.WriteString(`,"facets":[],"totalCount":`)
	total, _ := json.Marshal(page.Total)
	b.Write(total)
	b.WriteByte('}')
	writeV3JSON(w, http.StatusOK, b.Bytes())
}

// aspectProjection is the aspects of e that names name (in any case), each
// once, in the order first named; nil when names is empty.
func aspectProjection(e pdl.Entity, names []string) []string {
	if len(names) == 0 {
		return nil
	}
	out := []string{}
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		if seen[n] {
			continue
		}
		seen[n] = true
		if a, ok := gms.ResolveAspect(e, n); ok && !slices.Contains(out, a) { // out holds at most e's aspects
			out = append(out, a)
		}
	}
	return out
}

// handleV3List serves GET /openapi/v3/entity/{entityName}: a page of the
// entity type's entities with all (or the named) aspects. Only the query
// "*" is served.
func (s *Server) handleV3List(w http.ResponseWriter, r *http.Request, rt routed) {
	ent, e := v3Entity(rt.v3.entity)
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	q := r.URL.Query()
	lq, e := listQuery(q, true)
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	page, err := s.core.ListEntities(r.Context(), []string{ent.Name}, lq.after, lq.count, lq.removed)
	if err != nil {
		writeOpenAPIError(w, fromCoreV3(err), "")
		return
	}
	s.writeScroll(w, r, page, setParam(q, "aspectNames", "aspects"), false, lq.withSM)
}

// v3ListQuery is the query of a list or scroll.
type v3ListQuery struct {
	count           int    // count, limited as a search's
	withSM, removed bool   // systemMetadata, includeSoftDelete
	after           string // the decoded scrollId
}

// listQuery reads the query parameters of a list (with its sortOrder) or
// a scroll, in the order DataHub checks them.
func listQuery(q url.Values, sortOrder bool) (v3ListQuery, *openAPIError) {
	var lq v3ListQuery
	count, e := intParam(q, "count", 10)
	if e == nil {
		lq.withSM, e = boolParam(q, "systemMetadata", false)
	}
	if e == nil {
		lq.removed, e = boolParam(q, "includeSoftDelete", false)
	}
	if e == nil && sortOrder {
		if o := q.Get("sortOrder"); o != "" && o != "ASCENDING" && o != "DESCENDING" {
			e = v3Errorf(http.StatusBadRequest, "No enum constant com.linkedin.metadata.query.filter.SortOrder.%s", o)
		}
	}
	if e == nil && q.Has("query") && q.Get("query") != "*" {
		e = &openAPIError{status: http.StatusNotImplemented, err: msgV3Query}
	}
	if e == nil {
		lq.after, e = decodeScrollID(q.Get("scrollId"))
	}
	// DataHub's search service limits the count as it does for GraphQL
	// (ConfigUtils.applyLimit).
	lq.count = gms.ClampCount(int(min(max(count, -1), gms.MaxCount+1)))
	return lq, e
}

// scrollBody is the body of POST /openapi/v3/entity/scroll.
type scrollBody struct {
	Entities     []string        `json:"entities"`
	Aspects      *[]string       `json:"aspects"`
	Filter       json.RawMessage `json:"filter"`
	SortCriteria json.RawMessage `json:"sortCriteria"`
}

// handleV3Scroll serves POST /openapi/v3/entity/scroll: entities of the
// types named (all without), with the aspects named ("aspects" omitted:
// only URNs; empty: all). Filters and sort criteria are not served.
func (s *Server) handleV3Scroll(w http.ResponseWriter, r *http.Request, rt routed) {
	lq, e := listQuery(r.URL.Query(), false)
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	body, ok := readV3TypedBody(w, r)
	if !ok {
		return
	}
	var sb scrollBody
	if len(bytes.TrimSpace(body)) > 0 {
		if err := json.Unmarshal(body, &sb); err != nil {
			writeOpenAPIError(w, &openAPIError{status: http.StatusBadRequest, err: msgV3Malformed}, "")
			return
		}
	}
	if (len(sb.Filter) > 0 && !isNull(sb.Filter)) || (len(sb.SortCriteria) > 0 && !isNull(sb.SortCriteria)) {
		writeOpenAPIError(w, &openAPIError{status: http.StatusNotImplemented, err: msgV3ScrollFilter}, "")
		return
	}
	var types []string
	named := make(map[string]bool, len(sb.Entities))
	for _, n := range sb.Entities {
		if named[n] {
			continue
		}
		named[n] = true
		ent, e := v3Entity(n)
		if e != nil {
			writeOpenAPIError(w, e, "")
			return
		}
		types = append(types, ent.Name) // ListEntities counts each type once
	}
	if len(types) == 0 {
		for _, ent := range pdl.Entities() {
			types = append(types, ent.Name)
		}
	}
	page, err := s.core.ListEntities(r.Context(), types, lq.after, lq.count, lq.removed)
	if err != nil {
		writeOpenAPIError(w, fromCoreV3(err), "")
		return
	}
	var names []string
	if sb.Aspects != nil {
		names = *sb.Aspects
	}
	s.writeScroll(w, r, page, names, sb.Aspects == nil, lq.withSM)
}
