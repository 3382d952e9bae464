package openapi

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Route is one route of DataHub's OpenAPI servlet outside the v3 entity
// API: its method, its path template as the controller's @RequestMapping
// paths give it, the family of operations it belongs to (the server counts
// requests and injects faults by family) and its handler.
type Route struct {
	Method  string
	Pattern string
	Family  string
	Serve   func(*Handler, http.ResponseWriter, *http.Request, Request)
	segs    []string
	varSegs int // how many segments are {variables}
	index   int
}

// literals is how many of the route's segments are literal.
func (rt *Route) literals() int { return len(rt.segs) - rt.varSegs }

// Index is the route's index in [Routes].
func (rt *Route) Index() int { return rt.index }

// IsV3EntityPath reports whether path (escaped) is one of the v3 entity API
// or of the write trace, which [ParsePath] parses, rather than one of
// [Routes].
func IsV3EntityPath(path string) bool {
	if strings.HasPrefix(path, traceWritePrefix) {
		return true
	}
	rest, ok := strings.CutPrefix(path, v3Prefix)
	return ok && !strings.HasPrefix(rest, "versioning/")
}

// The families of [Routes].
const (
	FamilyV2Entity      = "v2Entity"
	FamilyEntitiesV1    = "entitiesV1"
	FamilyRelationships = "relationships"
	FamilyLineage       = "lineage"
	FamilyTimeline      = "timeline"
	FamilyTimeseries    = "timeseriesV2"
	FamilyRegistry      = "registry"
	FamilyEntityCounts  = "entityCounts"
	FamilyPlatform      = "platformEntities"
	FamilyEvents        = "events"
	FamilyOpenLineage   = "openLineage"
	FamilyVersioning    = "versioning"
)

