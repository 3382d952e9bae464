package openapi

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/wire"
)

// DataHub's v2 entity API (/openapi/v2/entity) is the v3 one's controller
// (GenericEntitiesController) with other shapes: an entity is
// GenericEntityV2 {"urn":U,"aspects":{name:{"value":…,"systemMetadata":…}}},
// an aspect {"value":…,"systemMetadata":…} without an audit stamp, a page
// {"scrollId":…,"results":[…]}, and a single-aspect write's body is the
// aspect's value itself. The handlers here run the v3 ones and reshape
// their answers.

// msgV2MissingAspects is the v2 batch write's refusal of an entity without
// "aspects".
const msgV2MissingAspects = "Missing `aspects` field"

// captured is an answer of a v3 handler, kept to be reshaped.
type captured struct {
	h      http.Header
	status int
	body   bytes.Buffer
}

func (c *captured) Header() http.Header         { return c.h }
func (c *captured) Write(b []byte) (int, error) { return c.body.Write(b) }
func (c *captured) WriteHeader(status int) {
	if c.status == 0 {
		c.status = status
	}
}

// runV3 runs a v3 handler and returns its answer.
func runV3(h func(http.ResponseWriter), w http.ResponseWriter) *captured {
	c := &captured{h: w.Header()}
	h(c)
	if c.status == 0 {
		c.status = http.StatusOK
	}
	return c
}

// reshape answers c: as it is unless it succeeded with a JSON body, which
// fn rewrites.
func reshape(w http.ResponseWriter, c *captured, fn func([]byte) ([]byte, error)) {
	if c.status >= 300 || c.body.Len() == 0 {
		w.WriteHeader(c.status)
		_, _ = w.Write(c.body.Bytes())
		return
	}
	out, err := fn(c.body.Bytes())
	if err != nil {
		writeOpenAPIError(w, &openAPIError{status: http.StatusInternalServerError, err: msgV3Internal, message: err.Error()}, "")
		return
	}
	w.Header().Del("Content-Length")
	writeV3JSON(w, c.status, out)
}

// v2Aspect reshapes a GenericAspectV3 into a GenericAspectV2: its value
// and system metadata, without the audit stamp.
func v2Aspect(b *bytes.Buffer, raw []byte) error {
	m, err := wire.UnmarshalObject(raw)
	if err != nil {
		return err
	}
	b.WriteString(`{"value":`)
	if v, ok := m.Get("value"); ok {
		b.Write(v)
	} else {
		b.WriteString("{}")
	}
	if sm, ok := m.Get("systemMetadata"); ok && !wire.IsNull(sm) {
		b.WriteString(`,"systemMetadata":`)
		b.Write(sm)
	}
	b.WriteByte('}')
	return nil
}

// v2Entity reshapes a GenericEntityV3 into a GenericEntityV2.
func v2Entity(b *bytes.Buffer, raw []byte) error {
	m, err := wire.UnmarshalObject(raw)
	if err != nil {
		return err
	}
	b.WriteString(`{"urn":`)
	u, _ := m.Get("urn")
	b.Write(u)
	b.WriteString(`,"aspects":{`)
	i := 0
	for _, mb := range m {
		if mb.Key == "urn" {
			continue
		}
		writeMember(b, i, mb.Key)
		i++
		if err := v2Aspect(b, mb.Value); err != nil {
			return err
		}
	}
	b.WriteString("}}")
	return nil
}

// v2Entities reshapes a JSON array of GenericEntityV3 into one of
// GenericEntityV2.
func v2Entities(b *bytes.Buffer, raw []byte) error {
	es, err := wire.UnmarshalArray(raw)
	if err != nil {
		return err
	}
	b.WriteByte('[')
	for i, e := range es {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := v2Entity(b, e); err != nil {
			return err
		}
	}
	b.WriteByte(']')
	return nil
}

// v3Request is the v3 request of a v2 route addressing an entity or one of
// its aspects.
func v3Request(rt Request) Request {
	p := Path{Shape: ShapeEntity, entity: rt.Vars["entityName"], urn: rt.Vars["urn"]}
	if a, ok := rt.Vars["aspectName"]; ok {
		p.Shape, p.aspect = ShapeAspect, a
	}
	if p.entity != "" && p.urn == "" {
		p.Shape = ShapeEntityType
	}
	return Request{Path: p, TraceID: rt.TraceID, Vars: rt.Vars}
}

// V2GetEntity serves GET and HEAD /openapi/v2/entity/{entityName}/{urn}.
func (s *Handler) V2GetEntity(w http.ResponseWriter, r *http.Request, rt Request) {
	c := runV3(func(w http.ResponseWriter) { s.GetEntity(w, r, v3Request(rt)) }, w)
	reshape(w, c, func(raw []byte) ([]byte, error) {
		var b bytes.Buffer
		err := v2Entity(&b, raw)
		return b.Bytes(), err
	})
}

