package index

// LineageEdge is one @Relationship annotation with isLineage: an aspect
// field whose values are URNs its entity has a lineage edge to.
type LineageEdge struct {
	// Aspect is the aspect's name; Path the field's path in its JSON, as in
	// [SearchField].
	Aspect, Path string
	// Name is the relationship's name ("DownstreamOf").
	Name string
	// Upstream is isUpstream (DataHub's default, true): the values are the
	// entity's upstreams; false: its downstreams.
	Upstream bool
}

// Document fields that hold an entity's lineage edges: the URNs its own
// aspects name as upstreams and as downstreams. The walk reads the other
// direction of an edge from their postings.
const (
	fieldUpstreams   = "\x00upstreams"
	fieldDownstreams = "\x00downstreams"
)

// edgeTable is the lineage relationships of DataHub's PDL
// (metadata-models/src/main/pegasus, @Relationship with "isLineage": true).
var edgeTable = []LineageEdge{
	{"upstreamLineage", "/upstreams/*/dataset", "DownstreamOf", true},
	{"mlFeatureProperties", "/sources/*", "DerivedFrom", true},
	{"mlPrimaryKeyProperties", "/sources/*", "DerivedFrom", true},
	{"mlModelProperties", "/mlFeatures/*", "Consumes", true},
	{"mlModelProperties", "/groups/*", "MemberOf", false},
	{"mlModelProperties", "/trainingJobs/*", "TrainedBy", true},
	{"mlModelProperties", "/downstreamJobs/*", "UsedBy", false},
	{"mlModelGroupProperties", "/trainingJobs/*", "TrainedBy", true},
	{"mlModelGroupProperties", "/downstreamJobs/*", "UsedBy", false},
	{"dataJobInputOutput", "/inputDatasets/*", "Consumes", true},
	{"dataJobInputOutput", "/inputDatasetEdges/*/destinationUrn", "Consumes", true},
	{"dataJobInputOutput", "/outputDatasets/*", "Produces", false},
	{"dataJobInputOutput", "/outputDatasetEdges/*/destinationUrn", "Produces", false},
	{"dataJobInputOutput", "/inputDatajobs/*", "DownstreamOf", true},
	{"dataJobInputOutput", "/inputDatajobEdges/*/destinationUrn", "DownstreamOf", true},
	{"chartInfo", "/inputs/*/string", "Consumes", true},
	{"chartInfo", "/inputEdges/*/destinationUrn", "Consumes", true},
	{"dashboardInfo", "/charts/*", "Contains", true},
	{"dashboardInfo", "/chartEdges/*/destinationUrn", "Contains", true},
	{"dashboardInfo", "/datasets/*", "Consumes", true},
	{"dashboardInfo", "/datasetEdges/*/destinationUrn", "Consumes", true},
	{"dashboardInfo", "/dashboards/*/destinationUrn", "DashboardContainsDashboard", true},
	{"dataProcessInstanceInput", "/inputEdges/*/destinationUrn", "DataProcessInstanceConsumes", true},
	{"dataProcessInstanceOutput", "/outputEdges/*/destinationUrn", "DataProcessInstanceProduces", false},
}

// edgesByAspect indexes the table.
var edgesByAspect = func() map[string][]LineageEdge {
	m := map[string][]LineageEdge{}
	for _, e := range edgeTable {
		m[e.Aspect] = append(m[e.Aspect], e)
	}
	return m
}()

// LineageEdges returns the lineage relationships of an aspect.
func LineageEdges(aspect string) []LineageEdge { return edgesByAspect[aspect] }
