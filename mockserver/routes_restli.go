package mockserver

import (
	"bytes"
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/restli"
	"github.com/catalogkit/datahub-go/mockserver/internal/wire"
)

// The operations of GMS's Rest.li resources served by the restli adapter
// (routeRestli).
const (
	// OpIngestEntity is POST /entities?action=ingest (an MCE's snapshot).
	OpIngestEntity Op = "ingestEntity"
	// OpBatchIngestEntities is POST /entities?action=batchIngest.
	OpBatchIngestEntities Op = "batchIngestEntities"
	// OpExists is POST /entities?action=exists.
	OpExists Op = "exists"
	// OpFilterExistingUrns is POST /entities?action=filterExistingUrns.
	OpFilterExistingUrns Op = "filterExistingUrns"
	// OpGetTotalEntityCount is POST /entities?action=getTotalEntityCount.
	OpGetTotalEntityCount Op = "getTotalEntityCount"
	// OpBatchGetTotalEntityCount is POST /entities?action=batchGetTotalEntityCount.
	OpBatchGetTotalEntityCount Op = "batchGetTotalEntityCount"
	// OpListUrns is POST /entities?action=listUrns.
	OpListUrns Op = "listUrns"
	// OpListEntities is POST /entities?action=list.
	OpListEntities Op = "list"
	// OpFilter is POST /entities?action=filter.
	OpFilter Op = "filter"
	// OpSearch is POST /entities?action=search.
	OpSearch Op = "search"
	// OpSearchAcrossEntities is POST /entities?action=searchAcrossEntities.
	OpSearchAcrossEntities Op = "searchAcrossEntities"
	// OpScrollAcrossEntities is POST /entities?action=scrollAcrossEntities.
	OpScrollAcrossEntities Op = "scrollAcrossEntities"
	// OpSearchAcrossLineage is POST /entities?action=searchAcrossLineage.
	OpSearchAcrossLineage Op = "searchAcrossLineage"
	// OpScrollAcrossLineage is POST /entities?action=scrollAcrossLineage.
	OpScrollAcrossLineage Op = "scrollAcrossLineage"
	// OpAutocomplete is POST /entities?action=autocomplete.
	OpAutocomplete Op = "autocomplete"
	// OpBrowse is POST /entities?action=browse.
	OpBrowse Op = "browse"
	// OpGetBrowsePaths is POST /entities?action=getBrowsePaths.
	OpGetBrowsePaths Op = "getBrowsePaths"
	// OpDeleteReferences is POST /entities?action=deleteReferences.
	OpDeleteReferences Op = "deleteReferences"
	// OpDeleteAll is POST /entities?action=deleteAll.
	OpDeleteAll Op = "deleteAll"
	// OpApplyRetention is POST /entities?action=applyRetention.
	OpApplyRetention Op = "applyRetention"
	// OpSetWritable is POST /entities?action=setWritable.
	OpSetWritable Op = "setWritable"
	// OpGetSnapshot is GET /entities/{urn}.
	OpGetSnapshot Op = "getSnapshot"
	// OpBatchGetSnapshots is GET /entities?ids=List(...).
	OpBatchGetSnapshots Op = "batchGetSnapshots"
	// OpBatchGetEntities is GET /entitiesV2?ids=List(...).
	OpBatchGetEntities Op = "batchGetEntities"
	// OpBatchGetVersioned is GET /entitiesVersionedV2?ids=List(...).
	OpBatchGetVersioned Op = "batchGetVersioned"
	// OpListRuns is POST /runs?action=list.
	OpListRuns Op = "listRuns"
	// OpDescribeRun is POST /runs?action=describe.
	OpDescribeRun Op = "describeRun"
	// OpRollback is POST /runs?action=rollback.
	OpRollback Op = "rollback"
	// OpGetRelationships is GET /relationships.
	OpGetRelationships Op = "getRelationships"
	// OpDeleteRelationships is DELETE /relationships.
	OpDeleteRelationships Op = "deleteRelationships"
	// OpGetLineage is POST /relationships?action=getLineage.
	OpGetLineage Op = "getLineage"
	// OpUsageBatchIngest is POST /usageStats?action=batchIngest.
	OpUsageBatchIngest Op = "usageBatchIngest"
	// OpUsageQuery is POST /usageStats?action=query.
	OpUsageQuery Op = "usageQuery"
	// OpUsageQueryRange is POST /usageStats?action=queryRange.
	OpUsageQueryRange Op = "usageQueryRange"
	// OpProducePlatformEvent is POST /platform?action=producePlatformEvent.
	OpProducePlatformEvent Op = "producePlatformEvent"
	// OpGetTimeseriesStats is POST /analytics?action=getTimeseriesStats.
	OpGetTimeseriesStats Op = "getTimeseriesStats"
	// OpBatchEvaluateTests is POST /test?action=batchEvaluate.
	OpBatchEvaluateTests Op = "batchEvaluate"
)

