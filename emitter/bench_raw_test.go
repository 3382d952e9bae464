package emitter_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
)

// recorder is a transport that keeps the request bodies it is given and
// answers each with an empty 200, sending nothing: the bytes an emitter
// would post, for the raw loops to post themselves.
type recorder struct {
	mu     sync.Mutex
	bodies [][]byte
	header http.Header
}

func (c *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	body, err := io.ReadAll(req.Body)
	req.Body.Close() // as a RoundTripper must
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.bodies = append(c.bodies, body)
	c.header = req.Header.Clone()
	c.mu.Unlock()
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(`{}`)), Request: req}, nil
}

// take returns the bodies recorded so far and forgets them.
func (c *recorder) take() ([][]byte, http.Header) {
	c.mu.Lock()
	defer c.mu.Unlock()
	bodies := c.bodies
	c.bodies = nil
	return bodies, c.header
}

// rawBodies returns the request bodies (and headers) a Rest.li emitter
// sending at most batch proposals a request posts for ps.
func rawBodies(b *testing.B, rec *recorder, r *emitter.REST, ps []emitter.Proposal) ([][]byte, http.Header) {
	if err := r.Emit(context.Background(), ps...); err != nil {
		b.Fatal(err)
	}
	return rec.take()
}

// newRecording returns a Rest.li emitter whose requests go to rec.
func newRecording(b *testing.B, rec *recorder, opts ...emitter.Option) *emitter.REST {
	opts = append(opts, datahub.WithHTTPClient(&http.Client{Transport: rec}))
	r, err := emitter.NewREST("http://recorder.invalid", opts...)
	if err != nil {
		b.Fatal(err)
	}
	return r
}

// postBatch posts one recorded ingestProposalBatch body as the raw loop does.
func postBatch(b *testing.B, hc *http.Client, url string, header http.Header, body []byte) {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		b.Error(err)
		return
	}
	req.Header = header.Clone()
	resp, err := hc.Do(req)
	if err != nil {
		b.Error(err)
		return
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b.Errorf("raw batch: status %d", resp.StatusCode)
	}
}

// postAll is the raw loop of the Async benchmarks: goroutines post bodies
// (body k by goroutine k mod goroutines) as postBatch does, all at once.
func postAll(b *testing.B, hc *http.Client, url string, header http.Header, bodies [][]byte, goroutines int) {
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for k := g; k < len(bodies); k += goroutines {
				postBatch(b, hc, url, header, bodies[k])
			}
		})
	}
	wg.Wait()
}

// batchedRounds is the setup of the batched benchmarks' rounds: an
// emitter to the in-process mock, and a plain net/http POST of the bytes a
// recording emitter sends for another 200 changing proposals.
type batchedRounds struct {
	r, enc  *emitter.REST
	rec     *recorder
	hc      *http.Client
	url     string
	ps, raw []emitter.Proposal
	props   *roundProposals
	n       int // rounds so far
}

func newBatchedRounds(b *testing.B) *batchedRounds {
	s := benchMock(b)
	r, err := emitter.NewREST(s.URL())
	if err != nil {
		b.Fatal(err)
	}
	const size = 200
	rec := &recorder{}
	return &batchedRounds{r: r, rec: rec, enc: newRecording(b, rec), hc: pooledClient(),
		url: s.URL() + "/aspects?action=ingestProposalBatch",
		ps:  make([]emitter.Proposal, size), raw: make([]emitter.Proposal, size), props: newRoundProposals(b, size)}
}

// next makes the next round's proposals for both sides and returns the raw
// side's bodies and header, recorded from the emitter.
func (x *batchedRounds) next(b *testing.B) ([][]byte, http.Header) {
	x.props.fill(b, x.ps, 2*x.n)
	x.props.fill(b, x.raw, 2*x.n+1)
	x.n++
	return rawBodies(b, x.rec, x.enc, x.raw)
}

// emit is the emitter's side of a round.
func (x *batchedRounds) emit(b *testing.B) {
	if err := x.r.Emit(context.Background(), x.ps...); err != nil {
		b.Fatal(err)
	}
}

