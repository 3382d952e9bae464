package emitter

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/urn"
)

// TestPinsMatchModel checks the pin table against a model of the queues:
// proposals queued at random in the partition pin gives them, and
// batches of each partition's first ones finished at random, the model
// counting each URN's proposals queued or in flight, as the workers would.
// A URN with any goes to their partition (its pin is live), any other to
// the partition offered (its pin is dead or there is none); a pin is live
// exactly when its URN has proposals queued or in flight. The hashes crowd
// a few home slots (probes run long and wrap around the end), some share
// their low 32 bits (their URNs share a pin) and others are spread, and
// the live URNs are many at first (the table grows) and few later (sweeps
// drop the dead pins, and the table stops growing).
func TestPinsMatchModel(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	const nparts = 5
	ps := getPins()
	parts := make([]*partition, nparts)
	queues := make([][]uint32, nparts) // the tags queued or in flight in each partition, in order
	for k := range parts {
		parts[k] = &partition{}
	}
	type entry struct{ part, n int }
	want := map[uint32]entry{} // by tag: the URNs with proposals queued or in flight
	var seen []uint64          // hashes queued so far
	hash := func() uint64 {
		switch rng.IntN(4) {
		case 0: // home slot 0, 1 or the last of a small table
			return uint64(rng.IntN(40))<<16 | []uint64{0, 1, minPins - 1}[rng.IntN(3)]
		case 1: // the low 32 bits of a hash seen, the others apart
			if len(seen) > 0 {
				return uint64(rng.Uint32())<<32 | seen[rng.IntN(len(seen))]&(1<<32-1)
			}
		}
		return rng.Uint64()
	}
	maxSlots, halfSlots, newHalf := 0, 0, 0
	for step := range 300_000 {
		if step == 150_000 {
			halfSlots = len(ps.slots)
		}
		// Many queued at first, few later.
		finish := 2
		if step > 60_000 {
			finish = 6
		}
		if rng.IntN(10) < finish {
			k := rng.IntN(nparts)
			n := min(len(queues[k]), 1+rng.IntN(8))
			for _, tag := range queues[k][:n] {
				e := want[tag]
				if e.n--; e.n == 0 {
					delete(want, tag)
				} else {
					want[tag] = e
				}
			}
			queues[k] = queues[k][n:]
			parts[k].finished += uint64(n)
		} else {
			var h uint64
			if len(seen) > 0 && rng.IntN(3) == 0 {
				h = seen[rng.IntN(len(seen))] // a URN queued before: pinned or not
			} else {
				h = hash()
			}
			seen = append(seen, h)
			fill := rng.IntN(nparts)
			tag := uint32(h)
			if step >= 150_000 && ps.find(tag).last == 0 {
				newHalf++
			}
			got := ps.pin(h, fill, parts)
			e, ok := want[tag]
			if !ok {
				e.part = fill
			}
			if got != e.part {
				t.Fatalf("step %d: pin(%#x) = %d, want %d (%d of its proposals queued or in flight)", step, h, got, e.part, e.n)
			}
			e.n++
			want[tag] = e
			parts[got].enqueued++
			queues[got] = append(queues[got], tag)
		}
		maxSlots = max(maxSlots, len(ps.slots))
		if step%1000 == 0 {
			if 2*ps.used > len(ps.slots) {
				t.Fatalf("step %d: %d pins in %d slots", step, ps.used, len(ps.slots))
			}
			live := 0
			for i := range ps.slots {
				p := &ps.slots[i]
				if p.last == 0 || !p.live(parts) {
					continue
				}
				live++
				if e, ok := want[p.tag]; !ok || e.part != int(p.part) {
					t.Fatalf("step %d: pin %+v is live, its URN has %+v", step, *p, e)
				}
			}
			if live != len(want) {
				t.Fatalf("step %d: %d live pins, want %d", step, live, len(want))
			}
			for tag, e := range want {
				if p := ps.find(tag); p.last == 0 || !p.live(parts) || int(p.part) != e.part {
					t.Fatalf("step %d: pin of %#x = %+v, want live in partition %d", step, tag, *p, e.part)
				}
			}
		}
	}
	if maxSlots <= minPins {
		t.Errorf("the table did not grow (%d slots)", maxSlots)
	}
	// In the second half few URNs are live, and many more new ones were
	// pinned than the table has slots: only sweeps left room for them.
	if len(ps.slots) != halfSlots || newHalf < 2*halfSlots {
		t.Errorf("the table grew from %d to %d slots in the second half (%d URNs pinned anew)", halfSlots, len(ps.slots), newHalf)
	}
}

