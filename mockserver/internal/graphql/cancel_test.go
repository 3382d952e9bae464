package graphql

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

const cancelSrc = "urn:li:dataset:(urn:li:dataPlatform:hive,src,PROD)"

// newCancelTest returns a core holding three datasets downstream of
// cancelSrc, and the hook its barrier calls (before every read and search).
func newCancelTest(t *testing.T) (*gms.Core, *atomic.Pointer[func()]) {
	t.Helper()
	st := store.OpenMemory(nil)
	var hook atomic.Pointer[func()]
	core := gms.New(st, gms.Options{Follow: func() {
		if f := hook.Load(); f != nil {
			(*f)()
		}
	}})
	t.Cleanup(func() { core.Close(); st.Close() })
	for _, u := range []string{"a", "b", "c"} {
		value := `{"upstreams":[{"dataset":"` + cancelSrc + `","type":"COPY","auditStamp":{"time":0,"actor":"urn:li:corpuser:x"}}]}`
		urn := "urn:li:dataset:(urn:li:dataPlatform:hive," + u + ",PROD)"
		if err := st.Put(store.Aspect{URN: urn, Name: "upstreamLineage", Value: json.RawMessage(value)}); err != nil {
			t.Fatal(err)
		}
	}
	return core, &hook
}

// TestSearchStopsWithRequest serves aliased searches whose client leaves
// during the first (at the core's barrier, before the index runs): every
// search started gets the request's context and stops with its error (was:
// each ran to its end).
func TestSearchStopsWithRequest(t *testing.T) {
	t.Parallel()
	const doc = `{ a: searchAcrossEntities(input: {query: "*"}) { total searchResults { entity { urn } } }
	  b: scrollAcrossEntities(input: {query: "*"}) { total searchResults { entity { urn } } }
	  c: searchAcrossLineage(input: {urn: "` + cancelSrc + `", direction: DOWNSTREAM, query: "*"}) { total searchResults { entity { urn } } }
	  d: scrollAcrossLineage(input: {urn: "` + cancelSrc + `", direction: DOWNSTREAM, query: "*"}) { total searchResults { entity { urn } } } }`
	core, hook := newCancelTest(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	leave := func() { cancel() }
	hook.Store(&leave)
	h, err := New(core)
	if err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	body := `{"query":` + jsonString(t, doc) + `}`
	h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/api/graphql", strings.NewReader(body)).WithContext(ctx))
	var answer struct {
		Errors []struct{ Message string }
	}
	if err := json.Unmarshal(w.Body.Bytes(), &answer); err != nil || len(answer.Errors) == 0 {
		t.Fatalf("no error answered (%v): %s", err, w.Body)
	}
	for i, e := range answer.Errors {
		if !strings.Contains(e.Message, context.Canceled.Error()) {
			t.Errorf("error %d: %q, want %q", i, e.Message, context.Canceled)
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
	core, _ := newCancelTest(t)
	r := &resolver{core: core}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := core.Search(context.Background(), gms.Query{Text: "*", Count: 10, WithAspects: true})
	if err != nil || len(res.Hits) != 3 {
		t.Fatalf("%v, %v", res.Hits, err)
	}
	if hits, gerr := r.hits(ctx, res, res.Hits); gerr == nil || !strings.Contains(gerr.Error(), "context canceled") {
		t.Errorf("search page: %d results, %v", len(hits), gerr)
	}
	if hits, gerr := r.lineageHits(ctx, res, res.Hits); gerr == nil || !strings.Contains(gerr.Error(), "context canceled") {
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
