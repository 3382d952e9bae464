package index

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/store"
	"github.com/google/go-cmp/cmp"
)

// upstreams is an upstreamLineage aspect naming the datasets ups.
func upstreams(ups ...string) string {
	var b strings.Builder
	b.WriteString(`{"upstreams":[`)
	for i, u := range ups {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"dataset":%q,"type":"TRANSFORMED","auditStamp":{"time":0,"actor":"urn:li:corpuser:x"}}`, u)
	}
	b.WriteString("]}")
	return b.String()
}

// seedLattice writes levels×width datasets, each downstream of every dataset
// of the level before; the start is l0w0.
func seedLattice(tb testing.TB, levels, width int) (*Index, string) {
	tb.Helper()
	st := store.OpenMemory(nil)
	st.SetRules(testRules{})
	x := New(st, Options{})
	tb.Cleanup(func() { x.Close(); _ = st.Close() })
	name := func(l, w int) string { return ds(fmt.Sprintf("l%dw%d", l, w)) }
	for l := range levels {
		for w := range width {
			var ups []string
			for k := range width {
				if l > 0 {
					ups = append(ups, name(l-1, k))
				}
			}
			if err := st.Put(store.Aspect{URN: name(l, w), Name: "upstreamLineage", Value: json.RawMessage(upstreams(ups...))}); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return x, name(0, 0)
}

// seedBulk writes n datasets named "bulk<i>".
func seedBulk(t *testing.T, n int) *Index {
	t.Helper()
	st, x, _ := newTest(t, 0)
	for i := range n {
		put(t, st, ds(fmt.Sprintf("d%05d", i)), "datasetProperties", fmt.Sprintf(`{"name":"bulk%d"}`, i))
	}
	return x
}

func TestQueryLength(t *testing.T) {
	t.Parallel()
	x, src := seedLattice(t, 2, 2)
	const refused = "Search query exceeds maximum length of 500 characters"
	tests := []struct {
		name string
		text string
		ok   bool
	}{
		{"500 characters", strings.Repeat("a", 500), true},
		{"501 characters", strings.Repeat("a", 501), false},
		{"250 characters of two UTF-16 units", strings.Repeat("𝄞", 250), true},
		{"251 characters of two UTF-16 units", strings.Repeat("𝄞", 251), false},
		{"500 characters of one UTF-16 unit", strings.Repeat("é", 500), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			q := Query{Text: tt.text, Count: 1}
			calls := map[string]func() error{
				"search":         func() error { _, err := x.Search(q); return err },
				"scroll":         func() error { _, err := x.Scroll(q, "", ""); return err },
				"search lineage": func() error { _, err := x.SearchLineage(LineageQuery{Query: q, URN: src}); return err },
				"scroll lineage": func() error { _, err := x.ScrollLineage(LineageQuery{Query: q, URN: src}, "", ""); return err },
			}
			for name, call := range calls {
				err := call()
				if tt.ok && err != nil {
					t.Errorf("%s: %v", name, err)
				}
				if !tt.ok && (!errors.Is(err, ErrBadQuery) || !strings.HasSuffix(err.Error(), ": "+refused)) {
					t.Errorf("%s: %v, want %v: %s", name, err, ErrBadQuery, refused)
				}
			}
		})
	}
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// retained returns the bytes f leaves reachable (after a collection).
func retained(f func()) int64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.GC()
	runtime.ReadMemStats(&after)
	return int64(after.HeapAlloc) - int64(before.HeapAlloc)
}

// A query's cost grows with its distinct terms, not with its repeats: a
// term repeated 100 times costs about what it costs once (was: one matched
// field per repeat and hit, 100 times the memory).
func TestRepeatedTermsCost(t *testing.T) {
	x := seedBulk(t, 2000)
	search := func(text string) func() {
		return func() {
			r, err := x.Search(Query{Text: text, Count: 1, SkipAggregates: true})
			if err != nil || r.Total != 2000 {
				t.Fatalf("%d hits, %v", r.Total, err)
			}
		}
	}
	search("bulk")() // index the documents
	once := allocated(search("bulk"))
	repeated := allocated(search(strings.TrimSpace(strings.Repeat("bulk ", 100))))
	if repeated > 2*once {
		t.Errorf("a term repeated 100 times allocates %d bytes, once %d", repeated, once)
	}
	r, err := x.Search(Query{Text: "bulk bulk BULK", Count: 1})
	if err != nil || len(r.Hits) != 1 || len(r.Hits[0].Matched) != 1 {
		t.Errorf("matched fields of a repeated term: %+v, %v", r.Hits, err)
	}
}

// Scrolls of the same query opened while the index did not change share
// their results: 50 first pages hold about what one does (was: each held
// every hit, 50 times the memory, 15 MB).
func TestScrollsShareResults(t *testing.T) {
	x := seedBulk(t, 3000)
	first := func() Result {
		r, err := x.Scroll(Query{Text: "*", Count: 1}, "", "")
		if err != nil || r.Total != 3000 || r.NextScrollID == "" {
			t.Fatalf("%d hits, %v", r.Total, err)
		}
		return r
	}
	first() // index the documents
	var ids []string
	many := retained(func() {
		for range 50 {
			ids = append(ids, first().NextScrollID)
		}
	})
	if many > 1<<20 { // one copy of 3,000 hits is about 300 KB
		t.Errorf("50 scrolls retain %d bytes", many)
	}
	r, err := x.Scroll(Query{Text: "*", Count: 1}, ids[7], "")
	if err != nil || len(r.Hits) != 1 || r.Hits[0].URN != ds("d00001") {
		t.Errorf("second page: %v, %v", urnsOf(r), err)
	}
}

// Lineage scrolls keep the walk's graph, not its paths: 20 first pages over
// a lattice whose deep nodes have 100 paths each retain little (was: every
// path of every hit, per scroll).
func TestLineageScrollsKeepNoPaths(t *testing.T) {
	x, src := seedLattice(t, 12, 8)
	q := LineageQuery{URN: src, Query: Query{Count: 1}}
	if _, err := x.ScrollLineage(q, "", ""); err != nil {
		t.Fatal(err)
	}
	many := retained(func() {
		for i := range 20 {
			q.Text = fmt.Sprintf("*%s", strings.Repeat(" ", i)) // 20 distinct queries: no sharing
			r, err := x.ScrollLineage(q, "", "")
			if err != nil || r.Total != 11*8 || len(r.Hits) != 1 || len(r.Hits[0].Paths) != 1 {
				t.Fatalf("%d hits %+v, %v", r.Total, r.Hits, err)
			}
		}
	})
	if many > 2<<20 {
		t.Errorf("20 lineage scrolls retain %d bytes", many)
	}
}

// The open scrolls' results are bounded by bytes: past the bound, opening
// one closes those expiring first, whose scrolls go on over the current
// index.
func TestScrollBytesBound(t *testing.T) {
	t.Parallel()
	st, x, clk := newTest(t, 0)
	for i := range 100 {
		put(t, st, ds(fmt.Sprintf("d%03d", i)), "datasetProperties", fmt.Sprintf(`{"name":"bulk%d"}`, i))
	}
	open := func(text string) string {
		r, err := x.Scroll(Query{Text: text, Count: 10}, "", "")
		if err != nil || r.NextScrollID == "" {
			t.Fatal(err)
		}
		return r.NextScrollID
	}
	id := open("bulk")
	x.pits.mu.Lock()
	one := x.pits.bytes
	x.pits.maxBytes = 3 * one
	x.pits.mu.Unlock()
	for i := range 5 {
		clk.Add(1)
		open("bulk" + strings.Repeat(" ", i+1)) // distinct queries, results of the same size
	}
	x.pits.mu.Lock()
	n, bytes := len(x.pits.m), x.pits.bytes
	x.pits.mu.Unlock()
	if n != 3 || bytes > 3*one {
		t.Errorf("%d scrolls open holding %d bytes, want 3 holding at most %d", n, bytes, 3*one)
	}
	// The first scroll's point in time was closed: it goes on over the
	// current index, after its last hit.
	put(t, st, ds("d000"), "status", `{"removed":true}`)
	r, err := x.Scroll(Query{Text: "bulk", Count: 10}, id, "")
	if err != nil || r.Total != 99 || len(r.Hits) != 10 || r.Hits[0].URN != ds("d010") {
		t.Errorf("after its point in time closed: %d hits %v, %v", r.Total, urnsOf(r), err)
	}
}

// countdown is a context whose Err is Canceled from its n-th call on.
type countdown struct {
	context.Context
	n atomic.Int64
}

func (c *countdown) Err() error {
	if c.n.Add(-1) <= 0 {
		return context.Canceled
	}
	return nil
}

func (x *Index) testedCount() int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.tested
}

// A search or lineage walk whose context is done stops within checkEvery
// documents or edges.
func TestCancelStopsWork(t *testing.T) {
	t.Parallel()
	bulk := seedBulk(t, 3000)
	lattice, src := seedLattice(t, 30, 20)
	var calls atomic.Int64
	fresh := func(text string) string { // a query of its own: a scroll shares no results
		return text + strings.Repeat(" ", int(calls.Add(1)))
	}
	tests := []struct {
		name string
		x    *Index
		run  func(ctx context.Context, x *Index) error
		all  int // the documents or edges of the whole work
	}{
		{"search", bulk, func(ctx context.Context, x *Index) error {
			_, err := x.SearchContext(ctx, Query{Text: "bulk"})
			return err
		}, 3000},
		{"scroll", bulk, func(ctx context.Context, x *Index) error {
			_, err := x.ScrollContext(ctx, Query{Text: fresh("bulk")}, "", "")
			return err
		}, 3000},
		{"search lineage", lattice, func(ctx context.Context, x *Index) error {
			_, err := x.SearchLineageContext(ctx, LineageQuery{URN: src})
			return err
		}, 20 + 28*20*20},
		{"scroll lineage", lattice, func(ctx context.Context, x *Index) error {
			_, err := x.ScrollLineageContext(ctx, LineageQuery{URN: src, Query: Query{Text: fresh("l2")}}, "", "")
			return err
		}, 20 + 28*20*20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.run(context.Background(), tt.x); err != nil { // index the documents
				t.Fatal(err)
			}
			before := tt.x.testedCount()
			if err := tt.run(context.Background(), tt.x); err != nil {
				t.Fatal(err)
			}
			if got := tt.x.testedCount() - before; got < tt.all {
				t.Fatalf("the whole work counted %d, want at least %d", got, tt.all)
			}
			before = tt.x.testedCount()
			ctx := &countdown{Context: context.Background()}
			ctx.n.Store(2) // the check before the work passes, the first during it stops
			if err := tt.run(ctx, tt.x); !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want %v", err, context.Canceled)
			}
			if got := tt.x.testedCount() - before; got > checkEvery {
				t.Errorf("%d documents or edges after the context was done, want at most %d", got, checkEvery)
			}
			before = tt.x.testedCount()
			ctx.n.Store(0)
			if err := tt.run(ctx, tt.x); !errors.Is(err, context.Canceled) || tt.x.testedCount() != before {
				t.Errorf("a done context: %v, %d examined", err, tt.x.testedCount()-before)
			}
		})
	}
}

func TestKeepAliveLimit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want error
	}{
		{"1d", nil}, {"24h", nil}, {"1440m", nil}, {"86400s", nil}, {"86400000ms", nil},
		{"2d", ErrKeepAlive}, {"25h", ErrKeepAlive}, {"86400001ms", ErrKeepAlive},
		{"99999999999999d", ErrKeepAlive}, {"9223372036854775807ms", ErrKeepAlive},
	}
	for _, tt := range tests {
		d, err := ParseKeepAlive(tt.in)
		if !errors.Is(err, tt.want) || (err == nil && (d <= 0 || d > MaxKeepAlive)) {
			t.Errorf("ParseKeepAlive(%q) = %v, %v, want %v", tt.in, d, err, tt.want)
		}
	}
	_, err := ParseKeepAlive("99999999999999d")
	const want = "Keep alive for request (99999999999999d) is too large. It must be less than (1d). " +
		"This limit can be set by changing the [search.max_keep_alive] cluster level setting."
	if err == nil || !strings.HasSuffix(err.Error(), ": "+want) {
		t.Errorf("message: %v", err)
	}
}

// A negative start fails once some result exists (DataHub cuts its first
// batch at the start); with none the page is empty and keeps the start.
func TestNegativeStart(t *testing.T) {
	t.Parallel()
	x := seedBulk(t, 3)
	if r, err := x.Search(Query{Text: "bulk", Start: -5, Count: 10}); err == nil || err.Error() != "fromIndex = -5" {
		t.Errorf("with hits: %+v, %v", r, err)
	}
	r, err := x.Search(Query{Text: "nothing", Start: -5, Count: 10})
	if err != nil || r.Start != -5 || r.Total != 0 || len(r.Hits) != 0 {
		t.Errorf("without hits: %+v, %v", r, err)
	}
}

// refPaths is the lineage walk's paths as the mock defines them, built the
// direct way: a node's paths are its predecessors' (at one hop less, in the
// order the walk meets them) extended by it, the first maxPaths.
func refPaths(adj map[string][]string, src string) map[string][][]string {
	paths := map[string][][]string{src: {{src}}}
	degree := map[string]int{src: 0}
	frontier := []string{src}
	for hop := 1; len(frontier) > 0; hop++ {
		var next []string
		for _, u := range frontier {
			for _, v := range adj[u] {
				d, seen := degree[v]
				if seen && d < hop {
					continue
				}
				if !seen {
					degree[v] = hop
					next = append(next, v)
				}
				for _, p := range paths[u] {
					if len(paths[v]) == maxPaths {
						break
					}
					paths[v] = append(paths[v], append(slices.Clip(p), v))
				}
			}
		}
		frontier = next
	}
	return paths
}

func TestLineagePathsRandom(t *testing.T) {
	t.Parallel()
	for seed := range uint64(20) {
		st, x, _ := newTest(t, 0)
		rng := rand.New(rand.NewPCG(seed, 1))
		n := 10 + rng.IntN(40)
		adj := map[string][]string{}
		for i := range n {
			var ups []string
			for range rng.IntN(6) {
				u := ds(fmt.Sprintf("n%02d", rng.IntN(n)))
				ups = append(ups, u)
			}
			me := ds(fmt.Sprintf("n%02d", i))
			put(t, st, me, "upstreamLineage", upstreams(ups...))
			for _, u := range ups {
				adj[u] = append(adj[u], me)
			}
		}
		for u, vs := range adj {
			slices.Sort(vs)
			adj[u] = slices.Compact(vs)
		}
		src := ds("n00")
		want := refPaths(adj, src)
		r, err := x.SearchLineage(LineageQuery{URN: src, Query: Query{Count: 1000}})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string][][]string{src: {{src}}}
		for _, h := range r.Hits {
			got[h.URN] = h.Paths
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("seed %d: paths (-want +got):\n%s", seed, d)
		}
	}
}

// Open scrolls do not pin their query's text: 20 scrolls, each with a
// distinct filter of about 1 MB of values, retain far less than their
// filters (was: the whole query text per scroll, outside the bytes bound).
func TestScrollsPinNoQueryText(t *testing.T) {
	st, x, _ := newTest(t, 0)
	put(t, st, ds("a"), "datasetProperties", `{"name":"a"}`)
	values := make([]string, 20_000) // about 1 MB of text
	for i := range values {
		values[i] = fmt.Sprintf("urn:li:tag:%040d", i)
	}
	if _, err := x.Scroll(Query{Count: 1}, "", ""); err != nil { // index the documents
		t.Fatal(err)
	}
	kept := retained(func() {
		for i := range 20 {
			vs := slices.Clone(values)
			vs[0] = fmt.Sprintf("urn:li:tag:scroll%d", i) // distinct queries: no sharing
			f := Filter{{{Field: "tags", Values: vs, Negated: true}}}
			if _, err := x.Scroll(Query{Count: 1, Filter: f}, "", "1d"); err != nil {
				t.Fatal(err)
			}
		}
	})
	x.pits.mu.Lock()
	open := len(x.pits.m)
	x.pits.mu.Unlock()
	if open != 21 || kept > 2<<20 {
		t.Errorf("%d scrolls open retain %d bytes, want 21 retaining under 2 MiB", open, kept)
	}
}
