package gms_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

func TestAspectChangeType(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		create, createEntity bool
		want                 string
	}{{true, false, "CREATE"}, {false, false, "UPSERT"}, {true, true, "CREATE_ENTITY"}, {false, true, "CREATE_ENTITY"}} {
		if got := gms.AspectChangeType(tc.create, tc.createEntity); got != tc.want {
			t.Errorf("AspectChangeType(%v, %v) = %s, want %s", tc.create, tc.createEntity, got, tc.want)
		}
	}
}

func TestDeletedAspects(t *testing.T) {
	t.Parallel()
	e, ok := pdl.LookupEntity("dataset")
	if !ok {
		t.Fatal("no dataset entity")
	}
	if diff := cmp.Diff([]string{"datasetKey"}, gms.DeletedAspects(e, nil, false)); diff != "" {
		t.Errorf("none named (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"status"}, gms.DeletedAspects(e, []string{"status"}, false)); diff != "" {
		t.Errorf("named (-want +got):\n%s", diff)
	}
	cleared := gms.DeletedAspects(e, []string{"status"}, true)
	seen := map[string]bool{}
	for _, a := range cleared {
		info, _ := pdl.LookupAspect(a)
		if a == e.KeyAspect || info.Timeseries {
			t.Errorf("clear deletes %s", a)
		}
		seen[a] = true
	}
	for _, a := range []string{"status", "datasetProperties", "schemaMetadata"} {
		if !seen[a] {
			t.Errorf("clear keeps %s", a)
		}
	}
}

func TestTruncateDecisions(t *testing.T) {
	t.Parallel()
	yes, no := new(bool), new(bool)
	*yes = true
	for _, tc := range []struct {
		dbq, re         *bool
		toDelete, total int
		conflict, want  bool
	}{
		{nil, nil, 6, 10, false, true},
		{nil, nil, 5, 10, false, false},
		{nil, yes, 1, 10, false, true},
		{yes, nil, 9, 10, false, false},
		{yes, no, 9, 10, false, false},
		{no, yes, 1, 10, false, true},
		{yes, yes, 1, 10, true, false},
		{no, no, 9, 10, true, true},
	} {
		if got := gms.TruncateFlagsConflict(tc.dbq, tc.re); got != tc.conflict {
			t.Errorf("TruncateFlagsConflict(%v, %v) = %v", tc.dbq, tc.re, got)
		}
		if got := gms.TruncateByReindex(tc.dbq, tc.re, tc.toDelete, tc.total); got != tc.want {
			t.Errorf("TruncateByReindex(%v, %v, %d, %d) = %v", tc.dbq, tc.re, tc.toDelete, tc.total, got)
		}
	}
}
