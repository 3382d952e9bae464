package mockserver

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/internal/par"
)

// ingestBodies returns two ingest request bodies of n proposals each (n = 1:
// ingestProposal, else ingestProposalBatch), shaped like the Python
// emitter's, that differ in every aspect value, so that sending them in turns
// makes every write a new version. Proposal i names dataset i. Within a body
// every proposal carries the same value; ingestBodiesDistinct's differ.
func ingestBodies(b *testing.B, n int) [2][]byte { return ingestBodiesOf(b, n, false) }

// ingestBodiesDistinct is ingestBodies with every proposal's value its own:
// proposal i's owner is user <owner>i, so nothing the mock keeps of one value
// (a decoding, a schema check, a built systemMetadata) serves the next, as in
// a source's ingestion where each entity's aspects differ.
func ingestBodiesDistinct(b *testing.B, n int) [2][]byte { return ingestBodiesOf(b, n, true) }

func ingestBodiesOf(b *testing.B, n int, distinct bool) [2][]byte {
	b.Helper()
	tmpl, err := os.ReadFile(filepath.Join("testdata", "python_emitter_ingest_proposal.json"))
	if err != nil {
		b.Fatal(err)
	}
	var out [2][]byte
	for v, owner := range []string{"fbar", "fbaz"} {
		if n == 1 {
			out[v] = bytes.ReplaceAll(tmpl, []byte("fbar"), []byte(owner))
			continue
		}
		// The "proposal" object of the template, one per dataset.
		start := bytes.Index(tmpl, []byte(`"proposal": {`)) + len(`"proposal": `)
		end := bytes.LastIndexByte(tmpl, '}')
		one := bytes.TrimSpace(tmpl[start:end])
		var buf bytes.Buffer
		buf.WriteString(`{"proposals":[`)
		for i := range n {
			if i > 0 {
				buf.WriteByte(',')
			}
			name := owner
			if distinct {
				name = fmt.Sprintf("%s%d", owner, i)
			}
			p := bytes.ReplaceAll(one, []byte("fbar"), []byte(name))
			p = bytes.ReplaceAll(p, []byte("foo,bar,PROD"), fmt.Appendf(nil, "foo,bar%d,PROD", i))
			buf.Write(p)
		}
		buf.WriteString(`]}`)
		out[v] = buf.Bytes()
	}
	return out
}

// startNoop serves the no-op baseline on a loopback listener, configured as
// Start configures the mock's: it reads the body and answers success.
func startNoop(b *testing.B) string {
	b.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		writeSuccess(w)
	})}
	go func() { _ = srv.Serve(l) }()
	b.Cleanup(func() { _ = srv.Close() })
	return "http://" + l.Addr().String()
}

// postIngest sends body as the emitter does and checks for success.
func postIngest(b *testing.B, hc *http.Client, url string, body []byte) {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("X-RestLi-Protocol-Version", "2.0.0")
	resp, err := hc.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	msg, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b.Fatalf("%s: status %d: %s", url, resp.StatusCode, msg)
	}
}

// BenchmarkIngestHTTP measures the mock's ingest over a real loopback
// connection against a no-op handler on another listener, with the same
// client and the same bytes, in turns so that both see the same machine
// noise: single proposals (ingestProposal) and batches of 200
// (ingestProposalBatch), every write a new version. It reports each side's
// ns/op, the mock's proposals/s, and mock/noop: the mock's request rate as a
// fraction of the no-op handler's (1 = as fast; the targets are at least 0.5
// for single proposals, 0.45 for batches).
// The mock runs without recording proposals, as in the emitter benchmarks.
func BenchmarkIngestHTTP(b *testing.B) {
	for _, n := range []int{1, 200} {
		name, action := "single", "ingestProposal"
		if n > 1 {
			name, action = fmt.Sprintf("batch%d", n), "ingestProposalBatch"
		}
		b.Run(name, func(b *testing.B) {
			bodies := ingestBodies(b, n)
			s := Start(b, WithRecording(false))
			mockURL := s.URL() + "/aspects?action=" + action
			noopURL := startNoop(b) + "/aspects?action=" + action
			t := http.DefaultTransport.(*http.Transport).Clone()
			t.MaxIdleConnsPerHost = 4
			hc := &http.Client{Transport: t}
			b.Cleanup(t.CloseIdleConnections)
			// Warm both connections and the mock's first versions.
			for _, body := range bodies {
				postIngest(b, hc, mockURL, body)
				postIngest(b, hc, noopURL, body)
			}
			b.SetBytes(int64(len(bodies[0])))
			var mockT, noopT time.Duration
			i := 0
			par0 := par.Stats()
			for b.Loop() {
				body := bodies[i%2]
				// Alternate which goes first, so neither gets a warmer cache.
				if i%4 < 2 {
					t0 := time.Now()
					postIngest(b, hc, mockURL, body)
					t1 := time.Now()
					postIngest(b, hc, noopURL, body)
					mockT, noopT = mockT+t1.Sub(t0), noopT+time.Since(t1)
				} else {
					t0 := time.Now()
					postIngest(b, hc, noopURL, body)
					t1 := time.Now()
					postIngest(b, hc, mockURL, body)
					noopT, mockT = noopT+t1.Sub(t0), mockT+time.Since(t1)
				}
				i++
			}
			b.ReportMetric(float64(mockT.Nanoseconds())/float64(i), "mock-ns/op")
			b.ReportMetric(float64(noopT.Nanoseconds())/float64(i), "noop-ns/op")
			b.ReportMetric(float64(i*n)/mockT.Seconds(), "mock-proposals/s")
			b.ReportMetric(float64(noopT)/float64(mockT), "mock/noop")
			reportSplits(b, par0, i)
		})
	}
}

