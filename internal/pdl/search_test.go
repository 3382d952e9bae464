package pdl_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// searchable returns aspect's searchable field at path, failing the test if there is none.
func searchable(t *testing.T, aspect, path string) pdl.SearchableField {
	t.Helper()
	for _, f := range pdl.SearchableFields(aspect) {
		if f.Path == path {
			return f
		}
	}
	t.Fatalf("SearchableFields(%q) has no field at %s", aspect, path)
	return pdl.SearchableField{}
}

// relationship returns aspect's relationship at path, failing the test if there is none.
func relationship(t *testing.T, aspect, path string) pdl.Relationship {
	t.Helper()
	for _, r := range pdl.Relationships(aspect) {
		if r.Path == path {
			return r
		}
	}
	t.Fatalf("Relationships(%q) has no edge at %s", aspect, path)
	return pdl.Relationship{}
}

func TestSearchableFields(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, aspect, path string
		want               pdl.SearchableField
	}{
		{"datasetProperties name: explicit type, alias, boost", "datasetProperties", "/name", pdl.SearchableField{
			Path: "/name", Kind: pdl.KindString, FieldName: "name", FieldType: pdl.SearchWordGram, QueryByDefault: true,
			EnableAutocomplete: true, BoostScore: 10, FieldNameAliases: []string{"_entityName"}, SearchTier: 1, SearchLabel: "entityName",
		}},
		{"datasetProperties description: has-values field", "datasetProperties", "/description", pdl.SearchableField{
			Path: "/description", Kind: pdl.KindString, FieldName: "description", FieldType: pdl.SearchText, QueryByDefault: true,
			BoostScore: 1, HasValuesFieldName: "hasDescription", SearchTier: 2, SanitizeRichText: true,
		}},
		{"customProperties from an included record, indexed at the map", "datasetProperties", "/customProperties", pdl.SearchableField{
			Path: "/customProperties", Kind: pdl.KindMap, FieldName: "customProperties", FieldType: pdl.SearchText, QueryByDefault: true, BoostScore: 1,
		}},
		{"field of a record field, renamed by fieldName", "datasetProperties", "/created/time", pdl.SearchableField{
			Path: "/created/time", Kind: pdl.KindLong, FieldName: "createdAt", FieldType: pdl.SearchDatetime, BoostScore: 1, SearchLabel: "createdAt",
		}},
		{"upstreamLineage: array item inside a record", "upstreamLineage", "/upstreams/*/dataset", pdl.SearchableField{
			Path: "/upstreams/*/dataset", Kind: pdl.KindString, FieldName: "upstreams", FieldType: pdl.SearchURN, BoostScore: 1,
			HasValuesFieldName: "hasUpstreams",
		}},
		{"status removed: boolean", "status", "/removed", pdl.SearchableField{
			Path: "/removed", Kind: pdl.KindBoolean, FieldName: "removed", FieldType: pdl.SearchBoolean, BoostScore: 1,
		}},
		{"dataProcessInstanceInput: array of URNs, num-values field", "dataProcessInstanceInput", "/inputs/*", pdl.SearchableField{
			Path: "/inputs/*", Kind: pdl.KindString, FieldName: "inputs", FieldType: pdl.SearchURN, AddToFilters: true, BoostScore: 1,
			NumValuesFieldName: "numInputs",
		}},
		{"an outer override beats the annotation inside (SchemaField over GlobalTags)", "schemaMetadata", "/fields/*/globalTags/tags/*/tag", pdl.SearchableField{
			Path: "/fields/*/globalTags/tags/*/tag", Kind: pdl.KindString, FieldName: "fieldTags", FieldType: pdl.SearchURN, QueryByDefault: true, BoostScore: 0.5,
		}},
		{"int defaults to COUNT", "datasetUsageStatistics", "/uniqueUserCount", pdl.SearchableField{
			Path: "/uniqueUserCount", Kind: pdl.KindInt, FieldName: "uniqueUserCount", FieldType: pdl.SearchCount, BoostScore: 1,
			HasValuesFieldName: "hasUniqueUserCount",
		}},
		{"a string where a boolean belongs counts as absent", "versionSetProperties", "/latest", pdl.SearchableField{
			Path: "/latest", Kind: pdl.KindString, FieldName: "latest", FieldType: pdl.SearchText, QueryByDefault: true, BoostScore: 1,
		}},
		{"a name taken by an earlier path is replaced by the path", "assertionInfo", "/volumeAssertion/entity", pdl.SearchableField{
			Path: "/volumeAssertion/entity", Kind: pdl.KindString, FieldName: "volumeAssertion_entity", FieldType: pdl.SearchURN, QueryByDefault: true, BoostScore: 1,
		}},
		{"deprecation weights", "deprecation", "/deprecated", pdl.SearchableField{
			Path: "/deprecated", Kind: pdl.KindBoolean, FieldName: "deprecated", FieldType: pdl.SearchBoolean, AddToFilters: true,
			FilterNameOverride: "Deprecated", BoostScore: 1, WeightsPerFieldValue: map[string]float64{"true": 0.5},
		}},
		{"key aspect", "datasetKey", "/origin", pdl.SearchableField{
			Path: "/origin", Kind: pdl.KindEnum, FieldName: "origin", FieldType: pdl.SearchTextPartial, AddToFilters: true,
			FilterNameOverride: "Environment", BoostScore: 1, SearchLabel: "origin",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := searchable(t, tt.aspect, tt.path)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("SearchableFields(%q) at %s (-want +got):\n%s", tt.aspect, tt.path, diff)
			}
		})
	}
}

