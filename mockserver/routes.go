package mockserver

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/catalogkit/datahub-go/mockserver/internal/openapi"
)

// frontPrefix is the path under which DataHub's front end proxies GMS.
const frontPrefix = "/api/gms"

// resource is a Rest.li root resource of GMS (restli-api/src/main/idl).
type resource struct {
	class   string
	actions []string // every action DataHub defines on the collection
	methods []string // the REST methods it supports ("get", "batch_get", "delete")
}

// resources are GMS's Rest.li root resources. Those the mock does not serve
// still answer as GMS routes them, with a clear "not implemented" for the
// actions DataHub has.
var resources = map[string]resource{
	"aspects": {"com.linkedin.metadata.resources.entity.AspectResource",
		[]string{"getCount", "getTimeseriesAspectValues", "ingestProposal", "ingestProposalBatch", "restoreIndices"}, []string{"get"}},
	"entities": {"com.linkedin.metadata.resources.entity.EntityResource",
		[]string{"applyRetention", "autocomplete", "batchGetTotalEntityCount", "batchIngest", "browse", "delete",
			"deleteAll", "deleteReferences", "exists", "filter", "filterExistingUrns", "getBrowsePaths",
			"getTotalEntityCount", "ingest", "list", "listUrns", "scrollAcrossEntities", "scrollAcrossLineage",
			"search", "searchAcrossEntities", "searchAcrossLineage", "setWritable"}, []string{"get", "batch_get"}},
	"entitiesV2":          {"com.linkedin.metadata.resources.entity.EntityV2Resource", nil, []string{"get", "batch_get"}},
	"entitiesVersionedV2": {"com.linkedin.metadata.resources.entity.EntityVersionedV2Resource", nil, []string{"batch_get"}},
	"analytics":           {"com.linkedin.metadata.resources.analytics.Analytics", []string{"getTimeseriesStats"}, nil},
	"runs":                {"com.linkedin.metadata.resources.entity.BatchIngestionRunResource", []string{"describe", "list", "rollback"}, nil},
	"relationships":       {"com.linkedin.metadata.resources.lineage.Relationships", []string{"getLineage"}, []string{"get", "delete"}},
	"operations": {"com.linkedin.metadata.resources.operations.OperationsResource",
		[]string{"getEsTaskStatus", "getIndexSizes", "restoreIndices", "truncateTimeseriesAspect"}, nil},
	"platform":   {"com.linkedin.metadata.resources.platform.PlatformResource", []string{"producePlatformEvent"}, nil},
	"test":       {"com.linkedin.metadata.resources.test.MetadataTestResource", []string{"batchEvaluate", "evaluate"}, nil},
	"usageStats": {"com.linkedin.metadata.resources.usage.UsageStats", []string{"batchIngest", "query", "queryRange"}, nil},
}

// endpoint is one operation the mock serves: a Rest.li action
// (POST /resource?action=name) or a GET of /resource/{key}. Adding an
// operation is one entry in endpoints.
type endpoint struct {
	resource string
	action   string // the action's name; "" for GET /resource/{key}
	op       Op
	serve    func(s *Server, w http.ResponseWriter, r *http.Request, rt routed)
}

// endpoints are the operations the mock serves; every other route of a GMS
// resource answers as GMS's router does or 501 (see route).
var endpoints = []endpoint{
	{"aspects", "ingestProposal", OpIngestProposal, (*Server).handleIngest},
	{"aspects", "ingestProposalBatch", OpIngestProposalBatch, (*Server).handleIngest},
	{"aspects", "getTimeseriesAspectValues", OpGetTimeseries, (*Server).handleTimeseries},
	{"aspects", "getCount", OpGetCount, (*Server).handleCount},
	{"entities", "delete", OpDeleteEntity, (*Server).handleDelete},
	{"aspects", "", OpGetAspect, (*Server).handleGetAspect},
	{"entitiesV2", "", OpGetEntity, (*Server).handleGetEntity},
	{"operations", "restoreIndices", OpRestoreIndices, (*Server).handleRestoreIndices},
	{"aspects", "restoreIndices", OpRestoreIndices, (*Server).handleRestoreIndices},
	{"operations", "getIndexSizes", OpGetIndexSizes, (*Server).handleGetIndexSizes},
	{"operations", "truncateTimeseriesAspect", OpTruncateTimeseries, (*Server).handleTruncate},
	{"operations", "getEsTaskStatus", OpGetEsTaskStatus, (*Server).handleTaskStatus},
	{"test", "evaluate", OpEvaluateTests, (*Server).handleEvaluate},
}

// configEndpoint is GET /config, outside Rest.li.
var configEndpoint = &endpoint{resource: "config", op: OpConfig, serve: (*Server).handleConfig}

// healthEndpoint is GET /health and /health/live, outside Rest.li: GMS's
// readiness and liveness checks, which need no token.
var healthEndpoint = &endpoint{resource: "health", op: OpHealth, serve: (*Server).handleHealth}

// endpointIndex finds an endpoint by resource and action.
var endpointIndex = func() map[[2]string]*endpoint {
	m := make(map[[2]string]*endpoint, len(endpoints))
	for i := range endpoints {
		e := &endpoints[i]
		m[[2]string{e.resource, e.action}] = e
	}
	return m
}()

