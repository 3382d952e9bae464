package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// usersDataset starts a mock with a dataset whose schema has a plain
// column and a version-2 one, and returns a client for it.
func usersDataset() (c *client.Client, ds urn.Dataset, stop func()) {
	mock, err := mockserver.Listen("127.0.0.1:0")
	must(err)
	ds, err = urn.NewDataset("hive", "db.users", "PROD")
	must(err)
	must(mock.PutAspect(ds.String(), aspects.DatasetProperties{Description: aspects.Ptr("One row per user.")}))
	must(mock.PutAspect(ds.String(), aspects.SchemaMetadata{SchemaName: "users", Platform: ds.Platform().String(),
		PlatformSchema: aspects.OtherSchema{}, Fields: []aspects.SchemaField{
			{FieldPath: "id", Description: aspects.Ptr("Row id."), Type: aspects.DataType(aspects.NumberType{}), NativeDataType: "bigint"},
			{FieldPath: "[version=2.0].[type=struct].[type=string].email", Type: aspects.DataType(aspects.StringType{}), NativeDataType: "string"},
		}}))
	c, err = client.New(mock.URL(), datahub.ForTests())
	must(err)
	return c, ds, func() { must(mock.Close()) }
}

// Read a dataset through GraphQL: its description as DataHub shows it
// (edited over ingested) and its columns joined with the descriptions
// edited for them.
func ExampleClient_Dataset() {
	c, ds, stop := usersDataset()
	defer stop()
	ctx := context.Background()
	must(c.SetFieldDescription(ctx, ds, "email", "Contact address.")) // the simple form of the v2 path

	d, err := c.Dataset(ctx, ds)
	must(err)
	fmt.Println(d.Name, "-", d.EffectiveDescription())
	for _, col := range d.Columns() {
		fmt.Printf("%s (%s): %s\n", col.FieldPath, *col.NativeDataType, col.EffectiveDescription())
	}
	// Output:
	// db.users - One row per user.
	// id (bigint): Row id.
	// [version=2.0].[type=struct].[type=string].email (string): Contact address.
}

// Read a model through GraphQL, with its groups by name.
func ExampleClient_MLModel() {
	mock, err := mockserver.Listen("127.0.0.1:0")
	must(err)
	defer mock.Close()
	model := urn.MustParse("urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn-v3,PROD)").(urn.MLModel)
	group := urn.MustParse("urn:li:mlModelGroup:(urn:li:dataPlatform:sagemaker,churn,PROD)")
	must(mock.PutAspect(group.String(), aspects.MLModelGroupProperties{Description: aspects.Ptr("All churn runs.")}))
	must(mock.PutAspect(model.String(), aspects.MLModelProperties{Description: aspects.Ptr("Weekly retrain."),
		Type: aspects.Ptr("gradient boosted trees"), Groups: []string{group.String()}}))
	must(mock.PutAspect(model.String(), aspects.EditableMLModelProperties{Description: aspects.Ptr("Churn model, November run.")}))
	c, err := client.New(mock.URL())
	must(err)

	m, err := c.MLModel(context.Background(), model)
	must(err)
	fmt.Println(m.Name, "on", m.Platform.Name)
	fmt.Println(m.EffectiveDescription(), "|", *m.Properties.Description)
	for _, g := range m.Properties.Groups {
		fmt.Println("group:", g.Name)
	}
	// Output:
	// churn-v3 on sagemaker
	// Churn model, November run. | Weekly retrain.
	// group: churn
}

// Describe a column with DataHub's updateDescription mutation, the UI's
// way; a dataset that does not exist is refused with an error matching
// datahub.ErrNotFound.
func ExampleClient_UpdateDescription() {
	c, ds, stop := usersDataset()
	defer stop()
	ctx := context.Background()

	must(c.UpdateDescription(ctx, client.DescriptionUpdate{ResourceURN: ds.String(),
		SubResourceType: client.SubResourceDatasetField, SubResource: "id", Description: "Stable **row** id."}))
	d, err := c.Dataset(ctx, ds)
	must(err)
	fmt.Println(d.Columns()[0].EffectiveDescription())

	err = c.UpdateDescription(ctx, client.DescriptionUpdate{ResourceURN: "urn:li:dataset:(urn:li:dataPlatform:hive,db.ghost,PROD)",
		SubResourceType: client.SubResourceDatasetField, SubResource: "id", Description: "x"})
	var ge *client.GraphQLError
	fmt.Println(errors.As(err, &ge), errors.Is(err, datahub.ErrNotFound), errors.Is(err, datahub.ErrValidation))
	// Output:
	// Stable **row** id.
	// true true false
}