// Routes are the OpenAPI routes the adapter serves besides the v3 entity
// API and the write trace ([ParsePath]), with DataHub's paths. A variable
// whose name ends in "rn" ({urn}, {entityUrn}) takes a URN, which may hold
// slashes; {aspectName} takes an aspect name.
var Routes = []Route{
	// EntityController (v2), as GenericEntitiesController serves it.
	{Method: http.MethodPost, Pattern: "/openapi/v2/entity/batch/{entityName}", Family: FamilyV2Entity, Serve: (*Handler).V2BatchGet},
	{Method: http.MethodGet, Pattern: "/openapi/v2/entity/{entityName}", Family: FamilyV2Entity, Serve: (*Handler).V2List},
	{Method: http.MethodPost, Pattern: "/openapi/v2/entity/{entityName}", Family: FamilyV2Entity, Serve: (*Handler).V2Write},
	{Method: http.MethodGet, Pattern: "/openapi/v2/entity/{entityName}/{urn}/{aspectName}", Family: FamilyV2Entity, Serve: (*Handler).V2GetAspect},
	{Method: http.MethodHead, Pattern: "/openapi/v2/entity/{entityName}/{urn}/{aspectName}", Family: FamilyV2Entity, Serve: (*Handler).V2GetAspect},
	{Method: http.MethodDelete, Pattern: "/openapi/v2/entity/{entityName}/{urn}/{aspectName}", Family: FamilyV2Entity, Serve: (*Handler).V2Delete},
	{Method: http.MethodPost, Pattern: "/openapi/v2/entity/{entityName}/{urn}/{aspectName}", Family: FamilyV2Entity, Serve: (*Handler).V2WriteAspect},
	{Method: http.MethodPatch, Pattern: "/openapi/v2/entity/{entityName}/{urn}/{aspectName}", Family: FamilyV2Entity, Serve: (*Handler).V2WriteAspect},
	{Method: http.MethodGet, Pattern: "/openapi/v2/entity/{entityName}/{urn}", Family: FamilyV2Entity, Serve: (*Handler).V2GetEntity},
	{Method: http.MethodHead, Pattern: "/openapi/v2/entity/{entityName}/{urn}", Family: FamilyV2Entity, Serve: (*Handler).V2GetEntity},
	{Method: http.MethodDelete, Pattern: "/openapi/v2/entity/{entityName}/{urn}", Family: FamilyV2Entity, Serve: (*Handler).V2Delete},

	// EntitiesController (v1).
	{Method: http.MethodGet, Pattern: "/openapi/entities/v1/latest", Family: FamilyEntitiesV1, Serve: (*Handler).V1Latest},
	{Method: http.MethodPost, Pattern: "/openapi/entities/v1/", Family: FamilyEntitiesV1, Serve: (*Handler).V1Post},
	{Method: http.MethodDelete, Pattern: "/openapi/entities/v1/", Family: FamilyEntitiesV1, Serve: (*Handler).V1Delete},

	// RelationshipsController (v1) and GenericRelationshipController (v2, v3).
	{Method: http.MethodGet, Pattern: "/openapi/relationships/v1/", Family: FamilyRelationships, Serve: (*Handler).V1Relationships},
	{Method: http.MethodGet, Pattern: "/openapi/relationships/v1", Family: FamilyRelationships, Serve: (*Handler).V1Relationships},
	{Method: http.MethodPost, Pattern: "/openapi/v2/relationship/scroll", Family: FamilyRelationships, Serve: (*Handler).RelationshipScroll},
	{Method: http.MethodGet, Pattern: "/openapi/v2/relationship/{relationshipType}", Family: FamilyRelationships, Serve: (*Handler).RelationshipsByType},
	{Method: http.MethodGet, Pattern: "/openapi/v2/relationship/{entityName}/{urn}", Family: FamilyRelationships, Serve: (*Handler).RelationshipsOf},
	{Method: http.MethodPost, Pattern: "/openapi/v3/relationship/scroll", Family: FamilyRelationships, Serve: (*Handler).RelationshipScroll},
	{Method: http.MethodGet, Pattern: "/openapi/v3/relationship/{relationshipType}", Family: FamilyRelationships, Serve: (*Handler).RelationshipsByType},
	{Method: http.MethodGet, Pattern: "/openapi/v3/relationship/{entityName}/{urn}", Family: FamilyRelationships, Serve: (*Handler).RelationshipsOf},

	// LineageController (v3).
	{Method: http.MethodPost, Pattern: "/openapi/v3/lineage/scroll", Family: FamilyLineage, Serve: (*Handler).LineageScroll},

	// TimelineControllerV1 and TimelineControllerV2.
	{Method: http.MethodGet, Pattern: "/openapi/timeline/v1/{urn}", Family: FamilyTimeline, Serve: (*Handler).Timeline},
	{Method: http.MethodGet, Pattern: "/openapi/v2/timeline/v1/{urn}", Family: FamilyTimeline, Serve: (*Handler).Timeline},

	// TimeseriesController (v2).
	{Method: http.MethodGet, Pattern: "/openapi/v2/timeseries/{entityName}/{aspectName}", Family: FamilyTimeseries, Serve: (*Handler).TimeseriesV2},

	// EntityRegistryController and LineageRegistryController.
	{Method: http.MethodGet, Pattern: "/openapi/v1/registry/models/entity/specifications", Family: FamilyRegistry, Serve: (*Handler).EntitySpecs},
	{Method: http.MethodGet, Pattern: "/openapi/v1/registry/models/entity/specifications/{entityName}", Family: FamilyRegistry, Serve: (*Handler).EntitySpec},
	{Method: http.MethodGet, Pattern: "/openapi/v1/registry/models/entity/specifications/{entityName}/aspects", Family: FamilyRegistry, Serve: (*Handler).EntityAspectSpecs},
	{Method: http.MethodGet, Pattern: "/openapi/v1/registry/models/aspect/specifications", Family: FamilyRegistry, Serve: (*Handler).AspectSpecs},
	{Method: http.MethodGet, Pattern: "/openapi/v1/registry/models/aspect/specifications/{aspectName}", Family: FamilyRegistry, Serve: (*Handler).AspectSpec},
	{Method: http.MethodGet, Pattern: "/openapi/v1/registry/models/event/specifications", Family: FamilyRegistry, Serve: (*Handler).EventSpecs},
	{Method: http.MethodGet, Pattern: "/openapi/v1/registry/lineage/specifications", Family: FamilyRegistry, Serve: (*Handler).LineageSpecs},
	{Method: http.MethodGet, Pattern: "/openapi/v1/registry/lineage/specifications/{entityName}", Family: FamilyRegistry, Serve: (*Handler).LineageSpec},
	{Method: http.MethodGet, Pattern: "/openapi/v1/registry/lineage/edges/{entityName}", Family: FamilyRegistry, Serve: (*Handler).LineageEdges},
	{Method: http.MethodGet, Pattern: "/openapi/v1/registry/lineage/edges/{entityName}/{direction}", Family: FamilyRegistry, Serve: (*Handler).LineageEdges},

	// EntityCountsController.
	{Method: http.MethodGet, Pattern: "/openapi/v1/entities/counts", Family: FamilyEntityCounts, Serve: (*Handler).EntityCounts},
	{Method: http.MethodGet, Pattern: "/openapi/v1/entities/{entityType}/count", Family: FamilyEntityCounts, Serve: (*Handler).EntityTypeCount},

	// PlatformEntitiesController.
	{Method: http.MethodPost, Pattern: "/openapi/v2/platform/entities/v1/", Family: FamilyPlatform, Serve: (*Handler).PlatformEntities},

	// ExternalEventsController.
	{Method: http.MethodGet, Pattern: "/openapi/v1/events/poll", Family: FamilyEvents, Serve: (*Handler).PollEvents},

	// OpenLineage's LineageApiImpl.
	{Method: http.MethodPost, Pattern: "/openapi/openlineage/api/v1/lineage", Family: FamilyOpenLineage, Serve: (*Handler).OpenLineage},

	// EntityVersioningController (v3), behind its feature flag.
	{Method: http.MethodPost, Pattern: "/openapi/v3/entity/versioning/{versionSetUrn}/relationship/versionOf/{entityUrn}", Family: FamilyVersioning, Serve: (*Handler).LinkVersion},
	{Method: http.MethodDelete, Pattern: "/openapi/v3/entity/versioning/{versionSetUrn}/relationship/versionOf/{entityUrn}", Family: FamilyVersioning, Serve: (*Handler).UnlinkVersion},
}

