package client

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// TestPatchStrategyHelpers runs every helper with the patch strategy
// against the mock: the stored result, idempotence (a second call leaves
// value and version as they were, reading nothing but the existence
// check) and a missing entity (refused, nothing written).
func TestPatchStrategyHelpers(t *testing.T) {
	t.Parallel()
	stamp := aspects.AuditStamp{Time: testTime.UnixMilli(), Actor: "urn:li:corpuser:bot"}
	unknown := aspects.AuditStamp{Time: 0, Actor: aspects.UnknownActor}
	// The server's templates stamp a new aspect with its own actor and
	// clock (checkPatched ignores the time of these stamps).
	system := aspects.AuditStamp{Actor: systemActor}
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
			testFeature, aspects.GlossaryTerms{Terms: []aspects.GlossaryTermAssociation{{URN: testTerm.String()}}, AuditStamp: system}},
		{"AddOwner", func(ctx context.Context, c *Client) error {
			return c.AddOwner(ctx, testGroup, testOwner, aspects.OwnershipTypeDataSteward)
		}, testGroup, aspects.Ownership{Owners: []aspects.Owner{{Owner: testOwner.String(), Type: aspects.OwnershipTypeDataSteward}}, LastModified: system}},
		{"SetDescription dataset", func(ctx context.Context, c *Client) error { return c.SetDescription(ctx, testDataset, "Users.") },
			testDataset, aspects.EditableDatasetProperties{Description: aspects.Ptr("Users."), Created: unknown, LastModified: unknown}},
		{"SetDescription model (conditional)", func(ctx context.Context, c *Client) error { return c.SetDescription(ctx, testModel, "M.") },
			testModel, aspects.EditableMLModelProperties{Description: aspects.Ptr("M.")}},
		{"SetFieldDescription", func(ctx context.Context, c *Client) error {
			return c.SetFieldDescription(ctx, testDataset, "id", "User id.")
		}, testDataset, aspects.EditableSchemaMetadata{Created: system, LastModified: system,
			EditableSchemaFieldInfo: []aspects.EditableSchemaFieldInfo{{FieldPath: "id", Description: aspects.Ptr("User id.")}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := mockserver.Start(t)
			seed(t, s)
			c := newTestClient(t, s, WithActor("urn:li:corpuser:bot"), WithWriteStrategy(Patch))
			fixedClock(c, testTime)
			ctx := t.Context()
			if err := tc.do(ctx, c); err != nil {
				t.Fatal(err)
			}
			checkPatched(t, s, tc.u, tc.want)
			_, v1, err := c.readVersioned(ctx, tc.u, tc.want.AspectName())
			if err != nil {
				t.Fatal(err)
			}
			// Idempotent: the second call sends the same patch, which
			// changes neither the value nor the version.
			if err := tc.do(ctx, c); err != nil {
				t.Fatal(err)
			}
			checkPatched(t, s, tc.u, tc.want)
			_, v2, err := c.readVersioned(ctx, tc.u, tc.want.AspectName())
			if err != nil {
				t.Fatal(err)
			}
			if v1 != v2 {
				t.Errorf("version after the second call %s, want %s (unchanged)", v2, v1)
			}
			// The entity written to must exist.
			empty := mockserver.Start(t)
			c2 := newTestClient(t, empty, WithWriteStrategy(Patch))
			err = tc.do(ctx, c2)
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

// systemActor is the actor of the stamps DataHub's patch templates put in
// a new aspect.
const systemActor = "urn:li:corpuser:__datahub_system"

// patchCompare compares aspects with the time of the system actor's stamps
// ignored (the server's clock), empty and absent collections equal.
var patchCompare = cmp.Options{
	cmpopts.EquateEmpty(),
	cmp.Comparer(func(a, b aspects.AuditStamp) bool {
		if a.Actor == systemActor && b.Actor == systemActor {
			a.Time, b.Time = 0, 0
		}
		return cmp.Equal(a, b)
	}),
}

// checkPatched compares the stored aspect of u with want.
func checkPatched(t *testing.T, s *mockserver.Server, u urn.URN, want aspects.Aspect) {
	t.Helper()
	got, err := s.GetAspect(u.String(), want.AspectName())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, reflect.ValueOf(got).Elem().Interface(), patchCompare); diff != "" {
		t.Errorf("%s of %s (-want +got):\n%s", want.AspectName(), u, diff)
	}
}
