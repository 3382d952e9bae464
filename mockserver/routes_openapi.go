package mockserver

import (
	"fmt"
	"net/http"

	"github.com/catalogkit/datahub-go/mockserver/internal/openapi"
)

// The operations of DataHub's OpenAPI v3 entity API and of the write trace
// API (routed by routeOpenAPI).
const (
	// OpV3List is GET /openapi/v3/entity/{entityName} and POST
	// /openapi/v3/entity/scroll.
	OpV3List Op = "v3List"
	// OpV3GetEntity is GET /openapi/v3/entity/{entityName}/{urn}.
	OpV3GetEntity Op = "v3GetEntity"
	// OpV3GetAspect is GET /openapi/v3/entity/{entityName}/{urn}/{aspect}.
	OpV3GetAspect Op = "v3GetAspect"
	// OpV3Head is HEAD /openapi/v3/entity/{entityName}/{urn}[/{aspect}].
	OpV3Head Op = "v3Head"
	// OpV3BatchGet is POST /openapi/v3/entity/{entityName}/batchGet and
	// /openapi/v3/entity/generic/batchGet.
	OpV3BatchGet Op = "v3BatchGet"
	// OpV3Write is POST /openapi/v3/entity/{entityName},
	// /openapi/v3/entity/{entityName}/{urn}/{aspect} and /openapi/v3/entity/generic.
	OpV3Write Op = "v3Write"
	// OpV3Patch is PATCH of the same paths as OpV3Write.
	OpV3Patch Op = "v3Patch"
	// OpV3Delete is DELETE /openapi/v3/entity/{entityName}/{urn}[/{aspect}].
	OpV3Delete Op = "v3Delete"
	// OpTraceWrite is POST /openapi/v1/trace/write/{traceId}.
	OpTraceWrite Op = "traceWrite"
)

// The operations of DataHub's other OpenAPI controllers, one per
// controller family (routed by routeOpenAPI; the README lists their paths).
const (
	// OpV2Entity is any route of /openapi/v2/entity/.
	OpV2Entity Op = "v2Entity"
	// OpEntitiesV1 is any route of /openapi/entities/v1/.
	OpEntitiesV1 Op = "entitiesV1"
	// OpRelationships is /openapi/relationships/v1/ and
	// /openapi/v2/relationship/..., /openapi/v3/relationship/....
	OpRelationships Op = "relationships"
	// OpLineageV3 is POST /openapi/v3/lineage/scroll.
	OpLineageV3 Op = "lineageV3"
	// OpTimeline is GET /openapi/timeline/v1/{urn} and
	// /openapi/v2/timeline/v1/{urn}.
	OpTimeline Op = "timeline"
	// OpTimeseriesV2 is GET /openapi/v2/timeseries/{entityName}/{aspectName}.
	OpTimeseriesV2 Op = "timeseriesV2"
	// OpRegistry is any route of /openapi/v1/registry/.
	OpRegistry Op = "registry"
	// OpEntityCounts is GET /openapi/v1/entities/counts and
	// /openapi/v1/entities/{entityType}/count.
	OpEntityCounts Op = "entityCounts"
	// OpPlatformEntities is POST /openapi/v2/platform/entities/v1/.
	OpPlatformEntities Op = "platformEntities"
	// OpEventsPoll is GET /openapi/v1/events/poll.
	OpEventsPoll Op = "eventsPoll"
	// OpOpenLineage is POST /openapi/openlineage/api/v1/lineage.
	OpOpenLineage Op = "openLineage"
	// OpVersioning is any route of /openapi/v3/entity/versioning/.
	OpVersioning Op = "versioning"
)

// familyOps are the operations of the families of openapi.Routes.
var familyOps = map[string]Op{
	openapi.FamilyV2Entity:      OpV2Entity,
	openapi.FamilyEntitiesV1:    OpEntitiesV1,
	openapi.FamilyRelationships: OpRelationships,
	openapi.FamilyLineage:       OpLineageV3,
	openapi.FamilyTimeline:      OpTimeline,
	openapi.FamilyTimeseries:    OpTimeseriesV2,
	openapi.FamilyRegistry:      OpRegistry,
	openapi.FamilyEntityCounts:  OpEntityCounts,
	openapi.FamilyPlatform:      OpPlatformEntities,
	openapi.FamilyEvents:        OpEventsPoll,
	openapi.FamilyOpenLineage:   OpOpenLineage,
	openapi.FamilyVersioning:    OpVersioning,
}

