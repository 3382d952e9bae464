package gms

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// TestHitEntity checks the entity a search hit shows: built from the hit's
// index document while the index is current, with the aspects' values and
// the synthesised key GetEntity gives; read from the store once the index
// missed a change (here dropped while paused), so that the hit shows the
// store's latest value and not the index's.
func TestHitEntity(t *testing.T) {
	t.Parallel()
	st := store.OpenMemory(nil)
	c := New(st, Options{})
	t.Cleanup(func() { c.Close(); st.Close() })
	ctx := context.Background()
	const u = "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)"
	put := func(desc string) {
		t.Helper()
		if err := st.Put(store.Aspect{URN: u, Name: "datasetProperties", Value: json.RawMessage(`{"description":"` + desc + `","customProperties":{}}`)}); err != nil {
			t.Fatal(err)
		}
	}
	put("one")
	q := Query{Types: []string{"dataset"}, Text: "*", Count: 10, WithAspects: true}
	res, err := c.Search(ctx, q)
	if err != nil || len(res.Hits) != 1 || !res.Current {
		t.Fatalf("search: %+v %v", res, err)
	}
	got, err := c.HitEntity(ctx, res, res.Hits[0])
	if err != nil {
		t.Fatal(err)
	}
	want, err := c.GetEntity(ctx, u, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	// The values and the key as GetEntity has them; a stored aspect's
	// version and stamps are the store's alone.
	opts := cmpopts.IgnoreFields(Aspect{}, "Version", "SystemMetadata", "CreatedOn", "CreatedBy")
	if diff := cmp.Diff(want, got, opts); diff != "" {
		t.Errorf("HitEntity (-GetEntity +got):\n%s", diff)
	}
	if len(got.Aspects) != 2 || got.Aspects[0].Name != "datasetKey" {
		t.Errorf("aspects = %v, want the key synthesised and datasetProperties", got.Aspects)
	}

	c.SetIndexPaused(true)
	put("two") // dropped by the paused index
	c.SetIndexPaused(false)
	res, err = c.Search(ctx, q)
	if err != nil || len(res.Hits) != 1 || res.Current {
		t.Fatalf("search after a dropped change: %+v %v", res, err)
	}
	if string(res.Hits[0].Aspects["datasetProperties"]) == "" {
		t.Fatal("no aspects on the hit")
	}
	got, err = c.HitEntity(ctx, res, res.Hits[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range got.Aspects {
		if a.Name == "datasetProperties" && string(a.Value) != `{"description":"two","customProperties":{}}` {
			t.Errorf("hit shows %s, want the store's latest (two)", a.Value)
		}
	}
}