// BenchmarkIngestHTTPConcurrent is BenchmarkIngestHTTP's batched ingest
// from 4 clients at once: each client sends bodies of 200 proposals of its
// own datasets (every write a new version), the 4 requests of a round in
// parallel, and rounds to the mock and to the no-op handler take turns. It
// reports each side's proposals/s and mock/noop (the mock's rate as a
// fraction of the no-op handler's).
func BenchmarkIngestHTTPConcurrent(b *testing.B) { ingestConcurrent(b, 2, ingestBodies) }

// BenchmarkIngestHTTPConcurrentDistinct is BenchmarkIngestHTTPConcurrent with
// every proposal of a body carrying its own value (ingestBodiesDistinct).
func BenchmarkIngestHTTPConcurrentDistinct(b *testing.B) {
	ingestConcurrent(b, 2, ingestBodiesDistinct)
}

// BenchmarkIngestHTTPConcurrentUnchanged is BenchmarkIngestHTTPConcurrent
// with each client sending one body again and again: after the first round
// every value equals the stored one, so the mock makes no new version (it
// refreshes the run fields of the latest row at most).
func BenchmarkIngestHTTPConcurrentUnchanged(b *testing.B) { ingestConcurrent(b, 1, ingestBodies) }

// ingestConcurrent runs rounds of 4 clients posting 200 proposals each,
// cycling through the first kinds of the two bodies bodiesOf makes.
func ingestConcurrent(b *testing.B, kinds int, bodiesOf func(*testing.B, int) [2][]byte) {
	const clients, n = 4, 200
	bodies := make([][2][]byte, clients)
	for c := range clients {
		for v, body := range bodiesOf(b, n) {
			bodies[c][v] = bytes.ReplaceAll(body, []byte("foo,bar"), fmt.Appendf(nil, "foo,c%d-bar", c))
		}
	}
	s := Start(b, WithRecording(false))
	mockURL := s.URL() + "/aspects?action=ingestProposalBatch"
	noopURL := startNoop(b) + "/aspects?action=ingestProposalBatch"
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 2 * clients
	hc := &http.Client{Transport: t}
	b.Cleanup(t.CloseIdleConnections)
	round := func(url string, v int) time.Duration {
		start := time.Now()
		var wg sync.WaitGroup
		for c := range clients {
			wg.Go(func() {
				if err := postBody(hc, url, bodies[c][v]); err != nil {
					b.Error(err)
				}
			})
		}
		wg.Wait()
		return time.Since(start)
	}
	for v := range kinds { // warm the connections and the mock's first versions
		round(mockURL, v)
		round(noopURL, v)
	}
	b.SetBytes(int64(clients * len(bodies[0][0])))
	var mockT, noopT time.Duration
	i := 0
	par0 := par.Stats()
	for b.Loop() {
		// Alternate which side goes first, and the body (every write a
		// new version).
		if i%4 < 2 {
			mockT += round(mockURL, i%kinds)
			noopT += round(noopURL, i%kinds)
		} else {
			noopT += round(noopURL, i%kinds)
			mockT += round(mockURL, i%kinds)
		}
		i++
	}
	b.ReportMetric(float64(i*clients*n)/mockT.Seconds(), "mock-proposals/s")
	b.ReportMetric(float64(i*clients*n)/noopT.Seconds(), "noop-proposals/s")
	b.ReportMetric(float64(noopT)/float64(mockT), "mock/noop")
	reportSplits(b, par0, i)
}

// reportSplits reports the splits of par.In (of the mock's requests) per
// op since start: how many, the ranges helpers ran a split and their share
// of all ranges, and how long the callers waited for a helper's range.
func reportSplits(b *testing.B, start par.Statistics, ops int) {
	end := par.Stats()
	splits := end.Splits - start.Splits
	b.ReportMetric(float64(splits)/float64(ops), "splits/op")
	if splits > 0 {
		b.ReportMetric(float64(end.HelperRanges-start.HelperRanges)/float64(splits), "helper-ranges/split")
		b.ReportMetric(float64(end.HelperRanges-start.HelperRanges)/float64(end.Ranges-start.Ranges), "helper-share")
		b.ReportMetric(float64(end.Waits-start.Waits)/float64(splits), "waits/split")
		b.ReportMetric(float64((end.WaitTime-start.WaitTime).Nanoseconds())/float64(splits), "wait-ns/split")
	}
}

// postBody is postIngest returning its failure, for goroutines.
func postBody(hc *http.Client, url string, body []byte) error {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-RestLi-Protocol-Version", "2.0.0")
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	msg, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: status %d: %s", url, resp.StatusCode, msg)
	}
	return nil
}
