package patch_test

import (
	"context"
	"fmt"
	"net/http/httptest"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/emitter/patch"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// A chart's inputs and title by PATCH: the server keys input edges by
// their destination, so the edge another tool added stays.
func ExampleNewChart() {
	s := mockserver.New()
	defer s.Close()
	srv := httptest.NewServer(s)
	defer srv.Close()
	ctx := context.Background()
	rest, err := emitter.NewREST(srv.URL)
	if err != nil {
		panic(err)
	}

	chart, err := urn.NewChart("looker", "orders_per_day")
	if err != nil {
		panic(err)
	}
	first := patch.NewChart(chart)
	first.SetTitle("Orders per day")
	first.SetDescription("")
	first.AddInput("urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)")
	second := patch.NewChart(chart)
	second.AddInput("urn:li:dataset:(urn:li:dataPlatform:hive,db.customers,PROD)")
	second.SetType(aspects.ChartTypeBar)
	for _, b := range []*patch.Chart{first, second} {
		ps, err := b.Proposals()
		if err != nil {
			panic(err)
		}
		if err := rest.Emit(ctx, ps...); err != nil {
			panic(err)
		}
	}

	info, err := s.GetAspectJSON(chart.String(), "chartInfo", 0)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(pick(info, "title", "type", "inputEdges")))
	// Output:
	// {"title":"Orders per day","type":"BAR","inputEdges":[{"destinationUrn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)"},{"destinationUrn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.customers,PROD)"}]}
}

// A dashboard's charts and datasets by PATCH.
func ExampleNewDashboard() {
	s := mockserver.New()
	defer s.Close()
	srv := httptest.NewServer(s)
	defer srv.Close()
	rest, err := emitter.NewREST(srv.URL)
	if err != nil {
		panic(err)
	}

	dash, err := urn.NewDashboard("looker", "sales")
	if err != nil {
		panic(err)
	}
	d := patch.NewDashboard(dash)
	d.SetTitle("Sales")
	d.AddChart("urn:li:chart:(looker,orders_per_day)")
	d.AddDataset("urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)")
	d.AddDomain("urn:li:domain:sales")
	ps, err := d.Proposals()
	if err != nil {
		panic(err)
	}
	if err := rest.Emit(context.Background(), ps...); err != nil {
		panic(err)
	}

	info, err := s.GetAspectJSON(dash.String(), "dashboardInfo", 0)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(pick(info, "title", "chartEdges", "datasetEdges")))
	domains, err := s.GetAspectJSON(dash.String(), "domains", 0)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(pick(domains, "domains")))
	// Output:
	// {"title":"Sales","chartEdges":[{"destinationUrn":"urn:li:chart:(looker,orders_per_day)"}],"datasetEdges":[{"destinationUrn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)"}]}
	// {"domains":["urn:li:domain:sales"]}
}

// A pipeline task's lineage by PATCH: its input and output datasets and a
// column-level edge, merged into what the job already had.
func ExampleNewDataJob() {
	s := mockserver.New()
	defer s.Close()
	srv := httptest.NewServer(s)
	defer srv.Close()
	rest, err := emitter.NewREST(srv.URL)
	if err != nil {
		panic(err)
	}

	flow, err := urn.NewDataFlow("airflow", "etl", "PROD")
	if err != nil {
		panic(err)
	}
	job, err := urn.NewDataJob(flow, "load_orders")
	if err != nil {
		panic(err)
	}
	raw := "urn:li:dataset:(urn:li:dataPlatform:s3,raw/orders,PROD)"
	orders := "urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)"
	j := patch.NewDataJob(job)
	j.SetName("load_orders")
	j.SetType("COMMAND")
	j.AddInputDataset(raw)
	j.AddOutputDataset(orders)
	j.AddFineGrainedLineage(aspects.FineGrainedLineage{
		UpstreamType:       aspects.FineGrainedLineageUpstreamTypeFieldSet,
		Upstreams:          []string{"urn:li:schemaField:(" + raw + ",id)"},
		DownstreamType:     aspects.FineGrainedLineageDownstreamTypeField,
		Downstreams:        []string{"urn:li:schemaField:(" + orders + ",id)"},
		TransformOperation: aspects.Ptr("IDENTITY"),
	})
	ps, err := j.Proposals()
	if err != nil {
		panic(err)
	}
	if err := rest.Emit(context.Background(), ps...); err != nil {
		panic(err)
	}

	io, err := s.GetAspectJSON(job.String(), "dataJobInputOutput", 0)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(pick(io, "inputDatasetEdges", "outputDatasetEdges")))
	fmt.Println(string(pick(io, "fineGrainedLineages")))
	// Output:
	// {"inputDatasetEdges":[{"destinationUrn":"urn:li:dataset:(urn:li:dataPlatform:s3,raw/orders,PROD)"}],"outputDatasetEdges":[{"destinationUrn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)"}]}
	// {"fineGrainedLineages":[{"downstreams":["urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD),id)"],"upstreams":["urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:s3,raw/orders,PROD),id)"],"upstreamType":"FIELD_SET","downstreamType":"FIELD","confidenceScore":1.0,"transformOperation":"IDENTITY"}]}
}

