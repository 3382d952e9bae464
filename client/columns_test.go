package client

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

const cityPath = "[version=2.0].[type=struct].address.[type=string].city"

// TestColumnHelpers runs the column tag and term helpers with each write
// strategy: a simple name reaches the schema's v2 path, the column's
// description and the other columns' entries are kept, adding what is
// there or removing what is not leaves the stored value and its version
// as they were, and the result is the same under both strategies.
func TestColumnHelpers(t *testing.T) {
	t.Parallel()
	stamp := aspects.AuditStamp{Time: testTime.UnixMilli(), Actor: "urn:li:corpuser:bot"}
	tag2 := urn.MustParse("urn:li:tag:gold").(urn.Tag)
	term2 := urn.MustParse("urn:li:glossaryTerm:Finance.Cost").(urn.GlossaryTerm)
	type call struct {
		do      func(ctx context.Context, c *Client) error
		changes bool
	}
	calls := []call{
		{func(ctx context.Context, c *Client) error {
			return c.SetFieldDescription(ctx, testDataset, "address.city", "City.")
		}, true},
		{func(ctx context.Context, c *Client) error {
			return c.AddFieldTag(ctx, testDataset, "address.city", testTag)
		}, true},
		{func(ctx context.Context, c *Client) error { return c.AddFieldTag(ctx, testDataset, cityPath, testTag) }, false},
		{func(ctx context.Context, c *Client) error {
			return c.AddFieldTag(ctx, testDataset, "address.city", tag2)
		}, true},
		{func(ctx context.Context, c *Client) error {
			return c.AddFieldTerm(ctx, testDataset, "address.city", testTerm)
		}, true},
		{func(ctx context.Context, c *Client) error {
			return c.AddFieldTerm(ctx, testDataset, "address.city", testTerm)
		}, false},
		{func(ctx context.Context, c *Client) error { return c.AddFieldTag(ctx, testDataset, "id", testTag) }, true},
		{func(ctx context.Context, c *Client) error { return c.AddFieldTerm(ctx, testDataset, "id", term2) }, true},
		{func(ctx context.Context, c *Client) error { return c.RemoveFieldTag(ctx, testDataset, "id", testTag) }, true},
		{func(ctx context.Context, c *Client) error { return c.RemoveFieldTag(ctx, testDataset, "id", testTag) }, false},
		{func(ctx context.Context, c *Client) error { return c.RemoveFieldTerm(ctx, testDataset, "id", term2) }, true},
		{func(ctx context.Context, c *Client) error {
			return c.RemoveFieldTerm(ctx, testDataset, "address.city", term2)
		}, false},
		{func(ctx context.Context, c *Client) error {
			return c.RemoveFieldTag(ctx, testDataset, "address.city", tag2)
		}, true},
	}
	want := []aspects.EditableSchemaFieldInfo{
		{FieldPath: cityPath, Description: aspects.Ptr("City."),
			GlobalTags:    &aspects.GlobalTags{Tags: []aspects.TagAssociation{{Tag: testTag.String()}}},
			GlossaryTerms: &aspects.GlossaryTerms{Terms: []aspects.GlossaryTermAssociation{{URN: testTerm.String()}}, AuditStamp: stamp}},
		{FieldPath: "id", GlobalTags: &aspects.GlobalTags{}, GlossaryTerms: &aspects.GlossaryTerms{AuditStamp: stamp}},
	}
	noStamps := cmpopts.IgnoreTypes(aspects.AuditStamp{})
	stored := map[WriteStrategy]aspects.EditableSchemaMetadata{}
	for _, strategy := range []WriteStrategy{Conditional, Patch} {
		t.Run(strategy.String(), func(t *testing.T) {
			s := mockserver.Start(t)
			seed(t, s)
			c := newTestClient(t, s, WithActor("urn:li:corpuser:bot"), WithWriteStrategy(strategy))
			fixedClock(c, testTime)
			ctx := t.Context()
			version := ""
			for i, call := range calls {
				if err := call.do(ctx, c); err != nil {
					t.Fatalf("call %d: %v", i, err)
				}
				_, v, err := c.readVersioned(ctx, testDataset, "editableSchemaMetadata")
				if err != nil {
					t.Fatal(err)
				}
				if changed := v != version; changed != call.changes {
					t.Errorf("call %d: version %s after %s, changed %v, want %v", i, v, version, changed, call.changes)
				}
				version = v
			}
			got, err := GetAspect[aspects.EditableSchemaMetadata](ctx, c, testDataset)
			if err != nil {
				t.Fatal(err)
			}
			opts := cmp.Options{cmpopts.EquateEmpty()}
			if strategy == Patch {
				opts = append(opts, noStamps) // the server's template stamps
			}
			if diff := cmp.Diff(want, got.EditableSchemaFieldInfo, opts); diff != "" {
				t.Errorf("columns (-want +got):\n%s", diff)
			}
			stored[strategy] = got
		})
	}
	if len(stored) == 2 {
		if diff := cmp.Diff(stored[Conditional], stored[Patch], cmpopts.EquateEmpty(), noStamps); diff != "" {
			t.Errorf("stored (-conditional +patch):\n%s", diff)
		}
	}
}

