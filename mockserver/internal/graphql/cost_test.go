package graphql

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// spySearcher answers every search with one hit that cannot be loaded (a
// dataset URN with too few key parts) and records the queries.
type spySearcher struct {
	mu      sync.Mutex
	queries []gms.Query
}

func (s *spySearcher) answer(q gms.Query) (gms.SearchResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queries = append(s.queries, q)
	return gms.SearchResult{Total: 5, PageSize: 1, Hits: []gms.SearchHit{{URN: "urn:li:dataset:(urn:li:dataPlatform:hive,x)", Entity: "dataset", Degree: 1}}}, nil
}

func (s *spySearcher) Search(_ context.Context, q gms.Query) (gms.SearchResult, error) {
	return s.answer(q)
}

func (s *spySearcher) Scroll(_ context.Context, q gms.Query, _, _ string) (gms.SearchResult, error) {
	return s.answer(q)
}

func (s *spySearcher) SearchLineage(_ context.Context, q gms.LineageQuery) (gms.SearchResult, error) {
	return s.answer(q.Query)
}

func (s *spySearcher) ScrollLineage(_ context.Context, q gms.LineageQuery, _, _ string) (gms.SearchResult, error) {
	return s.answer(q.Query)
}

func serveSpy(t *testing.T, doc string) (string, *spySearcher) {
	t.Helper()
	core, _ := newCancelTest(t)
	spy := &spySearcher{}
	h, err := New(core, withSearcher(spy))
	if err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/api/graphql", strings.NewReader(`{"query":`+jsonString(t, doc)+`}`)))
	return w.Body.String(), spy
}

// TestSearchLoadsOnlyWhatIsSelected: a search field whose answer selects
// only total loads no entity of its page and computes no facets; one that
// selects searchResults loads them (here one that cannot be loaded, so
// that a load shows as an error). It failed before: every field loaded its
// whole page.
func TestSearchLoadsOnlyWhatIsSelected(t *testing.T) {
	t.Parallel()
	lineage := `urn: "` + cancelSrc + `", direction: DOWNSTREAM`
	fields := []string{
		`search(input: {type: DATASET, query: "*", count: 10000})`,
		`searchAcrossEntities(input: {query: "*", count: 10000})`,
		`scrollAcrossEntities(input: {query: "*", count: 10000})`,
		`searchAcrossLineage(input: {` + lineage + `, count: 10000})`,
		`scrollAcrossLineage(input: {` + lineage + `, count: 10000})`,
	}
	for _, f := range fields {
		name, _, _ := strings.Cut(f, "(")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, spy := serveSpy(t, `{ a: `+f+` { total } }`)
			if want := `{"data":{"a":{"total":5}},"extensions":{}}`; got != want {
				t.Errorf("total only: %s, want %s", got, want)
			}
			if len(spy.queries) != 1 || !spy.queries[0].SkipAggregates {
				t.Errorf("total only: queries %+v, want one without aggregates", spy.queries)
			}
			got, spy = serveSpy(t, `{ a: `+f+` { total searchResults { entity { urn } } facets { field } } }`)
			if !strings.Contains(got, `"errors"`) {
				t.Errorf("with searchResults: %s, want the page loaded (an error)", got)
			}
			if len(spy.queries) != 1 || spy.queries[0].SkipAggregates {
				t.Errorf("with facets: queries %+v, want one with aggregates", spy.queries)
			}
		})
	}
}

// TestSearchFieldsCharged: aliases of search fields count against
// MaxSearches; a request with more is refused as a whole after at most
// MaxSearches of them ran. It failed before: 999 aliases of a search ran
// 999 searches.
func TestSearchFieldsCharged(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("{")
	for i := range MaxSearches + 10 {
		fmt.Fprintf(&b, " a%d: search(input: {type: DATASET, query: \"*\", count: 10000}) { total }", i)
	}
	b.WriteString(" }")
	got, spy := serveSpy(t, b.String())
	want := `{"errors":[{"message":"` + fmt.Sprintf(msgSearchLimit, MaxSearches) + `","extensions":{"classification":"ExecutionAborted"}}],"extensions":{}}`
	if got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	if len(spy.queries) > MaxSearches {
		t.Errorf("%d searches ran, want at most %d", len(spy.queries), MaxSearches)
	}
	var ok strings.Builder
	ok.WriteString("{")
	for i := range MaxSearches {
		fmt.Fprintf(&ok, " a%d: searchAcrossEntities(input: {query: \"*\"}) { total }", i)
	}
	ok.WriteString(" }")
	if got, _ := serveSpy(t, ok.String()); strings.Contains(got, "errors") {
		t.Errorf("%d searches refused: %.300s", MaxSearches, got)
	}
}
