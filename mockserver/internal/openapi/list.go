package openapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// writeScroll answers a page as GenericEntityScrollResultV3: each entity's
// aspects named in names (all when names is empty; only the URN when
// urnOnly).
func (s *Handler) writeScroll(w http.ResponseWriter, r *http.Request, page gms.EntityPage, names []string, urnOnly, withSM bool) {
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
	b.WriteString(`,"facets":`)
	writeFacetsV3(&b, page.Facets)
	b.WriteString(`,"totalCount":`)
	total, _ := json.Marshal(page.Total)
	b.Write(total)
	b.WriteByte('}')
	writeV3JSON(w, http.StatusOK, b.Bytes())
}

// writeFacetsV3 writes facets as DataHub's v3 FacetMetadata list: each
// facet's field and its values' counts by value.
func writeFacetsV3(b *bytes.Buffer, facets []gms.Facet) {
	b.WriteByte('[')
	for i, f := range facets {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"field":`)
		writeString(b, f.Field)
		b.WriteString(`,"aggregations":{`)
		for j, v := range f.Values {
			if j > 0 {
				b.WriteByte(',')
			}
			writeString(b, v.Value)
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(v.Count))
		}
		b.WriteString(`}}`)
	}
	b.WriteByte(']')
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

// List serves GET /openapi/v3/entity/{entityName}: a page of the
// entity type's entities with all (or the named) aspects, selected by
// query and sorted by sortCriteria (or sort) and sortOrder.
func (s *Handler) List(w http.ResponseWriter, r *http.Request, rt Request) {
	ent, e := v3Entity(rt.Path.entity)
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
	lq.Types = []string{ent.Name}
	s.listAndWrite(w, r, lq.ListQuery, setParam(q, "aspectNames", "aspects"), false, lq.withSM)
}

// listAndWrite runs a list on the core and answers its page.
func (s *Handler) listAndWrite(w http.ResponseWriter, r *http.Request, q gms.ListQuery, names []string, urnOnly, withSM bool) {
	page, err := s.core.List(r.Context(), q)
	if err != nil {
		if errors.Is(err, gms.ErrListScrollID) {
			writeOpenAPIError(w, &openAPIError{status: http.StatusBadRequest, err: msgV3InvalidJSON, message: fmt.Sprintf(msgV3BadScrollID, gms.Abbreviate(q.ScrollID))}, "")
			return
		}
		if errors.Is(err, gms.ErrBadQuery) {
			writeOpenAPIError(w, &openAPIError{status: http.StatusBadRequest, err: err.Error()}, "")
			return
		}
		writeOpenAPIError(w, fromCoreV3(err), "")
		return
	}
	s.writeScroll(w, r, page, names, urnOnly, withSM)
}

// v3ListQuery is the query of a list or scroll.
type v3ListQuery struct {
	gms.ListQuery
	withSM bool // systemMetadata
}

// listQuery reads the query parameters of a list (sortCriteria, sort and
// sortOrder) or a scroll (the same, deprecated there, the body's
// sortCriteria winning), in the order DataHub checks them.
func listQuery(q url.Values, _ bool) (v3ListQuery, *openAPIError) {
	var lq v3ListQuery
	count, e := intParam(q, "count", 10)
	if e == nil {
		lq.withSM, e = boolParam(q, "systemMetadata", false)
	}
	if e == nil {
		lq.IncludeRemoved, e = boolParam(q, "includeSoftDelete", false)
	}
	desc := false
	if e == nil {
		switch o := q.Get("sortOrder"); o {
		case "", "ASCENDING":
		case "DESCENDING":
			desc = true
		default:
			e = v3Errorf(http.StatusBadRequest, "No enum constant com.linkedin.metadata.query.filter.SortOrder.%s", o)
		}
	}
	if e == nil {
		fields := setParam(q, "sortCriteria")
		if len(fields) == 0 {
			if f := strings.TrimSpace(q.Get("sort")); f != "" {
				fields = []string{f}
			} else {
				fields = []string{"urn"}
			}
		}
		for _, f := range fields {
			lq.Sort = append(lq.Sort, gms.SortCriterion{Field: f, Descending: desc})
		}
		lq.Text = q.Get("query")
		lq.ScrollID = q.Get("scrollId")
		if lq.ScrollID != "" {
			if err := gms.CheckScrollBase64(lq.ScrollID); err != nil {
				e = &openAPIError{status: http.StatusBadRequest, err: strings.TrimPrefix(err.Error(), gms.ErrScrollBase64.Error()+": ")}
			}
		}
	}
	// DataHub's search service limits the count as it does for GraphQL
	// (ConfigUtils.applyLimit).
	lq.Count = gms.ClampCount(int(min(max(count, -1), gms.MaxCount+1)))
	return lq, e
}

// scrollBody is the body of POST /openapi/v3/entity/scroll
// (GenericEntityAspectsBodyV3).
type scrollBody struct {
	Entities     []string        `json:"entities"`
	Aspects      *[]string       `json:"aspects"`
	Filter       *filterBody     `json:"filter"`
	SortCriteria []sortCriterion `json:"sortCriteria"`
}

// sortCriterion is one SortCriterion of a scroll body.
type sortCriterion struct {
	Field string `json:"field"`
	Order string `json:"order"`
}

// criterionBody is one Criterion of a filter.
type criterionBody struct {
	Field     string   `json:"field"`
	Condition string   `json:"condition"`
	Value     *string  `json:"value"`
	Values    []string `json:"values"`
	Negated   bool     `json:"negated"`
}

// filterBody is the Filter of DataHub's OpenAPI v3 models: "and", a list
// of clauses ({"criteria": [...]}) of which one must match (GMS turns it
// into the search Filter's "or"). The search Filter's own form, "or" of
// "and" clauses or the deprecated "criteria" (one clause), is accepted
// too.
type filterBody struct {
	And []struct {
		Criteria []criterionBody `json:"criteria"`
	} `json:"and"`
	Or []struct {
		And []criterionBody `json:"and"`
	} `json:"or"`
	Criteria []criterionBody `json:"criteria"`
}

// filter is the core's filter of a filter body.
func (f *filterBody) filter() gms.Filter {
	if f == nil {
		return nil
	}
	conv := func(cs []criterionBody) []gms.Criterion {
		out := make([]gms.Criterion, 0, len(cs))
		for _, c := range cs {
			vals := c.Values
			if len(vals) == 0 && c.Value != nil {
				vals = []string{*c.Value}
			}
			cond := c.Condition
			if cond == "" {
				cond = gms.CondEqual
			}
			out = append(out, gms.Criterion{Field: c.Field, Condition: cond, Values: vals, Negated: c.Negated})
		}
		return out
	}
	var out gms.Filter
	for _, c := range f.And {
		out = append(out, conv(c.Criteria))
	}
	for _, c := range f.Or {
		out = append(out, conv(c.And))
	}
	if len(out) == 0 && len(f.Criteria) > 0 {
		out = gms.Filter{conv(f.Criteria)}
	}
	return out
}

// Scroll serves POST /openapi/v3/entity/scroll: entities of the types
// named (all without), with the aspects named ("aspects" omitted: only
// URNs; empty: all), selected by query and the body's filter and sorted by
// the body's sortCriteria (else the sortCriteria, sort and sortOrder
// parameters).
func (s *Handler) Scroll(w http.ResponseWriter, r *http.Request, rt Request) {
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
	if sb.SortCriteria != nil {
		lq.Sort = lq.Sort[:0]
		for _, c := range sb.SortCriteria {
			switch c.Order {
			case "", "ASCENDING", "DESCENDING":
			default:
				writeOpenAPIError(w, &openAPIError{status: http.StatusBadRequest, err: msgV3Malformed}, "")
				return
			}
			lq.Sort = append(lq.Sort, gms.SortCriterion{Field: c.Field, Descending: c.Order == "DESCENDING"})
		}
	}
	lq.Filter = sb.Filter.filter()
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
		lq.Types = append(lq.Types, ent.Name) // ListEntities counts each type once
	}
	if len(lq.Types) == 0 {
		for _, ent := range pdl.Registry() {
			lq.Types = append(lq.Types, ent.Name)
		}
	}
	var names []string
	if sb.Aspects != nil {
		names = *sb.Aspects
	}
	lq.Facets = true
	s.listAndWrite(w, r, lq.ListQuery, names, sb.Aspects == nil, lq.withSM)
}