// post is the raw side of a round.
func (x *batchedRounds) post(b *testing.B, bodies [][]byte, header http.Header) {
	for _, body := range bodies {
		postBatch(b, x.hc, x.url, header, body)
	}
}

// BenchmarkEmitBatchedInterleaved compares REST.Emit of 200 changing
// proposals (one ingestProposalBatch request) with a raw net/http loop
// posting the bytes the emitter sends for another 200 changing proposals,
// encoded beforehand, to the same mock, in turns, so that both sides see
// the same machine noise, after warm rounds (see turns). raw/emit is the
// emitter's speed relative to the raw loop (1 = as fast; the target is at
// least 0.9). Building the proposals is the caller's work and is not
// timed on either side.
func BenchmarkEmitBatchedInterleaved(b *testing.B) {
	x := newBatchedRounds(b)
	t := &turns{b: b}
	for b.Loop() {
		bodies, header := x.next(b)
		t.run(func() { x.emit(b) }, func() { x.post(b, bodies, header) })
	}
	b.ReportMetric(t.perSecond(0, len(x.ps)), "emit-proposals/s")
	b.ReportMetric(t.perSecond(1, len(x.ps)), "raw-proposals/s")
	b.ReportMetric(t.ratio(), "raw/emit")
	b.ReportMetric(t.cpuRatio(), "raw/emit-cpu")
	b.ReportMetric(t.cpuPerRound(0), "emit-cpu-us/round")
	b.ReportMetric(t.cpuPerRound(1), "raw-cpu-us/round")
}

// BenchmarkAsyncInterleaved compares the Async emitter (4 goroutines
// queueing 1000 changing proposals, 4 workers, batches of 100, Close
// included) with a raw loop of 4 goroutines posting the ten
// ingestProposalBatch bodies of 100 the emitter sends for another 1000
// changing proposals, encoded beforehand, to the same mock, in turns,
// after warm rounds (see turns). raw/async is the Async emitter's speed
// relative to the raw loop (the target is at least 0.9).
func BenchmarkAsyncInterleaved(b *testing.B) {
	s := benchMock(b)
	r, err := emitter.NewREST(s.URL())
	if err != nil {
		b.Fatal(err)
	}
	rec := &recorder{}
	enc := newRecording(b, rec, emitter.WithMaxBatchSize(emitter.DefaultBatchSize))
	hc := pooledClient()
	url := s.URL() + "/aspects?action=ingestProposalBatch"
	const perOp, goroutines = 1000, 4
	ctx := context.Background()
	ps, raw := make([]emitter.Proposal, perOp), make([]emitter.Proposal, perOp)
	props := newRoundProposals(b, perOp)
	t := &turns{b: b}
	asyncReqs := 0 // the Async side's requests, as the mock counted them
	for b.Loop() {
		props.fill(b, ps, 2*t.n)
		props.fill(b, raw, 2*t.n+1)
		bodies, header := rawBodies(b, rec, enc, raw)

		asyncSide := func() {
			a := emitter.NewAsync(r, emitter.WithLinger(5*time.Millisecond))
			var wg sync.WaitGroup
			for g := range goroutines {
				wg.Go(func() {
					for i := g; i < perOp; i += goroutines {
						if err := a.Emit(ctx, ps[i]); err != nil {
							b.Error(err)
							return
						}
					}
				})
			}
			wg.Wait()
			if err := a.Close(ctx); err != nil {
				b.Fatal(err)
			}
		}
		// The requests are counted outside the timed sides: against a mock
		// in another process, a count is a request of its own.
		reqs := s.RequestCount(mockserver.OpIngestProposalBatch)
		t.run(asyncSide, func() { postAll(b, hc, url, header, bodies, goroutines) })
		asyncReqs += s.RequestCount(mockserver.OpIngestProposalBatch) - reqs - len(bodies)
	}
	b.ReportMetric(t.perSecond(0, perOp), "async-proposals/s")
	b.ReportMetric(t.perSecond(1, perOp), "raw-proposals/s")
	b.ReportMetric(t.ratio(), "raw/async")
	b.ReportMetric(t.cpuRatio(), "raw/async-cpu")
	b.ReportMetric(t.cpuPerRound(0), "async-cpu-us/round")
	b.ReportMetric(t.cpuPerRound(1), "raw-cpu-us/round")
	// The raw side posts 10 requests a round.
	b.ReportMetric(float64(asyncReqs)/float64(t.n), "async-requests/1000")
}

