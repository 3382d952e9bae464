package store

import (
	"encoding/json"
	"fmt"
	"testing"
)

// BenchmarkApplyUnderLock times only the part of Apply that holds the
// writer lock (as commit does it), for a batch of 200 writes each making a new version of an
// aspect of its own (with the rules core's retention of 20 versions, so
// that after 20 batches each write also deletes a history row): what every
// concurrent writer waits for. Preparing the batch and building its rows
// (before the lock) are done with the timer stopped, as Apply does them.
func BenchmarkApplyUnderLock(b *testing.B) {
	const n = 200
	s := OpenMemory(nil)
	b.Cleanup(func() { _ = s.Close() })
	sub := s.Subscribe() // the mock's index follows the store
	b.Cleanup(sub.Close)
	batch := make([]Write, n)
	values := make([][2]json.RawMessage, n)
	for i := range batch {
		batch[i] = Write{URN: fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,db.t%d,PROD)", i),
			Aspect: props, KeyAspect: dsKey, KeyValue: json.RawMessage(dsKeyV)}
		for v := range values[i] {
			values[i][v] = json.RawMessage(fmt.Sprintf(benchValue, v))
		}
	}
	round := 0
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		round++
		for i := range batch {
			batch[i].Value = values[i][round%2]
		}
		now := s.clock()
		ps, bm := prepare(batch, now, s.rules)
		s.preBuild(batch, ps, bm.chunks)
		// As commit: what waits for the lock's release (publishing the
		// events, clearing the undo log) is not timed.
		later := tidy{publishAfter: true}
		b.StartTimer()
		err := func() error {
			s.mu.Lock()
			defer s.mu.Unlock()
			return s.updateThen(now, func(t txn) error {
				for i := range batch {
					o, err := applyOne(t, i, &batch[i], &ps[i])
					if err != nil {
						return err
					}
					ps[i].out = o
				}
				return nil
			}, &later)
		}()
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		s.publishLater(&later, func(events []Event) { fillEvents(events, batch, ps) })
		later.do()
		bm.release(ps)
		for {
			if _, ok := sub.TryNext(); !ok {
				break
			}
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/write")
}
