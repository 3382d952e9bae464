package mockserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// The GraphQL handler keeps the answers of store reads until the store
// changes. These tests change the store every way it can change between two
// posts of the same body and check that the second answer shows the change.

const cacheDataset = "urn:li:dataset:(urn:li:dataPlatform:hive,cache,PROD)"

// cacheQuery reads the description and existence of cacheDataset.
var cacheQuery = `{"query":"{ dataset(urn: \"` + cacheDataset + `\") { exists properties { description } } }"}`

func postCacheQuery(t *testing.T, s *Server) string {
	t.Helper()
	r := serve(t, s, http.MethodPost, "/api/graphql", cacheQuery)
	if r.Status != http.StatusOK {
		t.Fatalf("status %d: %s", r.Status, r.Body)
	}
	return r.Body
}

func TestGraphQLAnswersFollowTheStore(t *testing.T) {
	t.Parallel()
	const (
		one  = `{"data":{"dataset":{"exists":true,"properties":{"description":"one"}}},"extensions":{}}`
		two  = `{"data":{"dataset":{"exists":true,"properties":{"description":"two"}}},"extensions":{}}`
		gone = `{"data":{"dataset":{"exists":false,"properties":null}},"extensions":{}}`
		bare = `{"data":{"dataset":{"exists":true,"properties":null}},"extensions":{}}`
	)
	tests := []struct {
		name   string
		change func(t *testing.T, s *Server, clock *fakeClock)
		want   string
	}{
		{"PutAspectJSON", func(t *testing.T, s *Server, _ *fakeClock) {
			if err := s.PutAspectJSON(cacheDataset, "datasetProperties", json.RawMessage(`{"description":"two"}`)); err != nil {
				t.Fatal(err)
			}
		}, two},
		{"ingestProposal", func(t *testing.T, s *Server, _ *fakeClock) {
			ingest(t, s, mcp("dataset", cacheDataset, "UPSERT", "datasetProperties", `{"description":"two"}`))
		}, two},
		{"async write falling due on the clock", func(t *testing.T, s *Server, clock *fakeClock) {
			r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposal",
				ingestBody(t, mcp("dataset", cacheDataset, "UPSERT", "datasetProperties", `{"description":"two"}`), "true"))
			if r.Status != http.StatusOK {
				t.Fatalf("async ingest = %d %s", r.Status, r.Body)
			}
			if got := postCacheQuery(t, s); got != one {
				t.Fatalf("before the lag: %s", got)
			}
			clock.Advance(time.Minute)
		}, two},
		{"Reset", func(t *testing.T, s *Server, _ *fakeClock) {
			if err := s.Reset(); err != nil {
				t.Fatal(err)
			}
		}, gone},
		{"aspect deleted", func(t *testing.T, s *Server, _ *fakeClock) {
			if _, err := s.store.DeleteAspect(cacheDataset, "datasetProperties"); err != nil {
				t.Fatal(err)
			}
		}, bare},
		{"entity deleted", func(t *testing.T, s *Server, _ *fakeClock) {
			if _, err := s.core.DeleteEntity(context.Background(), cacheDataset, ""); err != nil {
				t.Fatal(err)
			}
		}, gone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			clock := newFakeClock()
			s := newServer(t, WithClock(clock.Now), WithAsyncLag(time.Minute))
			if err := s.PutAspectJSON(cacheDataset, "datasetProperties", json.RawMessage(`{"description":"one"}`)); err != nil {
				t.Fatal(err)
			}
			for range 2 { // the second answer is the kept one
				if got := postCacheQuery(t, s); got != one {
					t.Fatalf("before: %s", got)
				}
			}
			// The entity is loaded before the change by a third document.
			if r := serve(t, s, http.MethodPost, "/api/graphql", strings.Replace(cacheQuery, "{ dataset", "{ e: dataset", 1)); r.Status != http.StatusOK {
				t.Fatalf("status %d: %s", r.Status, r.Body)
			}
			tt.change(t, s, clock)
			if got := postCacheQuery(t, s); got != tt.want {
				t.Errorf("after: %s\nwant %s", got, tt.want)
			}
			// Another document on the same entity (no kept answer; the
			// entity as loaded before the change is not reused either).
			r := serve(t, s, http.MethodPost, "/api/graphql", strings.Replace(cacheQuery, "{ dataset", "{ d: dataset", 1))
			if want := strings.Replace(tt.want, `"dataset"`, `"d"`, 1); r.Body != want {
				t.Errorf("after, another document: %s\nwant %s", r.Body, want)
			}
		})
	}
}

// TestGraphQLSearchAnswersFollowTheIndex checks that a search answers from
// the index each time: the index catches up on the clock while the store
// stays as it was.
func TestGraphQLSearchAnswersFollowTheIndex(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	s := newServer(t, WithClock(clock.Now), WithAsyncLag(time.Minute))
	if err := s.PutAspectJSON(cacheDataset, "datasetProperties", json.RawMessage(`{"description":"one"}`)); err != nil {
		t.Fatal(err)
	}
	body := `{"query":"{ searchAcrossEntities(input: {query: \"*\"}) { total } }"}`
	search := func() string {
		t.Helper()
		r := serve(t, s, http.MethodPost, "/api/graphql", body)
		if r.Status != http.StatusOK {
			t.Fatalf("status %d: %s", r.Status, r.Body)
		}
		return r.Body
	}
	for range 2 {
		if got, want := search(), `{"data":{"searchAcrossEntities":{"total":0}},"extensions":{}}`; got != want {
			t.Fatalf("before the index lag: %s, want %s", got, want)
		}
	}
	clock.Advance(time.Minute)
	if got, want := search(), `{"data":{"searchAcrossEntities":{"total":1}},"extensions":{}}`; got != want {
		t.Errorf("after the index lag: %s, want %s", got, want)
	}
}

// TestGraphQLAnswersConcurrentWrites reads one dataset from several
// goroutines while another rewrites its description: every reader sees the
// descriptions in the order they were written.
func TestGraphQLAnswersConcurrentWrites(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	const writes = 50
	put := func(i int) {
		if err := s.PutAspectJSON(cacheDataset, "datasetProperties", json.RawMessage(fmt.Sprintf(`{"description":"%03d"}`, i))); err != nil {
			t.Error(err)
		}
	}
	put(0)
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			last := ""
			for {
				select {
				case <-done:
					return
				default:
				}
				r := serve(t, s, http.MethodPost, "/api/graphql", cacheQuery)
				i := strings.Index(r.Body, `"description":"`)
				if r.Status != http.StatusOK || i < 0 {
					t.Errorf("status %d: %s", r.Status, r.Body)
					return
				}
				got := r.Body[i : i+len(`"description":"000"`)]
				if got < last {
					t.Errorf("read %s after %s", got, last)
					return
				}
				last = got
			}
		}()
	}
	for i := 1; i <= writes; i++ {
		put(i)
	}
	close(done)
	wg.Wait()
	if got, want := postCacheQuery(t, s), fmt.Sprintf(`"description":"%03d"`, writes); !strings.Contains(got, want) {
		t.Errorf("last answer %s, want %s", got, want)
	}
}
