package openapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/wire"
)

// lookback is the timeline's default window before endTime when startTime
// is -1 (a week, as DataHub's TimelineServiceImpl).
const lookback = 7 * 24 * time.Hour

// Timeline serves GET /openapi/timeline/v1/{urn} and
// /openapi/v2/timeline/v1/{urn}?categories=…&startTime=-1&endTime=0: the
// entity's change transactions (see [gms.Core.Timeline]).
func (s *Handler) Timeline(w http.ResponseWriter, r *http.Request, rt Request) {
	q := r.URL.Query()
	if !q.Has("categories") {
		writeOpenAPIError(w, &openAPIError{status: http.StatusBadRequest, err: "Required request parameter 'categories' for method parameter type Set is not present"}, "")
		return
	}
	start, e := intParam(q, "startTime", -1)
	var end int64
	if e == nil {
		end, e = intParam(q, "endTime", 0)
	}
	if e == nil {
		_, e = boolParam(q, "raw", false)
	}
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	if _, e := v3URN(rt.Vars["urn"]); e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	if end == 0 {
		end = s.clock().UnixMilli()
	}
	if start == -1 {
		start = end - lookback.Milliseconds()
	}
	var cats []string
	for _, c := range setParam(q, "categories") {
		cats = append(cats, strings.ToUpper(c))
	}
	txs, err := s.core.Timeline(r.Context(), gms.TimelineQuery{URN: rt.Vars["urn"], Categories: cats, StartMillis: start, EndMillis: end})
	if err != nil {
		writeOpenAPIError(w, fromCoreV3(err), "")
		return
	}
	if txs == nil {
		txs = []gms.ChangeTransaction{}
	}
	out, _ := wire.MarshalJSON(txs)
	writeV3JSON(w, http.StatusOK, out)
}

// OpenLineage serves POST /openapi/openlineage/api/v1/lineage: a RunEvent
// turned into proposals ([gms.OpenLineageProposals]) and ingested
// synchronously. It answers 200 without a body; an event it cannot read
// 500, as DataHub's controller does.
func (s *Handler) OpenLineage(w http.ResponseWriter, r *http.Request, rt Request) {
	body, ok := readV3Body(w, r)
	if !ok {
		return
	}
	ps, err := gms.OpenLineageProposals(body, s.clock())
	if err != nil {
		writeOpenAPIError(w, &openAPIError{status: http.StatusInternalServerError, err: msgV3Internal, message: gms.AsError(err).Message}, "")
		return
	}
	if _, e := s.ingestV3(r, ps, true, v3Write{traceID: rt.TraceID}); e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	w.WriteHeader(http.StatusOK)
}

// versioningEnabled answers the refusal of the versioning routes when the
// feature flag is off and reports whether they may go on.
func (s *Handler) versioningEnabled(w http.ResponseWriter) bool {
	if s.hooks.EntityVersioning {
		return true
	}
	writeOpenAPIError(w, &openAPIError{status: http.StatusInternalServerError, err: gms.MsgVersioningDisabled}, "")
	return false
}

// LinkVersion serves POST
// /openapi/v3/entity/versioning/{versionSetUrn}/relationship/versionOf/{entityUrn}
// (body VersionPropertiesInput): the entity linked as the set's latest
// version; it answers the entity's versionProperties as GenericEntityV3
// ([] when it was linked already).
func (s *Handler) LinkVersion(w http.ResponseWriter, r *http.Request, rt Request) {
	if !s.versioningEnabled(w) {
		return
	}
	body, ok := readV3TypedBody(w, r)
	if !ok {
		return
	}
	var in gms.VersionInput
	if err := json.Unmarshal(body, &in); err != nil {
		writeOpenAPIError(w, &openAPIError{status: http.StatusBadRequest, err: msgV3Malformed}, "")
		return
	}
	set, ent := rt.Vars["versionSetUrn"], rt.Vars["entityUrn"]
	t, e := v3URN(ent)
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	linked, err := s.core.LinkVersion(r.Context(), set, ent, in, gms.ActorOf(r.Context()))
	if err != nil {
		writeOpenAPIError(w, fromCoreV3(err), "")
		return
	}
	if !linked {
		writeV3JSON(w, http.StatusOK, []byte("[]"))
		return
	}
	obj, _, err := s.readEntity(r, t.Entity, ent, []string{"versionProperties"}, false)
	if err != nil {
		writeOpenAPIError(w, fromCoreV3(err), "")
		return
	}
	var b bytes.Buffer
	appendList(&b, []v3Object{obj})
	writeV3JSON(w, http.StatusOK, b.Bytes())
}

// UnlinkVersion serves DELETE
// /openapi/v3/entity/versioning/{versionSetUrn}/relationship/versionOf/{entityUrn}:
// the URNs whose aspects the unlink deleted.
func (s *Handler) UnlinkVersion(w http.ResponseWriter, r *http.Request, rt Request) {
	if !s.versioningEnabled(w) {
		return
	}
	if _, e := v3URN(rt.Vars["entityUrn"]); e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	urns, err := s.core.UnlinkVersion(r.Context(), rt.Vars["versionSetUrn"], rt.Vars["entityUrn"])
	if err != nil {
		writeOpenAPIError(w, fromCoreV3(err), "")
		return
	}
	if urns == nil {
		urns = []string{}
	}
	out, _ := wire.MarshalJSON(urns)
	writeV3JSON(w, http.StatusOK, out)
}
