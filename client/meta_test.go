package client

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

var (
	testDataset = urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)").(urn.Dataset)
	testModel   = urn.MustParse("urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn,PROD)").(urn.MLModel)
	testGroup   = urn.MustParse("urn:li:mlModelGroup:(urn:li:dataPlatform:sagemaker,churn-group,PROD)").(urn.MLModelGroup)
	testFeature = urn.MustParse("urn:li:mlFeature:(users,age)").(urn.MLFeature)
	testTable   = urn.MustParse("urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users)").(urn.MLFeatureTable)
	testTag     = urn.MustParse("urn:li:tag:pii").(urn.Tag)
	testTerm    = urn.MustParse("urn:li:glossaryTerm:Finance.Revenue").(urn.GlossaryTerm)
	testOwner   = urn.MustParse("urn:li:corpuser:jdoe")
)

// seed stores one aspect of every test entity, so that they exist.
func seed(t *testing.T, s *mockserver.Server) {
	t.Helper()
	for _, w := range []struct {
		u urn.URN
		a aspects.Aspect
	}{
		{testDataset, aspects.SchemaMetadata{SchemaName: "users", Platform: "urn:li:dataPlatform:hive", PlatformSchema: aspects.OtherSchema{},
			Fields: []aspects.SchemaField{
				{FieldPath: "id", Type: aspects.DataType(aspects.NumberType{}), NativeDataType: "int"},
				{FieldPath: "[version=2.0].[type=struct].address.[type=string].city", Type: aspects.DataType(aspects.StringType{}), NativeDataType: "string"},
			}}},
		{testModel, aspects.MLModelProperties{Description: aspects.Ptr("m")}},
		{testGroup, aspects.MLModelGroupProperties{}},
		{testFeature, aspects.MLFeatureProperties{}},
		{testTable, aspects.MLFeatureTableProperties{}},
	} {
		if err := s.PutAspect(w.u.String(), w.a); err != nil {
			t.Fatal(err)
		}
	}
}

