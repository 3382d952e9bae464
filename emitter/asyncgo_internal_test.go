package emitter

import (
	"fmt"
	"net/http"
	"runtime"
	"testing"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/urn"
)

// TestAsyncGoroutinesKept makes 20 Async emitters one after the other,
// each with 4 workers and a result handler: they run on the same 5
// goroutines, which wait for the next emitter's work after each Close,
// and end once none comes: the process is back to the goroutines it had.
// It is not parallel: it counts the process's goroutines.
func TestAsyncGoroutinesKept(t *testing.T) {
	r, err := NewREST("http://discard.invalid", datahub.WithHTTPClient(&http.Client{Transport: okTransport{}}))
	if err != nil {
		t.Fatal(err)
	}
	before, live := runtime.NumGoroutine(), pooledLive.Load()
	for round := range 20 {
		results := 0
		a := NewAsync(r, WithWorkers(4), WithBatchSize(10), WithLinger(time.Millisecond),
			WithResultHandler(func(AsyncResult) { results++ }))
		for i := range 50 {
			u, err := urn.NewDataset("hive", fmt.Sprintf("db.table_%d", i), "PROD")
			if err != nil {
				t.Fatal(err)
			}
			p, err := NewProposal(u, aspects.DatasetProperties{Description: aspects.Ptr(fmt.Sprint(round))})
			if err != nil {
				t.Fatal(err)
			}
			if err := a.Emit(t.Context(), p); err != nil {
				t.Fatal(err)
			}
		}
		if err := a.Close(t.Context()); err != nil {
			t.Fatal(err)
		}
		if results != 50 {
			t.Fatalf("round %d: %d results, want 50", round, results)
		}
		if n := pooledLive.Load(); n > live+5 {
			t.Fatalf("round %d: %d goroutines of Async emitters, want at most %d (%d before, and the 5 of one emitter)", round, n, live+5, live)
		}
	}
	// Waiting in vain, they end.
	deadline := time.Now().Add(10 * idleWait)
	for (pooledLive.Load() > 0 || runtime.NumGoroutine() > before) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n, g := pooledLive.Load(), runtime.NumGoroutine(); n != 0 || g > before {
		t.Errorf("%s after the last Close: %d goroutines of Async emitters left, %d in all (%d before)", 10*idleWait, n, g, before)
	}
}