func init() {
	knownOps = append(knownOps, OpV2Entity, OpEntitiesV1, OpRelationships, OpLineageV3, OpTimeline, OpTimeseriesV2,
		OpRegistry, OpEntityCounts, OpPlatformEntities, OpEventsPoll, OpOpenLineage, OpVersioning)
}

// routeEndpoints are the endpoints of openapi.Routes, by index.
var routeEndpoints = func() []endpoint {
	out := make([]endpoint, len(openapi.Routes))
	for i := range openapi.Routes {
		r := &openapi.Routes[i]
		op, ok := familyOps[r.Family]
		if !ok {
			panic("mockserver: no operation for OpenAPI family " + r.Family)
		}
		out[i] = endpoint{"openapi", r.Pattern, op, serveV3(r.Serve)}
	}
	return out
}()

// v3Route is one route of the OpenAPI v3 entity API (and the write trace):
// its method and path shape, after /openapi/v3/entity/.
type v3Route struct {
	method string
	shape  openapi.Shape
	ep     endpoint
}

// shapePaths are the path templates of the shapes, as the README lists them.
var shapePaths = map[openapi.Shape]string{
	openapi.ShapeEntityType:      "/openapi/v3/entity/{entityName}",
	openapi.ShapeEntity:          "/openapi/v3/entity/{entityName}/{urn}",
	openapi.ShapeAspect:          "/openapi/v3/entity/{entityName}/{urn}/{aspectName}",
	openapi.ShapeBatchGet:        "/openapi/v3/entity/{entityName}/batchGet",
	openapi.ShapeScroll:          "/openapi/v3/entity/scroll",
	openapi.ShapeGeneric:         "/openapi/v3/entity/generic",
	openapi.ShapeGenericBatchGet: "/openapi/v3/entity/generic/batchGet",
	openapi.ShapeTrace:           "/openapi/v1/trace/write/{traceId}",
}

// v3Routes are the OpenAPI v3 entity routes the mock serves, in DataHub's
// route table order (the other controllers' routes are openapi.Routes).
var v3Routes = []v3Route{
	{http.MethodGet, openapi.ShapeEntityType, endpoint{"v3", "list", OpV3List, serveV3((*openapi.Handler).List)}},
	{http.MethodGet, openapi.ShapeEntity, endpoint{"v3", "getEntity", OpV3GetEntity, serveV3((*openapi.Handler).GetEntity)}},
	{http.MethodHead, openapi.ShapeEntity, endpoint{"v3", "headEntity", OpV3Head, serveV3((*openapi.Handler).GetEntity)}},
	{http.MethodGet, openapi.ShapeAspect, endpoint{"v3", "getAspect", OpV3GetAspect, serveV3((*openapi.Handler).GetAspect)}},
	{http.MethodHead, openapi.ShapeAspect, endpoint{"v3", "headAspect", OpV3Head, serveV3((*openapi.Handler).GetAspect)}},
	{http.MethodDelete, openapi.ShapeEntity, endpoint{"v3", "deleteEntity", OpV3Delete, serveV3((*openapi.Handler).Delete)}},
	{http.MethodPost, openapi.ShapeEntityType, endpoint{"v3", "createEntities", OpV3Write, serveV3((*openapi.Handler).Write)}},
	{http.MethodDelete, openapi.ShapeAspect, endpoint{"v3", "deleteAspect", OpV3Delete, serveV3((*openapi.Handler).Delete)}},
	{http.MethodPost, openapi.ShapeAspect, endpoint{"v3", "createAspect", OpV3Write, serveV3((*openapi.Handler).WriteAspect)}},
	{http.MethodPatch, openapi.ShapeAspect, endpoint{"v3", "patchAspect", OpV3Patch, serveV3((*openapi.Handler).WriteAspect)}},
	{http.MethodPost, openapi.ShapeBatchGet, endpoint{"v3", "batchGet", OpV3BatchGet, serveV3((*openapi.Handler).BatchGet)}},
	{http.MethodPost, openapi.ShapeScroll, endpoint{"v3", "scroll", OpV3List, serveV3((*openapi.Handler).Scroll)}},
	{http.MethodPatch, openapi.ShapeEntityType, endpoint{"v3", "patchEntities", OpV3Patch, serveV3((*openapi.Handler).Write)}},
	{http.MethodPost, openapi.ShapeGeneric, endpoint{"v3", "createGeneric", OpV3Write, serveV3((*openapi.Handler).Write)}},
	{http.MethodPatch, openapi.ShapeGeneric, endpoint{"v3", "patchGeneric", OpV3Patch, serveV3((*openapi.Handler).Write)}},
	{http.MethodPost, openapi.ShapeGenericBatchGet, endpoint{"v3", "batchGetGeneric", OpV3BatchGet, serveV3((*openapi.Handler).BatchGet)}},
	{http.MethodPost, openapi.ShapeTrace, endpoint{"trace", "write", OpTraceWrite, serveV3((*openapi.Handler).TraceWrite)}},
}

