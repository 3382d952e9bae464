package client

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// ensureTable returns a feature table entity with properties and status.
func ensureTable(t *testing.T, name, description string) *entity.MLFeatureTable {
	t.Helper()
	u, err := urn.NewMLFeatureTable("feast", name)
	if err != nil {
		t.Fatal(err)
	}
	return &entity.MLFeatureTable{
		URN:        u,
		Properties: &aspects.MLFeatureTableProperties{Description: aspects.Ptr(description), CustomProperties: map[string]string{"owner": "ml"}},
		Status:     &aspects.Status{Removed: false},
	}
}

// proposalsFor counts the proposals the mock accepted for u.
func proposalsFor(s *mockserver.Server, u string) int {
	n := 0
	for _, p := range s.Proposals() {
		if p.EntityURN == u && p.Err == "" {
			n++
		}
	}
	return n
}

func TestEnsureCreatesThenWritesOnlyDifferences(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s)
	ctx := t.Context()
	e := ensureTable(t, "users", "v1")
	u := e.URN.String()

	got, err := c.Entities().Ensure(ctx, e)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Outcome{"mlFeatureTableProperties": Created, "status": Created}
	if diff := cmp.Diff(want, got.Aspects); diff != "" {
		t.Errorf("first Ensure (-want +got):\n%s", diff)
	}
	before := proposalsFor(s, u)

	// The same entity again: nothing is written.
	got, err = c.Entities().Ensure(ctx, ensureTable(t, "users", "v1"))
	if err != nil {
		t.Fatal(err)
	}
	if got.Changed() || proposalsFor(s, u) != before {
		t.Errorf("second Ensure: %v, %d proposals after %d: want nothing written", got.Aspects, proposalsFor(s, u), before)
	}

	// One aspect differs: only it is written.
	got, err = c.Entities().Ensure(ctx, ensureTable(t, "users", "v2"))
	if err != nil {
		t.Fatal(err)
	}
	want = map[string]Outcome{"mlFeatureTableProperties": Updated, "status": Unchanged}
	if diff := cmp.Diff(want, got.Aspects); diff != "" {
		t.Errorf("changed Ensure (-want +got):\n%s", diff)
	}
	if n := proposalsFor(s, u) - before; n != 1 {
		t.Errorf("changed Ensure wrote %d proposals, want 1", n)
	}
	s.CheckAspect(t, u, aspects.MLFeatureTableProperties{Description: aspects.Ptr("v2"), CustomProperties: map[string]string{"owner": "ml"}})
}

// A stored aspect with its members in another order and its defaults left
// out equals the same values: Ensure writes nothing.
func TestEnsureComparesSemantically(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s)
	e := ensureTable(t, "orders", "d")
	u := e.URN.String()
	if err := s.PutAspectJSON(u, "mlFeatureTableProperties", []byte(`{"description":"d","customProperties":{"owner":"ml"}}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.PutAspectJSON(u, "status", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	before := len(s.Proposals())
	got, err := c.Entities().Ensure(t.Context(), e)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Outcome{"mlFeatureTableProperties": Unchanged, "status": Unchanged}
	if diff := cmp.Diff(want, got.Aspects); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if n := len(s.Proposals()) - before; n != 0 {
		t.Errorf("%d proposals written, want 0", n)
	}
}

// A Create whose answer is lost after it was applied is resolved by
// reading back: no error, reported created, nothing written twice.
func TestEnsureLostCreate(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s)
	s.CommitThenDrop(opBatchWrite, 1)
	e := ensureTable(t, "lost", "d")
	got, err := c.Entities().Ensure(t.Context(), e)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Outcome{"mlFeatureTableProperties": Created, "status": Created}
	wantWrites := 1 // the lost one, read back
	if diff := cmp.Diff(want, got.Aspects); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if n := writeRequests(s); n != wantWrites {
		t.Errorf("%d write requests, want %d", n, wantWrites)
	}
	s.CheckAspect(t, e.URN.String(), *e.Properties)
}

// Another writer created the entity first (ErrAlreadyExists): Ensure
// compares with what it wrote and writes the difference only.
func TestEnsureAfterAnotherCreate(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s)
	other := ensureTable(t, "raced", "theirs")
	other.Status = nil
	if err := c.Entities().Create(t.Context(), other); err != nil {
		t.Fatal(err)
	}
	got, err := c.Entities().Ensure(t.Context(), ensureTable(t, "raced", "ours"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Outcome{"mlFeatureTableProperties": Updated, "status": Updated}
	if diff := cmp.Diff(want, got.Aspects); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