func TestHelpers(t *testing.T) {
	t.Parallel()
	stamp := aspects.AuditStamp{Time: testTime.UnixMilli(), Actor: "urn:li:corpuser:bot"}
	for _, tc := range []struct {
		name string
		do   func(ctx context.Context, c *Client) error
		u    urn.URN
		want aspects.Aspect
	}{
		{"AddFeatureToTable", func(ctx context.Context, c *Client) error { return c.AddFeatureToTable(ctx, testTable, testFeature) },
			testTable, aspects.MLFeatureTableProperties{MLFeatures: []string{testFeature.String()}}},
		{"AddFeatureToModel", func(ctx context.Context, c *Client) error { return c.AddFeatureToModel(ctx, testModel, testFeature) },
			testModel, aspects.MLModelProperties{Description: aspects.Ptr("m"), MLFeatures: []string{testFeature.String()}}},
		{"AddModelToGroup", func(ctx context.Context, c *Client) error { return c.AddModelToGroup(ctx, testModel, testGroup) },
			testModel, aspects.MLModelProperties{Description: aspects.Ptr("m"), Groups: []string{testGroup.String()}}},
		{"AddSourceToFeature", func(ctx context.Context, c *Client) error { return c.AddSourceToFeature(ctx, testFeature, testDataset) },
			testFeature, aspects.MLFeatureProperties{Sources: []string{testDataset.String()}}},
		{"AddLink", func(ctx context.Context, c *Client) error {
			return c.AddLink(ctx, testDataset, "https://wiki.example.com/users", "design doc")
		}, testDataset, aspects.InstitutionalMemory{Elements: []aspects.InstitutionalMemoryMetadata{
			{URL: "https://wiki.example.com/users", Description: "design doc", CreateStamp: stamp}}}},
		{"AddTag", func(ctx context.Context, c *Client) error { return c.AddTag(ctx, testModel, testTag) },
			testModel, aspects.GlobalTags{Tags: []aspects.TagAssociation{{Tag: testTag.String()}}}},
		{"AddTerm", func(ctx context.Context, c *Client) error { return c.AddTerm(ctx, testFeature, testTerm) },
			testFeature, aspects.GlossaryTerms{Terms: []aspects.GlossaryTermAssociation{{URN: testTerm.String()}}, AuditStamp: stamp}},
		{"AddOwner", func(ctx context.Context, c *Client) error {
			return c.AddOwner(ctx, testGroup, testOwner, aspects.OwnershipTypeDataSteward)
		}, testGroup, aspects.Ownership{Owners: []aspects.Owner{{Owner: testOwner.String(), Type: aspects.OwnershipTypeDataSteward}}, LastModified: stamp,
			OwnerTypes: map[string][]string{"urn:li:ownershipType:__system__data_steward": {testOwner.String()}}}}, // as GMS's OwnershipOwnerTypes hook fills them
		{"SetDescription dataset", func(ctx context.Context, c *Client) error { return c.SetDescription(ctx, testDataset, "Users.") },
			testDataset, aspects.EditableDatasetProperties{Description: aspects.Ptr("Users."), Created: stamp, LastModified: stamp}},
		{"SetDescription feature", func(ctx context.Context, c *Client) error { return c.SetDescription(ctx, testFeature, "Age.") },
			testFeature, aspects.EditableMLFeatureProperties{Description: aspects.Ptr("Age.")}},
		{"SetDescription table", func(ctx context.Context, c *Client) error { return c.SetDescription(ctx, testTable, "T.") },
			testTable, aspects.EditableMLFeatureTableProperties{Description: aspects.Ptr("T.")}},
		{"SetDescription model", func(ctx context.Context, c *Client) error { return c.SetDescription(ctx, testModel, "M.") },
			testModel, aspects.EditableMLModelProperties{Description: aspects.Ptr("M.")}},
		{"SetDescription group", func(ctx context.Context, c *Client) error { return c.SetDescription(ctx, testGroup, "G.") },
			testGroup, aspects.EditableMLModelGroupProperties{Description: aspects.Ptr("G.")}},
		{"SetFieldDescription", func(ctx context.Context, c *Client) error {
			return c.SetFieldDescription(ctx, testDataset, "id", "User id.")
		}, testDataset, aspects.EditableSchemaMetadata{Created: stamp, LastModified: stamp,
			EditableSchemaFieldInfo: []aspects.EditableSchemaFieldInfo{{FieldPath: "id", Description: aspects.Ptr("User id.")}}}},
		{"SetFieldDescription v2 path", func(ctx context.Context, c *Client) error {
			return c.SetFieldDescription(ctx, testDataset, "[version=2.0].[type=struct].address.[type=string].city", "City.")
		}, testDataset, aspects.EditableSchemaMetadata{Created: stamp, LastModified: stamp,
			EditableSchemaFieldInfo: []aspects.EditableSchemaFieldInfo{{FieldPath: "[version=2.0].[type=struct].address.[type=string].city", Description: aspects.Ptr("City.")}}}},
		{"SoftDelete", func(ctx context.Context, c *Client) error { return c.Entities().Delete(ctx, testTable, false) },
			testTable, aspects.Status{Removed: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := mockserver.Start(t)
			seed(t, s)
			c := newTestClient(t, s, WithActor("urn:li:corpuser:bot"))
			fixedClock(c, testTime)
			if err := tc.do(t.Context(), c); err != nil {
				t.Fatal(err)
			}
			s.CheckAspect(t, tc.u.String(), tc.want)
			// Idempotent: the second call writes nothing.
			writes := s.RequestCount(mockserver.OpIngestProposal)
			if err := tc.do(t.Context(), c); err != nil {
				t.Fatal(err)
			}
			if n := s.RequestCount(mockserver.OpIngestProposal) - writes; n != 0 {
				t.Errorf("second call wrote %d times", n)
			}
			// The entity written to must exist; nothing is written when it
			// does not.
			empty := mockserver.Start(t)
			c2 := newTestClient(t, empty)
			err := tc.do(t.Context(), c2)
			var nf *EntityNotFoundError
			if !errors.As(err, &nf) || !errors.Is(err, datahub.ErrNotFound) {
				t.Errorf("on a missing entity: %v, want *EntityNotFoundError", err)
			}
			if n := empty.RequestCount(mockserver.OpIngestProposal); n != 0 {
				t.Errorf("on a missing entity: %d writes", n)
			}
		})
	}
}

