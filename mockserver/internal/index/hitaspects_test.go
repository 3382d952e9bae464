package index

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestHitAspects checks what a search WithAspects gives its hits: their
// documents' aspects, Current while the index has every change of the
// store, not Current while one waits for the lag or was dropped, and
// aspects that a later write does not change.
func TestHitAspects(t *testing.T) {
	t.Parallel()
	st, x, clk := newTest(t, 2*time.Second)
	const u = "urn:li:corpuser:a"
	put(t, st, u, "corpUserInfo", `{"displayName":"one","active":true}`)
	clk.Add(2 * time.Second)
	q := Query{Text: "*", Count: 10, WithAspects: true}

	res, err := x.Search(q)
	if err != nil || len(res.Hits) != 1 {
		t.Fatalf("search: %v %v", res.Hits, err)
	}
	if !res.Current {
		t.Error("Current = false with every change indexed")
	}
	want := map[string]json.RawMessage{"corpUserInfo": json.RawMessage(`{"displayName":"one","active":true}`)}
	if diff := cmp.Diff(want, res.Hits[0].Aspects); diff != "" {
		t.Errorf("aspects (-want +got):\n%s", diff)
	}
	shown := res.Hits[0].Aspects

	// A change within the lag: the hit still shows the indexed aspects,
	// and the result says they may be behind the store.
	put(t, st, u, "corpUserInfo", `{"displayName":"two","active":true}`)
	res, _ = x.Search(q)
	if res.Current {
		t.Error("Current = true with a change waiting for the lag")
	}
	if len(res.Hits) != 1 || string(res.Hits[0].Aspects["corpUserInfo"]) != `{"displayName":"one","active":true}` {
		t.Errorf("hits within the lag = %v", res.Hits)
	}
	clk.Add(2 * time.Second)
	res, _ = x.Search(q)
	if !res.Current || len(res.Hits) != 1 || string(res.Hits[0].Aspects["corpUserInfo"]) != `{"displayName":"two","active":true}` {
		t.Errorf("after the lag: current %v, hits %v", res.Current, res.Hits)
	}
	if got := string(shown["corpUserInfo"]); got != `{"displayName":"one","active":true}` {
		t.Errorf("aspects handed out changed by a later write: %s", got)
	}

	// Without WithAspects, nothing is attached.
	q.WithAspects = false
	if res, _ = x.Search(q); res.Current || res.Hits[0].Aspects != nil {
		t.Errorf("without WithAspects: current %v, aspects %v", res.Current, res.Hits[0].Aspects)
	}

	// A change dropped while paused: never Current again (until a new index).
	q.WithAspects = true
	x.SetPaused(true)
	put(t, st, u, "corpUserInfo", `{"displayName":"three","active":true}`)
	clk.Add(2 * time.Second)
	x.SetPaused(false)
	if res, _ = x.Search(q); res.Current {
		t.Error("Current = true after a change was dropped")
	}
}

// TestScrollHitAspects checks that a scroll's pages carry the aspects too,
// and that a scroll id continues whether or not the next page asks for
// them.
func TestScrollHitAspects(t *testing.T) {
	t.Parallel()
	st, x, _ := newTest(t, 0)
	for _, u := range []string{"urn:li:corpuser:a", "urn:li:corpuser:b"} {
		put(t, st, u, "corpUserInfo", `{"active":true}`)
	}
	q := Query{Text: "*", Count: 1, WithAspects: true}
	page, err := x.Scroll(q, "", "5m")
	if err != nil || len(page.Hits) != 1 || !page.Current || page.Hits[0].Aspects["corpUserInfo"] == nil {
		t.Fatalf("first page: %+v %v", page, err)
	}
	q.WithAspects = false
	next, err := x.Scroll(q, page.NextScrollID, "5m")
	if err != nil || len(next.Hits) != 1 || next.Hits[0].URN != "urn:li:corpuser:b" || next.Hits[0].Aspects != nil {
		t.Fatalf("second page: %+v %v", next, err)
	}
}
