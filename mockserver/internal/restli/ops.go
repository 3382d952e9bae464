package restli

// p builds a Param.
func p(name, typ string, required bool) Param {
	return Param{Name: name, Type: typ, Required: required}
}

// Parameters shared by several actions.
var (
	searchSort = []Param{p("sort", "Record", false), p("sortCriteria", "Array", false)}
	flags      = p("searchFlags", "Record", false)
)

func with(ps ...[]Param) []Param {
	var out []Param
	for _, x := range ps {
		out = append(out, x...)
	}
	return out
}

// operations are the operations the adapter serves, each with its
// restspec's parameters (a test checks them against DataHub's restspecs).
var operations = []Operation{
	// entities (EntityResource)
	{Resource: "entities", Action: "ingest", serve: ingest,
		Params: []Param{p("entity", "Record", true), p("systemMetadata", "Record", false)}},
	{Resource: "entities", Action: "batchIngest", serve: batchIngest,
		Params: []Param{p("entities", "Array", true), p("systemMetadata", "Array", false)}},
	{Resource: "entities", Action: "exists", serve: exists,
		Params: []Param{p("urn", "String", true), p("includeSoftDelete", "Boolean", false)}},
	{Resource: "entities", Action: "filterExistingUrns", serve: filterExistingUrns,
		Params: []Param{p("request", "Record", true)}},
	{Resource: "entities", Action: "getTotalEntityCount", serve: getTotalEntityCount,
		Params: []Param{p("entity", "String", true)}},
	{Resource: "entities", Action: "batchGetTotalEntityCount", serve: batchGetTotalEntityCount,
		Params: []Param{p("entities", "Array", true)}},
	{Resource: "entities", Action: "listUrns", serve: listUrns,
		Params: []Param{p("entity", "String", true), p("start", "Integer", true), p("count", "Integer", true)}},
	{Resource: "entities", Action: "list", serve: list,
		Params: with([]Param{p("entity", "String", true), p("filter", "Record", false)}, searchSort,
			[]Param{p("start", "Integer", true), p("count", "Integer", true)})},
	{Resource: "entities", Action: "filter", serve: filterAction,
		Params: with([]Param{p("entity", "String", true), p("filter", "Record", true)}, searchSort,
			[]Param{p("start", "Integer", true), p("count", "Integer", true)})},
	{Resource: "entities", Action: "search", serve: search,
		Params: with([]Param{p("entity", "String", true), p("input", "String", true), p("filter", "Record", false)}, searchSort,
			[]Param{p("start", "Integer", true), p("count", "Integer", true), p("fulltext", "Boolean", false), flags})},
	{Resource: "entities", Action: "searchAcrossEntities", serve: searchAcrossEntities,
		Params: with([]Param{p("entities", "Array", false), p("input", "String", true), p("filter", "Record", false)}, searchSort,
			[]Param{p("start", "Integer", true), p("count", "Integer", true), flags})},
	{Resource: "entities", Action: "scrollAcrossEntities", serve: scrollAcrossEntities,
		Params: with([]Param{p("entities", "Array", false), p("input", "String", true), p("filter", "Record", false)}, searchSort,
			[]Param{p("scrollId", "String", false), p("keepAlive", "String", true), p("count", "Integer", true), flags})},
	{Resource: "entities", Action: "searchAcrossLineage", serve: searchAcrossLineage,
		Params: with([]Param{p("urn", "String", true), p("direction", "String", true), p("entities", "Array", false),
			p("input", "String", false), p("maxHops", "Integer", false), p("filter", "Record", false)}, searchSort,
			[]Param{p("start", "Integer", true), p("count", "Integer", true), p("startTimeMillis", "Long", false),
				p("endTimeMillis", "Long", false), flags})},
	{Resource: "entities", Action: "scrollAcrossLineage", serve: scrollAcrossLineage,
		Params: with([]Param{p("urn", "String", true), p("direction", "String", true), p("entities", "Array", false),
			p("input", "String", false), p("maxHops", "Integer", false), p("filter", "Record", false)}, searchSort,
			[]Param{p("scrollId", "String", false), p("keepAlive", "String", true), p("count", "Integer", true),
				p("startTimeMillis", "Long", false), p("endTimeMillis", "Long", false), flags})},
	{Resource: "entities", Action: "autocomplete", serve: autocomplete,
		Params: []Param{p("entity", "String", true), p("query", "String", true), p("field", "String", false),
			p("filter", "Record", false), p("limit", "Integer", true), flags}},
	{Resource: "entities", Action: "browse", serve: browse,
		Params: []Param{p("entity", "String", true), p("path", "String", true), p("filter", "Record", false),
			p("start", "Integer", true), p("limit", "Integer", true), flags}},
	{Resource: "entities", Action: "getBrowsePaths", serve: getBrowsePaths,
		Params: []Param{p("urn", "String", true)}},
	{Resource: "entities", Action: "deleteReferences", serve: deleteReferences,
		Params: []Param{p("urn", "String", true), p("dryRun", "Boolean", false)}},
	{Resource: "entities", Action: "deleteAll", serve: deleteAll,
		Params: []Param{p("registryId", "String", false), p("dryRun", "Boolean", false)}},
	{Resource: "entities", Action: "applyRetention", serve: applyRetention,
		Params: []Param{p("start", "Integer", false), p("count", "Integer", false), p("attemptWithVersion", "Integer", false),
			p("aspectName", "String", false), p("urn", "String", false)}},
	{Resource: "entities", Action: "setWritable", serve: setWritable,
		Params: []Param{p("value", "Boolean", false)}},
	{Resource: "entities", Method: "get", serve: getSnapshot},
	{Resource: "entities", Method: "batch_get", serve: batchGetSnapshots},
	// entitiesV2, entitiesVersionedV2
	{Resource: "entitiesV2", Method: "batch_get", serve: batchGetEntities},
	{Resource: "entitiesVersionedV2", Method: "batch_get", serve: batchGetVersioned},
	// runs (BatchIngestionRunResource)
	{Resource: "runs", Action: "list", serve: listRuns,
		Params: []Param{p("pageOffset", "Integer", false), p("pageSize", "Integer", false), p("includeSoft", "Boolean", false)}},
	{Resource: "runs", Action: "describe", serve: describeRun,
		Params: []Param{p("runId", "String", true), p("start", "Integer", true), p("count", "Integer", true),
			p("includeSoft", "Boolean", false), p("includeAspect", "Boolean", false)}},
	{Resource: "runs", Action: "rollback", serve: rollback,
		Params: []Param{p("runId", "String", true), p("dryRun", "Boolean", false), p("hardDelete", "Boolean", false),
			p("safe", "Boolean", false)}},
	// relationships
	{Resource: "relationships", Method: "get", serve: getRelationships},
	{Resource: "relationships", Method: "delete", serve: deleteRelationships},
	{Resource: "relationships", Action: "getLineage", serve: getLineage,
		Params: []Param{p("urn", "String", true), p("direction", "String", true), p("start", "Integer", false),
			p("count", "Integer", false), p("maxHops", "Integer", false)}},
	// usageStats
	{Resource: "usageStats", Action: "batchIngest", serve: usageBatchIngest,
		Params: []Param{p("buckets", "Array", true)}},
	{Resource: "usageStats", Action: "query", serve: usageQuery,
		Params: []Param{p("resource", "String", true), p("duration", "String", true), p("startTime", "Long", false),
			p("endTime", "Long", false), p("maxBuckets", "Integer", false), p("timeZone", "String", false)}},
	{Resource: "usageStats", Action: "queryRange", serve: usageQueryRange,
		Params: []Param{p("resource", "String", true), p("duration", "String", true), p("rangeFromEnd", "String", true),
			p("startTime", "Long", false), p("timeZone", "String", false)}},
	// platform, analytics, test
	{Resource: "platform", Action: "producePlatformEvent", serve: producePlatformEvent,
		Params: []Param{p("name", "String", true), p("key", "String", false), p("event", "Record", true)}},
	{Resource: "analytics", Action: "getTimeseriesStats", serve: timeseriesStats,
		Params: []Param{p("entityName", "String", true), p("aspectName", "String", true), p("metrics", "Array", true),
			p("filter", "Record", false), p("buckets", "Array", false)}},
	{Resource: "test", Action: "batchEvaluate", serve: batchEvaluate,
		Params: []Param{p("urns", "Array", true), p("tests", "Array", false), p("push", "Boolean", false)}},
}
