package openapi

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/catalogkit/datahub-go/internal/jsonesc"
	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/wire"
)

// DataHub: the OpenAPI servlet's error texts (GlobalControllerExceptionHandler,
// GenericEntitiesController, EntityController). Mock: those marked so.
const (
	MsgNoEndpoint        = "No endpoint %s %s."
	msgV3UnknownEntity   = "Failed to find entity with name %s in EntityRegistry"
	msgV3InvalidURN      = "Invalid urn!: %s"
	msgV3Malformed       = "Malformed request body"
	msgV3InvalidJSON     = "Invalid JSON format"
	msgV3MissingURN      = "Missing `urn` field"
	msgV3MissingPatch    = "Missing `patch` field."
	msgV3NotArray        = "Value of property '%s' must be an array"
	msgV3Validation      = "Validation Error"
	msgV3Precondition    = "Precondition Error"
	msgV3Internal        = "Internal server error occurred"
	MsgMethod            = "Request method '%s' is not supported"
	msgV3BadParam        = "Failed to convert value of type 'java.lang.String' to required type '%s'; Invalid value '%s' for parameter %s"
	msgV3UnknownAspect   = "Unknown aspect %s for entity %s (datahub-mock; DataHub answers 500)"
	msgV3MissingValue    = "Missing `value` field (datahub-mock)"
	msgV3NotObject       = "Value of aspect '%s' must be a JSON object (datahub-mock)"
	msgV3ScrollFilter    = "Filters and sort criteria of the scroll API are not supported by this mock (datahub-mock)"
	msgV3Query           = "Search queries other than \"*\" are not supported by this mock (datahub-mock)"
	msgV3BadTraceID      = "Invalid trace id %q: expected a traceparent or 32 hex digits (datahub-mock)"
	msgV3BadScrollID     = "Invalid scroll Id cannot be mapped: %s (datahub-mock: Jackson's reason is not given)"
	notFoundReasonHeader = "Not-Found-Reason"
)

// v3Prefix is the path of DataHub's OpenAPI v3 entity API.
const v3Prefix = "/openapi/v3/entity/"

// traceWritePrefix is the path of the write trace API, before its trace id.
const traceWritePrefix = "/openapi/v1/trace/write/"

// Shape is the shape of an OpenAPI path.
type Shape uint8

const (
	ShapeEntityType      Shape = iota + 1 // {entityName}
	ShapeEntity                           // {entityName}/{urn}
	ShapeAspect                           // {entityName}/{urn}/{aspectName}
	ShapeBatchGet                         // {entityName}/batchGet
	ShapeScroll                           // scroll
	ShapeGeneric                          // generic
	ShapeGenericBatchGet                  // generic/batchGet
	ShapeTrace                            // /openapi/v1/trace/write/{traceId}
)

// Path is the parsed path of an OpenAPI route.
type Path struct {
	Shape   Shape
	entity  string // {entityName} as given
	urn     string // the decoded {urn}
	aspect  string // {aspectName} as given
	traceID string // {traceId} of the trace route
}

// ParsePath parses an OpenAPI path. The URN goes into the path as is, so
// it may hold slashes: the last segment is an aspect name only when it
// looks like one and the URN before it has balanced parentheses.
func ParsePath(path string) (Path, bool) {
	if id, ok := strings.CutPrefix(path, traceWritePrefix); ok {
		id, err := url.PathUnescape(id)
		if err != nil || id == "" || strings.Contains(id, "/") {
			return Path{}, false
		}
		return Path{Shape: ShapeTrace, traceID: id}, true
	}
	rest, ok := strings.CutPrefix(path, v3Prefix)
	if !ok || rest == "" {
		return Path{}, false
	}
	segs := strings.Split(rest, "/")
	for i, s := range segs {
		d, err := url.PathUnescape(s)
		if err != nil || d == "" {
			return Path{}, false
		}
		segs[i] = d
	}
	switch {
	case len(segs) == 1 && segs[0] == "scroll":
		return Path{Shape: ShapeScroll}, true
	case len(segs) == 1 && segs[0] == "generic":
		return Path{Shape: ShapeGeneric}, true
	case len(segs) == 1:
		return Path{Shape: ShapeEntityType, entity: segs[0]}, true
	case len(segs) == 2 && segs[1] == "batchGet" && segs[0] == "generic":
		return Path{Shape: ShapeGenericBatchGet}, true
	case len(segs) == 2 && segs[1] == "batchGet":
		return Path{Shape: ShapeBatchGet, entity: segs[0]}, true
	}
	if !strings.HasPrefix(segs[1], "urn:li:") {
		return Path{}, false
	}
	p := Path{Shape: ShapeEntity, entity: segs[0], urn: strings.Join(segs[1:], "/")}
	if last := segs[len(segs)-1]; len(segs) > 2 && isAspectName(last) {
		if u := strings.Join(segs[1:len(segs)-1], "/"); balanced(u) {
			p.Shape, p.urn, p.aspect = ShapeAspect, u, last
		}
	}
	return p, true
}