func TestRemoveHelpers(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	seed(t, s)
	c := newTestClient(t, s)
	ctx := t.Context()
	other := urn.MustParse("urn:li:mlFeature:(users,other)").(urn.MLFeature)
	steps := []func() error{
		func() error { return c.AddFeatureToTable(ctx, testTable, testFeature) },
		func() error { return c.AddFeatureToTable(ctx, testTable, other) },
		func() error { return c.RemoveFeatureFromTable(ctx, testTable, testFeature) },
		func() error { return c.AddLink(ctx, testTable, "https://a", "a") },
		func() error { return c.AddLink(ctx, testTable, "https://b", "b") },
		func() error { return c.RemoveLink(ctx, testTable, "https://a") },
		func() error { return c.AddTag(ctx, testTable, testTag) },
		func() error { return c.RemoveTag(ctx, testTable, testTag) },
		func() error { return c.AddTerm(ctx, testTable, testTerm) },
		func() error { return c.RemoveTerm(ctx, testTable, testTerm) },
		func() error { return c.AddOwner(ctx, testTable, testOwner, "") },
		func() error { return c.RemoveOwner(ctx, testTable, testOwner) },
		func() error { return c.AddModelToGroup(ctx, testModel, testGroup) },
		func() error { return c.RemoveModelFromGroup(ctx, testModel, testGroup) },
		func() error { return c.AddFeatureToModel(ctx, testModel, testFeature) },
		func() error { return c.RemoveFeatureFromModel(ctx, testModel, testFeature) },
		func() error { return c.AddSourceToFeature(ctx, testFeature, testDataset) },
		func() error { return c.RemoveSourceFromFeature(ctx, testFeature, testDataset) },
		func() error { return c.Entities().Delete(ctx, testFeature, false) },
		func() error { return c.Undelete(ctx, testFeature) },
	}
	for i, step := range steps {
		if err := step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	tp, _ := GetAspect[aspects.MLFeatureTableProperties](ctx, c, testTable)
	if diff := cmp.Diff([]string{other.String()}, tp.MLFeatures); diff != "" {
		t.Errorf("features (-want +got):\n%s", diff)
	}
	im, _ := GetAspect[aspects.InstitutionalMemory](ctx, c, testTable)
	if len(im.Elements) != 1 || im.Elements[0].URL != "https://b" {
		t.Errorf("links %+v", im.Elements)
	}
	tags, _ := GetAspect[aspects.GlobalTags](ctx, c, testTable)
	terms, _ := GetAspect[aspects.GlossaryTerms](ctx, c, testTable)
	own, _ := GetAspect[aspects.Ownership](ctx, c, testTable)
	mp, _ := GetAspect[aspects.MLModelProperties](ctx, c, testModel)
	fp, _ := GetAspect[aspects.MLFeatureProperties](ctx, c, testFeature)
	st, _ := GetAspect[aspects.Status](ctx, c, testFeature)
	if len(tags.Tags)+len(terms.Terms)+len(own.Owners)+len(mp.Groups)+len(mp.MLFeatures)+len(fp.Sources) != 0 || st.Removed {
		t.Errorf("left after removal: %+v %+v %+v %+v %+v %+v", tags, terms, own, mp, fp, st)
	}
}

func TestSetFieldDescription(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	seed(t, s)
	c := newTestClient(t, s)
	fixedClock(c, testTime)
	ctx := t.Context()
	// Another field's entry is kept.
	if err := c.SetFieldDescription(ctx, testDataset, "id", "first"); err != nil {
		t.Fatal(err)
	}
	if err := c.SetFieldDescription(ctx, testDataset, "[version=2.0].[type=struct].address.[type=string].city", "City."); err != nil {
		t.Fatal(err)
	}
	if err := c.SetFieldDescription(ctx, testDataset, "id", "second"); err != nil {
		t.Fatal(err)
	}
	got, err := GetAspect[aspects.EditableSchemaMetadata](ctx, c, testDataset)
	if err != nil {
		t.Fatal(err)
	}
	want := []aspects.EditableSchemaFieldInfo{
		{FieldPath: "id", Description: aspects.Ptr("second")},
		{FieldPath: "[version=2.0].[type=struct].address.[type=string].city", Description: aspects.Ptr("City.")},
	}
	if diff := cmp.Diff(want, got.EditableSchemaFieldInfo); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// The simple form of the one v2 path that has it names that field; the
	// entry is written under the full path.
	if err := c.SetFieldDescription(ctx, testDataset, "address.city", "Town."); err != nil {
		t.Fatal(err)
	}
	got, err = GetAspect[aspects.EditableSchemaMetadata](ctx, c, testDataset)
	if err != nil {
		t.Fatal(err)
	}
	want[1].Description = aspects.Ptr("Town.")
	if diff := cmp.Diff(want, got.EditableSchemaFieldInfo); diff != "" {
		t.Errorf("after a simple path (-want +got):\n%s", diff)
	}
	// Another case, a part of a path, or a path no field has is not a field.
	for _, path := range []string{"ID", "city", "address", "missing", "[version=2.0].address.city"} {
		err := c.SetFieldDescription(ctx, testDataset, path, "x")
		var fe *FieldNotFoundError
		if !errors.As(err, &fe) || fe.FieldPath != path || !errors.Is(err, datahub.ErrNotFound) {
			t.Errorf("%q: %v, want *FieldNotFoundError", path, err)
		}
	}
	// A dataset that exists without a schema has no fields.
	noSchema := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.bare,PROD)").(urn.Dataset)
	if err := s.PutAspect(noSchema.String(), aspects.DatasetProperties{}); err != nil {
		t.Fatal(err)
	}
	var fe *FieldNotFoundError
	if err := c.SetFieldDescription(ctx, noSchema, "id", "x"); !errors.As(err, &fe) {
		t.Errorf("no schema: %v, want *FieldNotFoundError", err)
	}
}