// A pipeline's project and a custom property by PATCH, and the owner it
// gains besides the one it had.
func ExampleNewDataFlow() {
	s := mockserver.New()
	defer s.Close()
	srv := httptest.NewServer(s)
	defer srv.Close()
	ctx := context.Background()
	rest, err := emitter.NewREST(srv.URL)
	if err != nil {
		panic(err)
	}

	flow, err := urn.NewDataFlow("airflow", "etl", "PROD")
	if err != nil {
		panic(err)
	}
	for _, owner := range []string{"urn:li:corpuser:ann", "urn:li:corpuser:bob"} {
		f := patch.NewDataFlow(flow)
		f.SetName("etl")
		f.SetProject("warehouse")
		f.AddCustomProperty("schedule", "@daily")
		f.AddOwner(aspects.Owner{Owner: owner, Type: aspects.OwnershipTypeTechnicalOwner})
		ps, err := f.Proposals()
		if err != nil {
			panic(err)
		}
		if err := rest.Emit(ctx, ps...); err != nil {
			panic(err)
		}
	}

	info, err := s.GetAspectJSON(flow.String(), "dataFlowInfo", 0)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(info))
	a, err := s.GetAspect(flow.String(), "ownership")
	if err != nil {
		panic(err)
	}
	for _, o := range a.(*aspects.Ownership).Owners {
		fmt.Println(o.Owner, o.Type)
	}
	// Output:
	// {"customProperties":{"schedule":"@daily"},"name":"etl","project":"warehouse"}
	// urn:li:corpuser:ann TECHNICAL_OWNER
	// urn:li:corpuser:bob TECHNICAL_OWNER
}

// An ML experiment recorded as a container: its description, a custom
// property, a domain and a structured property, each merged by PATCH.
func ExampleNewContainer() {
	s := mockserver.New()
	defer s.Close()
	srv := httptest.NewServer(s)
	defer srv.Close()
	rest, err := emitter.NewREST(srv.URL)
	if err != nil {
		panic(err)
	}

	exp, err := urn.NewContainer("mlflow-experiment-42")
	if err != nil {
		panic(err)
	}
	if err := s.PutAspectJSON(exp.String(), "containerProperties", []byte(`{"name":"churn"}`)); err != nil {
		panic(err)
	}
	c := patch.NewContainer(exp)
	c.SetDescription("Churn model experiments")
	c.AddCustomProperty("experiment_id", "42")
	c.AddDomain("urn:li:domain:ml")
	c.SetStructuredProperty("io.acryl.retentionDays", 90)
	ps, err := c.Proposals()
	if err != nil {
		panic(err)
	}
	if err := rest.Emit(context.Background(), ps...); err != nil {
		panic(err)
	}

	for _, aspect := range []string{"containerProperties", "editableContainerProperties", "structuredProperties"} {
		v, err := s.GetAspectJSON(exp.String(), aspect, 0)
		if err != nil {
			panic(err)
		}
		fmt.Println(aspect, string(v))
	}
	// Output:
	// containerProperties {"name":"churn","customProperties":{"experiment_id":"42"}}
	// editableContainerProperties {"description":"Churn model experiments"}
	// structuredProperties {"properties":[{"propertyUrn":"urn:li:structuredProperty:io.acryl.retentionDays","values":[{"double":90.0}]}]}
}