func TestSearchableFieldsShape(t *testing.T) {
	t.Parallel()
	total := 0
	for _, e := range pdl.Entities() {

		for _, a := range append([]string{e.KeyAspect}, e.Aspects...) {
			for _, f := range pdl.SearchableFields(a) {
				total++
				if f.FieldName == "" || f.FieldType == "" || f.Path == "" || f.Path[0] != '/' || f.Kind == 0 {
					t.Errorf("%s %s: incomplete field %+v", e.Name, a, f)
				}
				if f.BoostScore <= 0 {
					t.Errorf("%s %s %s: boost %v", e.Name, a, f.Path, f.BoostScore)
				}
			}
		}
	}
	// A path inside a map is never searchable on its own: the map is indexed whole.
	for _, f := range pdl.SearchableFields("mlModelProperties") {
		if f.Path == "/hyperParams/*/value" || f.Path == "/customProperties/*" {
			t.Errorf("mlModelProperties: searchable value inside a map: %s", f.Path)
		}
	}
	if total < 500 {
		t.Errorf("only %d searchable fields over the registry", total)
	}
	if pdl.SearchableFields("noSuchAspect") != nil || pdl.Relationships("noSuchAspect") != nil {
		t.Error("facts for an unknown aspect")
	}
}

func TestRelationships(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, aspect, path string
		want               pdl.Relationship
	}{
		{"dataset lineage", "upstreamLineage", "/upstreams/*/dataset", pdl.Relationship{
			Path: "/upstreams/*/dataset", Name: "DownstreamOf", EntityTypes: []string{"dataset"}, IsUpstream: true, IsLineage: true,
			CreatedOn: "upstreams/*/created/time", CreatedActor: "upstreams/*/created/actor",
			UpdatedOn: "upstreams/*/auditStamp/time", UpdatedActor: "upstreams/*/auditStamp/actor", Properties: "upstreams/*/properties",
			Via: "upstreams/*/query",
		}},
		{"fine-grained lineage is not lineage", "upstreamLineage", "/fineGrainedLineages/*/upstreams/*", pdl.Relationship{
			Path: "/fineGrainedLineages/*/upstreams/*", Name: "DownstreamOf", EntityTypes: []string{"dataset", "schemaField"}, IsUpstream: true,
		}},
		{"model group membership: lineage, downstream", "mlModelProperties", "/groups/*", pdl.Relationship{
			Path: "/groups/*", Name: "MemberOf", EntityTypes: []string{"mlModelGroup"}, IsLineage: true,
		}},
		{"model training job: lineage, upstream", "mlModelProperties", "/trainingJobs/*", pdl.Relationship{
			Path: "/trainingJobs/*", Name: "TrainedBy", EntityTypes: []string{"dataJob", "dataProcessInstance"}, IsUpstream: true, IsLineage: true,
		}},
		{"run input edges", "dataProcessInstanceInput", "/inputEdges/*/destinationUrn", pdl.Relationship{
			Path: "/inputEdges/*/destinationUrn", Name: "DataProcessInstanceConsumes", EntityTypes: []string{"dataset", "mlModel", "dataProcessInstance"},
			IsUpstream: true, IsLineage: true, CreatedOn: "inputEdges/*/created/time", CreatedActor: "inputEdges/*/created/actor",
			UpdatedOn: "inputEdges/*/lastModified/time", UpdatedActor: "inputEdges/*/lastModified/actor", Properties: "inputEdges/*/properties",
		}},
		{"run output edges: downstream", "dataProcessInstanceOutput", "/outputEdges/*/destinationUrn", pdl.Relationship{
			Path: "/outputEdges/*/destinationUrn", Name: "DataProcessInstanceProduces", EntityTypes: []string{"dataset", "mlModel", "dataProcessInstance"},
			IsLineage: true, CreatedOn: "outputEdges/*/created/time", CreatedActor: "outputEdges/*/created/actor",
			UpdatedOn: "outputEdges/*/lastModified/time", UpdatedActor: "outputEdges/*/lastModified/actor", Properties: "outputEdges/*/properties",
		}},
		{"run outputs (older field): not lineage", "dataProcessInstanceOutput", "/outputs/*", pdl.Relationship{
			Path: "/outputs/*", Name: "Produces", EntityTypes: []string{"dataset", "mlModel"}, IsUpstream: true,
		}},
		{"an outer override beats the annotation inside", "schemaMetadata", "/fields/*/globalTags/tags/*/tag", pdl.Relationship{
			Path: "/fields/*/globalTags/tags/*/tag", Name: "SchemaFieldTaggedWith", EntityTypes: []string{"tag"}, IsUpstream: true,
		}},
		{"a field through a typeref to a URN", "container", "/container", pdl.Relationship{
			Path: "/container", Name: "IsPartOf", EntityTypes: []string{"container"}, IsUpstream: true,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := relationship(t, tt.aspect, tt.path)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Relationships(%q) at %s (-want +got):\n%s", tt.aspect, tt.path, diff)
			}
		})
	}
}