func init() {
	for i := range Routes {
		r := &Routes[i]
		r.index = i
		r.segs = strings.Split(strings.TrimPrefix(r.Pattern, "/"), "/")
		for _, s := range r.segs {
			if isVar(s) {
				r.varSegs++
			}
		}
	}
}

// isVar reports whether a template segment is a {variable}.
func isVar(s string) bool { return strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") }

// isURNVar reports whether a template segment is a variable taking a URN.
func isURNVar(s string) bool { return isVar(s) && strings.HasSuffix(strings.ToLower(s), "rn}") }

// Vars are the variables a matched route's path gave, decoded.
type Vars map[string]string

// Match finds the route of method and path (escaped, as the request gave
// it): the route, or nil and 404 when no route has the path, or nil and 405
// when the path's routes take other methods. Of the routes that match, the
// one with the most literal segments wins, then the one with the most
// segments (an aspect route over the entity route whose URN would take
// the aspect's name), as Spring prefers the more specific pattern.
func Match(method, path string) (*Route, Vars, int) {
	raw := strings.Split(strings.TrimPrefix(path, "/"), "/")
	segs := make([]string, len(raw))
	for i, s := range raw {
		d, err := url.PathUnescape(s)
		if err != nil {
			return nil, nil, http.StatusNotFound
		}
		segs[i] = d
	}
	var best *Route
	var bestVars Vars
	pathMatched := false
	for i := range Routes {
		rt := &Routes[i]
		vars, ok := rt.match(segs)
		if !ok {
			continue
		}
		pathMatched = true
		if rt.Method != method {
			continue
		}
		if best == nil || rt.literals() > best.literals() || rt.literals() == best.literals() && len(rt.segs) > len(best.segs) {
			best, bestVars = rt, vars
		}
	}
	switch {
	case best != nil:
		return best, bestVars, http.StatusOK
	case pathMatched:
		return nil, nil, http.StatusMethodNotAllowed
	}
	return nil, nil, http.StatusNotFound
}

// match matches the decoded segments of a path against the route's
// template.
func (rt *Route) match(segs []string) (Vars, bool) {
	var vars Vars
	j := 0
	for i, t := range rt.segs {
		if j >= len(segs) {
			return nil, false
		}
		if !isVar(t) {
			if segs[j] != t {
				return nil, false
			}
			j++
			continue
		}
		if vars == nil {
			vars = Vars{}
		}
		name := t[1 : len(t)-1]
		if !isURNVar(t) {
			if segs[j] == "" || name == "aspectName" && i == len(rt.segs)-1 && !isAspectName(segs[j]) {
				return nil, false
			}
			vars[name] = segs[j]
			j++
			continue
		}
		// A URN takes every segment up to those the rest of the template needs.
		end := len(segs) - (len(rt.segs) - i - 1)
		if end <= j || !strings.HasPrefix(segs[j], "urn:li:") {
			return nil, false
		}
		u := strings.Join(segs[j:end], "/")
		if !balanced(u) {
			return nil, false
		}
		vars[name] = u
		j = end
	}
	return vars, j == len(segs)
}

// ValidUTF8Path reports whether every escape of an escaped path decodes to
// UTF-8; DataHub's servlet container refuses a path whose escapes do not
// with 400.
func ValidUTF8Path(path string) bool {
	if !strings.Contains(path, "%") {
		return true
	}
	d, err := url.PathUnescape(path)
	return err != nil || utf8.ValidString(d)
}

// MsgBadPathEncoding is the answer to a path whose escapes are not UTF-8.
const MsgBadPathEncoding = "Invalid URI: the path's escapes are not UTF-8 (datahub-mock)"

// itoa is strconv.Itoa.
func itoa(n int) string { return strconv.Itoa(n) }

// itoa64 is strconv.FormatInt in base 10.
func itoa64(n int64) string { return strconv.FormatInt(n, 10) }