// V2GetAspect serves GET and HEAD
// /openapi/v2/entity/{entityName}/{urn}/{aspectName}.
func (s *Handler) V2GetAspect(w http.ResponseWriter, r *http.Request, rt Request) {
	c := runV3(func(w http.ResponseWriter) { s.GetAspect(w, r, v3Request(rt)) }, w)
	reshape(w, c, func(raw []byte) ([]byte, error) {
		var b bytes.Buffer
		err := v2Aspect(&b, raw)
		return b.Bytes(), err
	})
}

// V2Delete serves DELETE /openapi/v2/entity/{entityName}/{urn}[/{aspectName}].
func (s *Handler) V2Delete(w http.ResponseWriter, r *http.Request, rt Request) {
	s.Delete(w, r, v3Request(rt))
}

// V2List serves GET /openapi/v2/entity/{entityName}: a page as
// GenericEntityScrollResultV2.
func (s *Handler) V2List(w http.ResponseWriter, r *http.Request, rt Request) {
	c := runV3(func(w http.ResponseWriter) { s.List(w, r, v3Request(rt)) }, w)
	reshape(w, c, func(raw []byte) ([]byte, error) {
		m, err := wire.UnmarshalObject(raw)
		if err != nil {
			return nil, err
		}
		var b bytes.Buffer
		b.WriteByte('{')
		if id, ok := m.Get("scrollId"); ok {
			b.WriteString(`"scrollId":`)
			b.Write(id)
			b.WriteByte(',')
		}
		b.WriteString(`"results":`)
		es, _ := m.Get("entities")
		if err := v2Entities(&b, es); err != nil {
			return nil, err
		}
		b.WriteByte('}')
		return b.Bytes(), nil
	})
}

// V2WriteAspect serves POST and PATCH
// /openapi/v2/entity/{entityName}/{urn}/{aspectName}: a POST's body is the
// aspect's value, a PATCH's the patch (an array of operations, or the
// document {"patch":[…]}). It answers the GenericEntityV2 written.
func (s *Handler) V2WriteAspect(w http.ResponseWriter, r *http.Request, rt Request) {
	body, ok := readV3Body(w, r)
	if !ok {
		return
	}
	t := bytes.TrimSpace(body)
	var wrapped []byte
	switch {
	case r.Method == http.MethodPatch && len(t) > 0 && t[0] == '[':
		wrapped = append(append([]byte(`{"patch":`), t...), '}')
	case r.Method == http.MethodPatch:
		wrapped = t
	default:
		if len(t) == 0 {
			t = []byte("null")
		}
		wrapped = append(append([]byte(`{"value":`), t...), '}')
	}
	r2 := r.Clone(r.Context())
	r2.Body = io.NopCloser(bytes.NewReader(wrapped))
	r2.ContentLength = int64(len(wrapped))
	c := runV3(func(w http.ResponseWriter) { s.WriteAspect(w, r2, v3Request(rt)) }, w)
	reshape(w, c, func(raw []byte) ([]byte, error) {
		var b bytes.Buffer
		err := v2Entity(&b, raw)
		return b.Bytes(), err
	})
}

