// Command dashboard records a dashboard fed by a dataset through a chart
// (typed entities of package entity written with client.Entities().Upsert:
// the chart's input is the dataset, the dashboard holds the chart), then
// walks the dashboard's upstream lineage.
//
//	go run ./examples/dashboard
//	go run ./examples/dashboard -server http://localhost:8080 -token "$DATAHUB_GMS_TOKEN"
package main

import (
	"context"
	"fmt"
	"io"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/examples/internal/embedded"
	"github.com/catalogkit/datahub-go/urn"
)

func main() { embedded.Main("dashboard", run) }

func run(ctx context.Context, server, token string, out io.Writer) error {
	// With no server, Connect starts an embedded mock DataHub.
	_, c, stop, err := embedded.Connect(server, token)
	if err != nil {
		return err
	}
	defer stop()

	orders, err := urn.NewDataset("snowflake", "shop.orders", "PROD")
	if err != nil {
		return err
	}
	ds := entity.NewDataset(orders, "Orders placed on the web shop.",
		entity.Column{Name: "order_date", Type: "date", Description: "Day of the order"},
		entity.Column{Name: "amount", Type: "decimal(10,2)", Description: "Total in EUR"})
	if err := c.Entities().Upsert(ctx, ds); err != nil {
		return fmt.Errorf("dataset: %w", err)
	}

	chart := &entity.Chart{URN: urn.MustParse("urn:li:chart:(looker,revenue_by_day)").(urn.Chart)}
	chart.Info = &aspects.ChartInfo{Title: "Revenue by day", Description: "Sum of amount per order_date."}
	chart.AddInputDataset(orders)
	if err := c.Entities().Upsert(ctx, chart); err != nil {
		return fmt.Errorf("chart: %w", err)
	}

	board := &entity.Dashboard{URN: urn.MustParse("urn:li:dashboard:(looker,sales)").(urn.Dashboard)}
	board.Info = &aspects.DashboardInfo{Title: "Sales", Description: "Daily sales."}
	board.AddChart(chart.URN)
	if err := c.Entities().Upsert(ctx, board); err != nil {
		return fmt.Errorf("dashboard: %w", err)
	}

	up, err := c.Lineage().Get(ctx, board.URN, client.Upstream, 2, client.SearchFilter{})
	if err != nil {
		return fmt.Errorf("lineage: %w", err)
	}
	fmt.Fprintf(out, "upstream of %s:\n", board.URN)
	for _, r := range up {
		fmt.Fprintf(out, "  %d hop(s): %s\n", r.Degree, r.URN)
	}
	return nil
}
