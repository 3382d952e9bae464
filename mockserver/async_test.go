package mockserver

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestAsyncLagWithFakeClock(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	s := newServer(t, WithClock(clock.Now), WithAsyncLag(time.Minute))
	post := func(value, async string) {
		t.Helper()
		r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposal",
			ingestBody(t, mcp("dataset", dsURN, "UPSERT", "datasetProperties", value), async))
		if r.Status != 200 || r.Body != `{"value":"success"}` {
			t.Fatalf("= %d %s", r.Status, r.Body)
		}
	}
	post(`{"description": "async"}`, "true")
	if got, status := aspectJSON(t, s, dsPath, "datasetProperties", 0); status != 404 {
		t.Fatalf("async write visible at once: %d %s", status, got)
	}
	// A synchronous write is visible at once, and the async one, applied
	// later, becomes the latest version, as with GMS's Kafka path.
	post(`{"description": "sync"}`, "false")
	if got, _ := aspectJSON(t, s, dsPath, "datasetProperties", 0); got != `{"description":"sync"}` {
		t.Fatalf("sync write = %s", got)
	}
	clock.Advance(59 * time.Second)
	if got, _ := aspectJSON(t, s, dsPath, "datasetProperties", 0); got != `{"description":"sync"}` {
		t.Fatalf("async visible before its lag: %s", got)
	}
	clock.Advance(time.Second)
	if got, _ := aspectJSON(t, s, dsPath, "datasetProperties", 0); got != `{"description":"async"}` {
		t.Errorf("async write after its lag = %s", got)
	}
	if p := s.Proposals(); len(p) != 2 || !p[0].Async || p[1].Async {
		t.Errorf("recorded async flags: %+v", p)
	}
}

func TestAsyncRefusedAtOnce(t *testing.T) {
	t.Parallel()
	s := newServer(t, WithAsyncLag(time.Hour))
	r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposal",
		ingestBody(t, mcp("dataset", dsURN, "UPSERT", "foo", `{}`), "true"))
	wantRestliError(t, r, 422, "Unknown aspect foo for entity dataset")
}

func TestAsyncAppliedInRealTime(t *testing.T) {
	t.Parallel()
	s := newServer(t, WithAsyncLag(20*time.Millisecond))
	r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposalBatch",
		`{"proposals":[`+mustJSON(t, mcp("dataset", dsURN, "UPSERT", "status", `{"removed": true}`))+`],"async":"TRUE"}`)
	if r.Status != 200 {
		t.Fatalf("= %d %s", r.Status, r.Body)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		// Read the store directly: reads over HTTP would apply due writes
		// themselves; this checks the queue's own goroutine.
		if _, err := s.store.Get(dsURN, "status", 0); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("async write never applied")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestCloseAppliesPendingAsync checks that nothing acknowledged is lost:
// Close applies pending async writes, which a durable store keeps.
func TestCloseAppliesPendingAsync(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	clock := newFakeClock()
	s := New(WithDataDir(dir), WithClock(clock.Now), WithAsyncLag(time.Hour))
	r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposal",
		ingestBody(t, mcp("dataset", dsURN, "UPSERT", "status", `{"removed": true}`), "true"))
	if r.Status != 200 {
		t.Fatalf("= %d %s", r.Status, r.Body)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2 := newServer(t, WithDataDir(dir))
	got, status := aspectJSON(t, s2, dsPath, "status", 0)
	if diff := cmp.Diff(`{"removed":true}`, got); status != 200 || diff != "" {
		t.Errorf("after restart %d (-want +got):\n%s", status, diff)
	}
}

// TestAsyncConditionFailureIsDropped checks GMS's async semantics: a valid
// proposal gets 200 at once; a condition that fails when it is applied drops
// the write (logged), with or without lag.
func TestAsyncConditionFailureIsDropped(t *testing.T) {
	t.Parallel()
	for _, lag := range []time.Duration{0, time.Minute} {
		clock := newFakeClock()
		var logs syncBuffer
		s := newServer(t, WithClock(clock.Now), WithAsyncLag(lag), WithLogger(newTestLogger(&logs)))
		p := mcp("dataset", dsURN, "UPSERT", "status", `{"removed": true}`)
		p["headers"] = map[string]string{"If-Version-Match": "5"}
		r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposal", ingestBody(t, p, "true"))
		if r.Status != 200 {
			t.Fatalf("lag %v: = %d %s", lag, r.Status, r.Body)
		}
		clock.Advance(lag)
		if body, status := aspectJSON(t, s, dsPath, "status", 0); status != 404 {
			t.Errorf("lag %v: failed conditional async write applied: %s", lag, body)
		}
		if !strings.Contains(logs.String(), "async write dropped") || !strings.Contains(logs.String(), "Expected version 5, actual version -1") {
			t.Errorf("lag %v: log = %s", lag, logs.String())
		}
	}
}

// TestAsyncBatchItemsStandAlone: the proposals of an async batch are
// applied one by one, as GMS's Kafka path consumes them, so a failing
// condition on one drops only that one.
func TestAsyncBatchItemsStandAlone(t *testing.T) {
	t.Parallel()
	for _, lag := range []time.Duration{0, time.Minute} {
		clock := newFakeClock()
		var logs syncBuffer
		s := newServer(t, WithClock(clock.Now), WithAsyncLag(lag), WithLogger(newTestLogger(&logs)))
		a := mcp("dataset", dsURN, "UPSERT", "status", `{"removed": true}`)
		b := mcp("dataset", dsURN, "UPSERT", "datasetProperties", `{"description": "b"}`)
		b["headers"] = map[string]string{"If-Version-Match": "5"}
		body := mustJSON(t, map[string]any{"proposals": []any{a, b}, "async": "true"})
		if r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposalBatch", body); r.Status != 200 {
			t.Fatalf("lag %v: = %d %s", lag, r.Status, r.Body)
		}
		clock.Advance(lag)
		if got, status := aspectJSON(t, s, dsPath, "status", 0); status != 200 || !strings.Contains(got, `"removed":true`) {
			t.Errorf("lag %v: the batch's good proposal = %d %s, want it written", lag, status, got)
		}
		if got, status := aspectJSON(t, s, dsPath, "datasetProperties", 0); status != 404 {
			t.Errorf("lag %v: the failing proposal was written: %s", lag, got)
		}
		if !strings.Contains(logs.String(), "Expected version 5, actual version -1") {
			t.Errorf("lag %v: log = %s", lag, logs.String())
		}
	}
}
