package client

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

func TestReads(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	// A front end's address: requests must keep the /api/gms prefix.
	c, err := New(s.URL() + "/api/gms/")
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	table := tableURN(t, "reads")
	putTable(t, s, table, "urn:li:mlFeature:(reads,a)")
	putTable(t, s, table, "urn:li:mlFeature:(reads,a)", "urn:li:mlFeature:(reads,b)")

	t.Run("GetAspect", func(t *testing.T) {
		got, err := GetAspect[aspects.MLFeatureTableProperties](ctx, c, table)
		if err != nil {
			t.Fatal(err)
		}
		want := aspects.MLFeatureTableProperties{CustomProperties: map[string]string{}, Description: aspects.Ptr("t"),
			MLFeatures: []string{"urn:li:mlFeature:(reads,a)", "urn:li:mlFeature:(reads,b)"}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("GetVersioned", func(t *testing.T) {
		got, err := GetVersioned[aspects.MLFeatureTableProperties](ctx, c, table)
		if err != nil {
			t.Fatal(err)
		}
		if got.Version != "2" || len(got.Value.MLFeatures) != 2 {
			t.Errorf("got version %q, value %+v; want version 2 with 2 features", got.Version, got.Value)
		}
	})
	t.Run("not found", func(t *testing.T) {
		other := tableURN(t, "absent")
		if _, err := GetAspect[aspects.MLFeatureTableProperties](ctx, c, other); !errors.Is(err, datahub.ErrNotFound) {
			t.Errorf("GetAspect: %v, want ErrNotFound", err)
		}
		if _, err := GetVersioned[aspects.MLFeatureTableProperties](ctx, c, other); !errors.Is(err, datahub.ErrNotFound) {
			t.Errorf("GetVersioned: %v, want ErrNotFound", err)
		}
		if _, err := GetAspect[aspects.EditableMLFeatureTableProperties](ctx, c, table); !errors.Is(err, datahub.ErrNotFound) {
			t.Errorf("GetAspect of an unwritten aspect: %v, want ErrNotFound", err)
		}
	})
	t.Run("Exists", func(t *testing.T) {
		for _, tc := range []struct {
			u    urn.URN
			want bool
		}{{table, true}, {tableURN(t, "absent"), false}} {
			got, err := c.Exists(ctx, tc.u)
			if err != nil || got != tc.want {
				t.Errorf("Exists(%s) = %v, %v; want %v", tc.u, got, err, tc.want)
			}
		}
	})
	t.Run("GetEntity", func(t *testing.T) {
		e, err := c.GetEntity(ctx, table)
		if err != nil {
			t.Fatal(err)
		}
		if e.URN != table.String() || e.EntityName != "mlFeatureTable" {
			t.Errorf("entity %s %s", e.URN, e.EntityName)
		}
		p, ok, err := AspectOf[aspects.MLFeatureTableProperties](e)
		if err != nil || !ok || len(p.MLFeatures) != 2 {
			t.Errorf("AspectOf = %+v, %v, %v", p, ok, err)
		}
		if v := e.Aspects["mlFeatureTableProperties"].Version; v != "2" {
			t.Errorf("version %q, want 2", v)
		}
		if _, ok := e.Aspects["mlFeatureTableKey"]; !ok {
			t.Errorf("no key aspect in %v", e.Aspects)
		}
	})
	t.Run("wrong aspect for entity", func(t *testing.T) {
		_, err := GetAspect[aspects.SchemaMetadata](ctx, c, table)
		if !errors.Is(err, datahub.ErrValidation) {
			t.Errorf("err = %v, want ErrValidation", err)
		}
	})
}

func TestTimeseries(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s)
	ctx := t.Context()
	ds := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.events,PROD)")
	for i, rows := range []int64{10, 20, 30} {
		if err := s.PutAspect(ds.String(), aspects.DatasetProfile{TimestampMillis: int64(1000 * (i + 1)), RowCount: aspects.Ptr(rows)}); err != nil {
			t.Fatal(err)
		}
	}
	rows := func(ps []aspects.DatasetProfile) []int64 {
		var out []int64
		for _, p := range ps {
			out = append(out, *p.RowCount)
		}
		return out
	}
	all, err := GetTimeseries[aspects.DatasetProfile](ctx, c, ds, TimeseriesQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int64{30, 20, 10}, rows(all)); diff != "" {
		t.Errorf("all, newest first (-want +got):\n%s", diff)
	}
	ranged, err := GetTimeseries[aspects.DatasetProfile](ctx, c, ds, TimeseriesQuery{Start: time.UnixMilli(1500), End: time.UnixMilli(3000), Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int64{30, 20}, rows(ranged)); diff != "" {
		t.Errorf("ranged (-want +got):\n%s", diff)
	}
	latest, err := LatestTimeseries[aspects.DatasetProfile](ctx, c, ds)
	if err != nil || *latest.RowCount != 30 {
		t.Errorf("latest = %+v, %v", latest, err)
	}
	// Values travel as Pegasus bytes (one char per byte): non-ASCII text
	// comes back as written.
	if err := s.PutAspect(ds.String(), aspects.DatasetProfile{TimestampMillis: 4000, MessageID: aspects.Ptr("größe 📈"), RowCount: aspects.Ptr[int64](40)}); err != nil {
		t.Fatal(err)
	}
	if latest, err := LatestTimeseries[aspects.DatasetProfile](ctx, c, ds); err != nil || latest.MessageID == nil || *latest.MessageID != "größe 📈" {
		t.Errorf("latest = %+v, %v; want messageId größe 📈", latest, err)
	}
	other := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.none,PROD)")
	if _, err := LatestTimeseries[aspects.DatasetProfile](ctx, c, other); !errors.Is(err, datahub.ErrNotFound) {
		t.Errorf("latest of nothing: %v, want ErrNotFound", err)
	}
	// Timeseries aspects are refused by the versioned reads and Modify,
	// and versioned ones by the timeseries read, before anything is sent.
	before := s.RequestCounts()
	if _, err := GetAspect[aspects.DatasetProfile](ctx, c, ds); !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("GetAspect of a timeseries aspect: %v", err)
	}
	if err := Modify(ctx, c, ds, func(*aspects.DatasetProfile) error { return nil }); !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("Modify of a timeseries aspect: %v", err)
	}
	if _, err := GetTimeseries[aspects.DatasetProperties](ctx, c, ds, TimeseriesQuery{}); !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("GetTimeseries of a versioned aspect: %v", err)
	}
	if diff := cmp.Diff(before, s.RequestCounts()); diff != "" {
		t.Errorf("requests sent (-before +after):\n%s", diff)
	}
}
