package openapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/wire"
)

// DataHub's v1 entities API (/openapi/entities/v1, EntitiesController)
// names an aspect by its record's simple name in a "__type" member of its
// value ({"__type":"Status","removed":false}), as its generated OpenAPI
// classes do; the mock reads and writes that member at the top of the
// value only (nested union members are passed on as they are).

const (
	msgV1NoType      = "Aspect value must name its record in `__type` (datahub-mock)"
	msgV1UnknownType = "Unknown aspect type %s"
	msgV1NoURN       = "`entityUrn` is required (datahub-mock: entityKeyAspect is not read)"
	msgV1SoftDelete  = "Entity type is not valid for soft deletes: %s"
)

// aspectsByRecord are the aspects by their record's simple name.
var aspectsByRecord = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, e := range pdl.Entities() {
		for _, a := range append([]string{e.KeyAspect}, e.Aspects...) {
			if info, ok := pdl.LookupAspect(a); ok {
				m[simpleName(info.RecordName)] = a
			}
		}
	}
	return m
})

// simpleName is the last dotted part of a record name.
func simpleName(record string) string { return record[strings.LastIndexByte(record, '.')+1:] }

// urnsParam reads the urns parameter of a v1 route: each value (not split
// at commas, which URNs hold) URL-decoded once more, as DataHub does for
// its front end's routing.
func urnsParam(q url.Values) []string {
	var out []string
	seen := map[string]bool{}
	for _, v := range q["urns"] {
		if v = strings.TrimSpace(v); v == "" {
			continue
		}
		if d, err := url.QueryUnescape(v); err == nil {
			v = d
		}
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// V1Latest serves GET /openapi/entities/v1/latest?urns=…&aspectNames=…:
// {"responses":{urn:{"entityName":…,"urn":…,"aspects":{name:EnvelopedAspect}}}}
// for the URNs that have aspects.
func (s *Handler) V1Latest(w http.ResponseWriter, r *http.Request, rt Request) {
	q := r.URL.Query()
	urns := urnsParam(q)
	names := setParam(q, "aspectNames")
	var b bytes.Buffer
	b.WriteString(`{"responses":{`)
	n := 0
	for _, u := range urns {
		t, e := v3URN(u)
		if e != nil {
			writeOpenAPIError(w, e, "")
			return
		}
		projection := aspectProjection(t.Entity, names)
		if len(names) > 0 && len(projection) == 0 {
			continue
		}
		ent, err := s.core.GetEntity(r.Context(), u, projection, false)
		if err != nil && gms.AsError(err).Kind != gms.NotFound {
			writeOpenAPIError(w, fromCoreV3(err), "")
			return
		}
		if len(ent.Aspects) == 0 {
			continue
		}
		writeMember(&b, n, u)
		n++
		b.WriteString(`{"entityName":`)
		writeString(&b, t.Entity.Name)
		b.WriteString(`,"urn":`)
		writeString(&b, u)
		b.WriteString(`,"aspects":{`)
		for i, a := range ent.Aspects {
			writeMember(&b, i, a.Name)
			b.WriteString(`{"name":`)
			writeString(&b, a.Name)
			b.WriteString(`,"type":"VERSIONED","version":0,"value":`)
			b.Write(withType(a.Name, a.Value))
			st := wire.AuditStamp{Actor: a.CreatedBy}
			if !a.CreatedOn.IsZero() {
				st.Time = a.CreatedOn.UnixMilli()
			}
			stamp, _ := wire.MarshalJSON(st)
			b.WriteString(`,"created":`)
			b.Write(stamp)
			if a.SystemMetadata != nil {
				b.WriteString(`,"systemMetadata":`)
				b.Write(a.SystemMetadata)
			}
			b.WriteByte('}')
		}
		b.WriteString("}}")
	}
	b.WriteString("}}")
	writeV3JSON(w, http.StatusOK, b.Bytes())
}

// withType returns an aspect's value with "__type" first: its record's
// simple name.
func withType(aspect string, value json.RawMessage) json.RawMessage {
	info, ok := pdl.LookupAspect(aspect)
	if !ok {
		return value
	}
	var b bytes.Buffer
	b.WriteString(`{"__type":`)
	writeString(&b, simpleName(info.RecordName))
	if t := bytes.TrimSpace(value); len(t) > 2 {
		b.WriteByte(',')
		b.Write(t[1:])
	} else {
		b.WriteByte('}')
	}
	return b.Bytes()
}

// v1Upsert is one UpsertAspectRequest.
type v1Upsert struct {
	EntityType string          `json:"entityType"`
	EntityURN  string          `json:"entityUrn"`
	Aspect     json.RawMessage `json:"aspect"`
}

// V1Post serves POST /openapi/entities/v1/: a list of UpsertAspectRequest,
// each turned into a proposal (UPSERT; CREATE with createIfNotExists,
// CREATE_ENTITY with createEntityIfNotExists). It answers 201 with the URNs
// written, or 200 [] when the write was async (async=true).
func (s *Handler) V1Post(w http.ResponseWriter, r *http.Request, rt Request) {
	q := r.URL.Query()
	async, e := boolParam(q, "async", false)
	var createIf, createEntity bool
	if e == nil {
		createIf, e = boolParam(q, "createIfNotExists", false)
	}
	if e == nil {
		createEntity, e = boolParam(q, "createEntityIfNotExists", false)
	}
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	body, ok := readV3TypedBody(w, r)
	if !ok {
		return
	}
	var reqs []v1Upsert
	if err := json.Unmarshal(body, &reqs); err != nil {
		writeOpenAPIError(w, &openAPIError{status: http.StatusBadRequest, err: msgV3Malformed}, "")
		return
	}
	change := "UPSERT"
	switch {
	case createEntity:
		change = "CREATE_ENTITY"
	case createIf:
		change = "CREATE"
	}
	ps := make([]gms.Proposal, 0, len(reqs))
	var urns []string
	for _, req := range reqs {
		if req.EntityURN == "" {
			writeOpenAPIError(w, &openAPIError{status: http.StatusBadRequest, err: msgV1NoURN}, "")
			return
		}
		t, e := v3URN(req.EntityURN)
		if e != nil {
			writeOpenAPIError(w, e, "")
			return
		}
		m, err := wire.UnmarshalObject(req.Aspect)
		if err != nil || m == nil {
			writeOpenAPIError(w, &openAPIError{status: http.StatusBadRequest, err: msgV3Malformed}, "")
			return
		}
		var typ string
		raw, has := m.Get("__type")
		if !has || json.Unmarshal(raw, &typ) != nil {
			writeOpenAPIError(w, &openAPIError{status: http.StatusBadRequest, err: msgV1NoType}, "")
			return
		}
		name, ok := aspectsByRecord()[typ]
		if !ok || !t.Entity.Allows(name) {
			writeOpenAPIError(w, v3Errorf(http.StatusBadRequest, msgV1UnknownType, typ), "")
			return
		}
		value, _ := withoutType(req.Aspect)
		ps = append(ps, gms.Proposal{EntityType: t.Entity.Name, EntityURN: req.EntityURN, ChangeType: change,
			AspectName: name, Aspect: value, ContentType: "application/json"})
		if !slices.Contains(urns, req.EntityURN) {
			urns = append(urns, req.EntityURN)
		}
	}
	if len(ps) > 0 {
		if _, e := s.ingestV3(r, ps, true, v3Write{async: async, traceID: rt.TraceID}); e != nil {
			writeOpenAPIError(w, e, "")
			return
		}
	}
	if async || len(ps) == 0 {
		writeV3JSON(w, http.StatusOK, []byte("[]"))
		return
	}
	out, _ := wire.MarshalJSON(urns)
	writeV3JSON(w, http.StatusCreated, out)
}

// V1Delete serves DELETE /openapi/entities/v1/?urns=…&soft=: a soft delete
// (the default) writes status {removed: true} to each URN and answers [];
// a hard delete deletes each entity and answers one RollbackRunResultDto
// per URN.
func (s *Handler) V1Delete(w http.ResponseWriter, r *http.Request, rt Request) {
	q := r.URL.Query()
	soft, e := boolParam(q, "soft", true)
	if e == nil {
		_, e = boolParam(q, "async", false)
	}
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	urns := urnsParam(q)
	var targets []gms.Target
	for _, u := range urns {
		t, e := v3URN(u)
		if e != nil {
			writeOpenAPIError(w, e, "")
			return
		}
		if soft && !t.Entity.Allows("status") {
			writeOpenAPIError(w, v3Errorf(http.StatusBadRequest, msgV1SoftDelete, t.Entity.Name), "")
			return
		}
		targets = append(targets, t)
	}
	if soft {
		ps := make([]gms.Proposal, 0, len(urns))
		for i, u := range urns {
			ps = append(ps, gms.Proposal{EntityType: targets[i].Entity.Name, EntityURN: u, ChangeType: "UPSERT",
				AspectName: "status", Aspect: json.RawMessage(`{"removed":true}`), ContentType: "application/json"})
		}
		if len(ps) > 0 {
			if _, e := s.ingestV3(r, ps, true, v3Write{traceID: rt.TraceID}); e != nil {
				writeOpenAPIError(w, e, "")
				return
			}
		}
		writeV3JSON(w, http.StatusOK, []byte("[]"))
		return
	}
	var b bytes.Buffer
	b.WriteByte('[')
	for i, u := range urns {
		before, err := s.core.GetEntity(r.Context(), u, nil, true)
		if err != nil && gms.AsError(err).Kind != gms.NotFound {
			writeOpenAPIError(w, fromCoreV3(err), "")
			return
		}
		d, err := s.core.DeleteEntity(r.Context(), u, "")
		if err != nil {
			writeOpenAPIError(w, fromCoreV3(err), "")
			return
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"rowsRolledBack":[`)
		for j, asp := range before.Aspects {
			a := asp.Name
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`{"urn":`)
			writeString(&b, u)
			b.WriteString(`,"aspectName":`)
			writeString(&b, a)
			b.WriteString(`,"keyAspect":`)
			if a == targets[i].Entity.KeyAspect {
				b.WriteString("true")
			} else {
				b.WriteString("false")
			}
			b.WriteByte('}')
		}
		b.WriteString(`],"rowsDeletedFromEntityDeletion":`)
		b.WriteString(strconv.Itoa(d.Rows))
		b.WriteByte('}')
	}
	b.WriteByte(']')
	writeV3JSON(w, http.StatusOK, b.Bytes())
}