// isAspectName reports whether s looks like an aspect name.
func isAspectName(s string) bool {
	for i, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

// balanced reports whether the parentheses of a URN are balanced.
func balanced(u string) bool {
	return strings.Count(u, "(") == strings.Count(u, ")")
}

// NewTraceParent returns a W3C traceparent made as DataHub's
// TraceIdGenerator makes trace ids: 16 hex digits of the epoch microseconds
// on the server's clock, 16 random ones; a random span id; sampled.
func NewTraceParent(now time.Time) (traceID, header string) {
	var b [16]byte
	us := uint64(now.UnixMicro())
	for i := range 8 {
		b[i] = byte(us >> (56 - 8*i))
	}
	r1, r2 := rand.Uint64(), rand.Uint64()
	for i := range 8 {
		b[8+i] = byte(r1 >> (56 - 8*i))
	}
	var span [8]byte
	for i := range 8 {
		span[i] = byte(r2 >> (56 - 8*i))
	}
	traceID = hex.EncodeToString(b[:])
	return traceID, "00-" + traceID + "-" + hex.EncodeToString(span[:]) + "-01"
}

// openAPIError is an error answer of DataHub's OpenAPI servlet: a status
// and a JSON body {"error": ..., "message": ...} (message omitted when "").
type openAPIError struct {
	status  int
	err     string
	message string
	plain   bool // a Spring conversion failure: the text as a plain body
}

// writeOpenAPIError answers e.
func writeOpenAPIError(w http.ResponseWriter, e *openAPIError, retryAfter string) {
	h := w.Header()
	if retryAfter != "" {
		h.Set("Retry-After", retryAfter)
	}
	if e.plain {
		h.Set("Content-Type", "text/plain;charset=UTF-8")
		w.WriteHeader(e.status)
		_, _ = w.Write([]byte(e.err))
		return
	}
	body, _ := wire.MarshalJSON(struct {
		Error   string `json:"error"`
		Message string `json:"message,omitempty"`
	}{e.err, e.message})
	h.Set("Content-Type", "application/json")
	w.WriteHeader(e.status)
	_, _ = w.Write(body)
}

// v3Errorf is a 400 (or status) {"error": ...} answer.
func v3Errorf(status int, format string, args ...any) *openAPIError {
	for i, a := range args {
		if s, ok := a.(string); ok {
			args[i] = gms.Abbreviate(s)
		}
	}
	return &openAPIError{status: status, err: fmt.Sprintf(format, args...)}
}

// fromCoreV3 maps a refusal of the core to the OpenAPI servlet's answer:
// validation failures as {"error":"Validation Error"} 400, failed
// preconditions as {"error":"Precondition Error"} 412 (the message is the
// core's text), bad arguments and unknown names as 400, the rest as GMS's
// handler maps them.
func fromCoreV3(err error) *openAPIError {
	e := gms.AsError(err)
	switch e.Kind {
	case gms.BadArgument, gms.UnknownEntity, gms.UnknownAspect:
		return &openAPIError{status: http.StatusBadRequest, err: e.Message}
	case gms.Invalid, gms.Conflict:
		return &openAPIError{status: http.StatusBadRequest, err: msgV3Validation, message: e.Message}
	case gms.PreconditionFailed:
		return &openAPIError{status: http.StatusPreconditionFailed, err: msgV3Precondition, message: e.Message}
	case gms.NotFound:
		return &openAPIError{status: http.StatusNotFound, err: e.Message}
	case gms.TooLarge:
		return &openAPIError{status: http.StatusRequestEntityTooLarge, err: e.Message}
	case gms.Unsupported:
		return &openAPIError{status: http.StatusNotImplemented, err: e.Message}
	}
	return &openAPIError{status: http.StatusInternalServerError, err: msgV3Internal, message: e.Message}
}

// readV3Body reads the request body within the size limit; when it cannot,
// it answers the failure and reports false.
// The body is text, as DataHub's routes that take it as a String read it
// (Spring's string converter, UTF-8 for JSON): every byte that is not
// valid UTF-8 becomes U+FFFD.
func readV3Body(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	body, ok := readV3Bytes(w, r)
	if ok && !utf8.Valid(body) {
		body = replaceInvalidUTF8(body)
	}
	return body, ok
}

// readV3TypedBody is readV3Body for the routes whose body DataHub binds to
// a class with Jackson, which refuses bytes that are not UTF-8: 400
// "Malformed request body".
func readV3TypedBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	body, ok := readV3Bytes(w, r)
	if ok && !utf8.Valid(body) {
		writeOpenAPIError(w, &openAPIError{status: http.StatusBadRequest, err: msgV3Malformed}, "")
		return nil, false
	}
	return body, ok
}

