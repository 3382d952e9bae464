package index

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/mockserver/internal/store"
	"github.com/google/go-cmp/cmp"
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

// TestCatchUpAgreesWithEachChange: random writes, aspect and entity
// deletes and resets over URNs whose entity types share prefixes (and one
// URN of no urn:li: form) leave an index that catches up once per round
// (applying the last upsert of each row, through its entity-type cache)
// with the documents, index sizes and runs of one that applies every
// change as it comes.
func TestCatchUpAgreesWithEachChange(t *testing.T) {
	t.Parallel()
	st, x, _ := newTest(t, 0)
	each := New(st, Options{Clock: x.opts.Clock})
	t.Cleanup(each.Close)
	urns := []string{"urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)", "urn:li:dataJob:(urn:li:dataFlow:(airflow,f,PROD),j)",
		"urn:li:dataFlow:(airflow,f,PROD)", "urn:li:data:x", "urn:li:corpuser:dataset", "urn:li:corpuser:b", "urn:x:dataset:c"}
	rng := rand.New(rand.NewPCG(34, 1))
	for round := range 40 {
		for range coalesceFrom + rng.IntN(200) {
			u := urns[rng.IntN(len(urns))]
			var err error
			switch n := rng.IntN(100); {
			case n == 0 && round%10 == 9:
				err = st.Reset()
			case n < 3:
				_, _, err = st.DeleteEntity(u)
			case n < 10:
				_, err = st.DeleteAspect(u, "globalTags")
			default:
				aspect := []string{"status", "globalTags", "ownership"}[rng.IntN(3)]
				value := fmt.Sprintf(`{"n":%d}`, rng.IntN(1000))
				if aspect == "status" {
					value = fmt.Sprintf(`{"removed":%v}`, rng.IntN(2) == 0)
				}
				err = st.Put(store.Aspect{URN: u, Name: aspect, Value: json.RawMessage(value),
					SystemMetadata: json.RawMessage(fmt.Sprintf(`{"runId":"run-%d"}`, rng.IntN(3)))})
			}
			if err != nil {
				t.Fatal(err)
			}
			each.Sync()
		}
		x.Sync()
		if diff := cmp.Diff(dumpIndex(each), dumpIndex(x), cmp.Transformer("sorted", sortedLines)); diff != "" {
			t.Fatalf("round %d (-one by one +once):\n%s", round, diff)
		}
	}
	if x.replaced == 0 {
		t.Error("no upsert was left out: the test does not exercise coalescing")
	}
}

// dumpIndex lists x's indices, documents, aspects and runs.
func dumpIndex(x *Index) []string {
	var out []string
	for _, info := range x.Indices() {
		x.Each(info.Name, func(d *Document) bool {
			out = append(out, fmt.Sprintf("%s %s %d %v", info.Name, d.ID, d.Size, d.removed))
			for a, v := range d.Aspects {
				out = append(out, fmt.Sprintf("%s %s %s=%s", info.Name, d.ID, a, v))
			}
			return true
		})
		out = append(out, fmt.Sprintf("%+v", info))
	}
	for _, r := range x.RunRows("") {
		out = append(out, "run "+r.URN+" "+r.Aspect)
	}
	return out
}

// TestFollowerPanicNotRecovered: a panic in the follower's catch-up ends
// the program with the panic's message (run in a child process), as it
// would on a writer's goroutine; nothing recovers it.
func TestFollowerPanicNotRecovered(t *testing.T) {
	if os.Getenv("INDEX_FOLLOWER_PANIC") == "1" {
		st := store.OpenMemory(nil)
		x := New(st, Options{})
		x.followHook = func() { panic("follower test panic") }
		putMany(t, st, 0, followAt)
		x.FollowAsync()
		time.Sleep(time.Minute) // the follower's panic ends the program first
		t.Fatal("the follower's panic did not end the program")
	}
	t.Parallel()
	cmd := exec.Command(os.Args[0], "-test.run", "^TestFollowerPanicNotRecovered$")
	cmd.Env = append(os.Environ(), "INDEX_FOLLOWER_PANIC=1")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "panic: follower test panic") {
		t.Errorf("child: %v\n%s", err, out)
	}
}
