package store

import (
	"encoding/json"
	"errors"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/google/go-cmp/cmp"
)

func TestConditionalWrites(t *testing.T) {
	t.Parallel()
	cond := func(w Write, change, ifVersion string, ifNone bool) Write {
		w.ChangeType, w.IfVersionMatch, w.IfNoneMatch = change, ifVersion, ifNone
		return w
	}
	v := func(d string) Write { return upsert(`{"description":"` + d + `"}`) }
	tests := []struct {
		name        string
		prior       int // changing writes before the conditional one
		w           Write
		want        Result
		wantErr     *ConditionError
		wantLatest  string // latest systemMetadata.version afterwards ("" = absent)
		wantPrecond bool
	}{
		{name: "If-Version-Match -1 on a new aspect", prior: 0, w: cond(v("x"), "", "-1", false),
			want: Result{Version: "1"}, wantLatest: "1"},
		{name: "If-Version-Match -1 on an existing aspect", prior: 1, w: cond(v("x"), "", "-1", false),
			wantErr: &ConditionError{Header: HeaderIfVersionMatch, Want: "-1", Have: "1"}, wantLatest: "1", wantPrecond: true},
		{name: "If-Version-Match current version", prior: 2, w: cond(v("x"), "UPSERT", "2", false),
			want: Result{Version: "3"}, wantLatest: "3"},
		{name: "If-Version-Match stale version", prior: 2, w: cond(v("x"), "", "1", false),
			wantErr: &ConditionError{Header: HeaderIfVersionMatch, Want: "1", Have: "2"}, wantLatest: "2", wantPrecond: true},
		{name: "If-Version-Match on a missing aspect", prior: 0, w: cond(v("x"), "", "1", false),
			wantErr: &ConditionError{Header: HeaderIfVersionMatch, Want: "1", Have: "-1"}, wantPrecond: true},
		{name: "If-Version-Match with an unchanged value passes and keeps the version", prior: 1, w: cond(v("v1"), "", "1", false),
			want: Result{Version: "1", Unchanged: true}, wantLatest: "1"},
		{name: "If-Version-Match with If-None-Match still fails", prior: 1, w: cond(v("x"), "", "7", true),
			wantErr: &ConditionError{Header: HeaderIfVersionMatch, Want: "7", Have: "1"}, wantLatest: "1", wantPrecond: true},
		{name: "CREATE on a new aspect", prior: 0, w: cond(v("x"), ChangeCreate, "", false),
			want: Result{Version: "1"}, wantLatest: "1"},
		{name: "CREATE on an existing aspect", prior: 2, w: cond(v("x"), ChangeCreate, "", false),
			wantErr: &ConditionError{Header: ChangeCreate, Want: "-1", Have: "2"}, wantLatest: "2"},
		{name: "CREATE on an existing aspect with If-None-Match", prior: 2, w: cond(v("x"), ChangeCreate, "", true),
			want: Result{Skipped: true}, wantLatest: "2"},
		{name: "CREATE compares If-Version-Match with -1", prior: 0, w: cond(v("x"), ChangeCreate, "-1", false),
			want: Result{Version: "1"}, wantLatest: "1"},
		{name: "CREATE with another If-Version-Match", prior: 0, w: cond(v("x"), ChangeCreate, "1", false),
			wantErr: &ConditionError{Header: HeaderIfVersionMatch, Want: "1", Have: "-1"}, wantPrecond: true},
		{name: "CREATE_ENTITY on a new entity", prior: 0, w: cond(v("x"), ChangeCreateEntity, "", false),
			want: Result{Version: "1"}, wantLatest: "1"},
		{name: "CREATE_ENTITY on an existing entity", prior: 1, w: cond(v("x"), ChangeCreateEntity, "", false),
			wantErr: &ConditionError{Header: ChangeCreateEntity, Want: "-1", Have: "1"}, wantLatest: "1"},
		{name: "CREATE_ENTITY on an existing entity with If-None-Match", prior: 1, w: cond(v("x"), ChangeCreateEntity, "", true),
			want: Result{Skipped: true}, wantLatest: "1"},
		{name: "CREATE_ENTITY of the key aspect on an existing entity", prior: 1,
			w:       cond(Write{URN: dsURN, Aspect: dsKey, Value: json.RawMessage(dsKeyV), KeyAspect: dsKey, KeyValue: json.RawMessage(dsKeyV)}, ChangeCreateEntity, "", false),
			wantErr: &ConditionError{Header: ChangeCreateEntity, Aspect: dsKey, Want: "-1", Have: "1"}, wantLatest: "1"},
	}
	// Each case runs alone (item 0) and as item 1 of a batch behind an
	// unrelated item, which must then not be written either.
	for _, tc := range tests {
		for _, batched := range []bool{false, true} {
			name := tc.name
			if batched {
				name += " (item 1 of a batch)"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				forEachBackend(t, func(t *testing.T, open func(Clock) *Store) {
					s := open(stepClock())
					for i := range tc.prior {
						mustApply(t, s, v("v"+string(rune('1'+i))))
					}
					ws := []Write{tc.w}
					index := 0
					other := Write{URN: "urn:li:dataset:(urn:li:dataPlatform:hive,db.other,PROD)", Aspect: "status",
						Value: json.RawMessage(`{"removed":false}`), KeyAspect: dsKey, KeyValue: json.RawMessage(`{}`)}
					if batched {
						ws, index = []Write{other, tc.w}, 1
					}
					res, err := s.Apply(ws)
					if tc.wantErr != nil {
						var ce *ConditionError
						if !errors.As(err, &ce) {
							t.Fatalf("err = %v, want a ConditionError", err)
						}
						want := *tc.wantErr
						want.Index, want.URN = index, dsURN
						if want.Aspect == "" {
							want.Aspect = props
						}
						if diff := cmp.Diff(&want, ce); diff != "" {
							t.Errorf("ConditionError (-want +got):\n%s", diff)
						}
						if ce.Precondition() != tc.wantPrecond ||
							errors.Is(err, datahub.ErrPreconditionFailed) != tc.wantPrecond ||
							errors.Is(err, datahub.ErrValidation) == tc.wantPrecond {
							t.Errorf("Precondition() = %v, want %v (errors.Is must agree)", ce.Precondition(), tc.wantPrecond)
						}
						if res != nil {
							t.Errorf("results on error: %v", res)
						}
						if batched && len(s.All()) != 2*min(tc.prior, 1) {
							t.Errorf("failed batch wrote its first item: %d rows", len(s.All()))
						}
					} else {
						if err != nil {
							t.Fatalf("Apply: %v", err)
						}
						if diff := cmp.Diff(tc.want, res[index]); diff != "" {
							t.Errorf("result (-want +got):\n%s", diff)
						}
					}
					var latest string
					if a, err := s.Get(dsURN, props, 0); err == nil {
						latest = sysMeta(t, a.SystemMetadata)["version"].(string)
					}
					if latest != tc.wantLatest {
						t.Errorf("latest version = %q, want %q", latest, tc.wantLatest)
					}
				})
			})
		}
	}
}
