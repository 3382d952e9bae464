package openapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/wire"
)

// traceIDOf extracts the trace id of the trace route's path parameter as
// DataHub's TraceController does: the second part of a traceparent, or 32
// hex digits.
func traceIDOf(s string) (string, bool) {
	if parts := strings.Split(s, "-"); len(parts) > 1 {
		s = parts[1]
	}
	if len(s) != 32 {
		return "", false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return "", false
		}
	}
	return strings.ToLower(s), true
}

// traceStorageJSON is TraceStorageStatus.
type traceStorageJSON struct {
	WriteStatus     string               `json:"writeStatus"`
	WriteMessage    string               `json:"writeMessage,omitempty"`
	WriteExceptions []traceExceptionJSON `json:"writeExceptions,omitempty"`
}

type traceExceptionJSON struct {
	Message        string `json:"message"`
	ExceptionClass string `json:"exceptionClass,omitempty"`
}

// traceStatusJSON is TraceStatus.
type traceStatusJSON struct {
	Success        bool             `json:"success"`
	PrimaryStorage traceStorageJSON `json:"primaryStorage"`
	SearchStorage  traceStorageJSON `json:"searchStorage"`
}

func storageJSON(st gms.TraceStorage, detailed bool) traceStorageJSON {
	out := traceStorageJSON{WriteStatus: st.WriteStatus, WriteMessage: st.WriteMessage}
	if detailed {
		for _, e := range st.Exceptions {
			out.WriteExceptions = append(out.WriteExceptions, traceExceptionJSON{Message: e.Message, ExceptionClass: e.ExceptionClass})
		}
	}
	return out
}

// TraceWrite serves POST /openapi/v1/trace/write/{traceId}
// ({"<urn>":["<aspect>",…]}; an empty list means every aspect): what
// became of each aspect written under the trace id, in primary storage
// (the store) and search storage (the index, PENDING until it caught up).
// onlyIncludeErrors (default true) keeps failed aspects only; detailed adds
// the failures' exceptions.
func (s *Handler) TraceWrite(w http.ResponseWriter, r *http.Request, rt Request) {
	q := r.URL.Query()
	onlyErrors, e := boolParam(q, "onlyIncludeErrors", true)
	var detailed bool
	if e == nil {
		detailed, e = boolParam(q, "detailed", false)
	}
	if e == nil {
		_, e = boolParam(q, "skipCache", false)
	}
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	traceID, ok := traceIDOf(rt.Path.traceID)
	if !ok {
		writeOpenAPIError(w, v3Errorf(http.StatusBadRequest, msgV3BadTraceID, rt.Path.traceID), "")
		return
	}
	body, ok := readV3TypedBody(w, r)
	if !ok {
		return
	}
	m, err := wire.UnmarshalObject(body)
	if err != nil || m == nil {
		writeOpenAPIError(w, &openAPIError{status: http.StatusBadRequest, err: msgV3Malformed}, "")
		return
	}
	req := make([]gms.TraceAspects, 0, len(m))
	for _, mb := range m {
		var names []string
		if err := json.Unmarshal(mb.Value, &names); err != nil {
			writeOpenAPIError(w, &openAPIError{status: http.StatusBadRequest, err: msgV3Malformed}, "")
			return
		}
		req = append(req, gms.TraceAspects{URN: mb.Key, Aspects: names})
	}
	res, cerr := s.core.Trace(r.Context(), traceID, req, onlyErrors)
	if cerr != nil {
		writeOpenAPIError(w, fromCoreV3(cerr), "")
		return
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, ta := range res {
		writeMember(&b, i, ta.URN)
		b.WriteByte('{')
		for j, a := range ta.Aspects {
			st := ta.Status[a]
			enc, _ := wire.MarshalJSON(traceStatusJSON{Success: st.Success,
				PrimaryStorage: storageJSON(st.Primary, detailed), SearchStorage: storageJSON(st.Search, detailed)})
			writeMember(&b, j, a)
			b.Write(enc)
		}
		b.WriteByte('}')
	}
	b.WriteByte('}')
	writeV3JSON(w, http.StatusOK, b.Bytes())
}