// restliOps names the Op of each operation of the restli adapter, by
// resource and action (or method).
var restliOps = map[[2]string]Op{
	{"entities", "ingest"}: OpIngestEntity, {"entities", "batchIngest"}: OpBatchIngestEntities,
	{"entities", "exists"}: OpExists, {"entities", "filterExistingUrns"}: OpFilterExistingUrns,
	{"entities", "getTotalEntityCount"}: OpGetTotalEntityCount, {"entities", "batchGetTotalEntityCount"}: OpBatchGetTotalEntityCount,
	{"entities", "listUrns"}: OpListUrns, {"entities", "list"}: OpListEntities, {"entities", "filter"}: OpFilter,
	{"entities", "search"}: OpSearch, {"entities", "searchAcrossEntities"}: OpSearchAcrossEntities,
	{"entities", "scrollAcrossEntities"}: OpScrollAcrossEntities, {"entities", "searchAcrossLineage"}: OpSearchAcrossLineage,
	{"entities", "scrollAcrossLineage"}: OpScrollAcrossLineage, {"entities", "autocomplete"}: OpAutocomplete,
	{"entities", "browse"}: OpBrowse, {"entities", "getBrowsePaths"}: OpGetBrowsePaths,
	{"entities", "deleteReferences"}: OpDeleteReferences, {"entities", "deleteAll"}: OpDeleteAll,
	{"entities", "applyRetention"}: OpApplyRetention, {"entities", "setWritable"}: OpSetWritable,
	{"entities", "get"}: OpGetSnapshot, {"entities", "batch_get"}: OpBatchGetSnapshots,
	{"entitiesV2", "batch_get"}: OpBatchGetEntities, {"entitiesVersionedV2", "batch_get"}: OpBatchGetVersioned,
	{"runs", "list"}: OpListRuns, {"runs", "describe"}: OpDescribeRun, {"runs", "rollback"}: OpRollback,
	{"relationships", "get"}: OpGetRelationships, {"relationships", "delete"}: OpDeleteRelationships,
	{"relationships", "getLineage"}: OpGetLineage,
	{"usageStats", "batchIngest"}:   OpUsageBatchIngest, {"usageStats", "query"}: OpUsageQuery,
	{"usageStats", "queryRange"}:         OpUsageQueryRange,
	{"platform", "producePlatformEvent"}: OpProducePlatformEvent, {"analytics", "getTimeseriesStats"}: OpGetTimeseriesStats,
	{"test", "batchEvaluate"}: OpBatchEvaluateTests,
}

// restliWrites are the adapter's operations that write proposals, whose
// unknown entity or aspect names are validation failures (422).
var restliWrites = map[Op]bool{OpIngestEntity: true, OpBatchIngestEntities: true, OpUsageBatchIngest: true}

// restliEndpoints are the adapter's operations as endpoints, by resource
// and action (or method).
var restliEndpoints = func() map[[2]string]*endpoint {
	m := map[[2]string]*endpoint{}
	for _, o := range restli.Operations() {
		name := o.Action
		if name == "" {
			name = o.Method
		}
		op, ok := restliOps[[2]string{o.Resource, name}]
		if !ok {
			panic("mockserver: no Op for the Rest.li operation " + o.Resource + " " + name)
		}
		m[[2]string{o.Resource, name}] = &endpoint{resource: o.Resource, action: o.Action, op: op, serve: serveRestli(&o)}
	}
	return m
}()

