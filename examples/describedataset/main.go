// Command describedataset describes a dataset with its schema in about ten
// lines: a description and columns with their types and descriptions,
// created with one call (which fails, writing nothing, if the dataset
// exists).
//
//	go run ./examples/describedataset
//	go run ./examples/describedataset -server http://localhost:8080 -token "$DATAHUB_GMS_TOKEN"
package main

import (
	"context"
	"fmt"
	"io"

	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/examples/internal/embedded"
	"github.com/catalogkit/datahub-go/urn"
)

func main() { embedded.Main("describedataset", run) }

func run(ctx context.Context, server, token string, out io.Writer) error {
	// With no server, Connect starts an embedded mock DataHub.
	_, c, stop, err := embedded.Connect(server, token)
	if err != nil {
		return err
	}
	defer stop()

	// The lines that describe it.
	u, err := urn.NewDataset("snowflake", "shop.orders", "PROD")
	if err != nil {
		return err
	}
	ds := entity.NewDataset(u, "Orders placed on the web shop, one row per order.",
		entity.Column{Name: "order_id", Type: "NUMBER(38,0)", Description: "Order id"},
		entity.Column{Name: "customer_id", Type: "NUMBER(38,0)", Description: "Who ordered"},
		entity.Column{Name: "amount", Type: "NUMBER(10,2)", Description: "Total in EUR"},
		entity.Column{Name: "placed_at", Type: "TIMESTAMP_NTZ", Description: "When it was placed"})
	if err := c.Entities().Create(ctx, ds); err != nil {
		return err
	}

	// Read it back.
	e, err := c.Entities().Get(ctx, u)
	if err != nil {
		return err
	}
	got := e.(*entity.Dataset)
	fmt.Fprintln(out, *got.Properties.Description)
	for _, f := range got.Schema.Fields {
		fmt.Fprintf(out, "  %-12s %-14s %s\n", f.FieldPath, f.NativeDataType, *f.Description)
	}
	return nil
}
