package client

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"testing"
	"time"

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
		}, testGroup, aspects.Ownership{Owners: []aspects.Owner{{Owner: testOwner.String(), Type: aspects.OwnershipTypeDataSteward}}, LastModified: system,
			OwnerTypes: map[string][]string{"urn:li:ownershipType:__system__data_steward": {testOwner.String()}}}}, // as GMS's OwnershipOwnerTypes hook fills them
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
			if n := empty.RequestCount(opPatchWrite); n != 0 {
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

// TestPatchStrategyConcurrent: 64 goroutines add distinct features to one
// table with the patch strategy; all 64 are stored, with one existence
// check and one write per add: no read of the aspect, no retry.
func TestPatchStrategyConcurrent(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s, WithWriteStrategy(Patch))
	table := tableURN(t, "patched")
	putTable(t, s, table)
	before := s.RequestCounts()

	want := featureNames(64, "patched")
	addConcurrently(t, s, c, table, want)
	counts := s.RequestCounts()
	for op, n := range before {
		counts[op] -= n
		if counts[op] == 0 {
			delete(counts, op)
		}
	}
	wantCounts := map[mockserver.Op]int{opExists: 64, opPatchWrite: 64}
	if diff := cmp.Diff(wantCounts, counts); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

// TestStrategiesAgree runs one sequence of helper calls with each strategy
// on its own server and compares what is stored (the audit stamps aside:
// the patch strategy leaves those of glossaryTerms and ownership to the
// server's template).
func TestStrategiesAgree(t *testing.T) {
	t.Parallel()
	f2 := featureURN(t, "users", "height")
	group2 := urn.MustParse("urn:li:mlModelGroup:(urn:li:dataPlatform:sagemaker,other,PROD)").(urn.MLModelGroup)
	tag2 := urn.MustParse("urn:li:tag:gold").(urn.Tag)
	term2 := urn.MustParse("urn:li:glossaryTerm:Finance.Cost").(urn.GlossaryTerm)
	owner2 := urn.MustParse("urn:li:corpGroup:data")
	calls := []func(ctx context.Context, c *Client) error{
		func(ctx context.Context, c *Client) error { return c.AddFeatureToTable(ctx, testTable, testFeature) },
		func(ctx context.Context, c *Client) error { return c.AddFeatureToTable(ctx, testTable, f2) },
		func(ctx context.Context, c *Client) error { return c.AddFeatureToTable(ctx, testTable, testFeature) },
		func(ctx context.Context, c *Client) error {
			return c.RemoveFeatureFromTable(ctx, testTable, testFeature)
		},
		func(ctx context.Context, c *Client) error {
			return c.RemoveFeatureFromTable(ctx, testTable, testFeature)
		},
		func(ctx context.Context, c *Client) error { return c.AddFeatureToModel(ctx, testModel, testFeature) },
		func(ctx context.Context, c *Client) error { return c.AddFeatureToModel(ctx, testModel, f2) },
		func(ctx context.Context, c *Client) error { return c.RemoveFeatureFromModel(ctx, testModel, f2) },
		func(ctx context.Context, c *Client) error { return c.AddModelToGroup(ctx, testModel, testGroup) },
		func(ctx context.Context, c *Client) error { return c.AddModelToGroup(ctx, testModel, group2) },
		func(ctx context.Context, c *Client) error { return c.RemoveModelFromGroup(ctx, testModel, testGroup) },
		func(ctx context.Context, c *Client) error { return c.AddSourceToFeature(ctx, testFeature, testDataset) },
		func(ctx context.Context, c *Client) error { return c.AddSourceToFeature(ctx, f2, testDataset) },
		func(ctx context.Context, c *Client) error { return c.RemoveSourceFromFeature(ctx, f2, testDataset) },
		func(ctx context.Context, c *Client) error {
			return c.AddLink(ctx, testDataset, "https://a.example.com/x~y", "a")
		},
		func(ctx context.Context, c *Client) error {
			return c.AddLink(ctx, testDataset, "https://b.example.com/", "b")
		},
		func(ctx context.Context, c *Client) error {
			return c.RemoveLink(ctx, testDataset, "https://b.example.com/")
		},
		func(ctx context.Context, c *Client) error { return c.AddTag(ctx, testDataset, testTag) },
		func(ctx context.Context, c *Client) error { return c.AddTag(ctx, testDataset, tag2) },
		func(ctx context.Context, c *Client) error { return c.RemoveTag(ctx, testDataset, testTag) },
		func(ctx context.Context, c *Client) error { return c.AddTerm(ctx, testModel, testTerm) },
		func(ctx context.Context, c *Client) error { return c.AddTerm(ctx, testModel, term2) },
		func(ctx context.Context, c *Client) error { return c.RemoveTerm(ctx, testModel, testTerm) },
		func(ctx context.Context, c *Client) error {
			return c.AddOwner(ctx, testGroup, testOwner, aspects.OwnershipTypeDataSteward)
		},
		func(ctx context.Context, c *Client) error {
			return c.AddOwner(ctx, testGroup, testOwner, aspects.OwnershipTypeTechnicalOwner)
		},
		func(ctx context.Context, c *Client) error {
			return c.AddOwner(ctx, testGroup, owner2, aspects.OwnershipTypeBusinessOwner)
		},
		func(ctx context.Context, c *Client) error { return c.RemoveOwner(ctx, testGroup, testOwner) },
		func(ctx context.Context, c *Client) error { return c.SetDescription(ctx, testDataset, "Users.") },
		func(ctx context.Context, c *Client) error {
			return c.SetFieldDescription(ctx, testDataset, "id", "User id.")
		},
	}
	read := []struct {
		u    urn.URN
		name string
	}{
		{testTable, "mlFeatureTableProperties"}, {testModel, "mlModelProperties"}, {testFeature, "mlFeatureProperties"},
		{f2, "mlFeatureProperties"}, {testDataset, "institutionalMemory"}, {testDataset, "globalTags"},
		{testModel, "glossaryTerms"}, {testGroup, "ownership"}, {testDataset, "editableDatasetProperties"},
		{testDataset, "editableSchemaMetadata"},
	}
	// Stamps differ by design (see the patch strategy's notes in patch.go).
	noStamps := cmpopts.IgnoreTypes(aspects.AuditStamp{}, &aspects.AuditStamp{})
	stored := map[WriteStrategy][]any{}
	for _, strategy := range []WriteStrategy{Conditional, Patch} {
		s := mockserver.Start(t)
		seed(t, s)
		if err := s.PutAspect(f2.String(), aspects.MLFeatureProperties{}); err != nil {
			t.Fatal(err)
		}
		c := newTestClient(t, s, WithWriteStrategy(strategy))
		fixedClock(c, testTime)
		for i, call := range calls {
			if err := call(t.Context(), c); err != nil {
				t.Fatalf("%s: call %d: %v", strategy, i, err)
			}
		}
		for _, r := range read {
			a, err := s.GetAspect(r.u.String(), r.name)
			if err != nil {
				t.Fatalf("%s: %s of %s: %v", strategy, r.name, r.u, err)
			}
			stored[strategy] = append(stored[strategy], reflect.ValueOf(a).Elem().Interface())
		}
	}
	if diff := cmp.Diff(stored[Conditional], stored[Patch], cmpopts.EquateEmpty(), noStamps); diff != "" {
		t.Errorf("stored (-conditional +patch):\n%s", diff)
	}
	// And the result is the expected one, not the same mistake twice.
	if diff := cmp.Diff(&aspects.GlobalTags{Tags: []aspects.TagAssociation{{Tag: tag2.String()}}}, &aspects.GlobalTags{Tags: stored[Patch][5].(aspects.GlobalTags).Tags}); diff != "" {
		t.Errorf("globalTags (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{f2.String()}, stored[Patch][0].(aspects.MLFeatureTableProperties).MLFeatures); diff != "" {
		t.Errorf("table features (-want +got):\n%s", diff)
	}
}

func TestWriteStrategyOption(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		want WriteStrategy
	}{{"conditional", Conditional}, {"patch", Patch}} {
		got, err := ParseWriteStrategy(tc.name)
		if err != nil || got != tc.want || got.String() != tc.name {
			t.Errorf("ParseWriteStrategy(%q) = %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
	if _, err := ParseWriteStrategy("merge"); !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("ParseWriteStrategy(merge): %v, want ErrValidation", err)
	}
	if _, err := New("http://localhost:8080", WithWriteStrategy(7)); !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("New with strategy 7: %v, want ErrValidation", err)
	}
	s := mockserver.Start(t)
	seed(t, s)
	c := newTestClient(t, s)
	if got := c.WriteStrategy(); got != Conditional {
		t.Errorf("default strategy %v, want conditional", got)
	}
	p := c.WithWriteStrategy(Patch)
	if c.WriteStrategy() != Conditional || p.WriteStrategy() != Patch {
		t.Errorf("WithWriteStrategy changed the original or not the copy: %v, %v", c.WriteStrategy(), p.WriteStrategy())
	}
	if err := p.AddTag(t.Context(), testDataset, testTag); err != nil {
		t.Fatal(err)
	}
	if n := s.RequestCount(opGetEntity); n != 0 {
		t.Errorf("the patch strategy read the aspect %d times", n)
	}
	if err := c.WithWriteStrategy(9).AddTag(t.Context(), testDataset, testTag); !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("unknown strategy: %v, want ErrValidation", err)
	}
}

// TestPatchStrategyWriteFailures: a PATCH is a keyed add, so the transport
// may send it again after a busy server or a lost answer without
// duplicating anything; a refusal is returned as the server's error.
func TestPatchStrategyWriteFailures(t *testing.T) {
	t.Parallel()
	noWait := datahub.WithRetry(datahub.RetryPolicy{MaxAttempts: 3, Backoff: func(int, *http.Response) time.Duration { return 0 }})
	for _, tc := range []struct {
		name     string
		fault    func(s *mockserver.Server)
		writes   int
		status   int // 0: success
		features []string
	}{
		{"busy, then taken", func(s *mockserver.Server) {
			s.Fail(opPatchWrite, mockserver.FailSpec{Status: http.StatusServiceUnavailable, Times: 2})
		}, 3, 0, []string{"urn:li:mlFeature:(f,a)"}},
		{"applied, answer lost, sent again", func(s *mockserver.Server) {
			s.CommitThenDrop(opPatchWrite, 1)
		}, 2, 0, []string{"urn:li:mlFeature:(f,a)"}},
		{"refused", func(s *mockserver.Server) {
			s.Fail(opPatchWrite, mockserver.FailSpec{Status: http.StatusInternalServerError, Times: mockserver.Forever})
		}, 3, http.StatusInternalServerError, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := mockserver.Start(t)
			c := newTestClient(t, s, noWait, WithWriteStrategy(Patch))
			table := tableURN(t, "failing")
			putTable(t, s, table)
			tc.fault(s)
			err := c.AddFeatureToTable(t.Context(), table, featureURN(t, "f", "a"))
			var de *datahub.Error
			switch {
			case tc.status == 0 && err != nil:
				t.Fatal(err)
			case tc.status != 0 && (!errors.As(err, &de) || de.StatusCode != tc.status):
				t.Fatalf("err = %v, want status %d", err, tc.status)
			}
			if n := s.RequestCount(opPatchWrite); n != tc.writes {
				t.Errorf("%d write attempts, want %d", n, tc.writes)
			}
			if diff := cmp.Diff(tc.features, mustGetTable(t, s, table).MLFeatures, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("features (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPatchStrategyAddLinkAgain pins the documented difference: with the
// patch strategy, adding a link that is there rewrites it with a new create
// stamp (a new version); the conditional strategy writes nothing.
func TestPatchStrategyAddLinkAgain(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		strategy    WriteStrategy
		wantStamp   int64
		wantChanged bool
	}{
		{Conditional, testTime.UnixMilli(), false},
		{Patch, testTime.UnixMilli() + 1000, true},
	} {
		t.Run(tc.strategy.String(), func(t *testing.T) {
			t.Parallel()
			s := mockserver.Start(t)
			seed(t, s)
			c := newTestClient(t, s, WithWriteStrategy(tc.strategy))
			fixedClock(c, testTime)
			const link = "https://wiki.example.com/users"
			if err := c.AddLink(t.Context(), testDataset, link, "doc"); err != nil {
				t.Fatal(err)
			}
			_, v1, err := c.readVersioned(t.Context(), testDataset, "institutionalMemory")
			if err != nil {
				t.Fatal(err)
			}
			fixedClock(c, testTime.Add(time.Second))
			if err := c.AddLink(t.Context(), testDataset, link, "doc"); err != nil {
				t.Fatal(err)
			}
			got, err := GetVersioned[aspects.InstitutionalMemory](t.Context(), c, testDataset)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Value.Elements) != 1 || got.Value.Elements[0].CreateStamp.Time != tc.wantStamp {
				t.Errorf("links %+v, want one created at %d", got.Value.Elements, tc.wantStamp)
			}
			if changed := v1 != got.Version; changed != tc.wantChanged {
				t.Errorf("version %s then %s; want changed=%t", v1, got.Version, tc.wantChanged)
			}
		})
	}
}