// routed is the outcome of routing a request.
type routed struct {
	ep   *endpoint // nil when err is set
	op   Op
	key  string       // the decoded entity key (URN) of /resource/{key}
	path string       // the request path without the front prefix
	uri  string       // path and query, for messages and logs
	err  *restliError // the routing failure of an OpUnknown request
	// openAPI marks a route of DataHub's OpenAPI (Spring) servlet, whose
	// errors are {"error": ...} bodies rather than Rest.li's.
	openAPI bool
	// v3 is an OpenAPI request: its parsed path and its trace id, also
	// sent in its traceparent response header.
	v3 openapi.Request
}

// route maps a request to its operation the way GMS's Rest.li router does,
// after removing the front end's /api/gms prefix.
func route(r *http.Request) routed {
	path := r.URL.EscapedPath()
	if rest, ok := strings.CutPrefix(path, frontPrefix); ok && (rest == "" || rest[0] == '/') {
		path = rest
	}
	rt := routed{op: OpUnknown, path: path, uri: path}
	if r.URL.RawQuery != "" {
		rt.uri += "?" + r.URL.RawQuery
	}
	segs := strings.Split(strings.TrimPrefix(path, "/"), "/")
	name, err := url.PathUnescape(segs[0])
	if err != nil || name == "" {
		rt.err = &restliError{status: http.StatusNotFound, class: classRouting}
		return rt
	}
	if graphQLPaths[path] {
		rt.ep, rt.op = graphqlEndpoint, OpGraphQL
		return rt
	}
	if strings.HasPrefix(path, openAPIPrefix) {
		return routeOpenAPI(r, rt)
	}
	if name == "config" && len(segs) == 1 {
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			rt.ep, rt.op = configEndpoint, OpConfig
			return rt
		}
		rt.err = errorf(http.StatusMethodNotAllowed, msgConfigMethod, abbreviate(r.Method))
		return rt
	}
	if path == "/health" || path == "/health/live" {
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			rt.ep, rt.op = healthEndpoint, OpHealth
			return rt
		}
		// A Spring controller, on a path GMS's authentication skips.
		rt.op, rt.openAPI = OpHealth, true
		rt.err = &restliError{status: http.StatusMethodNotAllowed, message: fmt.Sprintf(openapi.MsgMethod, abbreviate(r.Method))}
		return rt
	}
	res, ok := resources[name]
	if !ok {
		rt.err = routingError(http.StatusNotFound, msgNoRootResource, "/"+name)
		return rt
	}
	hasKey := len(segs) > 1 && segs[1] != ""
	if len(segs) > 2 {
		rt.err = &restliError{status: http.StatusNotFound, class: classRouting}
		return rt
	}
	if hasKey {
		key, err := url.PathUnescape(segs[1])
		if err != nil {
			rt.err = routingError(http.StatusBadRequest, msgBadKey, segs[1], err)
			return rt
		}
		rt.key = key
	}
	if action, ok := queryParam(r.URL, "action"); ok {
		if r.Method != http.MethodPost {
			rt.err = routingError(http.StatusBadRequest, msgActionNotPost, r.Method)
			return rt
		}
		if hasKey || !slices.Contains(res.actions, action) {
			rt.err = routingError(http.StatusBadRequest, msgActionNotSupported, r.Method, action, res.class, rt.uri)
			return rt
		}
		if ep := endpointIndex[[2]string{name, action}]; ep != nil {
			rt.ep, rt.op = ep, ep.op
		} else if ep := restliEndpoints[[2]string{name, action}]; ep != nil {
			rt.ep, rt.op = ep, ep.op
		} else {
			rt.err = errorf(http.StatusNotImplemented, msgActionUnsupported, abbreviate(r.Method), abbreviate(name), abbreviate(action))
		}
		return rt
	}
	ep := endpointIndex[[2]string{name, ""}]
	mep := restliEndpoints[[2]string{name, restliMethod(r, name, hasKey)}]
	switch {
	case r.Method == http.MethodGet && hasKey && ep != nil:
		rt.ep, rt.op = ep, ep.op
	case mep != nil:
		rt.ep, rt.op = mep, mep.op
	case r.Method == http.MethodGet && hasKey && slices.Contains(res.methods, "get"),
		r.Method == http.MethodGet && !hasKey && r.URL.Query().Has("ids") && slices.Contains(res.methods, "batch_get"),
		name == "relationships" && (r.Method == http.MethodGet || r.Method == http.MethodDelete):
		rt.err = errorf(http.StatusNotImplemented, msgMethodUnsupported, abbreviate(r.Method), abbreviate(rt.path))
	default:
		rt.err = routingError(http.StatusBadRequest, msgMethodNotSupported, r.Method, rt.uri, r.Header.Get("X-RestLi-Method"))
	}
	return rt
}

// queryParam is u.Query().Get(name) and u.Query().Has(name), without
// building the map for a short query that needs no unescaping (url.Query
// decides the rest, its limit on the number of parameters included).
func queryParam(u *url.URL, name string) (string, bool) {
	q := u.RawQuery
	if strings.ContainsAny(q, "%+;") || strings.Count(q, "&") >= 64 {
		vs := u.Query()
		return vs.Get(name), vs.Has(name)
	}
	for q != "" {
		var pair string
		pair, q, _ = strings.Cut(q, "&")
		if k, v, _ := strings.Cut(pair, "="); k == name {
			return v, true
		}
	}
	return "", false
}

// openAPIPrefix starts the paths of DataHub's OpenAPI servlet.
const openAPIPrefix = "/openapi/"
