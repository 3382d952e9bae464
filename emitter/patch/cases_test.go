package patch_test

import (
	"testing"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter/patch"
	"github.com/catalogkit/datahub-go/urn"
)

type builderCase struct {
	name  string
	build func() *patch.Builder
}

// builderCases are the golden cases: every builder method at least once.
func builderCases(t *testing.T) []builderCase {
	model, err := urn.NewMLModel("mlflow", "churn", "PROD")
	if err != nil {
		t.Fatal(err)
	}
	group, err := urn.NewMLModelGroup("mlflow", "churn-models", "PROD")
	if err != nil {
		t.Fatal(err)
	}
	feature, err := urn.NewMLFeature("users", "age")
	if err != nil {
		t.Fatal(err)
	}
	table, err := urn.NewMLFeatureTable("feast", "users")
	if err != nil {
		t.Fatal(err)
	}
	ds := mustDataset(t, "db.orders")
	up := mustDataset(t, "db.raw_orders").String()
	stamp := aspects.AuditStamp{Time: 1700000000000, Actor: "urn:li:corpuser:jdoe"}
	chart := mustParse(t, urn.ParseChart, "urn:li:chart:(looker,orders_per_day)")
	dashboard := mustParse(t, urn.ParseDashboard, "urn:li:dashboard:(looker,sales)")
	flow := mustParse(t, urn.ParseDataFlow, "urn:li:dataFlow:(airflow,etl,PROD)")
	job := mustParse(t, urn.ParseDataJob, "urn:li:dataJob:(urn:li:dataFlow:(airflow,etl,PROD),load)")
	container := mustParse(t, urn.ParseContainer, "urn:li:container:4a5b6c")
	product := mustParse(t, urn.ParseDataProduct, "urn:li:dataProduct:orders")
	return []builderCase{
		{"dataset_properties", func() *patch.Builder {
			d := patch.NewDataset(ds)
			d.SetDescription("orders, one row each")
			d.SetDisplayName("orders")
			d.SetQualifiedName("db.orders")
			d.SetExternalURL("https://example.com/orders?a=1&b=<2>")
			d.AddCustomProperty("team/owner", "sales~eu")
			d.RemoveCustomProperty("legacy")
			d.SetEditableDescription("edited")
			return d.Builder
		}},
		{"dataset_set_custom_properties", func() *patch.Builder {
			d := patch.NewDataset(ds)
			d.SetCustomProperties(map[string]string{"b": "2", "a": "1"})
			return d.Builder
		}},
		{"dataset_tags_terms_owners_links", func() *patch.Builder {
			d := patch.NewDataset(ds)
			d.AddTag(aspects.TagAssociation{Tag: "urn:li:tag:pii", Context: aspects.Ptr("ingest")})
			d.RemoveTag("urn:li:tag:old")
			d.AddTerm(aspects.GlossaryTermAssociation{URN: "urn:li:glossaryTerm:Sales.Order"})
			d.RemoveTerm("urn:li:glossaryTerm:Old")
			d.AddOwner(aspects.Owner{Owner: "urn:li:corpuser:jdoe", Type: aspects.OwnershipTypeTechnicalOwner})
			d.RemoveOwner("urn:li:corpuser:ann", aspects.OwnershipTypeBusinessOwner)
			d.RemoveOwner("urn:li:corpGroup:ops", "")
			d.AddLink(aspects.InstitutionalMemoryMetadata{URL: "https://wiki/orders", Description: "wiki", CreateStamp: stamp})
			d.RemoveLink("https://wiki/old")
			return d.Builder
		}},
		{"dataset_set_owners", func() *patch.Builder {
			d := patch.NewDataset(ds)
			d.SetOwners([]aspects.Owner{{Owner: "urn:li:corpuser:jdoe", Type: aspects.OwnershipTypeBusinessOwner}})
			return d.Builder
		}},
		{"dataset_lineage", func() *patch.Builder {
			d := patch.NewDataset(ds)
			d.AddUpstream(aspects.Upstream{Dataset: up, Type: aspects.DatasetLineageTypeTransformed, AuditStamp: stamp, Query: aspects.Ptr("urn:li:query:q1")})
			d.RemoveUpstream(mustDataset(t, "db.gone").String())
			d.AddFineGrainedUpstream("", "urn:li:schemaField:("+ds.String()+",id)", "", "urn:li:schemaField:("+up+",order_id)", 0.9)
			d.RemoveFineGrainedUpstream("SUM", "urn:li:schemaField:("+ds.String()+",total)", "urn:li:query:q1", "urn:li:schemaField:("+up+",amount)")
			return d.Builder
		}},
		{"dataset_fine_grained", func() *patch.Builder {
			d := patch.NewDataset(ds)
			d.AddFineGrainedLineage(aspects.FineGrainedLineage{UpstreamType: aspects.FineGrainedLineageUpstreamTypeFieldSet, DownstreamType: aspects.FineGrainedLineageDownstreamTypeField,
				Upstreams: []string{"urn:li:schemaField:(" + up + ",a)", "urn:li:schemaField:(" + up + ",b)"}, Downstreams: []string{"urn:li:schemaField:(" + ds.String() + ",ab)"},
				TransformOperation: aspects.Ptr("CONCAT"), Query: aspects.Ptr("urn:li:query:q1")})
			d.RemoveFineGrainedLineage(aspects.FineGrainedLineage{Upstreams: []string{"urn:li:schemaField:(" + up + ",x)"}, Downstreams: []string{"urn:li:schemaField:(" + ds.String() + ",x)"}})
			return d.Builder
		}},
		{"dataset_set_fine_grained", func() *patch.Builder {
			d := patch.NewDataset(ds)
			d.SetFineGrainedLineages(nil)
			return d.Builder
		}},
		{"dataset_set_upstreams", func() *patch.Builder {
			d := patch.NewDataset(ds)
			d.SetUpstreams([]aspects.Upstream{{Dataset: up, Type: aspects.DatasetLineageTypeCopy}})
			return d.Builder
		}},
		{"dataset_fields", func() *patch.Builder {
			d := patch.NewDataset(ds)
			f := d.Field("[version=2.0].[type=struct].address/zip")
			f.SetDescription("postal code")
			f.AddTag(aspects.TagAssociation{Tag: "urn:li:tag:pii"})
			f.RemoveTag("urn:li:tag:old")
			f.AddTerm(aspects.GlossaryTermAssociation{URN: "urn:li:glossaryTerm:Zip"})
			f.RemoveTerm("urn:li:glossaryTerm:Old")
			return d.Builder
		}},
		{"mlmodel", func() *patch.Builder {
			m := patch.NewMLModel(model)
			m.SetName("churn")
			m.SetDescription("predicts churn")
			m.SetExternalURL("https://mlflow/churn")
			m.SetType("classifier")
			m.SetVersion(aspects.VersionTag{VersionTag: aspects.Ptr("3")})
			m.SetHyperParams([]aspects.MLHyperParam{{Name: "depth", Value: aspects.Ptr("6")}})
			m.SetTrainingMetrics([]aspects.MLMetric{{Name: "auc", Value: aspects.Ptr("0.91")}})
			m.AddFeature("urn:li:mlFeature:(users,age)")
			m.RemoveFeature("urn:li:mlFeature:(users,old)")
			m.AddGroup(group.String())
			m.RemoveGroup("urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,old,PROD)")
			m.AddTrainingJob("urn:li:dataJob:(urn:li:dataFlow:(airflow,train,PROD),fit)")
			m.AddDownstreamJob("urn:li:dataJob:(urn:li:dataFlow:(airflow,score,PROD),score)")
			m.AddDeployment("urn:li:mlModelDeployment:(urn:li:dataPlatform:sagemaker,churn,PROD)")
			m.AddCustomProperty("framework", "xgboost")
			m.AddTag(aspects.TagAssociation{Tag: "urn:li:tag:prod"})
			m.AddTerm(aspects.GlossaryTermAssociation{URN: "urn:li:glossaryTerm:Churn"})
			m.AddOwner(aspects.Owner{Owner: "urn:li:corpuser:jdoe", Type: aspects.OwnershipTypeTechnicalOwner})
			return m.Builder
		}},
		{"mlmodel_set_lists", func() *patch.Builder {
			m := patch.NewMLModel(model)
			m.SetFeatures([]string{"urn:li:mlFeature:(users,age)"})
			m.SetGroups(nil)
			return m.Builder
		}},
		{"mlmodelgroup", func() *patch.Builder {
			g := patch.NewMLModelGroup(group)
			g.SetName("churn models")
			g.SetDescription("all churn models")
			g.SetExternalURL("https://mlflow/groups/churn")
			g.AddTrainingJob("urn:li:dataJob:(urn:li:dataFlow:(airflow,train,PROD),fit)")
			g.RemoveTrainingJob("urn:li:dataJob:(urn:li:dataFlow:(airflow,train,PROD),old)")
			g.AddDownstreamJob("urn:li:dataJob:(urn:li:dataFlow:(airflow,score,PROD),score)")
			g.AddCustomProperty("k", "v")
			g.SetEditableDescription("edited in the UI")
			g.SetRemoved(false)
			return g.Builder
		}},
		{"mlfeature", func() *patch.Builder {
			f := patch.NewMLFeature(feature)
			f.SetDescription("age in years")
			f.SetDataType("CONTINUOUS")
			f.AddSource(up)
			f.RemoveSource(mustDataset(t, "db.gone").String())
			f.AddCustomProperty("unit", "years")
			return f.Builder
		}},
		{"mlfeature_set_sources", func() *patch.Builder {
			f := patch.NewMLFeature(feature)
			f.SetSources([]string{up})
			return f.Builder
		}},
		{"mlfeaturetable", func() *patch.Builder {
			tb := patch.NewMLFeatureTable(table)
			tb.SetDescription("user features")
			tb.AddFeature(feature.String())
			tb.RemoveFeature("urn:li:mlFeature:(users,old)")
			tb.AddPrimaryKey("urn:li:mlPrimaryKey:(users,user_id)")
			tb.RemovePrimaryKey("urn:li:mlPrimaryKey:(users,old)")
			tb.AddCustomProperty("store", "redis")
			return tb.Builder
		}},
		{"mlfeaturetable_set_features", func() *patch.Builder {
			tb := patch.NewMLFeatureTable(table)
			tb.SetFeatures([]string{feature.String()})
			return tb.Builder
		}},
		{"dataset_domains_properties_docs_siblings", func() *patch.Builder {
			d := patch.NewDataset(ds)
			d.AddDomain("urn:li:domain:sales")
			d.RemoveDomain("urn:li:domain:old")
			d.SetStructuredProperty("io.acryl.retention", 90, "days")
			d.RemoveStructuredProperty("urn:li:structuredProperty:io.acryl.old")
			d.AddDocumentation(aspects.DocumentationAssociation{Documentation: "orders, one row each"})
			d.AddDocumentation(aspects.DocumentationAssociation{Documentation: "from the warehouse",
				Attribution: &aspects.MetadataAttribution{Time: 1, Actor: "urn:li:corpuser:datahub", Source: aspects.Ptr("urn:li:dataHubAction:sync")}})
			d.AddDomainAssociation(aspects.DomainAssociation{Domain: "urn:li:domain:eu", Context: aspects.Ptr("region"),
				Attribution: &aspects.MetadataAttribution{Actor: "urn:li:corpuser:datahub", Source: aspects.Ptr("urn:li:dataHubAction:geo")}})
			d.SetStructuredPropertyValues(aspects.StructuredPropertyValueAssignment{PropertyURN: "urn:li:structuredProperty:io.acryl.owner",
				Values:      []aspects.PrimitivePropertyValue{{String: aspects.Ptr("sales")}},
				Attribution: &aspects.MetadataAttribution{Actor: "urn:li:corpuser:datahub", Source: aspects.Ptr("urn:li:dataHubAction:sync")}})
			d.RemoveDocumentation("urn:li:dataHubAction:old")
			d.AddSibling("urn:li:dataset:(urn:li:dataPlatform:dbt,db.orders,PROD)", true)
			d.RemoveSibling("urn:li:dataset:(urn:li:dataPlatform:dbt,db.gone,PROD)")
			d.AddTag(aspects.TagAssociation{Tag: "urn:li:tag:a"})
			d.RemoveTag("urn:li:tag:b")
			d.AddTag(aspects.TagAssociation{Tag: "urn:li:tag:c"})
			return d.Builder
		}},
		{"dataset_set_siblings", func() *patch.Builder {
			d := patch.NewDataset(ds)
			d.SetSiblings([]string{"urn:li:dataset:(urn:li:dataPlatform:dbt,db.orders,PROD)"}, false)
			return d.Builder
		}},
		{"chart", func() *patch.Builder {
			c := patch.NewChart(chart)
			c.SetTitle("Orders per day")
			c.SetDescription("daily count")
			c.SetExternalURL("https://looker/charts/1")
			c.SetChartURL("https://looker/charts/1/edit")
			c.SetType(aspects.ChartTypeBar)
			c.SetAccess(aspects.AccessLevelPublic)
			c.SetLastModified(aspects.ChangeAuditStamps{Created: stamp, LastModified: stamp})
			c.AddInputEdge(aspects.Edge{DestinationURN: "urn:li:chart:(looker,base)", Created: &stamp, Properties: map[string]string{"k": "v"}})
			c.SetLastRefreshed(1700000000000)
			c.AddInput(ds.String())
			c.RemoveInput(up)
			c.AddCustomProperty("folder", "sales")
			c.AddOwner(aspects.Owner{Owner: "urn:li:corpuser:jdoe", Type: aspects.OwnershipTypeTechnicalOwner})
			c.AddDomain("urn:li:domain:sales")
			return c.Builder
		}},
		{"chart_set_inputs", func() *patch.Builder {
			c := patch.NewChart(chart)
			c.SetInputEdges([]aspects.Edge{{DestinationURN: ds.String()}, {DestinationURN: "urn:li:chart:(looker,c2)", LastModified: &stamp}})
			return c.Builder
		}},
		{"dashboard", func() *patch.Builder {
			d := patch.NewDashboard(dashboard)
			d.SetTitle("Sales")
			d.SetDescription("sales overview")
			d.SetExternalURL("https://looker/dashboards/7")
			d.SetDashboardURL("https://looker/dashboards/7/edit")
			d.SetAccess(aspects.AccessLevelPrivate)
			d.SetLastModified(aspects.ChangeAuditStamps{Created: stamp, LastModified: stamp})
			d.AddChartEdge(aspects.Edge{DestinationURN: "urn:li:chart:(looker,c3)", Created: &stamp})
			d.AddDatasetEdge(aspects.Edge{DestinationURN: up, Properties: map[string]string{"role": "source"}})
			d.AddDashboardEdge(aspects.Edge{DestinationURN: "urn:li:dashboard:(looker,child2)"})
			d.RemoveDashboard("urn:li:dashboard:(looker,old)")
			d.SetLastRefreshed(1700000000000)
			d.AddChart(chart.String())
			d.RemoveChart("urn:li:chart:(looker,old)")
			d.AddDataset(ds.String())
			d.RemoveDataset(up)
			d.AddDashboard("urn:li:dashboard:(looker,child)")
			d.AddCustomProperty("space", "sales")
			d.AddTerm(aspects.GlossaryTermAssociation{URN: "urn:li:glossaryTerm:Sales"})
			return d.Builder
		}},
		{"dashboard_set_edges", func() *patch.Builder {
			d := patch.NewDashboard(dashboard)
			d.SetChartEdges([]aspects.Edge{{DestinationURN: chart.String()}})
			d.SetDatasetEdges(nil)
			return d.Builder
		}},
		{"datajob", func() *patch.Builder {
			j := patch.NewDataJob(job)
			j.SetName("load orders")
			j.SetDescription("loads orders")
			j.SetType("COMMAND")
			j.SetFlowURN(flow.String())
			j.SetExternalURL("https://airflow/etl/load")
			j.SetCreated(aspects.TimeStamp{Time: 1700000000000, Actor: aspects.Ptr("urn:li:corpuser:jdoe")})
			j.SetLastModified(aspects.TimeStamp{Time: 1700000000001})
			j.AddInputDataset(up)
			j.RemoveInputDataset(mustDataset(t, "db.gone").String())
			j.AddOutputDataset(ds.String())
			j.RemoveOutputDataset(mustDataset(t, "db.gone").String())
			j.AddInputJob("urn:li:dataJob:(urn:li:dataFlow:(airflow,etl,PROD),extract)")
			j.RemoveInputJob("urn:li:dataJob:(urn:li:dataFlow:(airflow,etl,PROD),old)")
			j.AddInputDatasetField("urn:li:schemaField:(" + up + ",id)")
			j.RemoveInputDatasetField("urn:li:schemaField:(" + up + ",old)")
			j.AddOutputDatasetField("urn:li:schemaField:(" + ds.String() + ",id)")
			j.RemoveOutputDatasetField("urn:li:schemaField:(" + ds.String() + ",old)")
			j.AddInputDatasetEdge(aspects.Edge{DestinationURN: mustDataset(t, "db.more").String(), Created: &stamp})
			j.AddOutputDatasetEdge(aspects.Edge{DestinationURN: mustDataset(t, "db.out2").String()})
			j.AddInputJobEdge(aspects.Edge{DestinationURN: "urn:li:dataJob:(urn:li:dataFlow:(airflow,etl,PROD),t2)"})
			j.AddFineGrainedLineage(aspects.FineGrainedLineage{UpstreamType: aspects.FineGrainedLineageUpstreamTypeFieldSet, DownstreamType: aspects.FineGrainedLineageDownstreamTypeField,
				Upstreams: []string{"urn:li:schemaField:(" + up + ",id)", "urn:li:schemaField:(" + up + ",order_id)"}, Downstreams: []string{"urn:li:schemaField:(" + ds.String() + ",id)"},
				TransformOperation: aspects.Ptr("IDENTITY"), ConfidenceScore: aspects.Ptr[float32](0.5)})
			j.RemoveFineGrainedLineage(aspects.FineGrainedLineage{Upstreams: []string{"urn:li:schemaField:(" + up + ",x)"}, Downstreams: []string{"urn:li:schemaField:(" + ds.String() + ",x)"}, Query: aspects.Ptr("urn:li:query:q")})
			j.AddCustomProperty("retries", "3")
			j.AddTag(aspects.TagAssociation{Tag: "urn:li:tag:etl"})
			return j.Builder
		}},
		{"datajob_set_lists", func() *patch.Builder {
			j := patch.NewDataJob(job)
			j.SetInputDatasetEdges([]aspects.Edge{{DestinationURN: up}})
			j.SetOutputDatasetEdges([]aspects.Edge{{DestinationURN: ds.String()}})
			j.SetInputJobEdges(nil)
			j.SetFineGrainedLineages(nil)
			j.RemoveDescription()
			return j.Builder
		}},
		{"dataflow", func() *patch.Builder {
			f := patch.NewDataFlow(flow)
			f.SetName("etl")
			f.SetDescription("nightly ETL")
			f.SetProject("warehouse")
			f.SetExternalURL("https://airflow/etl")
			f.SetCreated(aspects.TimeStamp{Time: 1700000000000})
			f.SetLastModified(aspects.TimeStamp{Time: 1700000000001, Actor: aspects.Ptr("urn:li:corpuser:jdoe")})
			f.AddCustomProperty("schedule", "@daily")
			f.SetStructuredProperty("io.acryl.tier", "gold")
			f.RemoveDescription()
			return f.Builder
		}},
		{"container", func() *patch.Builder {
			c := patch.NewContainer(container)
			c.SetDescription("churn experiments")
			c.AddCustomProperty("experiment_id", "42")
			c.AddTag(aspects.TagAssociation{Tag: "urn:li:tag:ml"})
			c.AddOwner(aspects.Owner{Owner: "urn:li:corpuser:jdoe", Type: aspects.OwnershipTypeTechnicalOwner})
			c.AddDomain("urn:li:domain:ml")
			c.AddLink(aspects.InstitutionalMemoryMetadata{URL: "https://mlflow/exp/42", Description: "MLflow", CreateStamp: stamp})
			c.RemoveDescription()
			return c.Builder
		}},
		{"dataproduct", func() *patch.Builder {
			p := patch.NewDataProduct(product)
			p.SetName("Orders")
			p.SetDescription("order data")
			p.SetExternalURL("https://wiki/orders")
			p.AddAsset(ds.String())
			p.RemoveAsset(up)
			p.AddAssetAssociation(aspects.DataProductAssociation{DestinationURN: "urn:li:dashboard:(looker,sales)", Created: &stamp})
			p.AddCustomProperty("tier", "gold")
			p.AddTerm(aspects.GlossaryTermAssociation{URN: "urn:li:glossaryTerm:Sales"})
			return p.Builder
		}},
		{"dataproduct_set_assets", func() *patch.Builder {
			p := patch.NewDataProduct(product)
			p.SetAssets([]aspects.DataProductAssociation{{DestinationURN: ds.String(), OutputPort: true}})
			return p.Builder
		}},
		{"structured_property", func() *patch.Builder {
			p := patch.NewStructuredProperty(mustParse(t, urn.ParseStructuredProperty, "urn:li:structuredProperty:io.acryl.retention"))
			p.SetQualifiedName("io.acryl.retention")
			p.SetDisplayName("Retention (days)")
			p.SetValueType("urn:li:dataType:datahub.number")
			p.SetTypeQualifier(map[string][]string{"allowedTypes": {"urn:li:entityType:datahub.corpuser"}})
			p.SetCardinality(aspects.PropertyCardinalitySingle)
			p.SetDescription("how long rows are kept")
			p.SetImmutable(true)
			p.SetVersion("00000000000001")
			p.AddEntityType("urn:li:entityType:datahub.dataset")
			p.RemoveEntityType("urn:li:entityType:datahub.chart")
			p.AddAllowedValue(aspects.PropertyValue{Value: aspects.PrimitivePropertyValue{Double: aspects.Ptr(90.0)}, Description: aspects.Ptr("a quarter")})
			p.AddAllowedValue(aspects.PropertyValue{Value: aspects.PrimitivePropertyValue{Double: aspects.Ptr(1e7)}})
			p.AddAllowedValue(aspects.PropertyValue{Value: aspects.PrimitivePropertyValue{String: aspects.Ptr("forever/now")}})
			p.RemoveAllowedValue(aspects.PrimitivePropertyValue{Double: aspects.Ptr(0.5)})
			return p.Builder
		}},
		{"form", func() *patch.Builder {
			f := patch.NewForm(mustParse(t, urn.ParseForm, "urn:li:form:review"))
			f.SetName("Review")
			f.SetDescription("quarterly review")
			f.SetType(aspects.FormTypeVerification)
			f.AddPrompt(aspects.FormPrompt{ID: "p1", Title: "Retention?", Type: aspects.FormPromptTypeStructuredProperty,
				StructuredPropertyParams: &aspects.StructuredPropertyParams{URN: "urn:li:structuredProperty:io.acryl.retention"}, Required: true})
			f.RemovePrompt("p0")
			f.SetOwnershipForm(true)
			f.AddAssignedUser("urn:li:corpuser:jdoe")
			f.RemoveAssignedUser("urn:li:corpuser:old")
			f.AddAssignedGroup("urn:li:corpGroup:stewards")
			f.RemoveAssignedGroup("urn:li:corpGroup:old")
			f.AddOwner(aspects.Owner{Owner: "urn:li:corpuser:jdoe", Type: aspects.OwnershipTypeBusinessOwner})
			return f.Builder
		}},
		{"generic_builder", func() *patch.Builder {
			u, _ := urn.ParseGeneric("urn:li:chart:(looker,dash.1)")
			b := patch.New(u)
			b.AddTag(aspects.TagAssociation{Tag: "urn:li:tag:x"})
			b.AddCustomProperty("k", "v")
			b.Replace("status", "/removed", true)
			b.SetArrayPrimaryKeys("structuredProperties", "properties", "propertyUrn")
			b.Add("structuredProperties", patch.Path("properties", "urn:li:structuredProperty:p"), map[string]any{"propertyUrn": "urn:li:structuredProperty:p", "values": []any{map[string]string{"string": "v"}}})
			b.SetForceGenericPatch("status", true)
			return b
		}},
	}
}

func mustParse[U any](t *testing.T, parse func(string) (U, error), s string) U {
	t.Helper()
	u, err := parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
