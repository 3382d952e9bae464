package emitter_test

import (
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/catalogkit/datahub-go"

	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
)

// TestAsyncLingerSends checks that proposals that fill no batch are sent
// once their worker has lingered, without Flush or Close: one queued by an
// Emit of one, several by one Emit, and one again after the worker sent
// the others and its queue was empty (each time the first proposal of an
// empty queue starts the linger). It waits for the mock to hold them, at
// most a minute; nothing is sent before Close when a linger never ends.
func TestAsyncLingerSends(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	r, _ := newREST(t, s)
	a := emitter.NewAsync(r, emitter.WithWorkers(2), emitter.WithLinger(10*time.Millisecond))
	defer a.Close(context.Background())
	waitFor := func(n int) {
		t.Helper()
		deadline := time.Now().Add(time.Minute)
		for len(s.Proposals()) < n {
			if time.Now().After(deadline) {
				t.Fatalf("the server holds %d proposals a minute after Emit, want %d: a linger did not end", len(s.Proposals()), n)
			}
			time.Sleep(time.Millisecond)
		}
	}
	if err := a.Emit(t.Context(), propertiesProposal(t, 0, 0)); err != nil {
		t.Fatal(err)
	}
	waitFor(1)
	if err := a.Emit(t.Context(), propertiesProposal(t, 1, 0), propertiesProposal(t, 2, 0), propertiesProposal(t, 3, 0)); err != nil {
		t.Fatal(err)
	}
	waitFor(4)
	if err := a.Emit(t.Context(), propertiesProposal(t, 0, 1)); err != nil {
		t.Fatal(err)
	}
	waitFor(5)
	if err := a.Err(); err != nil {
		t.Fatal(err)
	}
	checkWrites(t, s, 0, 2)
	for i := 1; i < 4; i++ {
		checkWrites(t, s, i, 1)
	}
}

// lingerRecorder is a transport that notes, for each request, when it
// came (in a synctest bubble's time) and the proposals it holds, by their
// description ("table i, write w"), and answers as discard does; when
// slow, it answers 0 to 3 ms later (by the body's length).
type lingerRecorder struct {
	slow bool
	mu   sync.Mutex
	reqs []lingerRequest
}

type lingerRequest struct {
	at, end time.Time
	props   []string
}

var descriptionRE = regexp.MustCompile(`table [0-9]+, write [0-9]+`)

func (l *lingerRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, err
	}
	r := lingerRequest{at: time.Now(), props: descriptionRE.FindAllString(string(body), -1)}
	if l.slow {
		time.Sleep(time.Duration(len(body)%4) * time.Millisecond)
	}
	r.end = time.Now()
	l.mu.Lock()
	l.reqs = append(l.reqs, r)
	l.mu.Unlock()
	return discard{}.RoundTrip(httptest.NewRequest(http.MethodPost, "/", strings.NewReader("")))
}

// TestAsyncLingerExact runs checkLinger on random schedules of Emit calls.
func TestAsyncLingerExact(t *testing.T) {
	t.Parallel()
	for seed := range uint64(400) {
		checkLinger(t, seed)
	}
}

// FuzzAsyncLinger is TestAsyncLingerExact on any schedule's seed.
func FuzzAsyncLinger(f *testing.F) {
	for seed := range uint64(8) {
		f.Add(seed)
	}
	f.Fuzz(checkLinger)
}