func TestHelpersRefuseAspectNotOfEntity(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s)
	platform := urn.MustParse("urn:li:dataPlatform:hive")
	for name, err := range map[string]error{
		"AddTag":         c.AddTag(t.Context(), platform, testTag),
		"SetDescription": c.SetDescription(t.Context(), platform, "x"),
		"AddLink":        c.AddLink(t.Context(), testDataset, "", "no url"),
	} {
		if !errors.Is(err, datahub.ErrValidation) {
			t.Errorf("%s: %v, want ErrValidation", name, err)
		}
	}
	if n := len(s.RequestCounts()); n != 0 {
		t.Errorf("requests sent: %v", s.RequestCounts())
	}
}

func TestHardDelete(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	seed(t, s)
	c := newTestClient(t, s)
	ctx := t.Context()
	if err := c.AddTag(ctx, testTable, testTag); err != nil {
		t.Fatal(err)
	}
	res, err := c.HardDelete(ctx, testTable)
	if err != nil {
		t.Fatal(err)
	}
	// mlFeatureTableProperties, globalTags, the key aspect and the
	// browsePathsV2 and dataPlatformInstance GMS added to the new entity.
	if res.Rows != 5 {
		t.Errorf("rows %d, want 5", res.Rows)
	}
	if ok, err := c.Exists(ctx, testTable); err != nil || ok {
		t.Errorf("Exists after hard delete = %v, %v", ok, err)
	}
	if err := c.AddTag(ctx, testTable, testTag); !errors.Is(err, datahub.ErrNotFound) {
		t.Errorf("AddTag after hard delete: %v", err)
	}
}
