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

// TestPinsMatchMap checks the pin table against a map doing the same:
// proposals counted in and out at random, of hashes that crowd a few home
// slots (so that probes run long, wrap around the end and pins move back
// when one is freed) and of spread ones (so that the table grows). When
// every proposal is counted out, the table is all free slots again.
func TestPinsMatchMap(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	ps := getPins()
	type entry struct{ part, n int }
	want := map[uint64]entry{}
	var live []uint64 // one element per proposal counted in and not out
	hash := func() uint64 {
		if rng.IntN(2) == 0 {
			// home slot 0, 1 or the last of a small table, high bits apart
			return uint64(rng.IntN(40))<<32 | []uint64{0, 1, minPins - 1}[rng.IntN(3)]
		}
		return rng.Uint64()
	}
	for step := range 200_000 {
		// the first quarter mostly counts in, the rest mostly out
		out := 7
		if step < 50_000 {
			out = 3
		}
		if len(live) > 0 && rng.IntN(10) < out {
			k := rng.IntN(len(live))
			h := live[k]
			live[k] = live[len(live)-1]
			live = live[:len(live)-1]
			ps.unpin(h)
			e := want[h]
			if e.n--; e.n == 0 {
				delete(want, h)
			} else {
				want[h] = e
			}
		} else {
			var h uint64
			if len(live) > 0 && rng.IntN(3) == 0 {
				h = live[rng.IntN(len(live))] // a URN already pinned
			} else {
				h = hash()
			}
			part := rng.IntN(8)
			got := ps.pin(h, part)
			e, ok := want[h]
			if !ok {
				e.part = part
			}
			e.n++
			want[h] = e
			live = append(live, h)
			if got != e.part {
				t.Fatalf("step %d: pin(%#x) = %d, want %d", step, h, got, e.part)
			}
		}
		if step%1000 == 0 || len(live) == 0 {
			if ps.used != len(want) {
				t.Fatalf("step %d: %d pins used, want %d", step, ps.used, len(want))
			}
			for h, e := range want {
				if p := ps.find(h); int(p.n) != e.n || int(p.part) != e.part {
					t.Fatalf("step %d: pin of %#x = %+v, want %+v", step, h, *p, e)
				}
			}
		}
	}
	for _, h := range live {
		ps.unpin(h)
	}
	if ps.used != 0 {
		t.Fatalf("%d pins used after every proposal was counted out", ps.used)
	}
	for i, p := range ps.slots {
		if p != (pin{}) {
			t.Fatalf("slot %d = %+v after every proposal was counted out", i, p)
		}
	}
	if len(ps.slots) <= minPins {
		t.Errorf("the table did not grow (%d slots)", len(ps.slots))
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
