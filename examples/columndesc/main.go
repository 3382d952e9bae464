// Command columndesc documents a dataset and one of its columns: the
// dataset description goes to editableDatasetProperties with
// client.SetDescription and the column description to
// editableSchemaMetadata with client.SetFieldDescription, which keeps the
// other columns' entries and refuses a field path that the dataset's
// schemaMetadata does not have (exactly, or as the simple form of one
// version-2 path).
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
