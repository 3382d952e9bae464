package client_test

import (
	"context"
	"fmt"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// quality starts a mock with a dataset and returns a client of it.
func quality() (*client.Client, urn.Dataset, func()) {
	mock, err := mockserver.Listen("127.0.0.1:0")
	must(err)
	c, err := client.New(mock.URL(), datahub.ForTests())
	must(err)
	orders, err := urn.NewDataset("snowflake", "shop.orders", "PROD")
	must(err)
	must(c.Entities().Create(context.Background(), entity.NewDataset(orders, "Orders placed on the web shop.")))
	return c, orders, func() { c.CloseIdleConnections(); mock.Close() }
}

// A check run by dbt recorded as a custom assertion, with two results.
func ExampleAssertions_Report() {
	c, orders, stop := quality()
	defer stop()
	ctx := context.Background()

	as := c.Assertions()
	check, err := as.UpsertCustom(ctx, client.CustomAssertion{Entity: orders, Type: "Row count",
		Description: "Orders has rows every day", Platform: "dbt", Logic: "select count(*) from shop.orders"})
	must(err)
	day := time.Date(2026, 1, 5, 6, 0, 0, 0, time.UTC)
	must(as.Report(ctx, check, client.AssertionRun{Type: aspects.AssertionResultTypeSuccess, Time: day,
		Properties: map[string]string{"rows": "1204"}}))
	must(as.Report(ctx, check, client.AssertionRun{Type: aspects.AssertionResultTypeFailure, Time: day.AddDate(0, 0, 1),
		Severity: aspects.AssertionResultSeverityHigh, Properties: map[string]string{"rows": "0"}}))

	runs, err := as.Results(ctx, check, client.TimeseriesQuery{})
	must(err)
	for _, r := range runs {
		fmt.Println(time.UnixMilli(r.TimestampMillis).UTC().Format(time.DateOnly), r.Result.Type, r.Result.NativeResults["rows"])
	}
	// Output:
	// 2026-01-06 FAILURE 0
	// 2026-01-05 SUCCESS 1204
}

// An incident raised on a dataset, then resolved.
func ExampleIncidents_Raise() {
	c, orders, stop := quality()
	defer stop()
	ctx := context.Background()

	inc := c.Incidents()
	u, err := inc.Raise(ctx, client.IncidentInput{Type: aspects.IncidentTypeFreshness, Title: "Orders are late",
		Entities: []urn.URN{orders}, Priority: client.IncidentHigh})
	must(err)
	must(inc.UpdateStatus(ctx, u, aspects.IncidentStateResolved, aspects.IncidentStageFixed, "Reloaded at 7:10."))

	e, err := c.Entities().Get(ctx, u)
	must(err)
	info := e.(*entity.Incident).Info
	fmt.Println(*info.Title, info.Status.State, *info.Status.Stage, *info.Status.Message)
	// Output:
	// Orders are late RESOLVED FIXED Reloaded at 7:10.
}

// A data contract on a dataset: a freshness and a data quality
// assertion, read back.
func ExampleDataContracts_Set() {
	c, orders, stop := quality()
	defer stop()
	ctx := context.Background()

	fresh, err := c.Assertions().UpsertCustom(ctx, client.CustomAssertion{Entity: orders, Type: "Freshness",
		Description: "Loaded by 6:00", Platform: "airflow"})
	must(err)
	rows, err := c.Assertions().UpsertCustom(ctx, client.CustomAssertion{Entity: orders, Type: "Row count",
		Description: "Has rows", Platform: "dbt"})
	must(err)
	u, err := c.DataContracts().Set(ctx, client.DataContractSpec{Entity: orders,
		Freshness: []urn.Assertion{fresh}, DataQuality: []urn.Assertion{rows}})
	must(err)

	got, err := c.DataContracts().Get(ctx, u)
	must(err)
	fmt.Println(got.Entity, got.State, len(got.Freshness), len(got.DataQuality))
	// Output:
	// urn:li:dataset:(urn:li:dataPlatform:snowflake,shop.orders,PROD) PENDING 1 1
}
