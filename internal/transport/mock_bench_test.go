package transport

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/internal/config"
	"github.com/catalogkit/datahub-go/internal/testshared"
	"github.com/catalogkit/datahub-go/mockserver"
)

// mockRounds is the setup of the benchmarks that send to the in-process
// mock: a Client with the default settings, as the emitter's, and a plain
// net/http client, both to one mock, and the bodies of their requests.
type mockRounds struct {
	c      *Client
	hc     *http.Client
	url    string
	header http.Header
	size   int // proposals a request
	n      int // bodies made so far
}

const pathIngestBatch = "/aspects?action=ingestProposalBatch"

func newMockRounds(b *testing.B, size int) *mockRounds {
	s := mockserver.Start(b, mockserver.WithRecording(false))
	c, err := New(s.URL(), config.Defaults())
	if err != nil {
		b.Fatal(err)
	}
	hc := NewPooledClient()
	b.Cleanup(c.CloseIdleConnections)
	b.Cleanup(hc.CloseIdleConnections)
	return &mockRounds{c: c, hc: hc, url: s.URL() + pathIngestBatch, header: c.Header(), size: size}
}

// body returns the next ingestProposalBatch body: size datasetProperties
// proposals whose descriptions no body sent before had, so that the mock
// writes every one.
func (x *mockRounds) body() []byte {
	x.n++
	buf := []byte(`{"proposals":[`)
	for i := range x.size {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = fmt.Appendf(buf, `{"entityType":"dataset","entityUrn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.t%d,PROD)",`+
			`"changeType":"UPSERT","aspectName":"datasetProperties","aspect":{"value":"{\"customProperties\":{},`+
			`\"description\":\"round %d\",\"tags\":[]}","contentType":"application/json"},"systemMetadata":{`+
			`"lastObserved":1700000000000,"runId":"no-run-id-provided","lastRunId":"no-run-id-provided",`+
			`"properties":{"clientId":"datahub-go","clientVersion":"0.1.0"}}}`, i, x.n)
	}
	return append(buf, `],"async":"false"}`...)
}

// send is the emitter's request of body: a write whose answer is
// discarded, its body held until Done.
func (x *mockRounds) send(b *testing.B, body []byte) {
	_, err := x.c.Send(context.Background(), Request{Method: http.MethodPost, Path: pathIngestBatch, Body: body,
		DiscardBody: true, Done: func() {}})
	if err != nil {
		b.Fatal(err)
	}
}

// raw is the same request with plain net/http.
func (x *mockRounds) raw(b *testing.B, body []byte) {
	testshared.RawPost(b, x.hc, x.url, x.header, body)
}

// BenchmarkSendMock is Send of ingestProposalBatch requests of one
// proposal, as the emitter sends them, to the in-process mock; run it with
// -test.cpu 1 under callgrind beside BenchmarkRawMock, the same requests
// with plain net/http: the difference is what Send costs beyond a plain
// post, the mock's work being the same.
func BenchmarkSendMock(b *testing.B) { mockAlone(b, (*mockRounds).send) }

// BenchmarkRawMock is BenchmarkSendMock's requests with plain net/http.
func BenchmarkRawMock(b *testing.B) { mockAlone(b, (*mockRounds).raw) }

// mockAlone times post of a new one-proposal body a round, its making
// untimed.
func mockAlone(b *testing.B, post func(*mockRounds, *testing.B, []byte)) {
	x := newMockRounds(b, 1)
	for b.Loop() {
		b.StopTimer()
		body := x.body()
		b.StartTimer()
		post(x, b, body)
	}
}

// BenchmarkSendInterleaved compares Send with a plain net/http post of the
// same kind of body (each round's own) to the same mock, in turns, so that
// both sides see the same machine noise: raw/send is Send's speed relative
// to the plain post (1 = as fast), in the wall clock and in the process's
// CPU time (client and mock). Bodies of 1 and of 200 proposals (the
// emitter's batch).
func BenchmarkSendInterleaved(b *testing.B) {
	for _, size := range []int{1, 200} {
		b.Run(fmt.Sprintf("proposals=%d", size), func(b *testing.B) {
			x := newMockRounds(b, size)
			var sendT, rawT, sendCPU, rawCPU time.Duration
			for b.Loop() {
				sendBody, rawBody := x.body(), x.body()
				// timed adds the wall and CPU time of f to *t and *cpu.
				timed := func(t, cpu *time.Duration, f func()) func() {
					return func() {
						start, c := time.Now(), testshared.CPUTime(b)
						f()
						*t += time.Since(start)
						*cpu += testshared.CPUTime(b) - c
					}
				}
				sendSide := timed(&sendT, &sendCPU, func() { x.send(b, sendBody) })
				rawSide := timed(&rawT, &rawCPU, func() { x.raw(b, rawBody) })
				if x.n%4 == 0 {
					sendSide()
					rawSide()
				} else {
					rawSide()
					sendSide()
				}
			}
			rounds := float64(x.n / 2)
			b.ReportMetric(float64(sendT.Nanoseconds())/rounds, "send-ns/req")
			b.ReportMetric(float64(rawT.Nanoseconds())/rounds, "raw-ns/req")
			b.ReportMetric(float64(rawT)/float64(sendT), "raw/send")
			b.ReportMetric(float64(rawCPU)/float64(sendCPU), "raw/send-cpu")
		})
	}
}