// TestAsyncFillsEveryWorker checks where proposals of distinct URNs are
// queued when the queue's bounds leave no room for a batch per worker:
// each worker is given its share (of WithQueueSize, of WithQueueBytes), not
// the first worker all of them. The workers linger an hour, so that
// nothing is sent before Close.
func TestAsyncFillsEveryWorker(t *testing.T) {
	t.Parallel()
	r, err := NewREST("http://discard.invalid", datahub.WithHTTPClient(&http.Client{Transport: okTransport{}}))
	if err != nil {
		t.Fatal(err)
	}
	proposal := func(i int) Proposal {
		u, err := urn.NewDataset("hive", fmt.Sprintf("db.table_%05d", i), "PROD")
		if err != nil {
			t.Fatal(err)
		}
		p, err := NewProposal(u, aspects.DatasetProperties{Description: aspects.Ptr("same size")})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	// The size a proposal takes in the queue (see queued.size).
	probe := NewAsync(r, WithWorkers(1), WithLinger(time.Hour))
	if err := probe.Emit(t.Context(), proposal(0)); err != nil {
		t.Fatal(err)
	}
	probe.mu.Lock()
	size := probe.parts[0].bytes
	probe.mu.Unlock()
	if err := probe.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		opts []AsyncOption
		n    int
		want []int
	}{
		{"queue of 8", []AsyncOption{WithQueueSize(8)}, 8, []int{2, 2, 2, 2}},
		{"bytes", []AsyncOption{WithQueueBytes(4 * 2 * size)}, 7, []int{2, 2, 2, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := NewAsync(r, append([]AsyncOption{WithWorkers(4), WithLinger(time.Hour)}, tc.opts...)...)
			defer a.Close(context.Background())
			for i := range tc.n {
				if err := a.Emit(t.Context(), proposal(i)); err != nil {
					t.Fatal(err)
				}
			}
			a.mu.Lock()
			var got []int
			for _, pt := range a.parts {
				got = append(got, pt.queue.len())
			}
			a.mu.Unlock()
			if !slices.Equal(got, tc.want) {
				t.Errorf("proposals queued per worker %v, want %v", got, tc.want)
			}
		})
	}
}

// okTransport answers every request with an empty 200, sending nothing.
type okTransport struct{}

func (okTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_, _ = io.Copy(io.Discard, req.Body)
		req.Body.Close()
	}
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(`{}`)), Request: req}, nil
}

// TestAsyncFillRemainder checks the remainder filled reads instead of a
// division (partition.fillRem) against the division it stands for: after
// every Emit (of one proposal or several, of new URNs or of URNs queued
// already) and every Flush (whose batches are short of a whole one), each
// worker's fillRem is its queue's length modulo the fill size.
func TestAsyncFillRemainder(t *testing.T) {
	t.Parallel()
	r, err := NewREST("http://discard.invalid", datahub.WithHTTPClient(&http.Client{Transport: okTransport{}}))
	if err != nil {
		t.Fatal(err)
	}
	ps := make([]Proposal, 60)
	for i := range ps {
		u, err := urn.NewDataset("hive", fmt.Sprintf("db.table_%05d", i), "PROD")
		if err != nil {
			t.Fatal(err)
		}
		if ps[i], err = NewProposal(u, aspects.DatasetProperties{Description: aspects.Ptr("d")}); err != nil {
			t.Fatal(err)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	a := NewAsync(r, WithWorkers(3), WithBatchSize(7), WithLinger(time.Hour))
	defer a.Close(context.Background())
	check := func(step int) {
		t.Helper()
		a.mu.Lock()
		defer a.mu.Unlock()
		for k, pt := range a.parts {
			if want := pt.queue.len() % a.fillN; pt.fillRem != want {
				t.Fatalf("step %d: worker %d: fillRem %d, want %d (%d queued, fill size %d)", step, k, pt.fillRem, want, pt.queue.len(), a.fillN)
			}
		}
	}
	for step := range 3000 {
		switch k := rng.IntN(20); {
		case k == 0:
			if err := a.Flush(t.Context()); err != nil {
				t.Fatal(err)
			}
		case k < 4:
			lo := rng.IntN(len(ps) - 5)
			if err := a.Emit(t.Context(), ps[lo:lo+1+rng.IntN(5)]...); err != nil {
				t.Fatal(err)
			}
		default:
			if err := a.Emit(t.Context(), ps[rng.IntN(len(ps))]); err != nil {
				t.Fatal(err)
			}
		}
		check(step)
	}
	if a.fillN != 7 {
		t.Errorf("fill size %d, want 7", a.fillN)
	}
}
