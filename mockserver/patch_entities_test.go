package mockserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/emitter/patch"
	"github.com/catalogkit/datahub-go/urn"
)

type proposer interface {
	Proposals() ([]emitter.Proposal, error)
}

// TestPatchEntityBuilders emits each entity builder's proposals (chart,
// dashboard, data job, data flow, container, data product, and the
// dataset's domains, structured properties, documentation and siblings)
// to the mock and reads every patched aspect back: the SDK's paths, keys
// and arrayPrimaryKeys meet the mock's templates and generic patcher.
func TestPatchEntityBuilders(t *testing.T) {
	t.Parallel()
	ds := mustURN(urn.NewDataset("hive", "db.orders", "PROD")).String()
	raw := mustURN(urn.NewDataset("hive", "db.raw_orders", "PROD")).String()
	chart := mustURN(urn.ParseChart("urn:li:chart:(looker,orders)"))
	dash := mustURN(urn.ParseDashboard("urn:li:dashboard:(looker,sales)"))
	flow := mustURN(urn.ParseDataFlow("urn:li:dataFlow:(airflow,etl,PROD)"))
	job := mustURN(urn.ParseDataJob("urn:li:dataJob:(urn:li:dataFlow:(airflow,etl,PROD),load)"))
	container := mustURN(urn.ParseContainer("urn:li:container:exp42"))
	product := mustURN(urn.ParseDataProduct("urn:li:dataProduct:orders"))
	const stamp = `{"time":1700000000000,"actor":"urn:li:corpuser:__datahub_system"}`
	const changeStamps = `{"created":{"time":1,"actor":"urn:li:corpuser:a"},"lastModified":{"time":1,"actor":"urn:li:corpuser:a"}}`
	field := func(d, f string) string { return "urn:li:schemaField:(" + d + "," + f + ")" }
	tests := []struct {
		name  string
		u     string
		base  map[string]string // aspect -> value written before the patch
		build func() proposer
		want  map[string]string // aspect -> value read back
	}{
		{"chart", chart.String(),
			map[string]string{"chartInfo": `{"title":"Orders","description":"","lastModified":` + changeStamps + `,"inputEdges":[{"destinationUrn":"` + raw + `"}]}`},
			func() proposer {
				c := patch.NewChart(chart)
				c.SetDescription("orders per day")
				c.SetType(aspects.ChartTypeBar)
				c.AddInput(ds)
				c.RemoveInput(raw)
				c.AddCustomProperty("folder", "sales")
				c.AddTag(aspects.TagAssociation{Tag: "urn:li:tag:gold"})
				return c
			},
			map[string]string{
				"chartInfo":  `{"title":"Orders","description":"orders per day","lastModified":` + changeStamps + `,"inputEdges":[{"destinationUrn":"` + ds + `"}],"inputs":[],"type":"BAR","customProperties":{"folder":"sales"}}`,
				"globalTags": `{"tags":[{"tag":"urn:li:tag:gold"}]}`,
			}},
		{"dashboard", dash.String(), nil,
			func() proposer {
				d := patch.NewDashboard(dash)
				d.SetTitle("Sales")
				d.AddChart(chart.String())
				d.AddChart("urn:li:chart:(looker,other)")
				d.RemoveChart("urn:li:chart:(looker,other)")
				d.AddDataset(ds)
				d.AddDashboard("urn:li:dashboard:(looker,child)")
				d.SetAccess(aspects.AccessLevelPublic)
				d.AddOwner(aspects.Owner{Owner: "urn:li:corpuser:jdoe", Type: aspects.OwnershipTypeTechnicalOwner})
				return d
			},
			map[string]string{
				"dashboardInfo": `{"title":"Sales","description":"","lastModified":{"created":` + stamp + `,"lastModified":` + stamp + `},` +
					`"chartEdges":[{"destinationUrn":"` + chart.String() + `"}],"datasetEdges":[{"destinationUrn":"` + ds + `"}],"datasets":[],"charts":[],` +
					`"dashboards":[{"destinationUrn":"urn:li:dashboard:(looker,child)"}],"access":"PUBLIC"}`,
				"ownership": `{"owners":[{"owner":"urn:li:corpuser:jdoe","type":"TECHNICAL_OWNER"}],"ownerTypes":{"urn:li:ownershipType:__system__technical_owner":["urn:li:corpuser:jdoe"]},"lastModified":` + stamp + `}`,
			}},
		{"data job", job.String(),
			map[string]string{"dataJobInfo": `{"name":"load","type":{"string":"COMMAND"},"customProperties":{"a":"1"}}`},
			func() proposer {
				j := patch.NewDataJob(job)
				j.SetDescription("loads orders")
				j.SetFlowURN(flow.String())
				j.AddCustomProperty("b", "2")
				j.AddInputDataset(raw)
				j.AddOutputDataset(ds)
				j.AddInputJob("urn:li:dataJob:(urn:li:dataFlow:(airflow,etl,PROD),extract)")
				j.AddInputDatasetField(field(raw, "id"))
				j.AddOutputDatasetField(field(ds, "id"))
				j.AddFineGrainedLineage(aspects.FineGrainedLineage{UpstreamType: aspects.FineGrainedLineageUpstreamTypeFieldSet,
					Upstreams: []string{field(raw, "id")}, DownstreamType: aspects.FineGrainedLineageDownstreamTypeField,
					Downstreams: []string{field(ds, "id")}, TransformOperation: aspects.Ptr("IDENTITY")})
				j.AddDomain("urn:li:domain:sales")
				return j
			},
			map[string]string{
				"dataJobInfo": `{"name":"load","type":{"string":"COMMAND"},"customProperties":{"a":"1","b":"2"},"description":"loads orders","flowUrn":"` + flow.String() + `"}`,
				"dataJobInputOutput": `{"inputDatajobEdges":[{"destinationUrn":"urn:li:dataJob:(urn:li:dataFlow:(airflow,etl,PROD),extract)"}],` +
					`"inputDatasetEdges":[{"destinationUrn":"` + raw + `"}],"outputDatasetEdges":[{"destinationUrn":"` + ds + `"}],` +
					`"fineGrainedLineages":[{"upstreamType":"FIELD_SET","upstreams":["` + field(raw, "id") + `"],"downstreamType":"FIELD","downstreams":["` + field(ds, "id") + `"],"transformOperation":"IDENTITY","confidenceScore":1}],` +
					`"inputDatasetFields":["` + field(raw, "id") + `"],"outputDatasetFields":["` + field(ds, "id") + `"],"inputDatajobs":[],"inputDatasets":[],"outputDatasets":[]}`,
				"domains": `{"domains":["urn:li:domain:sales"],"domainAssociations":[{"domain":"urn:li:domain:sales"}]}`,
			}},
		{"data flow", flow.String(),
			map[string]string{"dataFlowInfo": `{"name":"etl","description":"old"}`},
			func() proposer {
				f := patch.NewDataFlow(flow)
				f.RemoveDescription()
				f.SetProject("warehouse")
				f.AddCustomProperty("schedule", "@daily")
				f.AddTerm(aspects.GlossaryTermAssociation{URN: "urn:li:glossaryTerm:ETL"})
				return f
			},
			map[string]string{
				"dataFlowInfo":  `{"name":"etl","project":"warehouse","customProperties":{"schedule":"@daily"}}`,
				"glossaryTerms": `{"terms":[{"urn":"urn:li:glossaryTerm:ETL"}],"auditStamp":{"actor":"urn:li:corpuser:__datahub_system","time":1700000000000}}`,
			}},
		{"container", container.String(),
			map[string]string{"containerProperties": `{"name":"churn experiment","customProperties":{"a":"1"}}`},
			func() proposer {
				c := patch.NewContainer(container)
				c.SetDescription("MLflow experiment 42")
				c.AddCustomProperty("experiment_id", "42")
				c.AddDomain("urn:li:domain:ml")
				c.AddLink(aspects.InstitutionalMemoryMetadata{URL: "https://mlflow/exp/42", Description: "MLflow",
					CreateStamp: aspects.AuditStamp{Time: 1, Actor: "urn:li:corpuser:jdoe"}})
				return c
			},
			map[string]string{
				"editableContainerProperties": `{"description":"MLflow experiment 42"}`,
				"containerProperties":         `{"name":"churn experiment","customProperties":{"a":"1","experiment_id":"42"}}`,
				"domains":                     `{"domains":["urn:li:domain:ml"],"domainAssociations":[{"domain":"urn:li:domain:ml"}]}`,
				"institutionalMemory":         `{"elements":[{"url":"https://mlflow/exp/42","description":"MLflow","createStamp":{"time":1,"actor":"urn:li:corpuser:jdoe"}}]}`,
			}},
		{"ML model group editable description and status", "urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,churn,PROD)",
			map[string]string{"editableMlModelGroupProperties": `{"description":"old"}`, "status": `{"removed":true}`},
			func() proposer {
				g := patch.NewMLModelGroup(mustURN(urn.NewMLModelGroup("mlflow", "churn", "PROD")))
				g.SetEditableDescription("churn models, edited")
				g.SetRemoved(false)
				return g
			},
			map[string]string{
				"editableMlModelGroupProperties": `{"description":"churn models, edited"}`,
				"status":                         `{"removed":false}`,
			}},
		{"data product", product.String(), nil,
			func() proposer {
				p := patch.NewDataProduct(product)
				p.SetName("Orders")
				p.AddAsset(ds)
				p.AddAsset(raw)
				p.RemoveAsset(raw)
				p.AddCustomProperty("tier", "gold")
				p.SetStructuredProperty("io.acryl.sla", 24)
				return p
			},
			map[string]string{
				"dataProductProperties": `{"assets":[{"destinationUrn":"` + ds + `","outputPort":false}],"name":"Orders","customProperties":{"tier":"gold"}}`,
				"structuredProperties":  `{"properties":[{"propertyUrn":"urn:li:structuredProperty:io.acryl.sla","values":[{"double":24}]}]}`,
			}},
		{"structured property definition", "urn:li:structuredProperty:io.acryl.retention",
			map[string]string{"propertyDefinition": `{"qualifiedName":"io.acryl.retention","valueType":"urn:li:dataType:datahub.number","entityTypes":["urn:li:entityType:datahub.chart"],"allowedValues":[{"value":{"double":30}},{"value":{"double":90}}]}`},
			func() proposer {
				p := patch.NewStructuredProperty(mustURN(urn.ParseStructuredProperty("urn:li:structuredProperty:io.acryl.retention")))
				p.SetDisplayName("Retention")
				p.AddEntityType("urn:li:entityType:datahub.dataset")
				p.AddAllowedValue(aspects.PropertyValue{Value: aspects.PrimitivePropertyValue{Double: aspects.Ptr(90.0)}, Description: aspects.Ptr("a quarter")})
				p.AddAllowedValue(aspects.PropertyValue{Value: aspects.PrimitivePropertyValue{Double: aspects.Ptr(365.0)}})
				p.RemoveAllowedValue(aspects.PrimitivePropertyValue{Double: aspects.Ptr(30.0)})
				return p
			},
			map[string]string{
				"propertyDefinition": `{"qualifiedName":"io.acryl.retention","valueType":"urn:li:dataType:datahub.number","entityTypes":["urn:li:entityType:datahub.chart","urn:li:entityType:datahub.dataset"],` +
					`"allowedValues":[{"value":{"double":90},"description":"a quarter"},{"value":{"double":365}}],"displayName":"Retention"}`,
			}},
		{"form", "urn:li:form:review",
			map[string]string{"formInfo": `{"name":"Review","prompts":[{"id":"p0","title":"Old","type":"STRUCTURED_PROPERTY","required":false}],"actors":{"owners":false,"users":["urn:li:corpuser:old"]}}`},
			func() proposer {
				f := patch.NewForm(mustURN(urn.ParseForm("urn:li:form:review")))
				f.AddPrompt(aspects.FormPrompt{ID: "p1", Title: "Retention?", Type: aspects.FormPromptTypeStructuredProperty, Required: true})
				f.RemovePrompt("p0")
				f.SetOwnershipForm(true)
				f.AddAssignedUser("urn:li:corpuser:jdoe")
				f.RemoveAssignedUser("urn:li:corpuser:old")
				f.AddAssignedGroup("urn:li:corpGroup:stewards")
				return f
			},
			map[string]string{
				"formInfo": `{"name":"Review","prompts":[{"id":"p1","title":"Retention?","type":"STRUCTURED_PROPERTY","required":true}],` +
					`"actors":{"owners":true,"users":["urn:li:corpuser:jdoe"],"groups":["urn:li:corpGroup:stewards"]}}`,
			}},
		{"dataset domains, structured properties, documentation, siblings", ds,
			map[string]string{
				"domains":              `{"domains":["urn:li:domain:old","urn:li:domain:keep"],"domainAssociations":[{"domain":"urn:li:domain:old"},{"domain":"urn:li:domain:keep"}]}`,
				"structuredProperties": `{"properties":[{"propertyUrn":"urn:li:structuredProperty:io.acryl.old","values":[{"string":"x"}]}]}`,
			},
			func() proposer {
				d := patch.NewDataset(mustURN(urn.ParseDataset(ds)))
				d.AddDomain("urn:li:domain:sales")
				d.RemoveDomain("urn:li:domain:old")
				d.SetStructuredProperty("io.acryl.retention", 90)
				d.RemoveStructuredProperty("io.acryl.old")
				d.AddDocumentation(aspects.DocumentationAssociation{Documentation: "one row per order"})
				d.AddDocumentation(aspects.DocumentationAssociation{Documentation: "synced",
					Attribution: &aspects.MetadataAttribution{Time: 1, Actor: "urn:li:corpuser:datahub", Source: aspects.Ptr("urn:li:dataHubAction:sync")}})
				d.AddSibling("urn:li:dataset:(urn:li:dataPlatform:dbt,db.orders,PROD)", true)
				return d
			},
			map[string]string{
				"domains":              `{"domains":["urn:li:domain:keep","urn:li:domain:sales"],"domainAssociations":[{"domain":"urn:li:domain:keep"},{"domain":"urn:li:domain:sales"}]}`,
				"structuredProperties": `{"properties":[{"propertyUrn":"urn:li:structuredProperty:io.acryl.retention","values":[{"double":90}]}]}`,
				"documentation":        `{"documentations":[{"documentation":"one row per order"},{"documentation":"synced","attribution":{"time":1,"actor":"urn:li:corpuser:datahub","source":"urn:li:dataHubAction:sync","sourceDetail":{}}}]}`,
				"siblings":             `{"siblings":["urn:li:dataset:(urn:li:dataPlatform:dbt,db.orders,PROD)"],"primary":true}`,
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, rest := startPatch(t)
			// GMS checks structured property values against their definitions.
			for prop, valueType := range map[string]string{"io.acryl.old": "string", "io.acryl.retention": "number", "io.acryl.sla": "number"} {
				if "urn:li:structuredProperty:"+prop == tt.u {
					continue // its base is its definition (a rewrite restricting its allowed values would be refused)
				}
				def := `{"qualifiedName":"` + prop + `","valueType":"urn:li:dataType:datahub.` + valueType + `","entityTypes":["urn:li:entityType:datahub.dataset"]}`
				if err := s.PutAspectJSON("urn:li:structuredProperty:"+prop, "propertyDefinition", json.RawMessage(def)); err != nil {
					t.Fatal(err)
				}
			}
			for aspect, v := range tt.base {
				if err := s.PutAspectJSON(tt.u, aspect, json.RawMessage(v)); err != nil {
					t.Fatalf("PutAspectJSON %s: %v", aspect, err)
				}
			}
			if err := emitPatch(t, rest, tt.build()); err != nil {
				t.Fatalf("Emit: %v", err)
			}
			for aspect, want := range tt.want {
				if diff := cmp.Diff(decodeJSON(t, want), aspectJSON(t, s, tt.u, aspect)); diff != "" {
					t.Errorf("%s after the patch (-want +got):\n%s", aspect, diff)
				}
			}
		})
	}
}

