package index

import (
	"encoding/json"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// putMany writes n status rows of corpusers named from first on, in one
// store batch.
func putMany(t *testing.T, st *store.Store, first, n int) {
	t.Helper()
	ws := make([]store.Write, n)
	for i := range ws {
		ws[i] = store.Write{URN: fmt.Sprintf("urn:li:corpuser:u%06d", first+i), Aspect: "status",
			Value: json.RawMessage(`{"removed":false}`)}
	}
	if _, err := st.Apply(ws); err != nil {
		t.Fatal(err)
	}
}

// TestFollowAsyncReadWaitsForCatchUp: FollowAsync leaves the pending
// changes to the follower goroutine and returns; a read that comes while
// the follower holds the index for its catch-up waits for it, then sees
// every write before it, including one committed after the follower began.
func TestFollowAsyncReadWaitsForCatchUp(t *testing.T) {
	t.Parallel()
	st, x, _ := newTest(t, 0)
	inside, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	x.followHook = func() { once.Do(func() { close(inside); <-release }) }

	x.FollowAsync()
	if x.follower.started.Load() {
		t.Fatal("the follower started with nothing pending")
	}
	putMany(t, st, 0, followAt)
	x.FollowAsync()
	<-inside        // the follower holds x.mu and has applied nothing yet
	x.FollowAsync() // the same changes pending: the writer does not wait
	const late = "urn:li:corpuser:late"
	put(t, st, late, "status", `{"removed":false}`)

	type answer struct {
		res Result
		err error
	}
	got := make(chan answer, 1)
	go func() {
		res, err := x.Search(Query{Types: []string{"corpuser"}, Text: "*", SkipAggregates: true, Count: 1})
		got <- answer{res, err}
	}()
	select {
	case a := <-got:
		t.Fatalf("a search answered while the catch-up held the index: %+v %v", a.res, a.err)
	default:
	}
	close(release)
	a := <-got
	if a.err != nil {
		t.Fatal(a.err)
	}
	if a.res.Total != followAt+1 {
		t.Errorf("search after the writes: %d documents, want %d (the late one too)", a.res.Total, followAt+1)
	}
	if _, ok := x.Get("corpuserindex_v2", late); !ok {
		t.Errorf("%s not indexed", late)
	}
}

// TestFollowAsyncBehind: a writer that finds followBehind changes pending
// applies them itself before FollowAsync returns, as Follow does.
func TestFollowAsyncBehind(t *testing.T) {
	t.Parallel()
	st, x, _ := newTest(t, 0)
	putMany(t, st, 0, followBehind)
	x.FollowAsync()
	if n := x.sub.Len(); n != 0 {
		t.Errorf("pending after FollowAsync with %d pending = %d, want 0", followBehind, n)
	}
	if x.follower.started.Load() {
		t.Error("the follower started for a catch-up its caller did")
	}
}

// TestFollowAsyncClose: the follower goroutine starts with the first
// FollowAsync that finds followAt changes pending, catches up, and ends
// when the index closes (no goroutine is left); after Close nothing starts
// it again.
func TestFollowAsyncClose(t *testing.T) {
	before := runtime.NumGoroutine()
	st := store.OpenMemory(nil)
	defer st.Close()
	x := New(st, Options{})
	caught := make(chan struct{}, 1)
	x.followHook = func() {
		select {
		case caught <- struct{}{}:
		default:
		}
	}
	putMany(t, st, 0, followAt)
	x.FollowAsync()
	if !x.follower.started.Load() {
		t.Fatal("FollowAsync with followAt pending did not start the follower")
	}
	<-caught
	x.Close()
	x.Close() // idempotent
	if x.follower.wake(x) {
		t.Error("wake after Close reports the follower woken")
	}
	x.FollowAsync()
	if x.follower.started.Load() {
		t.Error("the follower started again after Close")
	}
	// The goroutine has closed done when Close returns; it ends right
	// after. Wait for the runtime to count it gone.
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		runtime.Gosched()
		time.Sleep(time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > before {
		t.Errorf("goroutines after Close = %d, before the index %d", g, before)
	}
}
