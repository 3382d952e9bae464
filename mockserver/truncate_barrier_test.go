package mockserver

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// TestTruncationAppliesDueWritesFirst: the store's side of a truncation
// batch runs at the core's barrier, after the async writes due before it,
// whatever call catches the index up. An async profile at or before the end
// time, due before the last batch, is deleted by it when the clock is moved
// behind the server's back and PauseIndexing is the next call (was: the
// index ran the batch from PauseIndexing under its lock without the barrier,
// so the profile was written after the batch and survived).
func TestTruncationAppliesDueWritesFirst(t *testing.T) {
	t.Parallel()
	var offset atomic.Int64
	clock := func() time.Time { return opsBase.Add(time.Duration(offset.Load())) }
	move := func(d time.Duration) { offset.Add(int64(d)) } // no barrier: the server is not told
	s := Start(t, WithClock(clock), WithAsyncLag(10*time.Second))
	const u = "urn:li:dataset:(urn:li:dataPlatform:hive,db.trunc,PROD)"
	var ps []map[string]any
	for ms := range int64(10) {
		ps = append(ps, profileProposal(u, ms))
	}
	ingestHTTP(t, s, ps...) // indexed at +10s
	s.FastForward(5 * time.Second)
	// An async profile at time 20 <= the end, due at +15s.
	if got := postOK(t, s, "/aspects?action=ingestProposal", mustJSON(t, map[string]any{
		"proposal": profileProposal(u, 20), "async": "true"})); got != `{"value":"success"}` {
		t.Fatalf("ingestProposal = %s", got)
	}
	s.FastForward(5 * time.Second)
	// 10 batches of 1 document, one a second: the last runs at +20s.
	id := stringValue(t, postOK(t, s, "/operations?action=truncateTimeseriesAspect",
		`{"entityType":"dataset","aspect":"datasetProfile","endTimeMillis":100,"dryRun":false,"batchSize":1,"forceDeleteByQuery":true}`))
	if id == "" {
		t.Fatal("no task id")
	}
	move(10 * time.Second)
	s.PauseIndexing() // the first call after the move: it runs the due async write and every batch
	s.ResumeIndexing()
	docs, err := s.core.Timeseries(t.Context(), gms.TimeseriesQuery{URN: u, Entity: "dataset", Aspect: "datasetProfile", Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	var left []int64
	for _, d := range docs {
		left = append(left, d.TimestampMillis)
	}
	if len(left) != 0 {
		t.Errorf("profiles left after the truncation up to 100: %v, want none", left)
	}
	if n := s.IndexedTimeseries("dataset", "datasetProfile"); n != 0 {
		t.Errorf("the index keeps %d documents, want 0", n)
	}
}