// TestPatchConcurrentKeyedAdders: 32 writers at once each add their own
// element through every template and keyed form this file's builders
// use (dashboard chart and dashboard edges, data job input edges,
// documentation per source, domains, terms, structured properties,
// structured property entity types, form prompts and actors); the mock
// merges every one.
func TestPatchConcurrentKeyedAdders(t *testing.T) {
	t.Parallel()
	s, rest := startPatch(t)
	ds := mustURN(urn.NewDataset("hive", "db.orders", "PROD"))
	dash := mustURN(urn.ParseDashboard("urn:li:dashboard:(looker,sales)"))
	job := mustURN(urn.ParseDataJob("urn:li:dataJob:(urn:li:dataFlow:(airflow,etl,PROD),load)"))
	prop := mustURN(urn.ParseStructuredProperty("urn:li:structuredProperty:io.acryl.tier"))
	form := mustURN(urn.ParseForm("urn:li:form:review"))
	if err := s.PutAspectJSON(form.String(), "formInfo", json.RawMessage(`{"name":"review"}`)); err != nil {
		t.Fatal(err)
	}
	const n = 32
	emit := func(b proposer) error {
		ps, err := b.Proposals()
		if err != nil {
			return err
		}
		return rest.Emit(context.Background(), ps...)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 9*n)
	for i := range n {
		wg.Go(func() {
			d := patch.NewDashboard(dash)
			d.AddChart(fmt.Sprintf("urn:li:chart:(looker,c%02d)", i))
			errs <- emit(d)
		})
		wg.Go(func() {
			j := patch.NewDataJob(job)
			j.AddInputDataset(mustURN(urn.NewDataset("hive", fmt.Sprintf("db.in%02d", i), "PROD")).String())
			errs <- emit(j)
		})
		wg.Go(func() {
			d := patch.NewDataset(ds)
			d.AddDocumentation(aspects.DocumentationAssociation{Documentation: fmt.Sprintf("doc %02d", i),
				Attribution: &aspects.MetadataAttribution{Actor: "urn:li:corpuser:datahub", Source: aspects.Ptr(fmt.Sprintf("urn:li:dataHubAction:s%02d", i))}})
			errs <- emit(d)
		})
		wg.Go(func() {
			d := patch.NewDataset(ds)
			d.AddDomain(fmt.Sprintf("urn:li:domain:d%02d", i))
			errs <- emit(d)
		})
		wg.Go(func() {
			d := patch.NewDashboard(dash)
			d.AddDashboard(fmt.Sprintf("urn:li:dashboard:(looker,sub%02d)", i))
			errs <- emit(d)
		})
		wg.Go(func() {
			d := patch.NewDataset(ds)
			d.AddTerm(aspects.GlossaryTermAssociation{URN: fmt.Sprintf("urn:li:glossaryTerm:t%02d", i)})
			errs <- emit(d)
		})
		wg.Go(func() {
			d := patch.NewDataset(ds)
			d.SetStructuredProperty(fmt.Sprintf("io.acryl.p%02d", i), "v")
			errs <- emit(d)
		})
		wg.Go(func() {
			e := fmt.Sprintf("urn:li:entityType:datahub.e%02d", i)
			errs <- rest.Emit(context.Background(), rawPatch(prop, "propertyDefinition",
				`[{"op":"add","path":"/entityTypes/`+e+`","value":"`+e+`"}]`))
		})
		wg.Go(func() {
			id := fmt.Sprintf("p%02d", i)
			u := fmt.Sprintf("urn:li:corpuser:u%02d", i)
			errs <- rest.Emit(context.Background(), rawPatch(form, "formInfo",
				`[{"op":"add","path":"/prompts/`+id+`","value":{"id":"`+id+`","title":"t","type":"STRUCTURED_PROPERTY","required":false}},`+
					`{"op":"add","path":"/actors/users/`+u+`","value":"`+u+`"}]`))
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("Emit: %v", err)
		}
	}
	var dashInfo struct {
		ChartEdges []struct {
			DestinationURN string `json:"destinationUrn"`
		}
		Dashboards []struct {
			DestinationURN string `json:"destinationUrn"`
		}
	}
	var terms struct{ Terms []struct{ URN string } }
	var props struct {
		Properties []struct{ PropertyURN string }
	}
	var io struct {
		InputDatasetEdges []struct {
			DestinationURN string `json:"destinationUrn"`
		}
	}
	var docs struct {
		Documentations []struct{ Documentation string }
	}
	var domains struct {
		Domains            []string
		DomainAssociations []struct{ Domain string }
	}
	var def struct{ EntityTypes []string }
	var formInfo struct {
		Prompts []struct{ ID string }
		Actors  struct{ Users []string }
	}
	for _, r := range []struct {
		u      urn.URN
		aspect string
		into   any
	}{
		{dash, "dashboardInfo", &dashInfo}, {job, "dataJobInputOutput", &io}, {ds, "documentation", &docs},
		{ds, "domains", &domains}, {prop, "propertyDefinition", &def}, {form, "formInfo", &formInfo},
		{ds, "glossaryTerms", &terms}, {ds, "structuredProperties", &props},
	} {
		raw, err := s.GetAspectJSON(r.u.String(), r.aspect, 0)
		if err != nil {
			t.Fatalf("%s: %v", r.aspect, err)
		}
		if err := json.Unmarshal(raw, r.into); err != nil {
			t.Fatal(err)
		}
	}
	got := map[string][]string{}
	for _, e := range dashInfo.ChartEdges {
		got["charts"] = append(got["charts"], e.DestinationURN)
	}
	for _, e := range dashInfo.Dashboards {
		got["dashboards"] = append(got["dashboards"], e.DestinationURN)
	}
	for _, tm := range terms.Terms {
		got["terms"] = append(got["terms"], tm.URN)
	}
	for _, p := range props.Properties {
		got["properties"] = append(got["properties"], p.PropertyURN)
	}
	for _, e := range io.InputDatasetEdges {
		got["inputs"] = append(got["inputs"], e.DestinationURN)
	}
	for _, d := range docs.Documentations {
		got["docs"] = append(got["docs"], d.Documentation)
	}
	got["domains"] = domains.Domains
	for _, a := range domains.DomainAssociations {
		got["associations"] = append(got["associations"], a.Domain)
	}
	got["entityTypes"] = def.EntityTypes
	for _, p := range formInfo.Prompts {
		got["prompts"] = append(got["prompts"], p.ID)
	}
	got["users"] = formInfo.Actors.Users
	want := map[string][]string{}
	for i := range n {
		want["charts"] = append(want["charts"], fmt.Sprintf("urn:li:chart:(looker,c%02d)", i))
		want["dashboards"] = append(want["dashboards"], fmt.Sprintf("urn:li:dashboard:(looker,sub%02d)", i))
		want["terms"] = append(want["terms"], fmt.Sprintf("urn:li:glossaryTerm:t%02d", i))
		want["properties"] = append(want["properties"], fmt.Sprintf("urn:li:structuredProperty:io.acryl.p%02d", i))
		want["inputs"] = append(want["inputs"], mustURN(urn.NewDataset("hive", fmt.Sprintf("db.in%02d", i), "PROD")).String())
		want["docs"] = append(want["docs"], fmt.Sprintf("doc %02d", i))
		want["domains"] = append(want["domains"], fmt.Sprintf("urn:li:domain:d%02d", i))
		want["associations"] = append(want["associations"], fmt.Sprintf("urn:li:domain:d%02d", i))
		want["entityTypes"] = append(want["entityTypes"], fmt.Sprintf("urn:li:entityType:datahub.e%02d", i))
		want["prompts"] = append(want["prompts"], fmt.Sprintf("p%02d", i))
		want["users"] = append(want["users"], fmt.Sprintf("urn:li:corpuser:u%02d", i))
	}
	for _, v := range got {
		slices.Sort(v)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after %d concurrent adders of each kind (-want +got):\n%s", n, diff)
	}
}