// TestColumnHelpersRefuse: a column the schema lacks, a simple name two
// columns share, a dataset without schema and a missing dataset are
// refused as SetFieldDescription refuses them, with nothing written.
func TestColumnHelpersRefuse(t *testing.T) {
	t.Parallel()
	for _, strategy := range []WriteStrategy{Conditional, Patch} {
		t.Run(strategy.String(), func(t *testing.T) {
			t.Parallel()
			s := mockserver.Start(t)
			seed(t, s)
			ctx := t.Context()
			union := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.union,PROD)").(urn.Dataset)
			noSchema := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.bare,PROD)").(urn.Dataset)
			missing := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.missing,PROD)").(urn.Dataset)
			if err := s.PutAspect(union.String(), aspects.SchemaMetadata{SchemaName: "u", Platform: "urn:li:dataPlatform:hive", PlatformSchema: aspects.OtherSchema{},
				Fields: []aspects.SchemaField{
					{FieldPath: "[version=2.0].[type=union].[type=A].val", Type: aspects.DataType(aspects.StringType{}), NativeDataType: "string"},
					{FieldPath: "[version=2.0].[type=union].[type=B].val", Type: aspects.DataType(aspects.StringType{}), NativeDataType: "string"},
				}}); err != nil {
				t.Fatal(err)
			}
			if err := s.PutAspect(noSchema.String(), aspects.DatasetProperties{}); err != nil {
				t.Fatal(err)
			}
			c := newTestClient(t, s, WithWriteStrategy(strategy))
			helpers := map[string]func(ds urn.Dataset, path string) error{
				"AddFieldTag":     func(ds urn.Dataset, path string) error { return c.AddFieldTag(ctx, ds, path, testTag) },
				"RemoveFieldTag":  func(ds urn.Dataset, path string) error { return c.RemoveFieldTag(ctx, ds, path, testTag) },
				"AddFieldTerm":    func(ds urn.Dataset, path string) error { return c.AddFieldTerm(ctx, ds, path, testTerm) },
				"RemoveFieldTerm": func(ds urn.Dataset, path string) error { return c.RemoveFieldTerm(ctx, ds, path, testTerm) },
			}
			for name, h := range helpers {
				for _, path := range []string{"city", "address", "missing", "[version=2.0].address.city"} {
					var fe *FieldNotFoundError
					if err := h(testDataset, path); !errors.As(err, &fe) || fe.FieldPath != path || !errors.Is(err, datahub.ErrNotFound) {
						t.Errorf("%s %q: %v, want *FieldNotFoundError", name, path, err)
					}
				}
				var ae *AmbiguousFieldError
				if err := h(union, "val"); !errors.As(err, &ae) || len(ae.Candidates) != 2 {
					t.Errorf("%s of a shared simple name: %v, want *AmbiguousFieldError", name, err)
				}
				var fe *FieldNotFoundError
				if err := h(noSchema, "id"); !errors.As(err, &fe) {
					t.Errorf("%s without schema: %v, want *FieldNotFoundError", name, err)
				}
				var ee *EntityNotFoundError
				if err := h(missing, "id"); !errors.As(err, &ee) {
					t.Errorf("%s of a missing dataset: %v, want *EntityNotFoundError", name, err)
				}
			}
			if err := c.AddFieldTag(ctx, testDataset, "id", urn.Tag{}); !errors.Is(err, datahub.ErrValidation) {
				t.Errorf("empty tag URN: %v, want ErrValidation", err)
			}
			if n := writeRequests(s) + s.RequestCount(opPatchWrite); n != 0 {
				t.Errorf("%d writes", n)
			}
		})
	}
}

// TestColumnHelpersConcurrent: 32 goroutines each tag one of two columns
// of one dataset with a tag of their own, under each write strategy; every
// tag is kept.
func TestColumnHelpersConcurrent(t *testing.T) {
	t.Parallel()
	const writers = 32
	for _, strategy := range []WriteStrategy{Conditional, Patch} {
		t.Run(strategy.String(), func(t *testing.T) {
			t.Parallel()
			s := mockserver.Start(t)
			seed(t, s)
			c := newTestClient(t, s, WithWriteStrategy(strategy))
			columns := []string{"id", "address.city"}
			var wg sync.WaitGroup
			errs := make([]error, writers)
			for i := range writers {
				tag := urn.MustParse(fmt.Sprintf("urn:li:tag:t%02d", i)).(urn.Tag)
				wg.Go(func() { errs[i] = c.AddFieldTag(t.Context(), testDataset, columns[i%2], tag) })
			}
			wg.Wait()
			for i, err := range errs {
				if err != nil {
					t.Errorf("writer %d: %v", i, err)
				}
			}
			got, err := GetAspect[aspects.EditableSchemaMetadata](t.Context(), c, testDataset)
			if err != nil {
				t.Fatal(err)
			}
			tags := map[string][]string{}
			for _, f := range got.EditableSchemaFieldInfo {
				if f.GlobalTags == nil {
					continue
				}
				for _, a := range f.GlobalTags.Tags {
					tags[f.FieldPath] = append(tags[f.FieldPath], a.Tag)
				}
			}
			want := map[string][]string{}
			for i := range writers {
				path := map[string]string{"id": "id", "address.city": cityPath}[columns[i%2]]
				want[path] = append(want[path], fmt.Sprintf("urn:li:tag:t%02d", i))
			}
			for _, v := range tags {
				slices.Sort(v)
			}
			if diff := cmp.Diff(want, tags); diff != "" {
				t.Errorf("tags (-want +got):\n%s", diff)
			}
		})
	}
}