// checkLinger emits proposals on a schedule drawn from seed (1 to 5
// workers, batches of 1 to 6, a linger of 1 to 12 ms, a queue that may hold
// less than a batch a worker, Emit of 1 to 3 proposals of a few URNs at
// random times), in a synctest bubble, where time moves only when every
// goroutine waits: the workers' lingers are exact. Every proposal must be
// sent once; each request before Close must hold a whole batch or be sent
// exactly when its first proposal's linger ends, as a worker that lingers
// with a timer of its own sends it, or, with one worker and requests that
// take time, when the request before it ends, if that is later; and
// proposals whose linger ended before Close are not left for Close to send.
// The workers share one timer, and a queue that was empty wakes its worker
// only when no timer is armed to end its linger (see Async.wakes): a worker
// not woken, or woken late or early, fails it.
func checkLinger(t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	workers, batch := 1+rng.IntN(5), 1+rng.IntN(6)
	linger := time.Duration(1+rng.IntN(12)) * time.Millisecond
	queue := emitter.DefaultQueueSize
	if rng.IntN(3) == 0 {
		queue = 3 + rng.IntN(2*workers*batch) // Emit waits for room, fillN below a batch
	}
	rec := &lingerRecorder{slow: rng.IntN(3) == 0}
	if rec.slow {
		workers = 1 // the requests one after the other: when each could start is known
	}
	waitAll := rng.IntN(2) == 0 // Close after every linger ended (and every request)
	synctest.Test(t, func(t *testing.T) {
		r, err := emitter.NewREST("http://linger.invalid", datahub.WithHTTPClient(&http.Client{Transport: rec}))
		if err != nil {
			t.Fatal(err)
		}
		a := emitter.NewAsync(r, emitter.WithWorkers(workers), emitter.WithBatchSize(batch),
			emitter.WithLinger(linger), emitter.WithQueueSize(queue))
		queued := map[string]time.Time{} // when Emit queued each proposal
		w := 0
		for range 40 {
			time.Sleep(time.Duration(rng.IntN(4)) * time.Duration(rng.IntN(8)) * time.Millisecond / 2)
			ps, descs := make([]emitter.Proposal, 1+rng.IntN(3)), []string{}
			for i := range ps {
				w++
				d := rng.IntN(8) // a few URNs: some pinned to the worker of their earlier proposals
				ps[i] = propertiesProposal(t, d, w)
				descs = append(descs, description(d, w))
			}
			if err := a.Emit(t.Context(), ps...); err != nil {
				t.Fatal(err)
			}
			for _, d := range descs {
				queued[d] = time.Now() // Emit's return: when it queued them, time standing still since
			}
		}
		if waitAll {
			time.Sleep(time.Second)
		} else {
			time.Sleep(time.Duration(rng.IntN(3)) * linger) // lingers end, or Close sends
		}
		closed := time.Now()
		if err := a.Close(t.Context()); err != nil {
			t.Fatal(err)
		}
		sent := map[string]bool{}
		var prevEnd time.Time
		for k, req := range rec.reqs {
			if len(req.props) == 0 {
				t.Fatalf("seed %d: request %d holds no proposal", seed, k)
			}
			first := queued[req.props[0]]
			due := first.Add(linger)
			if rec.slow && prevEnd.After(due) {
				due = prevEnd
			}
			prevEnd = req.end
			switch {
			case waitAll && !req.at.Before(closed):
				t.Errorf("seed %d (%d workers, batches of %d, linger %v, queue %d): request %d sent by Close, %v after its first was queued",
					seed, workers, batch, linger, queue, k, req.at.Sub(first))
			case len(req.props) != batch && req.at.Before(closed) && !req.at.Equal(due):
				t.Errorf("seed %d (%d workers, batches of %d, linger %v, queue %d, slow %v): request %d of %d proposals sent %v after its first was queued, want a whole batch or %v",
					seed, workers, batch, linger, queue, rec.slow, k, len(req.props), req.at.Sub(first), due.Sub(first))
			}
			for _, p := range req.props {
				if sent[p] {
					t.Fatalf("seed %d: %q sent twice", seed, p)
				}
				sent[p] = true
				at, ok := queued[p]
				if !ok {
					t.Fatalf("seed %d: %q sent, not queued", seed, p)
				}
				if wait := req.at.Sub(at); wait < 0 || !rec.slow && wait > linger {
					t.Errorf("seed %d (%d workers, batches of %d, linger %v, queue %d): %q sent %v after it was queued",
						seed, workers, batch, linger, queue, p, wait)
				}
			}
		}
		if len(sent) != len(queued) {
			t.Errorf("seed %d: %d proposals sent, %d queued", seed, len(sent), len(queued))
		}
	})
}