func init() {
	for _, op := range restliOps {
		knownOps = append(knownOps, op)
	}
	slices.Sort(knownOps[len(knownOps)-len(restliOps):])
}

// restliMethod is the Rest.li method a request without an action is, ""
// when none: GET /r/{key} get, GET /r?ids= batch_get, and the simple
// relationships resource's GET and DELETE.
func restliMethod(r *http.Request, name string, hasKey bool) string {
	switch {
	case name == "relationships" && !hasKey && r.Method == http.MethodGet:
		return "get"
	case name == "relationships" && !hasKey && r.Method == http.MethodDelete:
		return "delete"
	case r.Method == http.MethodGet && hasKey:
		return "get"
	case r.Method == http.MethodGet && r.URL.Query().Has("ids"):
		return "batch_get"
	}
	return ""
}

// serveRestli serves an operation of the restli adapter: an action's
// parameters are checked as Rest.li checks them (unknown, missing
// required, wrong JSON type: a 400 listing every problem), then the
// adapter answers.
func serveRestli(o *restli.Operation) func(s *Server, w http.ResponseWriter, r *http.Request, rt routed) {
	return func(s *Server, w http.ResponseWriter, r *http.Request, rt routed) {
		c := &restli.Call{Key: rt.key, Query: r.URL.Query(), RawQuery: r.URL.RawQuery}
		if o.Action != "" {
			params, rerr := restliParams(r, o)
			if rerr != nil {
				writeRestliError(w, rerr, "")
				return
			}
			c.Params = params
		}
		v, err := o.Serve(restli.New(s.core, restli.Hooks{Clock: s.cfg.clock, Receive: s.receive}), r.Context(), c)
		if err != nil {
			var re *restli.Error
			if errors.As(err, &re) {
				writeRestliError(w, errorf(re.Status, "%s", re.Message), "")
				return
			}
			e := fromCore(err, rt.op)
			if k := gms.AsError(err).Kind; (k == gms.UnknownEntity || k == gms.UnknownAspect) && !restliWrites[rt.op] {
				// GMS's read resources refuse unknown names with an
				// IllegalArgumentException (400); validation of a write
				// answers 422.
				e.status = http.StatusBadRequest
			}
			writeRestliError(w, e, "")
			return
		}
		switch {
		case v == restli.Void{}:
			h := w.Header()
			h.Set("X-RestLi-Protocol-Version", "2.0.0")
			w.WriteHeader(http.StatusOK)
		case o.Action != "":
			writeValue(w, v)
		default:
			writeJSON(w, v)
		}
	}
}

// restliParams reads and checks an action's parameters.
func restliParams(r *http.Request, o *restli.Operation) (wire.Map, *restliError) {
	body, rerr := readBody(r)
	if rerr != nil {
		return nil, rerr
	}
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	params, rerr := actionParams(body)
	if rerr != nil {
		return nil, rerr
	}
	var pe paramErrors
	for _, k := range params.SortedKeys() {
		if !slices.ContainsFunc(o.Params, func(p restli.Param) bool { return p.Name == k }) {
			pe.add(msgParamUnknown, "/"+k)
		}
	}
	for _, p := range o.Params {
		v, ok := params.Get(p.Name)
		if !ok || wire.IsNull(v) {
			if p.Required {
				pe.add(msgParamRequired, "/"+p.Name)
			}
			continue
		}
		if !jsonKindFits(p.Type, v) {
			pe.add(msgParamType, "/"+p.Name, compact(v), p.Type)
		}
	}
	if len(pe) > 0 {
		return nil, errorf(http.StatusBadRequest, "%s", joinParamErrors(o.Action, pe))
	}
	return params, nil
}

// jsonKindFits reports whether v's JSON kind is the Rest.li type's.
func jsonKindFits(typ string, v []byte) bool {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return false
	}
	switch typ {
	case "String":
		return v[0] == '"'
	case "Integer", "Long":
		s := string(v)
		return s != "" && (s[0] == '-' || (s[0] >= '0' && s[0] <= '9')) && !strings.ContainsAny(s, ".eE")
	case "Boolean":
		return string(v) == "true" || string(v) == "false"
	case "Array":
		return v[0] == '['
	case "Record":
		return v[0] == '{'
	}
	return true
}
