package openapi

import (
	"bytes"
	"net/http"
	"strings"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// PollEvents serves GET /openapi/v1/events/poll?topic=…&offsetId=…&limit=:
// ExternalEventsResponse {"offsetId":…,"count":N,"events":[{"contentType":
// "application/json","value":"<event JSON>"}]}. A failure answers 500 with
// {"errorMessage": …}, as DataHub's controller does.
func (s *Handler) PollEvents(w http.ResponseWriter, r *http.Request, rt Request) {
	q := r.URL.Query()
	if !q.Has("topic") {
		writeOpenAPIError(w, &openAPIError{status: http.StatusBadRequest, err: "Required request parameter 'topic' for method parameter type String is not present"}, "")
		return
	}
	limit, e := intParam(q, "limit", 0)
	if e == nil {
		_, e = intParam(q, "pollTimeoutSeconds", 0)
	}
	if e == nil {
		_, e = intParam(q, "lookbackWindowDays", 0)
	}
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	page, err := s.core.PollEvents(r.Context(), q.Get("topic"), q.Get("offsetId"), int(min(max(limit, 0), gms.MaxEventLimit)))
	if err != nil {
		var b bytes.Buffer
		b.WriteString(`{"offsetId":null,"count":null,"events":null,"errorMessage":`)
		writeString(&b, "An unexpected error occurred: "+gms.AsError(err).Message)
		b.WriteByte('}')
		writeV3JSON(w, http.StatusInternalServerError, b.Bytes())
		return
	}
	var b bytes.Buffer
	b.WriteString(`{"offsetId":`)
	writeString(&b, page.OffsetID)
	b.WriteString(`,"count":` + itoa(len(page.Events)) + `,"events":[`)
	for i, ev := range page.Events {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"contentType":"application/json","value":`)
		writeString(&b, string(ev))
		b.WriteByte('}')
	}
	b.WriteString(`],"errorMessage":null}`)
	writeV3JSON(w, http.StatusOK, b.Bytes())
}

// TimeseriesV2 serves GET /openapi/v2/timeseries/{entityName}/{aspectName}
// ?count=10&scrollId=&startTimeMillis=&endTimeMillis=: the documents of the
// aspect of every entity of the type, newest first, as
// {"scrollId":…,"results":[{"timestampMillis":…,"urn":…,"event":…,
// "messageId":…}]}.
func (s *Handler) TimeseriesV2(w http.ResponseWriter, r *http.Request, rt Request) {
	q := r.URL.Query()
	ent, e := v3Entity(rt.Vars["entityName"])
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	start, e := intParam(q, "startTimeMillis", 0)
	var end int64
	if e == nil {
		end, e = intParam(q, "endTimeMillis", 0)
	}
	if e == nil {
		_, e = boolParam(q, "systemMetadata", false)
	}
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	name, ok := gms.ResolveAspect(ent, rt.Vars["aspectName"])
	if !ok {
		name = rt.Vars["aspectName"]
	}
	hits, err := s.core.TimeseriesOfType(r.Context(), ent.Name, name, start, end)
	if err != nil {
		writeOpenAPIError(w, fromCoreV3(err), "")
		return
	}
	count, e := intParam(q, "count", 10)
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	from, e := edgeOffset(q.Get("scrollId"))
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	n := gms.ClampCount(int(min(max(count, -1), gms.MaxCount+1)))
	from = min(from, len(hits))
	to := min(from+n, len(hits))
	var b bytes.Buffer
	b.WriteByte('{')
	if to < len(hits) {
		b.WriteString(`"scrollId":`)
		writeString(&b, edgeScrollID(to))
		b.WriteByte(',')
	}
	b.WriteString(`"results":[`)
	for i, h := range hits[from:to] {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"timestampMillis":` + itoa64(h.TimestampMillis) + `,"urn":`)
		writeString(&b, h.URN)
		b.WriteString(`,"event":`)
		b.Write(h.Value)
		if strings.TrimSpace(h.MessageID) != "" {
			b.WriteString(`,"messageId":`)
			writeString(&b, h.MessageID)
		}
		b.WriteByte('}')
	}
	b.WriteString(`]}`)
	writeV3JSON(w, http.StatusOK, b.Bytes())
}
