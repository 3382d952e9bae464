// Command columndesc documents a dataset and one of its columns: the
// dataset description goes to editableDatasetProperties with
// client.SetDescription and the column description to
// editableSchemaMetadata with client.SetFieldDescription, which keeps the
// other columns' entries and refuses a field path that the dataset's
// schemaMetadata does not have (exactly, or as the simple form of one
// version-2 path).
//
// It then tags a column of a second dataset, whose schema has version-2
// field paths, with client.AddFieldTag and client.AddFieldTerm, naming
// the column by its simple form ("address.city"): the helpers write under
// the schema's full path, so the dataset's GraphQL read
// (client.DatasetView, Columns) shows the tag and term on that column.
//
//	go run ./examples/columndesc
//	go run ./examples/columndesc -server http://localhost:8080 -token "$DATAHUB_GMS_TOKEN"
package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/examples/internal/embedded"
	"github.com/catalogkit/datahub-go/fieldpath"
	"github.com/catalogkit/datahub-go/urn"
)

func main() { embedded.Main("columndesc", run) }

func run(ctx context.Context, server, token string, out io.Writer) error {
	// With no server, Connect starts an embedded mock DataHub.
	em, c, stop, err := embedded.Connect(server, token)
	if err != nil {
		return err
	}
	defer stop()
	ds, err := urn.NewDataset("hive", "analytics.users", "PROD")
	if err != nil {
		return err
	}
	schema := aspects.SchemaMetadata{
		SchemaName: "analytics.users", Platform: ds.Platform().String(), PlatformSchema: aspects.OtherSchema{},
		Fields: []aspects.SchemaField{
			{FieldPath: "user_id", Type: aspects.DataType(aspects.StringType{}), NativeDataType: "string"},
			{FieldPath: "country", Type: aspects.DataType(aspects.StringType{}), NativeDataType: "string"},
		},
	}
	if err := create(ctx, em, ds, schema); err != nil {
		return err
	}
	if err := c.SetDescription(ctx, ds, "One row per registered user."); err != nil {
		return err
	}
	if err := c.SetFieldDescription(ctx, ds, "user_id", "Stable user id."); err != nil {
		return err
	}
	if err := c.SetFieldDescription(ctx, ds, "country", "ISO 3166-1 alpha-2 code."); err != nil {
		return err
	}
	var fe *client.FieldNotFoundError
	if err := c.SetFieldDescription(ctx, ds, "no_such_column", "x"); errors.As(err, &fe) {
		fmt.Fprintf(out, "refused: %v\n", err)
	} else {
		return fmt.Errorf("a missing column was not refused: %v", err)
	}
	props, err := client.GetAspect[aspects.EditableDatasetProperties](ctx, c, ds)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s: %s\n", ds, *props.Description)
	cols, err := client.GetAspect[aspects.EditableSchemaMetadata](ctx, c, ds)
	if err != nil {
		return err
	}
	for _, f := range cols.EditableSchemaFieldInfo {
		fmt.Fprintf(out, "  %s: %s\n", f.FieldPath, *f.Description)
	}
	return tagColumn(ctx, em, c, out)
}

// tagColumn tags and classifies the column address.city of a dataset whose
// schema has version-2 field paths, and reads them back.
func tagColumn(ctx context.Context, em *emitter.REST, c *client.Client, out io.Writer) error {
	ds, err := urn.NewDataset("hive", "analytics.customers", "PROD")
	if err != nil {
		return err
	}
	city := fieldpath.New().Type("struct").Field("address").Type("string").Field("city").String()
	schema := aspects.SchemaMetadata{
		SchemaName: "analytics.customers", Platform: ds.Platform().String(), PlatformSchema: aspects.OtherSchema{},
		Fields: []aspects.SchemaField{
			{FieldPath: fieldpath.New().Type("long").Field("id").String(),
				Type: aspects.DataType(aspects.NumberType{}), NativeDataType: "long"},
			{FieldPath: city, Type: aspects.DataType(aspects.StringType{}), NativeDataType: "string"},
		},
	}
	if err := create(ctx, em, ds, schema); err != nil {
		return err
	}
	pii, err := urn.NewTag("pii")
	if err != nil {
		return err
	}
	place, err := urn.NewGlossaryTerm("Geography.City")
	if err != nil {
		return err
	}
	// The simple form of the column's path names it.
	if err := c.AddFieldTag(ctx, ds, "address.city", pii); err != nil {
		return err
	}
	if err := c.AddFieldTerm(ctx, ds, "address.city", place); err != nil {
		return err
	}
	d, err := c.Dataset(ctx, ds)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s:\n", ds)
	for _, col := range d.Columns() {
		fmt.Fprintf(out, "  %s", col.FieldPath)
		for _, t := range col.AllTags() {
			fmt.Fprintf(out, " tag=%s", t.Tag.URN)
		}
		for _, t := range col.AllGlossaryTerms() {
			fmt.Fprintf(out, " term=%s", t.Term.URN)
		}
		fmt.Fprintln(out)
	}
	return nil
}

// create writes aspect a of entity u, so that the entity exists: the
// helpers refuse to write to one that does not.
func create(ctx context.Context, em *emitter.REST, u urn.URN, a aspects.Aspect) error {
	p, err := emitter.NewProposal(u, a)
	if err != nil {
		return err
	}
	return em.Emit(ctx, p)
}
