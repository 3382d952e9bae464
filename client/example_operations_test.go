package client_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// Rebuild the search documents of some datasets from the SQL store, for
// example after the index lost updates. Here the mock's indexing is paused
// while the datasets are written, so the index has drifted. Rows are taken
// in URN, then aspect order (byte-wise), so db.items and db.orders come first.
func ExampleClient_RestoreIndices() {
	mock, err := mockserver.Listen("127.0.0.1:0", mockserver.WithIndexPaused(true))
	must(err)
	defer mock.Close()
	for _, name := range []string{"db.orders", "db.users", "db.items"} {
		must(mock.PutAspectJSON("urn:li:dataset:(urn:li:dataPlatform:hive,"+name+",PROD)", "status", []byte(`{"removed":false}`)))
	}
	c, err := client.New(mock.URL())
	must(err)

	res, err := c.RestoreIndices(context.Background(), client.RestoreIndicesRequest{
		URNLike:   "urn:li:dataset:(urn:li:dataPlatform:hive,db.%",
		Aspect:    "status",
		Limit:     2, // without Limit DataHub restores every selected row, the mock one batch
		BatchSize: 2,
	})
	must(err)
	fmt.Println("rows restored:", res.RowsMigrated)
	fmt.Println("last:", res.LastURN, res.LastAspect)
	// Output:
	// rows restored: 2
	// last: urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD) status
}

// See which timeseries indices are largest, count what a truncation would
// delete, run it and wait for its task.
func ExampleClient_TruncateTimeseriesAspect() {
	mock, err := mockserver.Listen("127.0.0.1:0")
	must(err)
	defer mock.Close()
	ds := "urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)"
	old := time.Now().Add(-90 * 24 * time.Hour)
	for i := range 10 {
		ms := old.Add(time.Duration(i) * 24 * time.Hour).UnixMilli()
		must(mock.PutAspectJSON(ds, "datasetProfile", fmt.Appendf(nil, `{"timestampMillis":%d,"rowCount":%d}`, ms, 100+i)))
	}
	c, err := client.New(mock.URL())
	must(err)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	sizes, err := c.GetIndexSizes(ctx)
	must(err)
	for _, s := range sizes {
		fmt.Println(s.IndexName, s.EntityName, s.AspectName, s.SizeMB > 0)
	}
	req := client.TruncateRequest{EntityType: "dataset", Aspect: "datasetProfile", End: old.Add(3 * 24 * time.Hour)}
	dry, err := c.TruncateTimeseriesAspect(ctx, req) // Execute false: a dry run
	must(err)
	fmt.Printf("would delete %d of %d\n", dry.ToDelete, dry.Total)

	req.Execute = true
	run, err := c.TruncateTimeseriesAspect(ctx, req)
	must(err)
	st, err := c.WaitForTask(ctx, *run.Task)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("completed:", st.Completed, "deleted:", st.Status.Deleted)
	// Output:
	// dataset_datasetprofileaspect_v1 dataset datasetprofile true
	// would delete 4 of 10
	// completed: true deleted: 4
}

// Define metadata tests with the builders of package aspects, run those
// that apply to a dataset and store the results on it. A definition the
// server cannot evaluate spoils only its own test (the mock names it).
func ExampleClient_EvaluateTests() {
	mock, err := mockserver.Listen("127.0.0.1:0")
	must(err)
	defer mock.Close()
	c, err := client.New(mock.URL())
	must(err)
	ctx := context.Background()

	described, err := aspects.NewTestDefinition(aspects.TestOn{Types: []string{"dataset"}},
		aspects.TestWhere("editableDatasetProperties.description", aspects.TestOpExists))
	must(err)
	owned, err := aspects.NewTestDefinition(aspects.TestOn{Types: []string{"dataset"}},
		aspects.TestAnyOf(
			aspects.TestWhere("ownership.owners.owner", aspects.TestOpExists),
			aspects.TestWhere("urn", aspects.TestOpContains, "sandbox")))
	must(err)
	fuzzy, err := aspects.NewTestDefinition(aspects.TestOn{Types: []string{"dataset"}},
		aspects.TestWhere("datasetProperties.name", "sounds_like", "users")) // not an operator the mock knows
	must(err)
	for id, def := range map[string]aspects.TestDefinition{"has-description": described, "has-owner": owned, "fuzzy": fuzzy} {
		must(mock.PutAspect("urn:li:test:"+id, aspects.TestInfo{Name: id, Category: "Governance", Definition: def}))
	}
	ds := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)")
	must(mock.PutAspectJSON(ds.String(), "editableDatasetProperties", []byte(`{"description":"One row per user."}`)))

	res, err := c.EvaluateTests(ctx, ds, client.EvaluateOptions{Push: true})
	must(err)
	for _, r := range res.Passing {
		fmt.Println("passing:", r.Test)
	}
	for _, r := range res.Failing {
		fmt.Println("failing:", r.Test)
	}
	for _, r := range res.Invalid {
		fmt.Println("invalid:", r.Test, "-", r.Error)
	}
	// Output:
	// passing: urn:li:test:has-description
	// failing: urn:li:test:has-owner
	// invalid: urn:li:test:fuzzy - cannot be evaluated by datahub-mock: rules.operator: unsupported operator "sounds_like" (datahub-mock supports exists, equals, in, contains, starts_with, regex, greater_than, less_than)
}
