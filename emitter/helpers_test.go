package emitter_test

import (
	"errors"
	"fmt"
	datahub "github.com/catalogkit/datahub-go"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/internal/testshared"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// fastRetry retries often and quickly, and caps the mock's Retry-After
// (whole seconds) at a few milliseconds, so that fault tests run fast.
var fastRetry = datahub.RetryPolicy{MaxAttempts: 12, Backoff: datahub.ExponentialBackoff(time.Millisecond, 20*time.Millisecond, 5*time.Millisecond)}

// newREST returns a REST emitter for s (through its /api/gms front address
// when front is true) that sends through a counting transport.
func newREST(t testing.TB, s *mockserver.Server, opts ...emitter.Option) (*emitter.REST, *counter) {
	t.Helper()
	c := &counter{next: http.DefaultTransport.(*http.Transport).Clone()}
	c.next.MaxIdleConnsPerHost = 64
	t.Cleanup(c.next.CloseIdleConnections)
	opts = append([]emitter.Option{datahub.WithHTTPClient(&http.Client{Transport: c}), testshared.EndpointOption()}, opts...)
	r, err := emitter.NewREST(s.URL()+"/api/gms", opts...)
	if err != nil {
		t.Fatal(err)
	}
	return r, c
}

// The mock operations the emitter's writes are counted and failed under,
// in this process's endpoint (testshared.EnvEndpoint): the end-to-end
// tests name these, so that one suite runs over Rest.li and over OpenAPI.
var (
	// opWrite is a request of one proposal.
	opWrite = pick(mockserver.OpIngestProposal, mockserver.OpV3Write)
	// opBatchWrite is a request of several proposals.
	opBatchWrite = pick(mockserver.OpIngestProposalBatch, mockserver.OpV3Write)
)

// validationStatus is the status of a refused aspect value: Rest.li's 422,
// OpenAPI's 400 ("Validation Error").
var validationStatus = map[bool]int{false: http.StatusUnprocessableEntity, true: http.StatusBadRequest}[testshared.OverOpenAPI()]

// pick returns restli, or overOpenAPI when this process runs the suite over
// OpenAPI.
func pick(restli, overOpenAPI mockserver.Op) mockserver.Op {
	if testshared.OverOpenAPI() {
		return overOpenAPI
	}
	return restli
}

// counter is an http.RoundTripper that counts attempts and their outcomes
// on the client side, and remembers the largest request body.
type counter struct {
	next                  *http.Transport
	attempts, errs        atomic.Int64
	mu                    sync.Mutex
	statuses              map[int]int
	maxBody, requestBytes int64
	// before, when set, runs before attempt n (from 1) is sent.
	before func(n int64)
	// refuse, when set and true for attempt n, fails the attempt as a
	// refused connection without sending it.
	refuse func(n int64) bool
	// hold, when true, loses the answer of every attempt: the request is
	// sent and handled, then the attempt waits for its context to end and
	// fails with the context's error, as an answer arriving after the
	// deadline.
	hold atomic.Bool
}

func (c *counter) RoundTrip(req *http.Request) (*http.Response, error) {
	n := c.attempts.Add(1)
	if c.before != nil {
		c.before(n)
	}
	if c.refuse != nil && c.refuse(n) {
		c.errs.Add(1)
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	}
	c.mu.Lock()
	c.maxBody = max(c.maxBody, req.ContentLength)
	c.requestBytes += req.ContentLength
	c.mu.Unlock()
	resp, err := c.next.RoundTrip(req)
	if err != nil {
		c.errs.Add(1)
		return nil, err
	}
	if c.hold.Load() {
		resp.Body.Close()
		<-req.Context().Done()
		c.errs.Add(1)
		return nil, req.Context().Err()
	}
	c.mu.Lock()
	if c.statuses == nil {
		c.statuses = map[int]int{}
	}
	c.statuses[resp.StatusCode]++
	c.mu.Unlock()
	return resp, nil
}

func (c *counter) status(code int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.statuses[code]
}

func (c *counter) largest() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.maxBody
}