// Describe columns by proposal: a column named by its simple path when one
// version-2 field has it; a path no field has, or one several fields
// share, is refused before anything is written.
func ExampleClient_SetFieldDescription() {
	c, ds, stop := usersDataset()
	defer stop()
	ctx := context.Background()

	must(c.SetFieldDescription(ctx, ds, "id", "Row id, never reused."))
	must(c.SetFieldDescription(ctx, ds, "email", "Contact address."))
	err := c.SetFieldDescription(ctx, ds, "phone", "x")
	var fe *client.FieldNotFoundError
	fmt.Println(errors.As(err, &fe), fe.FieldPath)

	e, err := client.GetAspect[aspects.EditableSchemaMetadata](ctx, c, ds)
	must(err)
	for _, f := range e.EditableSchemaFieldInfo {
		fmt.Println(f.FieldPath, "=", *f.Description)
	}
	// Output:
	// true phone
	// id = Row id, never reused.
	// [version=2.0].[type=struct].[type=string].email = Contact address.
}

// Tag a column and give it a glossary term, naming it by the simple form
// of its version-2 path, and read both back through GraphQL; removing what
// is there, or adding it again, works the same way.
func ExampleClient_AddFieldTag() {
	c, ds, stop := usersDataset()
	defer stop()
	ctx := context.Background()
	pii := urn.MustParse("urn:li:tag:pii").(urn.Tag)
	contact := urn.MustParse("urn:li:glossaryTerm:Customer.ContactDetails").(urn.GlossaryTerm)

	must(c.AddFieldTag(ctx, ds, "email", pii))
	must(c.AddFieldTag(ctx, ds, "email", pii)) // already there: nothing written
	must(c.AddFieldTerm(ctx, ds, "email", contact))
	must(c.AddFieldTag(ctx, ds, "id", pii))
	must(c.RemoveFieldTag(ctx, ds, "id", pii))
	var fe *client.FieldNotFoundError
	fmt.Println(errors.As(c.AddFieldTag(ctx, ds, "phone", pii), &fe))

	d, err := c.Dataset(ctx, ds)
	must(err)
	for _, col := range d.Columns() {
		fmt.Println(col.FieldPath, len(col.AllTags()), len(col.AllGlossaryTerms()))
		for _, t := range col.AllTags() {
			fmt.Println("  tag:", t.Tag.Name)
		}
		for _, t := range col.AllGlossaryTerms() {
			fmt.Println("  term:", t.Term.URN)
		}
	}
	// Output:
	// true
	// id 0 0
	// [version=2.0].[type=struct].[type=string].email 1 1
	//   tag: pii
	//   term: urn:li:glossaryTerm:Customer.ContactDetails
}

// Send a GraphQL document of your own and decode its data.
func ExampleClient_GraphQL() {
	c, ds, stop := usersDataset()
	defer stop()

	data, err := c.GraphQL(context.Background(), `query fields($urn: String!) {
  dataset(urn: $urn) { properties { description } schemaMetadata { fields { fieldPath } } }
}`, map[string]any{"urn": ds.String()}, "")
	must(err)
	var out struct {
		Dataset struct {
			Properties     struct{ Description string }
			SchemaMetadata struct{ Fields []struct{ FieldPath string } }
		}
	}
	must(json.Unmarshal(data, &out))
	fmt.Println(out.Dataset.Properties.Description, len(out.Dataset.SchemaMetadata.Fields), "fields")

	_, err = c.GraphQL(context.Background(), `{ nosuchfield }`, nil, "")
	var ge *client.GraphQLError
	fmt.Println(errors.As(err, &ge), ge.Classification)
	// Output:
	// One row per user. 2 fields
	// true ValidationError
}

// List the timeseries indices and their sizes, to see which to truncate.
func ExampleClient_GetIndexSizes() {
	mock, err := mockserver.Listen("127.0.0.1:0")
	must(err)
	defer mock.Close()
	must(mock.PutAspectJSON("urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)", "datasetProfile",
		[]byte(`{"timestampMillis":1700000000000,"rowCount":42}`)))
	c, err := client.New(mock.URL())
	must(err)

	sizes, err := c.GetIndexSizes(context.Background())
	must(err)
	for _, s := range sizes {
		fmt.Println(s.IndexName, s.EntityName, s.AspectName, s.SizeMB > 0)
	}
	// Output:
	// dataset_datasetprofileaspect_v1 dataset datasetprofile true
}
