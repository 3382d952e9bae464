package entitygen

import "testing"

func TestShortName(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		entity, aspect, goType string
		timeseries             bool
		want                   string
	}{
		{"Dataset", "datasetProperties", "DatasetProperties", false, "Properties"},
		{"MLModel", "editableMlModelProperties", "EditableMLModelProperties", false, "EditableProperties"},
		{"CorpUser", "corpUserEditableInfo", "CorpUserEditableInfo", false, "EditableInfo"},
		{"CorpUser", "corpUserStatus", "CorpUserStatus", false, "UserStatus"},
		{"Container", "container", "Container", false, "Container"},
		{"Dataset", "schemaMetadata", "SchemaMetadata", false, "Schema"},
		{"Dataset", "datasetProfile", "DatasetProfile", true, "Profiles"},
		{"Dataset", "datasetUsageStatistics", "DatasetUsageStatistics", true, "UsageStatistics"},
		{"DataJob", "datahubIngestionRunSummary", "DatahubIngestionRunSummary", true, "DatahubIngestionRunSummaries"},
		{"Chart", "globalTags", "GlobalTags", false, "GlobalTags"},
	} {
		if got := shortName(c.entity, c.aspect, c.goType, c.timeseries); got != c.want {
			t.Errorf("shortName(%s, %s) = %s, want %s", c.entity, c.aspect, got, c.want)
		}
	}
}

func TestFixNames(t *testing.T) {
	t.Parallel()
	typ := Type{Name: "Dataset", Fields: []Field{
		{Name: "Deprecation", Aspect: "deprecation", GoType: "Deprecation"},
		{Name: "Deprecation", Aspect: "datasetDeprecation", GoType: "DatasetDeprecation"},
	}}
	if err := typ.fixNames(); err != nil {
		t.Fatal(err)
	}
	if typ.Fields[0].Name != "Deprecation" || typ.Fields[1].Name != "DatasetDeprecation" {
		t.Errorf("fixNames gave %s and %s", typ.Fields[0].Name, typ.Fields[1].Name)
	}
	bad := Type{Name: "X", Fields: []Field{{Name: "URN", Aspect: "urn", GoType: "URN"}}}
	if err := bad.fixNames(); err == nil {
		t.Error("a field named URN was accepted")
	}
}
