package mockserver

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
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
	// v3 is the parsed path of an OpenAPI route (openapi.go).
	v3 v3Path
	// traceID is the trace id of an OpenAPI request, also sent in its
	// traceparent response header.
	traceID string
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
		rt.err = &restliError{status: http.StatusMethodNotAllowed, message: fmt.Sprintf(msgV3Method, abbreviate(r.Method))}
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
		} else {
			rt.err = errorf(http.StatusNotImplemented, msgActionUnsupported, abbreviate(r.Method), abbreviate(name), abbreviate(action))
		}
		return rt
	}
	ep := endpointIndex[[2]string{name, ""}]
	switch {
	case r.Method == http.MethodGet && hasKey && ep != nil:
		rt.ep, rt.op = ep, ep.op
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

// v3Prefix is the path of DataHub's OpenAPI v3 entity API.
const v3Prefix = "/openapi/v3/entity/"

// traceWritePrefix is the path of the write trace API, before its trace id.
const traceWritePrefix = "/openapi/v1/trace/write/"

// v3Route is one route of the OpenAPI v3 entity API (and the write trace):
// its method and path shape, after /openapi/v3/entity/.
type v3Route struct {
	method string
	shape  v3Shape
	ep     endpoint
}

// v3Shape is the shape of an OpenAPI path.
type v3Shape uint8

const (
	shapeEntityType      v3Shape = iota + 1 // {entityName}
	shapeEntity                             // {entityName}/{urn}
	shapeAspect                             // {entityName}/{urn}/{aspectName}
	shapeBatchGet                           // {entityName}/batchGet
	shapeScroll                             // scroll
	shapeGeneric                            // generic
	shapeGenericBatchGet                    // generic/batchGet
	shapeTrace                              // /openapi/v1/trace/write/{traceId}
)

// shapePaths are the path templates of the shapes, as the README lists them.
var shapePaths = map[v3Shape]string{
	shapeEntityType:      "/openapi/v3/entity/{entityName}",
	shapeEntity:          "/openapi/v3/entity/{entityName}/{urn}",
	shapeAspect:          "/openapi/v3/entity/{entityName}/{urn}/{aspectName}",
	shapeBatchGet:        "/openapi/v3/entity/{entityName}/batchGet",
	shapeScroll:          "/openapi/v3/entity/scroll",
	shapeGeneric:         "/openapi/v3/entity/generic",
	shapeGenericBatchGet: "/openapi/v3/entity/generic/batchGet",
	shapeTrace:           "/openapi/v1/trace/write/{traceId}",
}

// v3Routes are the OpenAPI routes the mock serves, in DataHub's route table
// order; the versioning routes answer 501.
var v3Routes = []v3Route{
	{http.MethodGet, shapeEntityType, endpoint{"v3", "list", OpV3List, (*Server).handleV3List}},
	{http.MethodGet, shapeEntity, endpoint{"v3", "getEntity", OpV3GetEntity, (*Server).handleV3GetEntity}},
	{http.MethodHead, shapeEntity, endpoint{"v3", "headEntity", OpV3Head, (*Server).handleV3GetEntity}},
	{http.MethodGet, shapeAspect, endpoint{"v3", "getAspect", OpV3GetAspect, (*Server).handleV3GetAspect}},
	{http.MethodHead, shapeAspect, endpoint{"v3", "headAspect", OpV3Head, (*Server).handleV3GetAspect}},
	{http.MethodDelete, shapeEntity, endpoint{"v3", "deleteEntity", OpV3Delete, (*Server).handleV3Delete}},
	{http.MethodPost, shapeEntityType, endpoint{"v3", "createEntities", OpV3Write, (*Server).handleV3Write}},
	{http.MethodDelete, shapeAspect, endpoint{"v3", "deleteAspect", OpV3Delete, (*Server).handleV3Delete}},
	{http.MethodPost, shapeAspect, endpoint{"v3", "createAspect", OpV3Write, (*Server).handleV3WriteAspect}},
	{http.MethodPatch, shapeAspect, endpoint{"v3", "patchAspect", OpV3Patch, (*Server).handleV3WriteAspect}},
	{http.MethodPost, shapeBatchGet, endpoint{"v3", "batchGet", OpV3BatchGet, (*Server).handleV3BatchGet}},
	{http.MethodPost, shapeScroll, endpoint{"v3", "scroll", OpV3List, (*Server).handleV3Scroll}},
	{http.MethodPatch, shapeEntityType, endpoint{"v3", "patchEntities", OpV3Patch, (*Server).handleV3Write}},
	{http.MethodPost, shapeGeneric, endpoint{"v3", "createGeneric", OpV3Write, (*Server).handleV3Write}},
	{http.MethodPatch, shapeGeneric, endpoint{"v3", "patchGeneric", OpV3Patch, (*Server).handleV3Write}},
	{http.MethodPost, shapeGenericBatchGet, endpoint{"v3", "batchGetGeneric", OpV3BatchGet, (*Server).handleV3BatchGet}},
	{http.MethodPost, shapeTrace, endpoint{"trace", "write", OpTraceWrite, (*Server).handleTraceWrite}},
}

// routeOpenAPI routes a request under /openapi/ the way Spring MVC maps
// DataHub's controllers: 404 {"error":"No endpoint ..."} for a path no
// controller has, 405 for a method the path does not take.
func routeOpenAPI(r *http.Request, rt routed) routed {
	rt.openAPI = true
	p, ok := parseV3Path(rt.path)
	if !ok {
		rt.err = &restliError{status: http.StatusNotFound, message: fmt.Sprintf(msgV3NoEndpoint, r.Method, abbreviate(rt.path))}
		return rt
	}
	rt.v3 = p
	if p.shape == 0 { // /versioning/...
		rt.err = &restliError{status: http.StatusNotImplemented, message: fmt.Sprintf(msgV3Unsupported, r.Method, abbreviate(rt.path))}
		return rt
	}
	allowed := false
	for i := range v3Routes {
		vr := &v3Routes[i]
		if vr.shape != p.shape {
			continue
		}
		allowed = true
		if vr.method == r.Method {
			rt.ep, rt.op = &vr.ep, vr.ep.op
			return rt
		}
	}
	if allowed {
		rt.err = &restliError{status: http.StatusMethodNotAllowed, message: fmt.Sprintf(msgV3Method, r.Method)}
	} else {
		rt.err = &restliError{status: http.StatusNotFound, message: fmt.Sprintf(msgV3NoEndpoint, r.Method, abbreviate(rt.path))}
	}
	return rt
}