// routeOpenAPI routes a request under /openapi/ the way Spring MVC maps
// DataHub's controllers: 404 {"error":"No endpoint ..."} for a path no
// controller has, 405 for a method the path does not take.
func routeOpenAPI(r *http.Request, rt routed) routed {
	rt.openAPI = true
	if !openapi.ValidUTF8Path(rt.path) {
		rt.err = &restliError{status: http.StatusBadRequest, message: openapi.MsgBadPathEncoding}
		return rt
	}
	if !openapi.IsV3EntityPath(rt.path) {
		return routeOpenAPIRoutes(r, rt)
	}
	p, ok := openapi.ParsePath(rt.path)
	if !ok {
		rt.err = &restliError{status: http.StatusNotFound, message: fmt.Sprintf(openapi.MsgNoEndpoint, r.Method, abbreviate(rt.path))}
		return rt
	}
	rt.v3.Path = p
	allowed := false
	for i := range v3Routes {
		vr := &v3Routes[i]
		if vr.shape != p.Shape {
			continue
		}
		allowed = true
		if vr.method == r.Method {
			rt.ep, rt.op = &vr.ep, vr.ep.op
			return rt
		}
	}
	if allowed {
		rt.err = &restliError{status: http.StatusMethodNotAllowed, message: fmt.Sprintf(openapi.MsgMethod, r.Method)}
	} else {
		rt.err = &restliError{status: http.StatusNotFound, message: fmt.Sprintf(openapi.MsgNoEndpoint, r.Method, abbreviate(rt.path))}
	}
	return rt
}

// routeOpenAPIRoutes routes a request of openapi.Routes.
func routeOpenAPIRoutes(r *http.Request, rt routed) routed {
	route, vars, status := openapi.Match(r.Method, rt.path)
	switch status {
	case http.StatusOK:
		i := route.Index()
		rt.ep, rt.op = &routeEndpoints[i], routeEndpoints[i].op
		rt.v3.Vars = vars
	case http.StatusMethodNotAllowed:
		rt.err = &restliError{status: status, message: fmt.Sprintf(openapi.MsgMethod, r.Method)}
	default:
		rt.err = &restliError{status: http.StatusNotFound, message: fmt.Sprintf(openapi.MsgNoEndpoint, r.Method, abbreviate(rt.path))}
	}
	return rt
}

// serveV3 serves an OpenAPI route with its handler in the OpenAPI adapter.
func serveV3(h func(*openapi.Handler, http.ResponseWriter, *http.Request, openapi.Request)) func(*Server, http.ResponseWriter, *http.Request, routed) {
	return func(s *Server, w http.ResponseWriter, r *http.Request, rt routed) { h(s.openapi, w, r, rt.v3) }
}
