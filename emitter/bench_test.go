package emitter_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/internal/testshared"
	"github.com/catalogkit/datahub-go/mockserver"
)

// benchProposal is the proposal of the single-emit benchmarks, with a fixed
// lastObserved so that the emitter and the raw loop send the same bytes.
func benchProposal(b *testing.B) emitter.Proposal {
	p, err := emitter.NewProposal(datasetURN(b, 1), aspects.DatasetProperties{
		Description:      aspects.Ptr("One row per order, loaded nightly from the shop database."),
		CustomProperties: map[string]string{"owner": "data-eng", "tier": "gold"},
	})
	if err != nil {
		b.Fatal(err)
	}
	p.SystemMetadata = &aspects.SystemMetadata{LastObserved: 1700000000000}
	return p
}

// captureBody returns the body and headers the emitter sends for p.
func captureBody(b *testing.B, s benchServer, p emitter.Proposal) ([]byte, http.Header) {
	c := &capture{next: http.DefaultTransport}
	r, err := emitter.NewREST(s.URL(), datahub.WithHTTPClient(&http.Client{Transport: c}))
	if err != nil {
		b.Fatal(err)
	}
	if err := r.Emit(context.Background(), p); err != nil {
		b.Fatal(err)
	}
	return c.body, c.header
}

type capture struct {
	next   http.RoundTripper
	body   []byte
	header http.Header
}

func (c *capture) RoundTrip(req *http.Request) (*http.Response, error) {
	c.body, _ = io.ReadAll(req.Body)
	c.header = req.Header.Clone()
	req.Body = io.NopCloser(bytes.NewReader(c.body))
	return c.next.RoundTrip(req)
}

func pooledClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns, t.MaxIdleConnsPerHost = 100, 100
	return &http.Client{Transport: t}
}

