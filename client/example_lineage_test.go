package client_test

import (
	"context"
	"errors"
	"fmt"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// DataHub has no edge from a dataset to a model: Lineage.Add refuses the
// pair, saying which routes DataHub models. Here the route is a training
// run that read the dataset.
func ExampleLineage_Add_refused() {
	mock, err := mockserver.Listen("127.0.0.1:0")
	must(err)
	defer mock.Close()
	c, err := client.New(mock.URL(), datahub.ForTests())
	must(err)
	ctx := context.Background()
	ds := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)")
	model := urn.MustParse("urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn,PROD)")
	must(mock.PutAspect(ds.String(), aspects.DatasetProperties{Description: aspects.Ptr("Users.")}))
	must(mock.PutAspect(model.String(), aspects.MLModelProperties{Description: aspects.Ptr("Churn.")}))

	err = c.Lineage().Add(ctx, ds, model)
	fmt.Println(errors.Is(err, datahub.ErrValidation))
	fmt.Println(err)

	run := entity.NewTrainingRun(urn.MustParse("urn:li:dataProcessInstance:churn-run-1").(urn.DataProcessInstance), "churn-run-1", nil, nil)
	run.Input = &aspects.DataProcessInstanceInput{Inputs: []string{}, InputEdges: []aspects.Edge{{DestinationURN: ds.String()}}}
	must(c.Entities().Upsert(ctx, run))
	must(c.Lineage().Add(ctx, run.URN, model))
	up, err := c.Lineage().Get(ctx, model, client.Upstream, 2, client.SearchFilter{})
	must(err)
	for _, r := range up {
		fmt.Println(r.Degree, r.URN)
	}
	// Output:
	// true
	// client: unsupported lineage dataset→mlModel (urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD) -> urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn,PROD)): the pairs from dataset are dataset→dataset, dataset→chart, dataset→dashboard, dataset→dataJob, dataset→mlFeature; DataHub links a dataset to a model through the features the model uses (Lineage.Add dataset→mlFeature, then mlFeature→mlModel) or through a training run (a dataProcessInstance with the dataset among its inputs, see entity.NewTrainingRun, then Lineage.Add dataProcessInstance→mlModel): datahub: validation failed
	// 1 urn:li:dataProcessInstance:churn-run-1
	// 2 urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)
}

// A dashboard fed by a dataset through a chart, and a dataset made from
// another by SQL with its columns matched fuzzily ("total_amt" takes
// "total_amount": 0.842 similar once lower-cased without "_"): the query
// is recorded as a query entity and each column's upstream reads back.
func ExampleLineage_Add() {
	mock, err := mockserver.Listen("127.0.0.1:0")
	must(err)
	defer mock.Close()
	c, err := client.New(mock.URL(), datahub.ForTests())
	must(err)
	ctx := context.Background()
	orders := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)")
	daily := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.daily_orders,PROD)")
	chart := urn.MustParse("urn:li:chart:(looker,daily_orders)")
	dash := urn.MustParse("urn:li:dashboard:(looker,sales)")
	schema := func(paths ...string) aspects.SchemaMetadata {
		s := aspects.SchemaMetadata{SchemaName: "s", Platform: "urn:li:dataPlatform:hive", PlatformSchema: aspects.OtherSchema{}}
		for _, p := range paths {
			s.Fields = append(s.Fields, aspects.SchemaField{FieldPath: p, Type: aspects.DataType(aspects.StringType{}), NativeDataType: "string"})
		}
		return s
	}
	must(mock.PutAspect(orders.String(), schema("order_id", "customer_id", "order_date", "total_amount")))
	must(mock.PutAspect(daily.String(), schema("orderdate", "customerid", "total_amt")))
	must(mock.PutAspect(chart.String(), aspects.ChartInfo{Title: "Daily orders", Description: "Orders per day."}))
	must(mock.PutAspect(dash.String(), aspects.DashboardInfo{Title: "Sales", Description: "Sales."}))

	lin := c.Lineage()
	must(lin.Add(ctx, orders, daily, client.WithColumnMatching(client.MatchFuzzy),
		client.WithTransformation("SELECT order_date, customer_id, sum(total_amount) FROM db.orders GROUP BY 1, 2")))
	must(lin.Add(ctx, daily, chart))
	must(lin.Add(ctx, chart, dash))

	up, err := lin.Get(ctx, dash, client.Upstream, 3, client.SearchFilter{})
	must(err)
	for _, r := range up {
		fmt.Println(r.Degree, r.URN)
	}
	for _, col := range []string{"orderdate", "customerid", "total_amt"} {
		f, err := urn.NewSchemaField(daily, col)
		must(err)
		from, err := lin.Columns(ctx, f, client.Upstream)
		must(err)
		fmt.Println(col, "<-", from)
	}
	// Output:
	// 1 urn:li:chart:(looker,daily_orders)
	// 2 urn:li:dataset:(urn:li:dataPlatform:hive,db.daily_orders,PROD)
	// 3 urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)
	// orderdate <- [urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD),order_date)]
	// customerid <- [urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD),customer_id)]
	// total_amt <- [urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD),total_amount)]
}

// Python's difflib ratio, which fuzzy column matching accepts from 0.8.
func ExampleSimilarity() {
	fmt.Printf("%.3f\n", client.Similarity("totalamount", "totalamt"))
	fmt.Printf("%.3f\n", client.Similarity("tide", "diet"))
	// Output:
	// 0.842
	// 0.250
}