// readV3Bytes reads the request body's bytes within the size limit; when
// it cannot, it answers the failure and reports false.
func readV3Bytes(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	body, rerr := wire.ReadBody(nil, r)
	if rerr != nil {
		writeOpenAPIError(w, &openAPIError{status: rerr.Status, err: rerr.Message}, "")
		return nil, false
	}
	return body, true
}

// replaceInvalidUTF8 replaces each byte of b that is not part of valid
// UTF-8 with U+FFFD.
func replaceInvalidUTF8(b []byte) []byte {
	out := make([]byte, 0, len(b)+8)
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n == 1 {
			out = utf8.AppendRune(out, utf8.RuneError)
		} else {
			out = append(out, b[:n]...)
		}
		b = b[n:]
	}
	return out
}

// writeV3JSON answers status with body (already JSON).
func writeV3JSON(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	// With its length known, a long answer is sent as it is, not in
	// chunks (net/http knows the length of a short one by itself).
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// v3NotFound answers 404 with Not-Found-Reason: ENTITY and no body, as
// the entity and aspect reads do.
func v3NotFound(w http.ResponseWriter) {
	w.Header().Set(notFoundReasonHeader, "ENTITY")
	w.WriteHeader(http.StatusNotFound)
}

// boolParam reads a boolean query parameter as Spring converts it; a value
// it cannot convert is a plain-text 400.
func boolParam(q url.Values, name string, def bool) (bool, *openAPIError) {
	if !q.Has(name) {
		return def, nil
	}
	switch v := strings.ToLower(strings.TrimSpace(q.Get(name))); v {
	case "true", "on", "yes", "1":
		return true, nil
	case "false", "off", "no", "0":
		return false, nil
	case "":
		return def, nil
	default:
		return false, &openAPIError{status: http.StatusBadRequest, plain: true,
			err: fmt.Sprintf(msgV3BadParam, "java.lang.Boolean", gms.Abbreviate(q.Get(name)), name)}
	}
}

// intParam reads an integer query parameter.
func intParam(q url.Values, name string, def int64) (int64, *openAPIError) {
	v := q.Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil {
		return 0, &openAPIError{status: http.StatusBadRequest, plain: true,
			err: fmt.Sprintf(msgV3BadParam, "java.lang.Long", gms.Abbreviate(v), name)}
	}
	return n, nil
}

// setParam reads a set query parameter: comma-separated values, repeatable.
func setParam(q url.Values, names ...string) []string {
	var out []string
	for _, n := range names {
		for _, v := range q[n] {
			for _, s := range strings.Split(v, ",") {
				if s = strings.TrimSpace(s); s != "" {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// v3Entity resolves {entityName} in any case.
func v3Entity(name string) (pdl.Entity, *openAPIError) {
	e, ok := gms.ResolveEntity(name)
	if !ok {
		return pdl.Entity{}, v3Errorf(http.StatusBadRequest, msgV3UnknownEntity, name)
	}
	return e, nil
}

// v3URN checks a URN of the path or of a body with the core's checks
// (which the core's Ingest then does not make again) and returns it with
// its entity.
func v3URN(u string) (gms.Target, *openAPIError) {
	return v3URNHashed(u, gms.URNHash(u))
}

// v3URNHashed is v3URN for u whose gms.URNHash is h.
func v3URNHashed(u string, h uint64) (gms.Target, *openAPIError) {
	t, err := gms.CheckTargetHashed(u, h)
	if err != nil {
		return gms.Target{}, v3Errorf(http.StatusBadRequest, msgV3InvalidURN, u)
	}
	if !t.Known {
		return gms.Target{}, v3Errorf(http.StatusBadRequest, msgV3UnknownEntity, gms.EntityTypeOf(u))
	}
	return t, nil
}

// v3ReadTarget checks the URN of a route addressing one entity for a read
// and returns it with its entity. The route's {entityName} is not looked
// at: DataHub reads (and deletes) by the URN's own type. A URN that is well
// formed but that no write accepts is absent (the read answers 404) rather
// than refused.
func v3ReadTarget(rt Request) (t gms.Target, absent bool, e *openAPIError) {
	t, absent, err := gms.CheckReadTarget(rt.Path.urn)
	switch {
	case err != nil:
		return gms.Target{}, false, v3Errorf(http.StatusBadRequest, msgV3InvalidURN, rt.Path.urn)
	case !t.Known:
		return gms.Target{}, false, v3Errorf(http.StatusBadRequest, msgV3UnknownEntity, gms.EntityTypeOf(rt.Path.urn))
	}
	return t, absent, nil
}

// v3Aspect is one aspect of an answer: GenericAspectV3.
type v3Aspect struct {
	name  string
	value json.RawMessage
	// with systemMetadata=true:
	systemMetadata json.RawMessage
	stamp          *wire.AuditStamp
}

// v3Object is one entity of an answer: GenericEntityV3, "urn" first, then
// its aspects in order.
type v3Object struct {
	urn     string
	aspects []v3Aspect
}

// appendJSON appends o's JSON.
func (o *v3Object) appendJSON(b *bytes.Buffer) {
	b.WriteString(`{"urn":`)
	writeString(b, o.urn)
	for _, a := range o.aspects {
		b.WriteByte(',')
		writeString(b, a.name)
		b.WriteByte(':')
		a.appendJSON(b)
	}
	b.WriteByte('}')
}

// appendJSON appends a's GenericAspectV3 JSON.
func (a *v3Aspect) appendJSON(b *bytes.Buffer) {
	b.WriteString(`{"value":`)
	if len(a.value) == 0 {
		b.WriteString("{}")
	} else {
		b.Write(a.value)
	}
	if a.systemMetadata != nil {
		b.WriteString(`,"systemMetadata":`)
		b.Write(a.systemMetadata)
	}
	if a.stamp != nil {
		st, _ := wire.MarshalJSON(a.stamp)
		b.WriteString(`,"auditStamp":`)
		b.Write(st)
	}
	b.WriteByte('}')
}

// encodedSize is about the length of encodeList(objs), for its buffer: the
// texts it copies and room for the punctuation around them.
func encodedSize(objs []v3Object) int {
	n := 2
	for i := range objs {
		n += len(objs[i].urn) + 16
		for _, a := range objs[i].aspects {
			n += len(a.name) + len(a.value) + len(a.systemMetadata) + 32
			if a.stamp != nil {
				n += 64
			}
		}
	}
	return n
}

// writeMember appends the name of member i of a JSON object, after a comma
// unless it is the first, and the colon.
func writeMember(b *bytes.Buffer, i int, name string) {
	if i > 0 {
		b.WriteByte(',')
	}
	writeString(b, name)
	b.WriteByte(':')
}

// writeString appends s as a JSON string, without HTML escaping.
func writeString(b *bytes.Buffer, s string) {
	if plainJSONString(s) {
		b.WriteByte('"')
		b.WriteString(s)
		b.WriteByte('"')
		return
	}
	q, _ := wire.MarshalJSON(s)
	b.Write(q)
}

// plainJSONString reports whether s is ASCII from the space up without a
// quote or a backslash: its JSON string is s quoted, as marshalJSON
// writes it.
func plainJSONString(s string) bool { return jsonesc.Plain(s, 0) == len(s) }

// encodeList is the JSON array of objs.
func encodeList(objs []v3Object) []byte {
	var b bytes.Buffer
	appendList(&b, objs)
	return b.Bytes()
}

// appendList appends the JSON array of objs to b.
func appendList(b *bytes.Buffer, objs []v3Object) {
	b.Grow(encodedSize(objs))
	b.WriteByte('[')
	for i := range objs {
		if i > 0 {
			b.WriteByte(',')
		}
		objs[i].appendJSON(b)
	}
	b.WriteByte(']')
}

// storedAspect is a stored row as a v3Aspect, with its system metadata and
// audit stamp when withSM.
func storedAspect(a gms.Aspect, withSM bool) v3Aspect {
	out := v3Aspect{name: a.Name, value: a.Value}
	if withSM {
		out.systemMetadata = a.SystemMetadata
		if out.systemMetadata == nil {
			out.systemMetadata = json.RawMessage("{}")
		}
		st := wire.AuditStamp{Actor: a.CreatedBy}
		if !a.CreatedOn.IsZero() {
			st.Time = a.CreatedOn.UnixMilli()
		}
		out.stamp = &st
	}
	return out
}

// readEntity returns the latest aspects of urn named in names (all when
// empty; unknown and repeated names ignored), false when it has none.
func (s *Handler) readEntity(r *http.Request, e pdl.Entity, urn string, names []string, withSM bool) (v3Object, bool, error) {
	projection := aspectProjection(e, names)
	if len(names) > 0 && len(projection) == 0 {
		return v3Object{}, false, nil
	}
	ent, err := s.core.GetEntity(r.Context(), urn, projection, false)
	if err != nil && gms.AsError(err).Kind != gms.NotFound {
		return v3Object{}, false, err
	}
	obj := v3Object{urn: urn}
	for _, a := range ent.Aspects {
		obj.aspects = append(obj.aspects, storedAspect(a, withSM))
	}
	docs, err := s.core.LatestTimeseries(r.Context(), urn, projection, nil)
	if err != nil {
		return v3Object{}, false, err
	}
	for _, d := range docs {
		obj.aspects = append(obj.aspects, timeseriesAspect(d, withSM))
	}
	if len(docs) > 0 {
		slices.SortFunc(obj.aspects, func(a, b v3Aspect) int { return strings.Compare(a.name, b.name) })
	}
	return obj, len(obj.aspects) > 0, nil
}

// timeseriesAspect is a timeseries document as a v3Aspect: with its system
// metadata when withSM, never an audit stamp.
func timeseriesAspect(d gms.TimeseriesDoc, withSM bool) v3Aspect {
	out := v3Aspect{name: d.Aspect, value: d.Value}
	if withSM {
		out.systemMetadata = d.SystemMetadata
		if out.systemMetadata == nil {
			out.systemMetadata = json.RawMessage("{}")
		}
	}
	return out
}

// readAspect reads version of aspect name of urn for a v3 read: a
// versioned aspect's row, or a timeseries aspect's latest document at or
// before version (0: the latest). ok is false when there is none.
func (s *Handler) readAspect(r *http.Request, urn, name string, version int64, withSM bool) (v3Aspect, bool, error) {
	a, err := s.core.GetEnvelopedAspect(r.Context(), urn, name, version)
	if err == nil {
		return storedAspect(a.Aspect, withSM), true, nil
	}
	if gms.AsError(err).Kind != gms.NotFound {
		return v3Aspect{}, false, err
	}
	docs, err := s.core.LatestTimeseries(r.Context(), urn, []string{name}, map[string]int64{name: version})
	if err != nil || len(docs) == 0 {
		return v3Aspect{}, false, err
	}
	return timeseriesAspect(docs[0], withSM), true, nil
}

// GetEntity serves GET and HEAD /openapi/v3/entity/{entityName}/{urn}.
func (s *Handler) GetEntity(w http.ResponseWriter, r *http.Request, rt Request) {
	t, absent, e := v3ReadTarget(rt)
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	if absent && r.Method == http.MethodHead {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	if absent {
		v3NotFound(w)
		return
	}
	if r.Method == http.MethodHead {
		live, err := s.core.Live(r.Context(), rt.Path.urn)
		s.answerHead(w, live, err)
		return
	}
	q := r.URL.Query()
	withSM, pe := boolParam(q, "systemMetadata", false)
	if pe != nil {
		writeOpenAPIError(w, pe, "")
		return
	}
	obj, ok, err := s.readEntity(r, t.Entity, rt.Path.urn, setParam(q, "aspectNames", "aspects"), withSM)
	if err != nil {
		writeOpenAPIError(w, fromCoreV3(err), "")
		return
	}
	if !ok {
		v3NotFound(w)
		return
	}
	var b bytes.Buffer
	obj.appendJSON(&b)
	writeV3JSON(w, http.StatusOK, b.Bytes())
}

// answerHead answers a HEAD: 204 when it exists, else 404 without header.
func (s *Handler) answerHead(w http.ResponseWriter, exists bool, err error) {
	switch {
	case err != nil:
		writeOpenAPIError(w, fromCoreV3(err), "")
	case exists:
		w.WriteHeader(http.StatusNoContent)
	default:
		w.WriteHeader(http.StatusNotFound)
	}
}

// GetAspect serves GET and HEAD
// /openapi/v3/entity/{entityName}/{urn}/{aspectName}: the bare
// GenericAspectV3 of a version (0 the latest).
func (s *Handler) GetAspect(w http.ResponseWriter, r *http.Request, rt Request) {
	t, absent, e := v3ReadTarget(rt)
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	name, known := gms.ResolveAspect(t.Entity, rt.Path.aspect)
	known = known && !absent
	if r.Method == http.MethodHead {
		if !known {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		live, err := s.core.AspectLive(r.Context(), rt.Path.urn, name)
		s.answerHead(w, live, err)
		return
	}
	q := r.URL.Query()
	withSM, pe := boolParam(q, "systemMetadata", false)
	if pe == nil {
		var version int64
		if version, pe = intParam(q, "version", 0); pe == nil && known {
			va, ok, err := s.readAspect(r, rt.Path.urn, name, version, withSM)
			if err != nil {
				writeOpenAPIError(w, fromCoreV3(err), "")
				return
			}
			if !ok {
				v3NotFound(w)
				return
			}
			var b bytes.Buffer
			va.appendJSON(&b)
			writeV3JSON(w, http.StatusOK, b.Bytes())
			return
		}
	}
	if pe != nil {
		writeOpenAPIError(w, pe, "")
		return
	}
	v3NotFound(w)
}

// BatchGet serves POST /openapi/v3/entity/{entityName}/batchGet
// ([{"urn":U,"<aspect>":{"headers":{"If-Version-Match":"N"}}}], the header
// selecting the version to read) and /openapi/v3/entity/generic/batchGet
// ({"<entityName>":[...]}, answered under the names as given).
func (s *Handler) BatchGet(w http.ResponseWriter, r *http.Request, rt Request) {
	withSM, pe := boolParam(r.URL.Query(), "systemMetadata", false)
	if pe != nil {
		writeOpenAPIError(w, pe, "")
		return
	}
	body, ok := readV3Body(w, r)
	if !ok {
		return
	}
	if rt.Path.Shape == ShapeBatchGet {
		if _, e := v3Entity(rt.Path.entity); e != nil {
			writeOpenAPIError(w, e, "")
			return
		}
		objs, e := s.batchGet(r, body, withSM)
		if e != nil {
			writeOpenAPIError(w, e, "")
			return
		}
		writeV3JSON(w, http.StatusOK, encodeList(objs))
		return
	}
	groups, e := genericGroups(body)
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, g := range groups {
		if _, e := v3Entity(g.name); e != nil {
			writeOpenAPIError(w, e, "")
			return
		}
		objs, e := s.batchGet(r, g.list, withSM)
		if e != nil {
			writeOpenAPIError(w, e, "")
			return
		}
		writeMember(&b, i, g.name)
		b.Write(encodeList(objs))
	}
	b.WriteByte('}')
	writeV3JSON(w, http.StatusOK, b.Bytes())
}

// v3Group is one member of a /generic body: an entity name and its array.
type v3Group struct {
	name string
	list json.RawMessage
}

// genericGroups decodes a /generic body: an object whose members are arrays.
func genericGroups(body []byte) ([]v3Group, *openAPIError) {
	m, err := wire.UnmarshalObject(body)
	if err != nil || m == nil {
		return nil, &openAPIError{status: http.StatusBadRequest, err: msgV3Malformed}
	}
	out := make([]v3Group, 0, len(m))
	for _, mb := range m {
		if t := bytes.TrimSpace(mb.Value); len(t) == 0 || t[0] != '[' {
			return nil, v3Errorf(http.StatusBadRequest, msgV3NotArray, mb.Key)
		}
		out = append(out, v3Group{name: mb.Key, list: mb.Value})
	}
	return out, nil
}

// v3Item is one element of a batch body: its URN and aspect members.
type v3Item struct {
	urn     string
	members wire.Map // every member but "urn"
	doc     wire.Doc // the document of the members' values
}

// decodeItems decodes a batch body: an array of objects with "urn". With
// an outline o, one pass validates the body and splits it down to the
// aspect members (array, element, member), and the items' values are read
// through o until it is parsed again; a nil o splits each level afresh.
func decodeItems(o *pdl.Outline, body []byte) ([]v3Item, *openAPIError) {
	var d wire.Doc
	var raws [][]byte
	ok := o != nil && o.Parse(body, 3)
	if ok {
		d = wire.Doc{O: o}
		raws, ok = o.Elements(o.Top())
	}
	if !ok {
		es, err := wire.UnmarshalArray(body)
		if err != nil {
			return nil, &openAPIError{status: http.StatusBadRequest, err: msgV3Malformed}
		}
		raws = make([][]byte, len(es))
		for i, e := range es {
			raws[i] = e
		}
	}
	out := make([]v3Item, 0, len(raws))
	var all wire.Map // the items' members, one after another
	for _, raw := range raws {
		var buf [8]pdl.Member
		m, err := d.Object(buf[:0], raw)
		if err != nil || m == nil {
			return nil, &openAPIError{status: http.StatusBadRequest, err: msgV3Malformed}
		}
		it := v3Item{doc: d}
		found := false
		start := len(all)
		for _, mb := range m {
			if mb.Key == "urn" {
				u, err := d.Text(mb.Value)
				if err != nil {
					return nil, &openAPIError{status: http.StatusBadRequest, err: msgV3Malformed}
				}
				it.urn, found = u, true
				continue
			}
			all = append(all, mb)
		}
		if len(all) > start {
			it.members = all[start:len(all):len(all)]
		}
		if !found {
			return nil, &openAPIError{status: http.StatusBadRequest, err: msgV3MissingURN}
		}
		out = append(out, it)
	}
	return out, nil
}

// aspectPart is one aspect member of a batch element: {"value":…,
// "systemMetadata":…,"headers":{…}}.
type aspectPart struct {
	Value          json.RawMessage   `json:"value"`
	SystemMetadata json.RawMessage   `json:"systemMetadata"`
	Headers        map[string]string `json:"headers"`
}

// decodePart decodes an aspect member; null members are absent.
func decodePart(raw json.RawMessage) (aspectPart, *openAPIError) {
	return decodePartIn(wire.Doc{}, raw)
}

// decodePartIn is decodePart for raw, a value of d.
func decodePartIn(d wire.Doc, raw json.RawMessage) (aspectPart, *openAPIError) {
	p, ok := decodePartFast(d, raw)
	if !ok {
		var slow aspectPart // its own variable: only this path moves it to the heap
		if err := json.Unmarshal(raw, &slow); err != nil {
			return slow, &openAPIError{status: http.StatusBadRequest, err: msgV3InvalidJSON, message: gms.JSONErrorText(err)}
		}
		p = slow
	}
	if wire.IsNull(p.Value) {
		p.Value = nil
	}
	if wire.IsNull(p.SystemMetadata) {
		p.SystemMetadata = nil
	}
	return p, nil
}

// decodePartFast is json.Unmarshal of raw into an aspectPart without
// reflection over the aspect's value, for the common case: a valid object
// whose members are named exactly (encoding/json also matches other cases
// of the names) and whose headers decode. ok is false otherwise, and the
// caller decodes with encoding/json, which gives the same result and its
// error texts.
func decodePartFast(d wire.Doc, raw []byte) (p aspectPart, ok bool) {
	var buf [4]pdl.Member
	var ms []pdl.Member
	if d.O != nil {
		ms, ok = d.O.AppendMembers(buf[:0], raw)
	}
	if !ok {
		if ms, ok = pdl.AppendMembers(buf[:0], raw); !ok {
			return p, false
		}
	}
	for _, m := range ms {
		switch m.Key {
		case "value":
			p.Value = m.Value
		case "systemMetadata":
			p.SystemMetadata = m.Value
		case "headers":
			h := p.Headers // a repeated member adds to the map, as encoding/json does
			if err := json.Unmarshal(m.Value, &h); err != nil {
				return p, false
			}
			p.Headers = h
		default:
			if strings.EqualFold(m.Key, "value") || strings.EqualFold(m.Key, "systemMetadata") || strings.EqualFold(m.Key, "headers") {
				return p, false
			}
		}
	}
	return p, true
}

// eachAspect calls fn with each member of it that the core resolves to an
// aspect of its URN's entity t ([gms.ItemAspect], which decides what a
// member that names none does), decoded, in order. It stops at the first
// error.
func eachAspect(t gms.Target, it v3Item, fn func(name string, part aspectPart) *openAPIError) *openAPIError {
	for _, mb := range it.members {
		name, ok := gms.ItemAspect(t, mb.Key)
		if !ok {
			continue
		}
		part, e := decodePartIn(it.doc, mb.Value)
		if e != nil {
			return e
		}
		if e := fn(name, part); e != nil {
			return e
		}
	}
	return nil
}

// batchGet reads the items of a batchGet body.
func (s *Handler) batchGet(r *http.Request, body []byte, withSM bool) ([]v3Object, *openAPIError) {
	items, e := decodeItems(nil, body)
	if e != nil {
		return nil, e
	}
	out := make([]v3Object, 0, len(items))
	for _, it := range items {
		t, e := v3URN(it.urn)
		if e != nil {
			return nil, e
		}
		if len(it.members) == 0 {
			obj, ok, err := s.readEntity(r, t.Entity, it.urn, nil, withSM)
			if err != nil {
				return nil, fromCoreV3(err)
			}
			if ok {
				out = append(out, obj)
			}
			continue
		}
		obj := v3Object{urn: it.urn}
		e = eachAspect(t, it, func(name string, part aspectPart) *openAPIError {
			version, verr := gms.ReadVersion(part.Headers)
			if verr != nil {
				return fromCoreV3(verr)
			}
			a, ok, err := s.readAspect(r, it.urn, name, version, withSM)
			if err != nil {
				return fromCoreV3(err)
			}
			if ok {
				obj.aspects = append(obj.aspects, a)
			}
			return nil
		})
		if e != nil {
			return nil, e
		}
		if len(obj.aspects) > 0 {
			out = append(out, obj)
		}
	}
	return out, nil
}