// inTurns runs the two sides of round n of an interleaved benchmark, first
// one first in odd rounds and the other first in even ones, so that
// neither always inherits the work left behind by the untimed setup before
// it (a garbage collection its allocations started) or by the other side
// (the server finishing a write after answering).
//
// The environment variable BENCH_SIDE set to "first" or "second" runs
// only that side each round: a profile of one side alone (perf, pprof)
// beside the same untimed setup. The benchmark's ratios mean nothing then.
func inTurns(n int, first, second func()) {
	switch os.Getenv("BENCH_SIDE") {
	case "first":
		first()
		return
	case "second":
		second()
		return
	}
	if n%2 == 1 {
		first()
		second()
		return
	}
	second()
	first()
}

// discard is a transport that reads, drops and closes each request body
// and answers an empty 200, sending nothing.
type discard struct{}

func (discard) RoundTrip(req *http.Request) (*http.Response, error) {
	_, _ = io.Copy(io.Discard, req.Body)
	req.Body.Close() // as a RoundTripper must
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(`{}`)), Request: req}, nil
}

// BenchmarkEmitBatchedClient is the emitter's own cost of a batched Emit
// of 200 proposals (one ingestProposalBatch request): checking, encoding
// and handing the request to net/http, whose transport drops it without
// a network. It is the part of BenchmarkEmitBatchedInterleaved's gap the
// emitter can close.
func BenchmarkEmitBatchedClient(b *testing.B) { emitBatchedClient(b) }

// emitBatchedClient measures a batched Emit of 200 proposals to a REST
// emitter made with opts and a transport that drops its requests.
func emitBatchedClient(b *testing.B, opts ...emitter.Option) {
	opts = append([]emitter.Option{datahub.WithHTTPClient(&http.Client{Transport: discard{}})}, opts...)
	r, err := emitter.NewREST("http://discard.invalid", opts...)
	if err != nil {
		b.Fatal(err)
	}
	const size = 200
	ps := make([]emitter.Proposal, size)
	for i := range ps {
		ps[i] = propertiesProposal(b, i, 0)
	}
	ctx := context.Background()
	b.ReportAllocs()
	cpu := cpuTime(b)
	for b.Loop() {
		if err := r.Emit(ctx, ps...); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((cpuTime(b)-cpu).Nanoseconds())/float64(b.N*size), "cpu-ns/proposal")
}

// BenchmarkAsyncClient is the Async emitter's own cost in
// BenchmarkAsyncInterleaved (4 goroutines queueing 1000 proposals, 4
// workers, batches of 100, Close included), its requests dropped by the
// transport without a network.
func BenchmarkAsyncClient(b *testing.B) { asyncClient(b, 5*time.Millisecond) }

// asyncClient measures the Async emitter's own cost, its workers
// lingering linger (see BenchmarkAsyncClient).
func asyncClient(b *testing.B, linger time.Duration) {
	r, err := emitter.NewREST("http://discard.invalid", datahub.WithHTTPClient(&http.Client{Transport: discard{}}))
	if err != nil {
		b.Fatal(err)
	}
	const perOp, goroutines = 1000, 4
	ps := make([]emitter.Proposal, perOp)
	for i := range ps {
		ps[i] = propertiesProposal(b, i, 0)
	}
	ctx := context.Background()
	b.ReportAllocs()
	cpu := cpuTime(b)
	for b.Loop() {
		a := emitter.NewAsync(r, emitter.WithLinger(linger))
		var wg sync.WaitGroup
		for g := range goroutines {
			wg.Go(func() {
				for i := g; i < perOp; i += goroutines {
					if err := a.Emit(ctx, ps[i]); err != nil {
						b.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		if err := a.Close(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((cpuTime(b)-cpu).Nanoseconds())/float64(b.N*perOp), "cpu-ns/proposal")
}
