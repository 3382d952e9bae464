package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"
)

// TestCommitsNotReorderedOrLost: goroutines apply batches to the same
// aspects at once, some batches failing. Every batch that succeeded is in, in
// one piece, in each goroutine's order; none that failed left anything;
// the events come batch by batch.
func TestCommitsNotReorderedOrLost(t *testing.T) {
	t.Parallel()
	s := OpenMemory(nil)
	t.Cleanup(func() { _ = s.Close() })
	sub := s.Subscribe()
	const goroutines, batches = 8, 60
	shared := []string{urnN(0), urnN(1)}
	type applied struct {
		g, b     int
		versions []int64 // of the batch's writes, in order
		failed   bool
	}
	out := make([][]applied, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for b := range batches {
				// Two writes of the first shared aspect, one of the second,
				// one of the goroutine's own entity.
				v := func(k int) json.RawMessage { return json.RawMessage(fmt.Sprintf(`{"g":%d,"b":%d,"k":%d}`, g, b, k)) }
				ws := []Write{
					{URN: shared[0], Aspect: props, Value: v(0)},
					{URN: shared[0], Aspect: props, Value: v(1)},
					{URN: shared[1], Aspect: props, Value: v(2)},
					{URN: urnN(100 + g), Aspect: props, Value: v(3)},
				}
				fail := (g+b)%7 == 3
				if fail {
					ws[2].Check = func(Current) error { return errors.New("refused") }
				}
				res, err := s.Apply(ws)
				if fail != (err != nil) {
					t.Errorf("goroutine %d batch %d: err %v, want failure %v", g, b, err, fail)
					return
				}
				a := applied{g: g, b: b, failed: fail}
				for _, r := range res {
					n, _ := strconv.ParseInt(r.Version, 10, 64)
					a.versions = append(a.versions, n)
				}
				out[g] = append(out[g], a)
			}
		})
	}
	wg.Wait()
	// Per aspect: the versions the batches got, each once, and the value
	// the version holds.
	seen := map[string]map[int64]string{}
	for g := range out {
		last := map[string]int64{}
		for _, a := range out[g] {
			if a.failed {
				continue
			}
			if a.versions[1] != a.versions[0]+1 {
				t.Errorf("goroutine %d batch %d: its two writes of one aspect got versions %v, want consecutive (another batch in between)", g, a.b, a.versions[:2])
			}
			for k, u := range []string{shared[0], shared[0], shared[1], urnN(100 + g)} {
				v := a.versions[k]
				if v <= last[u] {
					t.Errorf("goroutine %d batch %d: %s version %d after its earlier batch's %d (reordered)", g, a.b, u, v, last[u])
				}
				last[u] = v
				if seen[u] == nil {
					seen[u] = map[int64]string{}
				}
				want := fmt.Sprintf(`{"g":%d,"b":%d,"k":%d}`, g, a.b, k)
				if prev, dup := seen[u][v]; dup {
					t.Errorf("%s version %d given to two writes: %s and %s", u, v, prev, want)
				}
				seen[u][v] = want
			}
		}
	}
	for u, vs := range seen {
		var top int64
		for v := range vs {
			top = max(top, v)
		}
		if int64(len(vs)) != top {
			t.Errorf("%s: %d writes applied, versions up to %d (lost or skipped versions)", u, len(vs), top)
		}
		got, err := s.Get(u, props, 0)
		if err != nil || string(got.Value) != vs[top] {
			t.Errorf("%s latest = %s, %v; want the write given version %d, %s", u, got.Value, err, top, vs[top])
		}
	}
	// The events: every batch's upserts follow each other.
	var events []Event
	for {
		e, ok := sub.TryNext()
		if !ok {
			break
		}
		events = append(events, e)
	}
	okBatches := 0
	for g := range out {
		for _, a := range out[g] {
			if !a.failed {
				okBatches++
			}
		}
	}
	if len(events) != 4*okBatches {
		t.Fatalf("%d events for %d batches of 4 writes", len(events), okBatches)
	}
	for i := 0; i < len(events); i += 4 {
		var first struct{ G, B int }
		_ = json.Unmarshal(events[i].Row.Value, &first)
		for k := 1; k < 4; k++ {
			var e struct{ G, B, K int }
			_ = json.Unmarshal(events[i+k].Row.Value, &e)
			if e.G != first.G || e.B != first.B || e.K != k {
				t.Fatalf("event %d is %s in the batch of %+v: batches' events interleave", i+k, events[i+k].Row.Value, first)
			}
		}
	}
}
