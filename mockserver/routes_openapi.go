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

// v3Routes are the OpenAPI routes the mock serves, in DataHub's route table
// order; the versioning routes answer 501.
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
	p, ok := openapi.ParsePath(rt.path)
	if !ok {
		rt.err = &restliError{status: http.StatusNotFound, message: fmt.Sprintf(openapi.MsgNoEndpoint, r.Method, abbreviate(rt.path))}
		return rt
	}
	rt.v3.Path = p
	if p.Shape == 0 { // /versioning/...
		rt.err = &restliError{status: http.StatusNotImplemented, message: fmt.Sprintf(openapi.MsgUnsupported, r.Method, abbreviate(rt.path))}
		return rt
	}
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

// serveV3 serves an OpenAPI route with its handler in the OpenAPI adapter.
func serveV3(h func(*openapi.Handler, http.ResponseWriter, *http.Request, openapi.Request)) func(*Server, http.ResponseWriter, *http.Request, routed) {
	return func(s *Server, w http.ResponseWriter, r *http.Request, rt routed) { h(s.openapi, w, r, rt.v3) }
}
