package store

import (
	"encoding/json"
	"fmt"
	"runtime"
	"testing"
)

// TestWriteThenReadDoesNotScaleWithSize checks, without timing anything,
// that a write followed by a read of the same entity does work independent of
// the store's size: the bytes it allocates with 20,000 entities stay within
// 1.5x of those with 1,000. The map backend re-sorted every key on the first
// scan after a write, allocating a slice of all keys (about 100x here).
//
// Not parallel: it reads the process's allocation counter.
func TestWriteThenReadDoesNotScaleWithSize(t *testing.T) {
	const small, large, rounds = 1_000, 20_000, 50
	perRound := map[int]uint64{}
	for _, n := range []int{small, large} {
		s := OpenMemory(stepClock())
		defer s.Close()
		batch := make([]Write, 0, 1000)
		for i := range n {
			batch = append(batch, Write{URN: urnN(i), Aspect: props, Value: json.RawMessage(`{"description":"0"}`),
				KeyAspect: dsKey, KeyValue: json.RawMessage(dsKeyV)})
			if len(batch) == cap(batch) {
				mustApply(t, s, batch...)
				batch = batch[:0]
			}
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for r := range rounds {
			u := urnN(r * 7 % n)
			mustApply(t, s, Write{URN: u, Aspect: props, Value: json.RawMessage(fmt.Sprintf(`{"description":"%d"}`, r+1))})
			if rows, err := s.Latest(u); err != nil || len(rows) != 2 {
				t.Fatalf("Latest(%s) = %d rows, %v; want 2", u, len(rows), err)
			}
		}
		runtime.ReadMemStats(&after)
		perRound[n] = (after.TotalAlloc - before.TotalAlloc) / rounds
	}
	t.Logf("bytes allocated per write and read: %d with %d entities, %d with %d", perRound[small], small, perRound[large], large)
	if perRound[large] > perRound[small]*3/2 {
		t.Errorf("bytes allocated per write and read: %d with %d entities, %d with %d; want within 1.5x",
			perRound[small], small, perRound[large], large)
	}
}