// chaos makes every fifth attempt sent through c fail (20%), in turn with
// a 503, a 429 with Retry-After and a dropped connection: just before the
// attempt leaves, it installs one of the mock's faults for one request.
// With requests in flight at once, the fault may hit another request than
// the one that installed it; the proportion holds. The returned function
// stops the faults and clears those left.
func chaos(t testing.TB, s *mockserver.Server, c *counter) (stop func()) {
	t.Helper()
	var stopped atomic.Bool
	c.before = func(n int64) {
		if n%5 != 0 || stopped.Load() {
			return
		}
		f := mockserver.Fault{Op: mockserver.OpAny, Times: 1}
		switch (n / 5) % 3 {
		case 0:
			f.Status = http.StatusServiceUnavailable
		case 1:
			f.Status, f.RetryAfter = http.StatusTooManyRequests, time.Second
		case 2:
			f.Drop = true
		}
		s.Inject(f)
	}
	stop = func() {
		stopped.Store(true)
		s.ClearFaults()
	}
	t.Cleanup(stop)
	return stop
}

// datasetURN returns the URN of test dataset i.
func datasetURN(t testing.TB, i int) urn.Dataset {
	t.Helper()
	u, err := urn.NewDataset("hive", fmt.Sprintf("db.table_%05d", i), "PROD")
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// description returns write number w of a dataset's description.
func description(i, w int) string { return fmt.Sprintf("table %d, write %d", i, w) }

// propertiesProposal returns write w of dataset i's datasetProperties.
func propertiesProposal(t testing.TB, i, w int) emitter.Proposal {
	t.Helper()
	p, err := emitter.NewProposal(datasetURN(t, i), aspects.DatasetProperties{Description: aspects.Ptr(description(i, w))})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// roundProposals builds the proposals of a benchmark's rounds: write w of
// dataset i's datasetProperties for every i of a slice, the proposal
// propertiesProposal returns, from the datasets' URNs built once and
// without testing's Helper, whose stack walks were most of a round's
// untimed setup and of its garbage.
type roundProposals struct{ urns []urn.Dataset }

// newRoundProposals returns the builder of rounds of n proposals.
func newRoundProposals(t testing.TB, n int) *roundProposals {
	m := &roundProposals{urns: make([]urn.Dataset, n)}
	for i := range m.urns {
		m.urns[i] = datasetURN(t, i)
	}
	return m
}

// fill sets ps[i] to write w of dataset i's datasetProperties.
func (m *roundProposals) fill(t testing.TB, ps []emitter.Proposal, w int) {
	for i := range ps {
		p, err := emitter.NewProposal(m.urns[i], aspects.DatasetProperties{Description: aspects.Ptr(description(i, w))})
		if err != nil {
			t.Fatal(err)
		}
		ps[i] = p
	}
}

// checkWrites checks that dataset i's datasetProperties were written exactly
// writes times, in order: history rows 1..writes-1 hold writes 0..writes-2,
// the latest holds the last write, and there is no row beyond.
func checkWrites(t testing.TB, s *mockserver.Server, i, writes int) bool {
	t.Helper()
	u := datasetURN(t, i).String()
	got, err := s.GetAspect(u, "datasetProperties")
	if err != nil {
		t.Errorf("dataset %d: %v", i, err)
		return false
	}
	if d := got.(*aspects.DatasetProperties).Description; d == nil || *d != description(i, writes-1) {
		t.Errorf("dataset %d: latest description %v, want %q", i, d, description(i, writes-1))
		return false
	}
	for v := 1; v < writes; v++ {
		raw, err := s.GetAspectJSON(u, "datasetProperties", int64(v))
		if err != nil {
			t.Errorf("dataset %d: version %d: %v", i, v, err)
			return false
		}
		if want := fmt.Sprintf("%q", description(i, v-1)); !strings.Contains(string(raw), want) {
			t.Errorf("dataset %d: version %d = %s, want description %s", i, v, raw, want)
			return false
		}
	}
	if _, err := s.GetAspectJSON(u, "datasetProperties", int64(writes)); err == nil {
		t.Errorf("dataset %d: a version %d exists: a write landed twice or out of order", i, writes)
		return false
	}
	return true
}

// stubTransport answers every request with one canned response, for the
// answers the mock server cannot give (a front end's /config).
type stubTransport struct {
	status int
	body   string
}

func (s stubTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_, _ = io.Copy(io.Discard, req.Body)
		req.Body.Close()
	}
	if s.status == 0 {
		return nil, errors.New("stub: no answer")
	}
	return &http.Response{StatusCode: s.status, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(s.body)), Request: req}, nil
}