// V2Write serves POST /openapi/v2/entity/{entityName}: an array of
// GenericEntityV2, each aspect's value upserted with its system metadata.
// async defaults to true: 202 with [{"urn":…}] per entity; a synchronous
// write answers the entities with the aspects written.
func (s *Handler) V2Write(w http.ResponseWriter, r *http.Request, rt Request) {
	wq, e := writeQuery(r, rt, true)
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	if _, e := v3Entity(rt.Vars["entityName"]); e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	body, ok := readV3Body(w, r)
	if !ok {
		return
	}
	els, err := wire.UnmarshalArray(body)
	if err != nil {
		writeOpenAPIError(w, &openAPIError{status: http.StatusBadRequest, err: msgV3Malformed}, "")
		return
	}
	var ps []gms.Proposal
	var echoes []proposalEcho
	for _, el := range els {
		m, err := wire.UnmarshalObject(el)
		if err != nil || m == nil {
			writeOpenAPIError(w, &openAPIError{status: http.StatusBadRequest, err: msgV3Malformed}, "")
			return
		}
		rawURN, has := m.Get("urn")
		if !has {
			writeOpenAPIError(w, &openAPIError{status: http.StatusBadRequest, err: msgV3MissingURN}, "")
			return
		}
		var u string
		if json.Unmarshal(rawURN, &u) != nil {
			writeOpenAPIError(w, &openAPIError{status: http.StatusBadRequest, err: msgV3Malformed}, "")
			return
		}
		t, e := v3URN(u)
		if e != nil {
			writeOpenAPIError(w, e, "")
			return
		}
		rawAspects, has := m.Get("aspects")
		if !has {
			writeOpenAPIError(w, &openAPIError{status: http.StatusBadRequest, err: msgV2MissingAspects}, "")
			return
		}
		as, err := wire.UnmarshalObject(rawAspects)
		if err != nil {
			writeOpenAPIError(w, &openAPIError{status: http.StatusBadRequest, err: msgV3Malformed}, "")
			return
		}
		e = eachAspect(t, v3Item{urn: u, members: as}, func(name string, part aspectPart) *openAPIError {
			if part.Value != nil && !wire.IsObjectText(part.Value) {
				return v3Errorf(http.StatusBadRequest, msgV3NotObject, name)
			}
			ps = append(ps, gms.Proposal{EntityType: t.Entity.Name, EntityURN: u, ChangeType: "UPSERT", AspectName: name,
				Aspect: part.Value, ContentType: "application/json", SystemMetadata: part.SystemMetadata})
			echoes = append(echoes, proposalEcho{urn: u, aspect: name, value: part.Value, sm: part.SystemMetadata})
			return nil
		})
		if e != nil {
			writeOpenAPIError(w, e, "")
			return
		}
	}
	var res []gms.Written
	if len(ps) > 0 {
		if res, e = s.ingestV3(r, ps, true, wq); e != nil {
			writeOpenAPIError(w, e, "")
			return
		}
	}
	if wq.async {
		// DataHub's answer to an async v2 write names the entities only.
		var b bytes.Buffer
		b.WriteByte('[')
		var seen []string
		for _, ec := range echoes {
			if slices.Contains(seen, ec.urn) {
				continue
			}
			if len(seen) > 0 {
				b.WriteByte(',')
			}
			seen = append(seen, ec.urn)
			b.WriteString(`{"urn":`)
			writeString(&b, ec.urn)
			b.WriteByte('}')
		}
		b.WriteByte(']')
		writeV3JSON(w, http.StatusAccepted, b.Bytes())
		return
	}
	status := http.StatusOK
	var v3 bytes.Buffer
	appendList(&v3, echoObjects(echoes, res, wq, s.clock().UnixMilli()))
	var b bytes.Buffer
	if err := v2Entities(&b, v3.Bytes()); err != nil {
		writeOpenAPIError(w, &openAPIError{status: http.StatusInternalServerError, err: msgV3Internal, message: err.Error()}, "")
		return
	}
	writeV3JSON(w, status, b.Bytes())
}

// v2BatchBody is the body of POST /openapi/v2/entity/batch/{entityName}
// (BatchGetUrnRequestV2).
type v2BatchBody struct {
	URNs               []string `json:"urns"`
	AspectNames        []string `json:"aspectNames"`
	WithSystemMetadata bool     `json:"withSystemMetadata"`
}

// V2BatchGet serves POST /openapi/v2/entity/batch/{entityName}: the
// entities of the URNs, with the aspects named (all when none), as
// {"entities":[GenericEntityV2]}. Entities without any are left out.
func (s *Handler) V2BatchGet(w http.ResponseWriter, r *http.Request, rt Request) {
	if _, e := v3Entity(rt.Vars["entityName"]); e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	body, ok := readV3TypedBody(w, r)
	if !ok {
		return
	}
	var req v2BatchBody
	if err := json.Unmarshal(body, &req); err != nil {
		writeOpenAPIError(w, &openAPIError{status: http.StatusBadRequest, err: msgV3Malformed}, "")
		return
	}
	objs := make([]v3Object, 0, len(req.URNs))
	for _, u := range req.URNs {
		t, e := v3URN(u)
		if e != nil {
			writeOpenAPIError(w, e, "")
			return
		}
		obj, ok, err := s.readEntity(r, t.Entity, u, req.AspectNames, req.WithSystemMetadata)
		if err != nil {
			writeOpenAPIError(w, fromCoreV3(err), "")
			return
		}
		if ok {
			objs = append(objs, obj)
		}
	}
	var b bytes.Buffer
	b.WriteString(`{"entities":`)
	if err := v2Entities(&b, encodeList(objs)); err != nil {
		writeOpenAPIError(w, &openAPIError{status: http.StatusInternalServerError, err: msgV3Internal, message: err.Error()}, "")
		return
	}
	b.WriteByte('}')
	writeV3JSON(w, http.StatusOK, b.Bytes())
}