func TestLineageEdges(t *testing.T) {
	t.Parallel()
	type key struct{ entity, aspect, path string }
	got := map[key]pdl.LineageEdge{}
	for _, e := range pdl.LineageEdges() {
		if !e.IsLineage {
			t.Errorf("%s %s %s: not a lineage edge", e.Entity, e.Aspect, e.Path)
		}
		ent, ok := pdl.LookupEntity(e.Entity)
		if !ok || !ent.Allows(e.Aspect) {
			t.Errorf("%s does not have aspect %s", e.Entity, e.Aspect)
		}
		got[key{e.Entity, e.Aspect, e.Path}] = e
	}
	for _, k := range []key{
		{"dataset", "upstreamLineage", "/upstreams/*/dataset"},
		{"semanticModel", "upstreamLineage", "/upstreams/*/dataset"},
		{"dataJob", "dataJobInputOutput", "/inputDatasetEdges/*/destinationUrn"},
		{"dataJob", "dataJobInputOutput", "/outputDatasetEdges/*/destinationUrn"},
		{"chart", "chartInfo", "/inputEdges/*/destinationUrn"},
		{"dashboard", "dashboardInfo", "/chartEdges/*/destinationUrn"},
		{"mlModel", "mlModelProperties", "/trainingJobs/*"},
		{"mlModel", "mlModelProperties", "/groups/*"},
		{"mlFeature", "mlFeatureProperties", "/sources/*"},
		{"mlPrimaryKey", "mlPrimaryKeyProperties", "/sources/*"},
		{"dataProcessInstance", "dataProcessInstanceInput", "/inputEdges/*/destinationUrn"},
		{"dataProcessInstance", "dataProcessInstanceOutput", "/outputEdges/*/destinationUrn"},
	} {
		if _, ok := got[k]; !ok {
			t.Errorf("LineageEdges has no %v", k)
		}
	}
	if e := got[key{"dataJob", "dataJobInputOutput", "/outputDatasetEdges/*/destinationUrn"}]; e.IsUpstream {
		t.Errorf("a job's output edge is upstream: %+v", e)
	}
	if _, ok := got[key{"mlModel", "mlModelProperties", "/deployments/*"}]; ok {
		t.Error("DeployedTo is not a lineage edge")
	}
	if !slices.ContainsFunc(pdl.LineageEdges(), func(e pdl.LineageEdge) bool { return e.Name == "DownstreamOf" }) {
		t.Error("no DownstreamOf edge")
	}
}

func TestSearchableFieldFilterNames(t *testing.T) {
	t.Parallel()
	tests := []struct {
		f                 pdl.SearchableField
		filter, hasValues string
	}{
		{pdl.SearchableField{FieldName: "owners", FilterNameOverride: "Owned By", HasValuesFieldName: "hasOwners"}, "Owned By", "hasOwners"},
		{pdl.SearchableField{FieldName: "platform"}, "platform", "hasPlatform"},
		{pdl.SearchableField{FieldName: "x", HasValuesFieldName: "hasX", HasValuesFilterNameOverride: "Has X"}, "x", "Has X"},
	}
	for _, tt := range tests {
		if got := tt.f.FilterName(); got != tt.filter {
			t.Errorf("%+v FilterName() = %q, want %q", tt.f, got, tt.filter)
		}
		if got := tt.f.HasValuesFilterName(); got != tt.hasValues {
			t.Errorf("%+v HasValuesFilterName() = %q, want %q", tt.f, got, tt.hasValues)
		}
	}
}
