package emitter

import (
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/urn"
)

// holdFirst is a transport that keeps each request's body and answers an
// empty 200, the first request only once release is closed; started is
// closed when the first request arrives.
type holdFirst struct {
	started, release chan struct{}
	mu               sync.Mutex
	bodies           []string
}

func (h *holdFirst) RoundTrip(req *http.Request) (*http.Response, error) {
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	h.bodies = append(h.bodies, string(body))
	first := len(h.bodies) == 1
	h.mu.Unlock()
	if first {
		close(h.started)
		<-h.release
	}
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(`{}`)), Request: req}, nil
}

// TestAsyncRingGrowsWhileBatchSent holds a worker's first batch, lent from
// its ring, in flight while more proposals of the same URN are queued
// behind it, more than the ring holds, so that the ring grows past the
// lent slots; then lets it go. Every proposal is sent once, in the order
// Emit took them, and reported Written in that order.
func TestAsyncRingGrowsWhileBatchSent(t *testing.T) {
	t.Parallel()
	h := &holdFirst{started: make(chan struct{}), release: make(chan struct{})}
	r, err := NewREST("http://hold.invalid", datahub.WithHTTPClient(&http.Client{Transport: h}))
	if err != nil {
		t.Fatal(err)
	}
	u, err := urn.NewDataset("hive", "db.table", "PROD")
	if err != nil {
		t.Fatal(err)
	}
	proposal := func(i int) Proposal {
		p, err := NewProposal(u, aspects.DatasetProperties{Description: aspects.Ptr(fmt.Sprintf("v%05d", i))})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	var seqs []uint64
	a := NewAsync(r, WithWorkers(1), WithBatchSize(2), WithLinger(0), WithQueueSize(10_000),
		WithResultHandler(func(res AsyncResult) {
			if res.Status != Written {
				t.Errorf("proposal %d: %v", res.Seq, res.Err)
			}
			seqs = append(seqs, res.Seq)
		}))
	if err := a.Emit(t.Context(), proposal(0)); err != nil {
		t.Fatal(err)
	}
	<-h.started
	a.mu.Lock()
	ringLen, lent := len(a.parts[0].queue.buf), a.parts[0].queue.lent
	a.mu.Unlock()
	if lent != 1 {
		t.Fatalf("the first batch in flight has %d lent slots, want 1", lent)
	}
	n := 1 + ringLen + 10
	for i := 1; i < n; i++ {
		if err := a.Emit(t.Context(), proposal(i)); err != nil {
			t.Fatal(err)
		}
	}
	a.mu.Lock()
	grown, lent := len(a.parts[0].queue.buf), a.parts[0].queue.lent
	a.mu.Unlock()
	if grown <= ringLen || lent != 1 {
		t.Fatalf("ring of %d slots (%d lent) after queueing %d behind a batch in flight, want more than %d (1 lent)", grown, lent, n-1, ringLen)
	}
	close(h.release)
	if err := a.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if len(seqs) != n {
		t.Fatalf("%d proposals reported, want %d", len(seqs), n)
	}
	for i, s := range seqs {
		if s != uint64(i+1) {
			t.Fatalf("outcome %d is of proposal %d, want %d", i, s, i+1)
		}
	}
	sent := regexp.MustCompile(`v\d{5}`).FindAllString(strings.Join(h.bodies, ""), -1)
	if len(sent) != n {
		t.Fatalf("%d proposals sent, want %d", len(sent), n)
	}
	for i, d := range sent {
		if want := fmt.Sprintf("v%05d", i); d != want {
			t.Fatalf("proposal %d sent is %s, want %s", i, d, want)
		}
	}
}
