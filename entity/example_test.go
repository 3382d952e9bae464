package entity_test

import (
	"context"
	"fmt"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// startMock starts a mock DataHub and returns a client of it.
func startMock() (*client.Client, func()) {
	s, err := mockserver.Listen("127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	c, err := client.New(s.URL(), datahub.ForTests())
	if err != nil {
		panic(err)
	}
	return c, func() { c.CloseIdleConnections(); s.Close() }
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

// A structured property is defined once, then its values are set on a
// model through Update, which writes against the versions it read.
func ExampleMLModel_SetStructuredProperty() {
	c, stop := startMock()
	defer stop()
	ctx := context.Background()

	retention := urn.MustParse("urn:li:structuredProperty:io.acryl.privacy.retentionDays").(urn.StructuredProperty)
	must(c.Entities().Create(ctx, &entity.StructuredProperty{URN: retention,
		Definition: &aspects.StructuredPropertyDefinition{
			QualifiedName: "io.acryl.privacy.retentionDays",
			ValueType:     "urn:li:dataType:datahub.number",
			Cardinality:   aspects.Ptr(aspects.PropertyCardinalitySingle),
			EntityTypes:   []string{"urn:li:entityType:datahub.mlModel"},
		}}))

	u, err := urn.NewMLModel("mlflow", "churn", "PROD")
	must(err)
	must(c.Entities().Create(ctx, entity.NewMLModel(u, "Churn classifier", map[string]any{"max_depth": 6}, nil)))

	e, err := c.Entities().Get(ctx, u)
	must(err)
	m := e.(*entity.MLModel)
	_, err = c.Entities().Update(ctx, m, func() error {
		return m.SetStructuredProperty(retention, 90)
	})
	must(err)

	e, err = c.Entities().Get(ctx, u)
	must(err)
	for _, p := range e.(*entity.MLModel).StructuredProperties.Properties {
		fmt.Println(p.PropertyURN, *p.Values[0].Double)
	}
	// Output:
	// urn:li:structuredProperty:io.acryl.privacy.retentionDays 90
}

// A dashboard fed by a dataset through a chart: the chart reads the
// dataset, the dashboard holds the chart.
func ExampleDashboard_AddChart() {
	c, stop := startMock()
	defer stop()
	ctx := context.Background()

	orders, err := urn.NewDataset("snowflake", "shop.orders", "PROD")
	must(err)
	must(c.Entities().Create(ctx, entity.NewDataset(orders, "Orders placed on the web shop.")))

	chart := &entity.Chart{URN: urn.MustParse("urn:li:chart:(looker,revenue_by_day)").(urn.Chart)}
	chart.Info = &aspects.ChartInfo{Title: "Revenue by day"}
	chart.AddInputDataset(orders)
	must(c.Entities().Create(ctx, chart))

	board := &entity.Dashboard{URN: urn.MustParse("urn:li:dashboard:(looker,sales)").(urn.Dashboard)}
	board.Info = &aspects.DashboardInfo{Title: "Sales"}
	board.AddChart(chart.URN)
	board.AddTag(urn.MustParse("urn:li:tag:finance").(urn.Tag))
	must(c.Entities().Create(ctx, board))

	e, err := c.Entities().Get(ctx, board.URN)
	must(err)
	b := e.(*entity.Dashboard)
	for _, ce := range b.Info.ChartEdges {
		e, err := c.Entities().Get(ctx, urn.MustParse(ce.DestinationURN))
		must(err)
		ch := e.(*entity.Chart)
		for _, in := range ch.Info.InputEdges {
			fmt.Printf("%s <- %s <- %s\n", b.Info.Title, ch.Info.Title, in.DestinationURN)
		}
	}
	fmt.Println(b.GlobalTags.Tags[0].Tag)
	// Output:
	// Sales <- Revenue by day <- urn:li:dataset:(urn:li:dataPlatform:snowflake,shop.orders,PROD)
	// urn:li:tag:finance
}
