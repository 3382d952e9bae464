package gms_test

import (
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/index"
)

// ListEntities pages through several entity indices in (index name, URN)
// order, the removed left out unless asked for, with the same total on
// every page, following its scroll ids across the indices; a cursor in an
// index not listed starts at the first listed index after it.
func TestListEntitiesPagesAcrossIndices(t *testing.T) {
	t.Parallel()
	c := newCore(t, gms.Options{})
	var live, all []string // as (index name, URN) order wants: charts, then datasets
	for _, typ := range []string{"chart", "dataset"} {
		for i := range 7 {
			u := fmt.Sprintf("urn:li:%s:(urn:li:dataPlatform:hive,t%d,PROD)", typ, i)
			if typ == "chart" {
				u = fmt.Sprintf("urn:li:chart:(looker,c%d)", i)
			}
			removed := i%3 == 1
			if err := c.Put(t.Context(), u, "status", []byte(fmt.Sprintf(`{"removed":%v}`, removed))); err != nil {
				t.Fatal(err)
			}
			all = append(all, u)
			if !removed {
				live = append(live, u)
			}
		}
	}
	for _, incl := range []bool{false, true} {
		want := live
		if incl {
			want = all
		}
		var got []string
		after := ""
		for pages := 0; ; pages++ {
			p, err := c.ListEntities(t.Context(), []string{"dataset", "chart", "dataset"}, after, 3, incl)
			if err != nil {
				t.Fatal(err)
			}
			if p.Total != len(want) {
				t.Errorf("includeRemoved %v, page %d: total %d, want %d", incl, pages, p.Total, len(want))
			}
			got = append(got, p.URNs...)
			if p.ScrollID == "" || pages > len(want) {
				break
			}
			if after, err = gms.ListCursor(p.ScrollID); err != nil {
				t.Fatal(err)
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("includeRemoved %v (-want +got):\n%s", incl, diff)
		}
	}
	// corpuserindex_v2 sorts between the two: the cursor skips the charts.
	p, err := c.ListEntities(t.Context(), []string{"chart", "dataset"},
		index.EntityIndexName("corpuser")+"\x00urn:li:a", 100, false)
	if err != nil {
		t.Fatal(err)
	}
	wantDatasets := slices.DeleteFunc(slices.Clone(live), func(u string) bool { return u[7:12] == "chart" })
	if diff := cmp.Diff(wantDatasets, p.URNs); diff != "" || p.Total != len(live) {
		t.Errorf("after a corpuser cursor: total %d (-want +got):\n%s", p.Total, diff)
	}
}

// ListCursor takes a scroll id naming an entity type's index and a URN, and
// refuses one naming another index, one whose place is not a URN, and one
// that is not Base64.
func TestListCursorChecksItsIndex(t *testing.T) {
	t.Parallel()
	id := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	const u = "urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)"
	for _, idx := range []string{"datasetindex_v2", "mlmodelindex_v2", "corpuserindex_v2"} {
		if got, err := gms.ListCursor(id(idx + "\x00" + u)); err != nil || got != idx+"\x00"+u {
			t.Errorf("ListCursor(%s cursor) = %q, %v", idx, got, err)
		}
	}
	for _, bad := range []string{"nosuchindex_v2\x00" + u, "datasetindex\x00" + u, "datasetindex_v2\x00dataset:a", "datasetindex_v2"} {
		if got, err := gms.ListCursor(id(bad)); !errors.Is(err, gms.ErrListScrollID) {
			t.Errorf("ListCursor(%q) = %q, %v; want ErrListScrollID", bad, got, err)
		}
	}
	if _, err := gms.ListCursor("not base64!"); err == nil || errors.Is(err, gms.ErrListScrollID) {
		t.Errorf("ListCursor of text that is not Base64: %v", err)
	}
	if got, err := gms.ListCursor(""); got != "" || err != nil {
		t.Errorf(`ListCursor("") = %q, %v`, got, err)
	}
}
