package client

import (
	"fmt"
	"sync"
	"testing"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// TestGraphQLUpdateDescriptionConcurrent runs 16 concurrent updateDescription
// mutations on 16 fields of one dataset, round after round: every
// acknowledged description is there afterwards (the mutation is a
// read-modify-write of editableSchemaMetadata, and none may be lost).
func TestGraphQLUpdateDescriptionConcurrent(t *testing.T) {
	t.Parallel()
	const fields, rounds = 16, 20
	s := mockserver.Start(t)
	_, _, _, _, ds := gqlURNs(t)
	schema := aspects.SchemaMetadata{SchemaName: "users", Platform: ds.Platform().String(), PlatformSchema: aspects.OtherSchema{}}
	for i := range fields {
		schema.Fields = append(schema.Fields, aspects.SchemaField{FieldPath: fmt.Sprintf("f%d", i),
			Type: aspects.DataType(aspects.StringType{}), NativeDataType: "string"})
	}
	emitAll(t, s, map[urn.URN][]aspects.Aspect{ds: {schema}})
	c := newTestClient(t, s)
	ctx := t.Context()
	for round := range rounds {
		var wg sync.WaitGroup
		errs := make([]error, fields)
		for i := range fields {
			wg.Go(func() {
				errs[i] = c.UpdateDescription(ctx, DescriptionUpdate{ResourceURN: ds.String(), SubResourceType: SubResourceDatasetField,
					SubResource: fmt.Sprintf("f%d", i), Description: fmt.Sprintf("round %d field %d", round, i)})
			})
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d field %d: %v", round, i, err)
			}
		}
		d, err := c.Dataset(ctx, ds)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		if d.EditableSchemaMetadata != nil {
			for _, f := range d.EditableSchemaMetadata.EditableSchemaFieldInfo {
				got[f.FieldPath] = deref(f.Description)
			}
		}
		kept := 0
		for i := range fields {
			if got[fmt.Sprintf("f%d", i)] == fmt.Sprintf("round %d field %d", round, i) {
				kept++
			}
		}
		if kept != fields || len(got) != fields {
			t.Fatalf("round %d: %d of %d acknowledged descriptions kept (%d entries)", round, kept, fields, len(got))
		}
	}
}
