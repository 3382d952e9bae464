package client

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

func modelURN(t testing.TB, name string) urn.MLModel {
	t.Helper()
	u, err := urn.NewMLModel("mlflow", name, "PROD")
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func putModel(t testing.TB, s *mockserver.Server, u urn.MLModel) {
	t.Helper()
	if err := s.PutAspect(u.String(), aspects.MLModelProperties{Description: aspects.Ptr("churn")}); err != nil {
		t.Fatal(err)
	}
}

// TestVersionsLinkUnlink links three models into a set (the first into a
// new set), reads the set back, relinks, refuses a model of another set
// and unlinks down to nothing.
func TestVersionsLinkUnlink(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithEntityVersioning(true))
	c := newTestClient(t, s)
	ctx := t.Context()
	m1, m2, m3, other := modelURN(t, "churn_1"), modelURN(t, "churn_2"), modelURN(t, "churn_3"), modelURN(t, "other")
	for _, m := range []urn.MLModel{m1, m2, m3, other} {
		putModel(t, s, m)
	}
	vs := c.Versions()
	set, linked, err := vs.Link(ctx, m1, urn.VersionSet{}, "1")
	if err != nil || !linked {
		t.Fatal(linked, err)
	}
	if set.EntityType_() != "mlModel" || set.ID() == "" {
		t.Fatalf("new set %s", set)
	}
	if _, linked, err := vs.Link(ctx, m2, set, "2", WithVersionComment("retrained"), WithVersionAliases("champion")); err != nil || !linked {
		t.Fatal(linked, err)
	}
	if got, linked, err := vs.LinkAfter(ctx, m3, m1, "3"); err != nil || !linked || got != set {
		t.Fatal(got, linked, err)
	}
	// Linking again writes nothing but the aliases.
	if _, linked, err := vs.Link(ctx, m3, set, "3", WithVersionAliases("challenger")); err != nil || linked {
		t.Fatal(linked, err)
	}
	got, err := vs.Get(ctx, set)
	if err != nil {
		t.Fatal(err)
	}
	want := VersionSetInfo{URN: set, Latest: m3, Versions: []Version{
		{URN: m3, Label: "3", Aliases: []string{"challenger"}, SortID: "AAAAAAAC", Latest: true},
		{URN: m2, Label: "2", Aliases: []string{"champion"}, Comment: "retrained", SortID: "AAAAAAAB"},
		{URN: m1, Label: "1", SortID: "AAAAAAAA"},
	}}
	if d := cmp.Diff(want, got, cmp.Comparer(func(a, b urn.URN) bool { return a.String() == b.String() })); d != "" {
		t.Errorf("Get (-want +got):\n%s", d)
	}

	other2, _, err := vs.Link(ctx, other, urn.VersionSet{}, "1")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := vs.Link(ctx, other, set, "9"); !errors.Is(err, ErrOtherVersionSet) {
		t.Errorf("link to a second set: %v", err)
	}
	if _, _, err := vs.Link(ctx, m1, mustVersionSet(t, "x", "dataset"), "1"); !errors.Is(err, ErrOtherVersionSet) {
		t.Errorf("link to a set of another type: %v", err)
	}
	wrongType := mustVersionSet(t, "d", "dataset")
	if _, _, err := vs.Link(ctx, modelURN(t, "fresh"), wrongType, "1"); !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("set of another type: %v", err)
	}

	latest, err := vs.UnlinkLatest(ctx, set)
	if err != nil || latest.String() != m3.String() {
		t.Fatal(latest, err)
	}
	if got, unlinked, err := vs.Unlink(ctx, m2); err != nil || !unlinked || got != set {
		t.Fatal(got, unlinked, err)
	}
	if _, unlinked, err := vs.Unlink(ctx, m2); err != nil || unlinked {
		t.Fatal(unlinked, err)
	}
	got, err = vs.Get(ctx, set)
	if err != nil || got.Latest.String() != m1.String() || len(got.Versions) != 1 {
		t.Fatal(got, err)
	}
	if _, _, err := vs.Unlink(ctx, m1); err != nil {
		t.Fatal(err)
	}
	if _, err := vs.Get(ctx, set); !errors.Is(err, datahub.ErrNotFound) {
		t.Errorf("Get of a set without versions: %v", err)
	}
	if _, err := vs.UnlinkLatest(ctx, set); !errors.Is(err, datahub.ErrNotFound) {
		t.Errorf("UnlinkLatest of a set without versions: %v", err)
	}
	if _, err := vs.Get(ctx, other2); err != nil {
		t.Error(err)
	}
}

// TestVersionsFlagOff: with DataHub's entityVersioning flag off (the
// mock's default, as DataHub's quickstart) a link fails with DataHub's
// unknown error.
func TestVersionsFlagOff(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s)
	m := modelURN(t, "churn")
	putModel(t, s, m)
	_, _, err := c.Versions().Link(t.Context(), m, urn.VersionSet{}, "1")
	var ge *GraphQLError
	if !errors.As(err, &ge) || ge.Code != 500 {
		t.Fatalf("link with the flag off: %v", err)
	}
	if _, _, err := c.Versions().Link(t.Context(), m, urn.VersionSet{}, ""); !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("empty label: %v", err)
	}
}

func mustVersionSet(t testing.TB, id, typ string) urn.VersionSet {
	t.Helper()
	u, err := urn.NewVersionSet(id, typ)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
