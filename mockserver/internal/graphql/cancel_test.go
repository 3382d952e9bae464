package graphql

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/index"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// leaving is a Searcher whose client leaves during the first search: that
// search cancels the request's context before the index runs; errs are the
// index's answers.
type leaving struct {
	*index.Index
	cancel context.CancelFunc
	mu     sync.Mutex
	errs   []error
}

func (l *leaving) answered(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.errs = append(l.errs, err)
}

func (l *leaving) SearchContext(ctx context.Context, q index.Query) (index.Result, error) {
	l.cancel()
	r, err := l.Index.SearchContext(ctx, q)
	l.answered(err)
	return r, err
}

func (l *leaving) ScrollContext(ctx context.Context, q index.Query, id, keepAlive string) (index.Result, error) {
	l.cancel()
	r, err := l.Index.ScrollContext(ctx, q, id, keepAlive)
	l.answered(err)
	return r, err
}

func (l *leaving) SearchLineageContext(ctx context.Context, q index.LineageQuery) (index.Result, error) {
	l.cancel()
	r, err := l.Index.SearchLineageContext(ctx, q)
	l.answered(err)
	return r, err
}

func (l *leaving) ScrollLineageContext(ctx context.Context, q index.LineageQuery, id, keepAlive string) (index.Result, error) {
	l.cancel()
	r, err := l.Index.ScrollLineageContext(ctx, q, id, keepAlive)
	l.answered(err)
	return r, err
}

const cancelSrc = "urn:li:dataset:(urn:li:dataPlatform:hive,src,PROD)"

// newCancelTest returns a core and index holding three datasets downstream
// of cancelSrc.
func newCancelTest(t *testing.T) (*gms.Core, *index.Index) {
	t.Helper()
	st := store.OpenMemory(nil)
	ix := index.New(st, index.Options{})
	core := gms.New(st, gms.Options{Follow: ix.Follow})
	t.Cleanup(func() { ix.Close(); core.Close(); st.Close() })
	for _, u := range []string{"a", "b", "c"} {
		value := `{"upstreams":[{"dataset":"` + cancelSrc + `","type":"COPY","auditStamp":{"time":0,"actor":"urn:li:corpuser:x"}}]}`
		urn := "urn:li:dataset:(urn:li:dataPlatform:hive," + u + ",PROD)"
		if err := st.Put(store.Aspect{URN: urn, Name: "upstreamLineage", Value: json.RawMessage(value)}); err != nil {
			t.Fatal(err)
		}
	}
	return core, ix
}

// TestSearchStopsWithRequest serves aliased searches whose client leaves
// during the first: every search started gets the request's context and
// stops with its error (was: each ran to its end).
func TestSearchStopsWithRequest(t *testing.T) {
	t.Parallel()
	const doc = `{ a: searchAcrossEntities(input: {query: "*"}) { total searchResults { entity { urn } } }
	  b: scrollAcrossEntities(input: {query: "*"}) { total searchResults { entity { urn } } }
	  c: searchAcrossLineage(input: {urn: "` + cancelSrc + `", direction: DOWNSTREAM, query: "*"}) { total searchResults { entity { urn } } }
	  d: scrollAcrossLineage(input: {urn: "` + cancelSrc + `", direction: DOWNSTREAM, query: "*"}) { total searchResults { entity { urn } } } }`
	core, ix := newCancelTest(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	l := &leaving{Index: ix, cancel: cancel}
	h, err := New(core, l)
	if err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	body := `{"query":` + jsonString(t, doc) + `}`
	h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/api/graphql", strings.NewReader(body)).WithContext(ctx))
	if len(l.errs) == 0 { // the executor starts no field once the context is done
		t.Fatalf("no search: %s", w.Body)
	}
	for i, err := range l.errs {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("search %d: %v, want %v", i, err, context.Canceled)
		}
	}
	if strings.Contains(w.Body.String(), `"total"`) {
		t.Errorf("answered %s", w.Body)
	}
}

// TestPageLoadsStopWithRequest loads a page's entities for a request whose
// client has left: nothing is loaded, the context's error is answered.
func TestPageLoadsStopWithRequest(t *testing.T) {
	t.Parallel()
	core, ix := newCancelTest(t)
	r := &resolver{core: core, search: ix}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	core.ApplyDue()
	res, err := ix.Search(index.Query{Text: "*", Count: 10})
	if err != nil || len(res.Hits) != 3 {
		t.Fatalf("%v, %v", res.Hits, err)
	}
	if hits, gerr := r.hits(ctx, res.Hits); gerr == nil || !strings.Contains(gerr.Error(), "context canceled") {
		t.Errorf("search page: %d results, %v", len(hits), gerr)
	}
	if hits, gerr := r.lineageHits(ctx, res.Hits); gerr == nil || !strings.Contains(gerr.Error(), "context canceled") {
		t.Errorf("lineage page: %d results, %v", len(hits), gerr)
	}
}

func jsonString(t *testing.T, s string) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
