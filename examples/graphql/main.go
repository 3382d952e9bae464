// Command graphql reads ML entities and a dataset's columns through
// DataHub's GraphQL API and updates a column's description with the
// updateDescription mutation, the way DataHub's UI does. The metadata is
// first written with the REST emitter.
//
//	go run ./examples/graphql
//	go run ./examples/graphql -server http://localhost:8080 -token "$DATAHUB_GMS_TOKEN"
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

func main() { embedded.Main("graphql", run) }

func run(ctx context.Context, server, token string, out io.Writer) error {
	// With no server, Connect starts an embedded mock DataHub.
	em, c, stop, err := embedded.Connect(server, token)
	if err != nil {
		return err
	}
	defer stop()
	table, err := urn.NewMLFeatureTable("feast", "users")
	if err != nil {
		return err
	}
	age, err := urn.NewMLFeature("users", "age")
	if err != nil {
		return err
	}
	model, err := urn.NewMLModel("sagemaker", "churn", "PROD")
	if err != nil {
		return err
	}
	group, err := urn.NewMLModelGroup("sagemaker", "churn-runs", "PROD")
	if err != nil {
		return err
	}
	ds, err := urn.NewDataset("hive", "analytics.users", "PROD")
	if err != nil {
		return err
	}
	dt := aspects.MLFeatureDataTypeContinuous
	if err := emit(ctx, em,
		write{age, aspects.MLFeatureProperties{Description: aspects.Ptr("Age in years"), DataType: &dt, Sources: []string{ds.String()}}},
		write{table, aspects.MLFeatureTableProperties{Description: aspects.Ptr("User features"), MLFeatures: []string{age.String()}}},
		write{group, aspects.MLModelGroupProperties{Description: aspects.Ptr("Every churn training run")}},
		write{model, aspects.MLModelProperties{Description: aspects.Ptr("Churn classifier"), Groups: []string{group.String()}, MLFeatures: []string{age.String()}}},
		write{ds, aspects.SchemaMetadata{SchemaName: "analytics.users", Platform: ds.Platform().String(), PlatformSchema: aspects.OtherSchema{},
			Fields: []aspects.SchemaField{
				{FieldPath: "user_id", Type: aspects.DataType(aspects.StringType{}), NativeDataType: "string"},
				{FieldPath: "age", Type: aspects.DataType(aspects.NumberType{}), NativeDataType: "int"},
			}}},
	); err != nil {
		return err
	}

	t, err := c.MLFeatureTable(ctx, table)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "feature table %s on %s: %s\n", t.Name, t.Platform.Name, str(t.Description))
	for _, f := range t.Properties.MLFeatures {
		fu, err := urn.ParseMLFeature(f.URN)
		if err != nil {
			return err
		}
		feature, err := c.MLFeature(ctx, fu)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "  feature %s (%s): %s\n", feature.Name, str(feature.DataType), str(feature.Description))
	}
	m, err := c.MLModel(ctx, model)
	if err != nil {
		return err
	}
	for _, g := range m.Properties.Groups {
		fmt.Fprintf(out, "model %s is in group %s\n", m.Name, g.Name)
	}

	if err := c.UpdateDescription(ctx, client.DescriptionUpdate{ResourceURN: ds.String(),
		SubResourceType: client.SubResourceDatasetField, SubResource: "age", Description: "Age in **years**, from the sign-up form."}); err != nil {
		return err
	}
	err = c.UpdateDescription(ctx, client.DescriptionUpdate{ResourceURN: ds.String(),
		SubResourceType: client.SubResourceDatasetField, SubResource: "no_such_column", Description: "x"})
	var ge *client.GraphQLError
	if !errors.As(err, &ge) {
		return fmt.Errorf("a missing column was not refused: %v", err)
	}
	fmt.Fprintf(out, "refused (%d %s): %s\n", ge.Code, ge.Type, ge.Message)

	d, err := c.Dataset(ctx, ds)
	if err != nil {
		return err
	}
	edited := map[string]string{}
	if d.EditableSchemaMetadata != nil {
		for _, e := range d.EditableSchemaMetadata.EditableSchemaFieldInfo {
			edited[e.FieldPath] = str(e.Description)
		}
	}
	fmt.Fprintf(out, "dataset %s columns:\n", d.Name)
	for _, f := range d.SchemaMetadata.Fields {
		fmt.Fprintf(out, "  %s %s: %s\n", f.FieldPath, f.Type, edited[f.FieldPath])
	}
	return nil
}

// write is one aspect of one entity.
type write struct {
	u urn.URN
	a aspects.Aspect
}

// emit writes the aspects in one batch.
func emit(ctx context.Context, em *emitter.REST, ws ...write) error {
	ps := make([]emitter.Proposal, 0, len(ws))
	for _, w := range ws {
		p, err := emitter.NewProposal(w.u, w.a)
		if err != nil {
			return err
		}
		ps = append(ps, p)
	}
	return em.Emit(ctx, ps...)
}

func str(s *string) string {
	if s == nil {
		return "(none)"
	}
	return *s
}
