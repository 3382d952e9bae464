package openapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/wire"
)

// platformMCP is one MetadataChangeProposal of POST
// /openapi/v2/platform/entities/v1/.
type platformMCP struct {
	EntityType     string          `json:"entityType"`
	EntityURN      string          `json:"entityUrn"`
	ChangeType     string          `json:"changeType"`
	AspectName     string          `json:"aspectName"`
	SystemMetadata json.RawMessage `json:"systemMetadata"`
	Aspect         *struct {
		Value       json.RawMessage `json:"value"`
		ContentType string          `json:"contentType"`
	} `json:"aspect"`
}

// withoutType returns a JSON object without its top-level "__type" member.
func withoutType(raw json.RawMessage) (json.RawMessage, bool) {
	m, err := wire.UnmarshalObject(raw)
	if err != nil || m == nil {
		return nil, false
	}
	if _, has := m.Get("__type"); !has {
		return raw, true
	}
	var b bytes.Buffer
	b.WriteByte('{')
	i := 0
	for _, mb := range m {
		if mb.Key != "__type" {
			writeMember(&b, i, mb.Key)
			b.Write(mb.Value)
			i++
		}
	}
	b.WriteByte('}')
	return b.Bytes(), true
}

// PlatformEntities serves POST /openapi/v2/platform/entities/v1/: a list
// of MetadataChangeProposals, each ingested on its own (async when
// async=true). It answers 201 with the URNs of the proposals written, or
// 200 [] when none was written synchronously.
func (s *Handler) PlatformEntities(w http.ResponseWriter, r *http.Request, rt Request) {
	async, e := boolParam(r.URL.Query(), "async", false)
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	body, ok := readV3TypedBody(w, r)
	if !ok {
		return
	}
	var mcps []platformMCP
	if err := json.Unmarshal(body, &mcps); err != nil {
		writeOpenAPIError(w, &openAPIError{status: http.StatusBadRequest, err: msgV3Malformed}, "")
		return
	}
	var urns []string
	for _, m := range mcps {
		p := gms.Proposal{EntityType: m.EntityType, EntityURN: m.EntityURN, ChangeType: strings.ToUpper(m.ChangeType),
			AspectName: m.AspectName, SystemMetadata: m.SystemMetadata, ContentType: "application/json"}
		if p.ChangeType == "" {
			p.ChangeType = "UPSERT"
		}
		if m.Aspect != nil && !wire.IsNull(m.Aspect.Value) {
			v, ok := withoutType(m.Aspect.Value)
			if !ok {
				writeOpenAPIError(w, v3Errorf(http.StatusBadRequest, msgV3NotObject, m.AspectName), "")
				return
			}
			p.Aspect = v
			if m.Aspect.ContentType != "" {
				p.ContentType = m.Aspect.ContentType
			}
		}
		if _, e := s.ingestV3(r, []gms.Proposal{p}, false, v3Write{async: async, traceID: rt.TraceID}); e != nil {
			writeOpenAPIError(w, e, "")
			return
		}
		if !async && !slices.Contains(urns, m.EntityURN) {
			urns = append(urns, m.EntityURN)
		}
	}
	if len(urns) == 0 {
		writeV3JSON(w, http.StatusOK, []byte("[]"))
		return
	}
	out, _ := wire.MarshalJSON(urns)
	writeV3JSON(w, http.StatusCreated, out)
}

// EntityCounts serves GET /openapi/v1/entities/counts?types=…&includeTotal=:
// active and soft-deleted entities per entity type (every registry type
// when types is omitted), from the search index.
func (s *Handler) EntityCounts(w http.ResponseWriter, r *http.Request, rt Request) {
	q := r.URL.Query()
	withTotal, e := boolParam(q, "includeTotal", false)
	if e == nil {
		_, e = boolParam(q, "skipCache", false)
	}
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	requested := setParam(q, "types")
	var ents []pdl.Entity
	if len(requested) == 0 {
		ents = pdl.Registry()
	} else {
		for _, t := range requested {
			ent, e := v3Entity(t)
			if e != nil {
				writeOpenAPIError(w, e, "")
				return
			}
			ents = append(ents, ent)
		}
	}
	var b bytes.Buffer
	b.WriteString(`{"counts":[`)
	var active, removed int
	for i, ent := range ents {
		a, rm, err := s.countType(r, ent.Name)
		if err != nil {
			writeOpenAPIError(w, fromCoreV3(err), "")
			return
		}
		active, removed = active+a, removed+rm
		if i > 0 {
			b.WriteByte(',')
		}
		appendTypeCount(&b, ent, a, rm, withTotal)
		b.WriteByte('}')
	}
	b.WriteString(`]`)
	if withTotal {
		b.WriteString(`,"activeTotal":` + itoa(active) + `,"softDeletedTotal":` + itoa(removed) + `,"totalCount":` + itoa(active+removed))
	} else {
		b.WriteString(`,"activeTotal":null,"softDeletedTotal":null,"totalCount":null`)
	}
	req, _ := wire.MarshalJSON(requested)
	if len(requested) == 0 {
		req = []byte("null")
	}
	b.WriteString(`,"requestedTypes":`)
	b.Write(req)
	b.WriteString(`,"computedAtMillis":` + itoa64(s.clock().UnixMilli()) + `,"cacheHit":false}`)
	writeV3JSON(w, http.StatusOK, b.Bytes())
}

// EntityTypeCount serves GET /openapi/v1/entities/{entityType}/count.
func (s *Handler) EntityTypeCount(w http.ResponseWriter, r *http.Request, rt Request) {
	q := r.URL.Query()
	withTotal, e := boolParam(q, "includeTotal", false)
	if e == nil {
		_, e = boolParam(q, "skipCache", false)
	}
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	ent, e := v3Entity(strings.ToLower(rt.Vars["entityType"]))
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	a, rm, err := s.countType(r, ent.Name)
	if err != nil {
		writeOpenAPIError(w, fromCoreV3(err), "")
		return
	}
	var b bytes.Buffer
	appendTypeCount(&b, ent, a, rm, withTotal)
	b.WriteString(`,"computedAtMillis":` + itoa64(s.clock().UnixMilli()) + `,"cacheHit":false}`)
	writeV3JSON(w, http.StatusOK, b.Bytes())
}

// appendTypeCount appends an EntityTypeCountDto's members, without the
// closing brace.
func appendTypeCount(b *bytes.Buffer, ent pdl.Entity, active, removed int, withTotal bool) {
	b.WriteString(`{"entityType":`)
	writeString(b, ent.Name)
	b.WriteString(`,"keyAspect":`)
	writeString(b, ent.KeyAspect)
	b.WriteString(`,"activeCount":` + itoa(active) + `,"softDeletedCount":` + itoa(removed) + `,"totalCount":`)
	if withTotal {
		b.WriteString(itoa(active + removed))
	} else {
		b.WriteString("null")
	}
}

// countType counts the active and the soft-deleted entities of a type.
func (s *Handler) countType(r *http.Request, entityType string) (active, removed int, err error) {
	all, err := s.core.ListEntities(r.Context(), []string{entityType}, "", 0, true)
	if err != nil {
		return 0, 0, err
	}
	live, err := s.core.ListEntities(r.Context(), []string{entityType}, "", 0, false)
	if err != nil {
		return 0, 0, err
	}
	return live.Total, all.Total - live.Total, nil
}
