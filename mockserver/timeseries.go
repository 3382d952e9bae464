package mockserver

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/wire"
)

// timeseriesResponse is com.linkedin.aspect.GetTimeseriesAspectValuesResponse.
type timeseriesResponse struct {
	EntityName      string              `json:"entityName"`
	AspectName      string              `json:"aspectName"`
	StartTimeMillis *int64              `json:"startTimeMillis,omitempty"`
	EndTimeMillis   *int64              `json:"endTimeMillis,omitempty"`
	Limit           *int64              `json:"limit,omitempty"`
	Values          []timeseriesEnvelop `json:"values"`
}

// timeseriesEnvelop is com.linkedin.metadata.aspect.EnvelopedAspect: the
// aspect as a GenericAspect (its JSON text as Pegasus bytes).
type timeseriesEnvelop struct {
	Aspect         genericAspect   `json:"aspect"`
	SystemMetadata json.RawMessage `json:"systemMetadata"`
}

type genericAspect struct {
	Value       string `json:"value"`
	ContentType string `json:"contentType"`
}

// timeseriesParams are the parameters of getTimeseriesAspectValues.
type timeseriesParams struct {
	URN             *string         `json:"urn"`
	Entity          *string         `json:"entity"`
	Aspect          *string         `json:"aspect"`
	StartTimeMillis *int64          `json:"startTimeMillis"`
	EndTimeMillis   *int64          `json:"endTimeMillis"`
	Limit           *int64          `json:"limit"`
	LatestValue     *bool           `json:"latestValue"`
	Filter          json.RawMessage `json:"filter"`
	Sort            json.RawMessage `json:"sort"`
}

// filterCriteria reports whether a Filter holds any criterion.
func filterCriteria(raw json.RawMessage) bool {
	if len(raw) == 0 || wire.IsNull(raw) {
		return false
	}
	var f struct {
		Or []struct {
			And []json.RawMessage `json:"and"`
		} `json:"or"`
		Criteria []json.RawMessage `json:"criteria"`
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		return true
	}
	for _, c := range f.Or {
		if len(c.And) > 0 {
			return true
		}
	}
	return len(f.Criteria) > 0
}

// handleTimeseries serves POST /aspects?action=getTimeseriesAspectValues:
// the documents of a timeseries aspect, newest first, within the optional
// time range and limit. Filters with criteria and sorts are not supported.
func (s *Server) handleTimeseries(w http.ResponseWriter, r *http.Request, rt routed) {
	body, rerr := readBody(r)
	if rerr != nil {
		writeRestliError(w, rerr, "")
		return
	}
	var p timeseriesParams
	if err := json.Unmarshal(body, &p); err != nil {
		writeRestliError(w, errorf(http.StatusBadRequest, msgBadBody, gms.JSONErrorText(err)), "")
		return
	}
	var pe paramErrors
	for _, f := range []struct {
		name string
		v    *string
	}{{"/urn", p.URN}, {"/entity", p.Entity}, {"/aspect", p.Aspect}} {
		if f.v == nil {
			pe.add(msgParamRequired, f.name)
		}
	}
	if p.Limit != nil && int64(int32(*p.Limit)) != *p.Limit {
		// limit is an int in the restspec: Rest.li refuses a value it
		// cannot coerce, as decodeParams does for every Integer.
		pe.add(msgParamType, "/limit", strconv.FormatInt(*p.Limit, 10), "Integer")
	}
	if len(pe) > 0 {
		writeRestliError(w, errorf(http.StatusBadRequest, "%s", joinParamErrors("getTimeseriesAspectValues", pe)), "")
		return
	}
	if filterCriteria(p.Filter) || (len(p.Sort) > 0 && !wire.IsNull(p.Sort)) {
		writeRestliError(w, errorf(http.StatusNotImplemented, msgTimeseriesFilter), "")
		return
	}
	q := gms.TimeseriesQuery{URN: *p.URN, Entity: *p.Entity, Aspect: *p.Aspect,
		Limit: gms.TimeseriesLimit(p.Limit, p.LatestValue != nil && *p.LatestValue)}
	if p.StartTimeMillis != nil {
		q.StartMillis = *p.StartTimeMillis
	}
	if p.EndTimeMillis != nil {
		q.EndMillis = *p.EndTimeMillis
	}
	docs, err := s.core.Timeseries(r.Context(), q)
	if err != nil {
		writeRestliError(w, fromCore(err, rt.op), "")
		return
	}
	resp := timeseriesResponse{EntityName: *p.Entity, AspectName: *p.Aspect,
		StartTimeMillis: p.StartTimeMillis, EndTimeMillis: p.EndTimeMillis, Limit: p.Limit, Values: []timeseriesEnvelop{}}
	for _, d := range docs {
		sm := d.SystemMetadata
		if len(sm) == 0 {
			sm = json.RawMessage(`{}`)
		}
		resp.Values = append(resp.Values, timeseriesEnvelop{
			Aspect:         genericAspect{Value: latin1(d.Value), ContentType: "application/json"},
			SystemMetadata: sm,
		})
	}
	writeJSON(w, map[string]timeseriesResponse{"value": resp})
}

// handleCount serves POST /aspects?action=getCount: the number of entities
// holding aspect, optionally whose URN matches the SQL LIKE pattern urnLike.
func (s *Server) handleCount(w http.ResponseWriter, r *http.Request, rt routed) {
	body, rerr := readBody(r)
	if rerr != nil {
		writeRestliError(w, rerr, "")
		return
	}
	var p struct {
		Aspect  *string `json:"aspect"`
		URNLike *string `json:"urnLike"`
	}
	if err := json.Unmarshal(body, &p); err != nil {
		writeRestliError(w, errorf(http.StatusBadRequest, msgBadBody, gms.JSONErrorText(err)), "")
		return
	}
	if p.Aspect == nil {
		var pe paramErrors
		pe.add(msgParamRequired, "/aspect")
		writeRestliError(w, errorf(http.StatusBadRequest, "%s", joinParamErrors("getCount", pe)), "")
		return
	}
	n, err := s.core.Count(r.Context(), *p.Aspect, p.URNLike)
	if err != nil {
		writeRestliError(w, fromCore(err, rt.op), "")
		return
	}
	writeJSON(w, map[string]int{"value": n})
}