// BenchmarkEmitOne compares REST.Emit of one proposal with a raw net/http
// loop posting the same bytes to the same mock server.
func BenchmarkEmitOne(b *testing.B) {
	s := mockserver.Start(b, mockserver.WithRecording(false))
	p := benchProposal(b)
	body, header := captureBody(b, s, p)
	url := s.URL() + "/aspects?action=ingestProposal"
	b.Run("emitter", func(b *testing.B) {
		r, err := emitter.NewREST(s.URL())
		if err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		for b.Loop() {
			if err := r.Emit(ctx, p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("raw_net_http", func(b *testing.B) {
		hc := pooledClient()
		for b.Loop() {
			testshared.RawPost(b, hc, url, header, body)
		}
	})
}

// BenchmarkEmitOneInterleaved runs the emitter and the raw loop in turns,
// so that both see the same machine noise, and reports their ratio:
// raw/emitter is the emitter's speed relative to the raw loop (1 = as
// fast; the target is at least 0.8).
func BenchmarkEmitOneInterleaved(b *testing.B) {
	s := benchMock(b)
	p := benchProposal(b)
	body, header := captureBody(b, s, p)
	url := s.URL() + "/aspects?action=ingestProposal"
	r, err := emitter.NewREST(s.URL())
	if err != nil {
		b.Fatal(err)
	}
	hc := pooledClient()
	ctx := context.Background()
	// Warm both sides' connections and the mock's first version, which
	// would otherwise count against the emitter, first in the first round.
	for range warmRounds {
		if err := r.Emit(ctx, p); err != nil {
			b.Fatal(err)
		}
		testshared.RawPost(b, hc, url, header, body)
	}
	var emitT, rawT, emitCPU, rawCPU time.Duration
	for b.Loop() {
		start, cpu := time.Now(), cpuTime(b)
		if err := r.Emit(ctx, p); err != nil {
			b.Fatal(err)
		}
		mid, midCPU := time.Now(), cpuTime(b)
		testshared.RawPost(b, hc, url, header, body)
		rawT += time.Since(mid)
		rawCPU += cpuTime(b) - midCPU
		emitT += mid.Sub(start)
		emitCPU += midCPU - cpu
	}
	b.ReportMetric(float64(emitT.Nanoseconds())/float64(b.N), "emit-ns/op")
	b.ReportMetric(float64(rawT.Nanoseconds())/float64(b.N), "raw-ns/op")
	b.ReportMetric(float64(rawT)/float64(emitT), "raw/emit")
	// The same in the process's CPU time (client and mock), which other
	// loads of the machine stretch less than the wall clock.
	b.ReportMetric(float64(rawCPU)/float64(emitCPU), "raw/emit-cpu")
}

// BenchmarkEmitBatched sends batches of 200 changing proposals to the mock
// server and reports proposals per second.
func BenchmarkEmitBatched(b *testing.B) {
	s := mockserver.Start(b, mockserver.WithRecording(false))
	r, err := emitter.NewREST(s.URL())
	if err != nil {
		b.Fatal(err)
	}
	const size = 200
	ctx := context.Background()
	ps := make([]emitter.Proposal, size)
	n := 0
	start := time.Now()
	for b.Loop() {
		for i := range ps {
			ps[i] = propertiesProposal(b, i, n)
		}
		n++
		if err := r.Emit(ctx, ps...); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n*size)/time.Since(start).Seconds(), "proposals/s")
}

// BenchmarkAsync queues changing proposals from 4 goroutines into an Async
// emitter (4 workers, batches of 100) and reports proposals per second,
// Close included.
func BenchmarkAsync(b *testing.B) {
	s := mockserver.Start(b, mockserver.WithRecording(false))
	r, err := emitter.NewREST(s.URL())
	if err != nil {
		b.Fatal(err)
	}
	const perOp = 1000
	ps := make([]emitter.Proposal, perOp)
	for i := range ps {
		ps[i] = propertiesProposal(b, i, 0)
	}
	ctx := context.Background()
	n := 0
	start := time.Now()
	for b.Loop() {
		a := emitter.NewAsync(r, emitter.WithLinger(5*time.Millisecond))
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Go(func() {
				for i := g; i < perOp; i += 4 {
					p := ps[i]
					p.Aspect = aspects.DatasetProperties{Description: aspects.Ptr(fmt.Sprint(n))}
					if err := a.Emit(ctx, p); err != nil {
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
		n++
	}
	b.ReportMetric(float64(n*perOp)/time.Since(start).Seconds(), "proposals/s")
}

// BenchmarkEmitBatchedEndpoints emits batches of 200 changing proposals
// through Rest.li and through OpenAPI v3 to one mock, in turns (each side
// first in every other round, both sides' proposals made before either
// is timed), so that both see the same machine noise and neither always
// inherits the work the other left behind (the search index catching up
// with its writes), and reports their ratio: restli/openapi is OpenAPI's
// speed relative to Rest.li (1 = as fast; the target is at least 1), and
// the process's CPU time per proposal while each side emits (client,
// server and collector; restli/openapi-cpu is their ratio, which other
// loads on the machine stretch less than the wall clock). The
// proposals are built once; a round gives each a new aspect value only,
// so that making them (a third of the process's CPU when every round
// built them whole) drives few garbage collections during the timed
// emits.
func BenchmarkEmitBatchedEndpoints(b *testing.B) {
	s := benchMock(b)
	restli, err := emitter.NewREST(s.URL())
	if err != nil {
		b.Fatal(err)
	}
	openAPI, err := emitter.NewREST(s.URL(), datahub.WithEndpoint(datahub.EndpointOpenAPI))
	if err != nil {
		b.Fatal(err)
	}
	const size = 200
	ctx := context.Background()
	restliPs, openAPIPs := make([]emitter.Proposal, size), make([]emitter.Proposal, size)
	for i := range size {
		restliPs[i], openAPIPs[i] = propertiesProposal(b, i, 0), propertiesProposal(b, i, 0)
	}
	t := &turns{b: b}
	emit := func(r *emitter.REST, ps []emitter.Proposal) func() {
		return func() {
			if err := r.Emit(ctx, ps...); err != nil {
				b.Fatal(err)
			}
		}
	}
	for b.Loop() {
		for i := range size {
			restliPs[i].Aspect = aspects.DatasetProperties{Description: aspects.Ptr(description(i, 2*t.n))}
			openAPIPs[i].Aspect = aspects.DatasetProperties{Description: aspects.Ptr(description(i, 2*t.n+1))}
		}
		t.run(emit(restli, restliPs), emit(openAPI, openAPIPs))
	}
	b.ReportMetric(t.perSecond(0, size), "restli-proposals/s")
	b.ReportMetric(t.perSecond(1, size), "openapi-proposals/s")
	b.ReportMetric(float64(t.wall[0])/float64(t.wall[1]), "restli/openapi")
	b.ReportMetric(float64(t.cpu[0].Nanoseconds())/float64(t.counted*size), "restli-cpu-ns/proposal")
	b.ReportMetric(float64(t.cpu[1].Nanoseconds())/float64(t.counted*size), "openapi-cpu-ns/proposal")
	b.ReportMetric(float64(t.cpu[0])/float64(t.cpu[1]), "restli/openapi-cpu")
}

// BenchmarkEmitModes emits one proposal a call from 16 goroutines through
// OpenAPI to a mock without async lag, in turns with EmitSyncPrimary and
// EmitAsyncWait (which then polls each write's trace until it is applied),
// and reports both rates and their ratio: async/sync is ASYNC_WAIT's rate
// relative to SYNC_PRIMARY's (the target is at least 1/3).
func BenchmarkEmitModes(b *testing.B) {
	s := benchMock(b)
	newMode := func(m emitter.EmitMode) *emitter.REST {
		r, err := emitter.NewREST(s.URL(), datahub.WithEndpoint(datahub.EndpointOpenAPI), emitter.WithEmitMode(m))
		if err != nil {
			b.Fatal(err)
		}
		return r
	}
	const goroutines, perGoroutine = 16, 8
	ctx := context.Background()
	round := 0
	run := func(r *emitter.REST) time.Duration {
		round++
		start := time.Now()
		var wg sync.WaitGroup
		for g := range goroutines {
			wg.Go(func() {
				for k := range perGoroutine {
					p := propertiesProposal(b, g*perGoroutine+k, round)
					if err := r.Emit(ctx, p); err != nil {
						b.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		return time.Since(start)
	}
	syncR, asyncR := newMode(emitter.EmitSyncPrimary), newMode(emitter.EmitAsyncWait)
	for range warmRounds { // see warmRounds
		run(syncR)
		run(asyncR)
	}
	var syncT, asyncT time.Duration
	for b.Loop() {
		syncT += run(syncR)
		asyncT += run(asyncR)
	}
	n := float64(b.N * goroutines * perGoroutine)
	b.ReportMetric(n/syncT.Seconds(), "sync-proposals/s")
	b.ReportMetric(n/asyncT.Seconds(), "asyncwait-proposals/s")
	b.ReportMetric(float64(syncT)/float64(asyncT), "async/sync")
}