// A data product's assets by PATCH: two writers each add one.
func ExampleNewDataProduct() {
	s := mockserver.New()
	defer s.Close()
	srv := httptest.NewServer(s)
	defer srv.Close()
	ctx := context.Background()
	rest, err := emitter.NewREST(srv.URL)
	if err != nil {
		panic(err)
	}

	product, err := urn.NewDataProduct("orders")
	if err != nil {
		panic(err)
	}
	for _, asset := range []string{
		"urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)",
		"urn:li:dashboard:(looker,sales)",
	} {
		p := patch.NewDataProduct(product)
		p.SetName("Orders")
		p.AddAsset(asset)
		ps, err := p.Proposals()
		if err != nil {
			panic(err)
		}
		if err := rest.Emit(ctx, ps...); err != nil {
			panic(err)
		}
	}

	v, err := s.GetAspectJSON(product.String(), "dataProductProperties", 0)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(v))
	// Output:
	// {"assets":[{"destinationUrn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)","outputPort":false},{"destinationUrn":"urn:li:dashboard:(looker,sales)","outputPort":false}],"name":"Orders"}
}

// A structured property's definition by PATCH: another entity type and an
// allowed value join those it had.
func ExampleNewStructuredProperty() {
	s := mockserver.New()
	defer s.Close()
	srv := httptest.NewServer(s)
	defer srv.Close()
	rest, err := emitter.NewREST(srv.URL)
	if err != nil {
		panic(err)
	}

	prop, err := urn.NewStructuredProperty("io.acryl.retentionDays")
	if err != nil {
		panic(err)
	}
	if err := s.PutAspectJSON(prop.String(), "propertyDefinition", []byte(
		`{"qualifiedName":"io.acryl.retentionDays","valueType":"urn:li:dataType:datahub.number",`+
			`"entityTypes":["urn:li:entityType:datahub.dataset"],"allowedValues":[{"value":{"double":30}}]}`)); err != nil {
		panic(err)
	}
	p := patch.NewStructuredProperty(prop)
	p.SetDisplayName("Retention (days)")
	p.AddEntityType("urn:li:entityType:datahub.container")
	p.AddAllowedValue(aspects.PropertyValue{Value: aspects.PrimitivePropertyValue{Double: aspects.Ptr(90.0)}, Description: aspects.Ptr("a quarter")})
	ps, err := p.Proposals()
	if err != nil {
		panic(err)
	}
	if err := rest.Emit(context.Background(), ps...); err != nil {
		panic(err)
	}

	v, err := s.GetAspectJSON(prop.String(), "propertyDefinition", 0)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(pick(v, "displayName", "entityTypes", "allowedValues")))
	// Output:
	// {"displayName":"Retention (days)","entityTypes":["urn:li:entityType:datahub.dataset","urn:li:entityType:datahub.container"],"allowedValues":[{"value":{"double":30.0}},{"value":{"double":90.0},"description":"a quarter"}]}
}

// A form's prompts and assignees by PATCH.
func ExampleNewForm() {
	s := mockserver.New()
	defer s.Close()
	srv := httptest.NewServer(s)
	defer srv.Close()
	rest, err := emitter.NewREST(srv.URL)
	if err != nil {
		panic(err)
	}

	form, err := urn.NewForm("quarterly-review")
	if err != nil {
		panic(err)
	}
	f := patch.NewForm(form)
	f.SetName("Quarterly review")
	f.AddPrompt(aspects.FormPrompt{ID: "retention", Title: "Retention?", Type: aspects.FormPromptTypeStructuredProperty,
		StructuredPropertyParams: &aspects.StructuredPropertyParams{URN: "urn:li:structuredProperty:io.acryl.retentionDays"}, Required: true})
	f.AddAssignedGroup("urn:li:corpGroup:stewards")
	ps, err := f.Proposals()
	if err != nil {
		panic(err)
	}
	if err := rest.Emit(context.Background(), ps...); err != nil {
		panic(err)
	}

	v, err := s.GetAspectJSON(form.String(), "formInfo", 0)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(v))
	// Output:
	// {"name":"Quarterly review","prompts":[{"id":"retention","title":"Retention?","type":"STRUCTURED_PROPERTY","structuredPropertyParams":{"urn":"urn:li:structuredProperty:io.acryl.retentionDays"},"required":true}],"actors":{"users":[],"groups":["urn:li:corpGroup:stewards"]}}
}
