package emitter_test

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// TestEmitUnderFaults sends 10,000 proposals (2,000 datasets written 5
// times each) while about 20% of the requests fail with 503, 429 with
// Retry-After, or a dropped connection. Every write must land exactly once
// and in order: each dataset ends with 5 versions holding writes 0..4.
func TestEmitUnderFaults(t *testing.T) {
	t.Parallel()
	const datasets, writes = 2000, 5
	tests := []struct {
		name string
		emit func(t *testing.T, r *emitter.REST, ps [][]emitter.Proposal) // ps[w] = write w of every dataset
	}{
		{
			name: "async batches",
			emit: func(t *testing.T, r *emitter.REST, ps [][]emitter.Proposal) {
				a := emitter.NewAsync(r, emitter.WithWorkers(4), emitter.WithBatchSize(25), emitter.WithLinger(2*time.Millisecond))
				for w := range ps {
					for _, p := range ps[w] {
						if err := a.Emit(t.Context(), p); err != nil {
							t.Fatal(err)
						}
					}
				}
				if err := a.Close(t.Context()); err != nil {
					t.Fatal(err)
				}
			},
		},
		{
			name: "sync batches",
			emit: func(t *testing.T, r *emitter.REST, ps [][]emitter.Proposal) {
				for w := range ps {
					for start := 0; start < len(ps[w]); start += 50 {
						if err := r.Emit(t.Context(), ps[w][start:start+50]...); err != nil {
							t.Fatal(err)
						}
					}
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := mockserver.Start(t)
			r, c := newREST(t, s, emitter.WithRetry(fastRetry))
			ps := make([][]emitter.Proposal, writes)
			for w := range writes {
				for i := range datasets {
					ps[w] = append(ps[w], propertiesProposal(t, i, w))
				}
			}
			stop := chaos(t, s, c)
			start := time.Now()
			tt.emit(t, r, ps)
			took := time.Since(start)
			stop()

			attempts := c.attempts.Load()
			failed := int64(c.status(503)+c.status(429)) + c.errs.Load()
			t.Logf("%d proposals in %v: %d attempts, %d failed (%.1f%%): %d×503, %d×429, %d dropped",
				datasets*writes, took.Round(time.Millisecond), attempts, failed, 100*float64(failed)/float64(attempts),
				c.status(503), c.status(429), c.errs.Load())
			if ratio := float64(failed) / float64(attempts); ratio < 0.1 {
				t.Errorf("only %.1f%% of the attempts failed; the test wants about 20%%", 100*ratio)
			}
			if c.status(503) == 0 || c.status(429) == 0 || c.errs.Load() == 0 {
				t.Errorf("want every kind of fault: statuses %v, %d dropped", c.statuses, c.errs.Load())
			}
			accepted := map[string]int{}
			for _, p := range s.Proposals() {
				if p.Err == "" {
					accepted[p.EntityURN+" "+string(p.Aspect)]++
				}
			}
			if len(accepted) != datasets*writes {
				t.Errorf("the server accepted %d distinct proposals, want %d", len(accepted), datasets*writes)
			}
			for k, n := range accepted {
				if n != 1 {
					t.Errorf("accepted %d times: %s", n, k)
				}
			}
			bad := 0
			for i := range datasets {
				if !checkWrites(t, s, i, writes) {
					if bad++; bad > 5 {
						t.Fatal("too many datasets wrong")
					}
				}
			}
		})
	}
}

// TestCancelStopsRetries cancels Emit while it waits to retry, and while a
// request is in flight, and measures how long Emit takes to return.
func TestCancelStopsRetries(t *testing.T) {
	t.Parallel()
	slow := emitter.RetryPolicy{MaxAttempts: 10, MinWait: 10 * time.Second, MaxWait: 30 * time.Second, RetryAfterCap: time.Minute}
	tests := []struct {
		name  string
		fault mockserver.Fault
	}{
		{name: "during a Retry-After wait", fault: mockserver.Fault{Op: mockserver.OpIngestProposal, Status: 503, RetryAfter: 30 * time.Second}},
		{name: "during a backoff wait", fault: mockserver.Fault{Op: mockserver.OpIngestProposal, Status: 500}},
		{name: "during a request", fault: mockserver.Fault{Op: mockserver.OpIngestProposal, Delay: 30 * time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := mockserver.Start(t, mockserver.WithFault(tt.fault))
			r, _ := newREST(t, s, emitter.WithRetry(slow))
			ctx, cancel := context.WithCancel(t.Context())
			errc := make(chan error, 1)
			go func() { errc <- r.Emit(ctx, propertiesProposal(t, 1, 0)) }()
			for s.RequestCount(mockserver.OpIngestProposal) == 0 {
				time.Sleep(time.Millisecond)
			}
			time.Sleep(20 * time.Millisecond)
			start := time.Now()
			cancel()
			err := <-errc
			took := time.Since(start)
			t.Logf("Emit returned %v after cancel: %v", took, err)
			if !errors.Is(err, context.Canceled) {
				t.Errorf("err = %v, want context.Canceled", err)
			}
			if took > time.Second {
				t.Errorf("Emit took %v to return after cancel; want well under 100ms", took)
			}
			if n := s.RequestCount(mockserver.OpIngestProposal); n != 1 {
				t.Errorf("%d requests, want 1 (no retry after cancel)", n)
			}
		})
	}
}

// TestRetryAfterHonoured checks that a 429's Retry-After is waited for, up
// to the cap.
func TestRetryAfterHonoured(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		cap      time.Duration
		min, max time.Duration
	}{
		{name: "under the cap", cap: 5 * time.Second, min: time.Second, max: 3 * time.Second},
		{name: "capped", cap: 50 * time.Millisecond, min: 50 * time.Millisecond, max: 900 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := mockserver.Start(t, mockserver.WithFault(mockserver.Fail(mockserver.OpIngestProposal, 1, 429, time.Second)))
			r, _ := newREST(t, s, emitter.WithRetry(emitter.RetryPolicy{MaxAttempts: 2, MinWait: time.Millisecond, MaxWait: time.Millisecond, RetryAfterCap: tt.cap}))
			start := time.Now()
			if err := r.Emit(t.Context(), propertiesProposal(t, 1, 0)); err != nil {
				t.Fatal(err)
			}
			if took := time.Since(start); took < tt.min || took > tt.max {
				t.Errorf("Emit took %v, want in [%v, %v]", took, tt.min, tt.max)
			}
		})
	}
}

func TestNoRetryOn4xx(t *testing.T) {
	t.Parallel()
	for _, status := range []int{400, 401, 403, 404, 409, 412, 413, 422} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			t.Parallel()
			s := mockserver.Start(t, mockserver.WithFault(mockserver.Fail(mockserver.OpIngestProposal, 0, status, 0)))
			r, _ := newREST(t, s, emitter.WithRetry(fastRetry))
			err := r.Emit(t.Context(), propertiesProposal(t, 1, 0))
			var de *datahub.Error
			if !errors.As(err, &de) || de.StatusCode != status {
				t.Fatalf("err = %v, want a *datahub.Error with status %d", err, status)
			}
			if n := s.RequestCount(mockserver.OpIngestProposal); n != 1 {
				t.Errorf("%d requests for a %d, want 1", n, status)
			}
		})
	}
}

func TestRetriesExhausted(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithFault(mockserver.Fail(mockserver.OpIngestProposal, 0, 503, 0)))
	r, _ := newREST(t, s, emitter.WithRetry(emitter.RetryPolicy{MaxAttempts: 3, MinWait: time.Millisecond, MaxWait: time.Millisecond}))
	err := r.Emit(t.Context(), propertiesProposal(t, 1, 0))
	var de *datahub.Error
	if !errors.As(err, &de) || de.StatusCode != 503 || de.Message == "" {
		t.Fatalf("err = %v, want the last 503 as a *datahub.Error", err)
	}
	if n := s.RequestCount(mockserver.OpIngestProposal); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
}

// TestBatchSplitting checks the chunking at the count and byte limits.
func TestBatchSplitting(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 3000)
	big := func(t *testing.T, i int) emitter.Proposal {
		p, err := emitter.NewProposal(datasetURN(t, i), aspects.DatasetProperties{Description: aspects.Ptr(long)})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name      string
		opts      []emitter.Option
		n         int
		make      func(t *testing.T, i int) emitter.Proposal
		wantBatch int // ingestProposalBatch requests
		wantOne   int // ingestProposal requests
		maxBytes  int64
	}{
		{name: "count 450 by 200", n: 450, make: func(t *testing.T, i int) emitter.Proposal { return propertiesProposal(t, i, 0) }, wantBatch: 3},
		{name: "count 401 by 200", n: 401, make: func(t *testing.T, i int) emitter.Proposal { return propertiesProposal(t, i, 0) }, wantBatch: 2, wantOne: 1},
		{name: "count 10 by 3", n: 10, opts: []emitter.Option{emitter.WithMaxBatchSize(3)}, make: func(t *testing.T, i int) emitter.Proposal { return propertiesProposal(t, i, 0) }, wantBatch: 3, wantOne: 1},
		// each proposal is ~3.4 KB: 5 fit in 20,000 bytes.
		{name: "bytes 20 by 20000", n: 20, opts: []emitter.Option{emitter.WithMaxBatchBytes(20000)}, make: big, wantBatch: 4, maxBytes: 20000},
		{name: "bytes 7 by 8000", n: 7, opts: []emitter.Option{emitter.WithMaxBatchBytes(8000)}, make: big, wantBatch: 3, wantOne: 1, maxBytes: 8000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := mockserver.Start(t)
			r, c := newREST(t, s, tt.opts...)
			var ps []emitter.Proposal
			for i := range tt.n {
				ps = append(ps, tt.make(t, i))
			}
			if err := r.Emit(t.Context(), ps...); err != nil {
				t.Fatal(err)
			}
			got := [2]int{s.RequestCount(mockserver.OpIngestProposalBatch), s.RequestCount(mockserver.OpIngestProposal)}
			if diff := cmp.Diff([2]int{tt.wantBatch, tt.wantOne}, got); diff != "" {
				t.Errorf("[batch, single] requests (-want +got):\n%s", diff)
			}
			if tt.maxBytes > 0 && c.largest() > tt.maxBytes {
				t.Errorf("largest request %d bytes, over the %d limit", c.largest(), tt.maxBytes)
			}
			// order kept: the server saw the proposals in the order given
			var order []string
			for _, p := range s.Proposals() {
				order = append(order, p.EntityURN)
			}
			var want []string
			for _, p := range ps {
				want = append(want, p.URN.String())
			}
			if diff := cmp.Diff(want, order); diff != "" {
				t.Errorf("order (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTooLarge checks that a proposal over the byte limit alone fails
// before anything is sent, alone or in a batch (where the others are sent).
func TestTooLarge(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	r, c := newREST(t, s, emitter.WithMaxBatchBytes(2000))
	huge, err := emitter.NewProposal(datasetURN(t, 99), aspects.DatasetProperties{Description: aspects.Ptr(strings.Repeat("y", 5000))})
	if err != nil {
		t.Fatal(err)
	}
	err = r.Emit(t.Context(), huge)
	var tl *emitter.TooLargeError
	if !errors.As(err, &tl) || !errors.Is(err, datahub.ErrPayloadTooLarge) {
		t.Fatalf("err = %v, want a *TooLargeError matching ErrPayloadTooLarge", err)
	}
	if tl.URN != datasetURN(t, 99).String() || tl.Aspect != "datasetProperties" || tl.Limit != 2000 || tl.Size <= 5000 {
		t.Errorf("TooLargeError = %+v", tl)
	}
	if n := c.attempts.Load(); n != 0 {
		t.Errorf("%d requests sent for a proposal too large", n)
	}

	err = r.Emit(t.Context(), propertiesProposal(t, 1, 0), huge, propertiesProposal(t, 2, 0))
	var be *emitter.BatchError
	if !errors.As(err, &be) {
		t.Fatalf("err = %v, want a *BatchError", err)
	}
	if diff := cmp.Diff([]int{0, 2}, be.Written()); diff != "" {
		t.Errorf("written (-want +got):\n%s", diff)
	}
	if f := be.Failures(); len(f) != 1 || f[0].Index != 1 || f[0].Status != emitter.Rejected || !errors.As(f[0].Err, &tl) {
		t.Errorf("failures = %+v, want proposal 1 rejected as too large", f)
	}
}

// TestServer413Bisects lowers the mock's body limit below the emitter's:
// the server's 413 for a batch makes the emitter split it until the parts
// fit, and a proposal too large alone is rejected with the server's 413.
func TestServer413Bisects(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithMaxBodyBytes(12000))
	r, _ := newREST(t, s)
	var ps []emitter.Proposal
	for i := range 12 {
		ps = append(ps, propertiesProposal(t, i, 0))
	}
	huge, err := emitter.NewProposal(datasetURN(t, 99), aspects.DatasetProperties{Description: aspects.Ptr(strings.Repeat("z", 20000))})
	if err != nil {
		t.Fatal(err)
	}
	ps = append(ps[:6], append([]emitter.Proposal{huge}, ps[6:]...)...)
	err = r.Emit(t.Context(), ps...)
	var be *emitter.BatchError
	if !errors.As(err, &be) {
		t.Fatalf("err = %v, want a *BatchError", err)
	}
	f := be.Failures()
	if len(f) != 1 || f[0].Index != 6 || !errors.Is(f[0].Err, datahub.ErrPayloadTooLarge) {
		t.Errorf("failures = %+v, want only proposal 6, with the server's 413", f)
	}
	if got := len(be.Written()); got != 12 {
		t.Errorf("%d written, want 12", got)
	}
	for i := range 12 {
		if _, err := s.GetAspect(datasetURN(t, i).String(), "datasetProperties"); err != nil {
			t.Errorf("dataset %d: %v", i, err)
		}
	}
}

// TestRejectedIsolation sends a batch with invalid proposals among good
// ones: the server refuses the whole batch with 422, and the emitter
// finds the bad ones (with the server's message) and writes the others.
func TestRejectedIsolation(t *testing.T) {
	t.Parallel()
	bad := func(i int) emitter.Proposal {
		return emitter.Proposal{URN: urn.MustParse(datasetURN(t, i).String()), Aspect: emitter.RawAspect{Name: "status", JSON: json.RawMessage(`{"removed":"not a boolean"}`)}}
	}
	tests := []struct {
		name         string
		isolate      bool
		wantWritten  []int
		wantRejected []int
		wantRequests int
	}{
		{name: "isolated", isolate: true, wantWritten: []int{0, 1, 2, 4, 5, 6, 7, 9}, wantRejected: []int{3, 8}},
		{name: "whole batch", isolate: false, wantRejected: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, wantRequests: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := mockserver.Start(t)
			r, c := newREST(t, s, emitter.WithIsolateRejected(tt.isolate))
			var ps []emitter.Proposal
			for i := range 10 {
				if i == 3 || i == 8 {
					ps = append(ps, bad(i))
				} else {
					ps = append(ps, propertiesProposal(t, i, 0))
				}
			}
			err := r.Emit(t.Context(), ps...)
			var be *emitter.BatchError
			if !errors.As(err, &be) || !errors.Is(err, datahub.ErrValidation) {
				t.Fatalf("err = %v, want a *BatchError matching ErrValidation", err)
			}
			var rejected []int
			for _, f := range be.Failures() {
				rejected = append(rejected, f.Index)
				var de *datahub.Error
				if !errors.As(f.Err, &de) || de.StatusCode != 422 || de.Message == "" {
					t.Errorf("proposal %d: err = %v, want the server's 422", f.Index, f.Err)
				}
				if f.Status != emitter.Rejected {
					t.Errorf("proposal %d: status %v, want rejected", f.Index, f.Status)
				}
			}
			if diff := cmp.Diff(tt.wantRejected, rejected); diff != "" {
				t.Errorf("rejected (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantWritten, be.Written()); diff != "" {
				t.Errorf("written (-want +got):\n%s", diff)
			}
			for _, i := range tt.wantWritten {
				if _, err := s.GetAspect(datasetURN(t, i).String(), "datasetProperties"); err != nil {
					t.Errorf("dataset %d not written: %v", i, err)
				}
			}
			t.Logf("%d requests", c.attempts.Load())
			if tt.wantRequests > 0 && c.attempts.Load() != int64(tt.wantRequests) {
				t.Errorf("%d requests, want %d", c.attempts.Load(), tt.wantRequests)
			}
		})
	}
}

// TestStopOnServerFailure checks that a batch failing with a 5xx after its
// retries stops the call: its proposals are Failed, the rest not attempted.
func TestStopOnServerFailure(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	r, c := newREST(t, s, emitter.WithRetry(emitter.RetryPolicy{MaxAttempts: 2, MinWait: time.Millisecond, MaxWait: time.Millisecond}))
	var ps []emitter.Proposal
	for i := range 450 {
		ps = append(ps, propertiesProposal(t, i, 0))
	}
	// The first batch lands; from the second request on, every batch gets a 500.
	c.before = func(n int64) {
		if n == 2 {
			s.Inject(mockserver.Fault{Op: mockserver.OpIngestProposalBatch, Status: 500})
		}
	}
	err := r.Emit(t.Context(), ps...)
	var be *emitter.BatchError
	if !errors.As(err, &be) {
		t.Fatalf("err = %v, want a *BatchError", err)
	}
	counts := map[emitter.Status]int{}
	for _, res := range be.Results {
		counts[res.Status]++
	}
	t.Logf("%v; statuses %v", err, counts)
	if diff := cmp.Diff(map[emitter.Status]int{emitter.Written: 200, emitter.Failed: 200, emitter.NotAttempted: 50}, counts); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
	for _, f := range be.Failures() {
		if f.Status != emitter.Failed {
			t.Errorf("proposal %d: %v, want failed (no definite answer)", f.Index, f.Status)
		}
	}
}

func TestAuth(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithToken("good-token"))
	tests := []struct {
		name    string
		token   string
		wantErr error
	}{
		{name: "no token", wantErr: datahub.ErrUnauthorized},
		{name: "bad token", token: "bad-token", wantErr: datahub.ErrUnauthorized},
		{name: "good token", token: "good-token"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, _ := newREST(t, s, emitter.WithToken(tt.token))
			err := r.Emit(t.Context(), propertiesProposal(t, 1, 0))
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if err != nil && tt.token != "" && strings.Contains(err.Error(), tt.token) {
				t.Errorf("error shows the token: %v", err)
			}
		})
	}
}

func TestTestConnection(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithToken("good-token"))
	tests := []struct {
		name    string
		url     string
		stub    *stubTransport
		wantErr error
		wantMsg string
	}{
		{name: "GMS root", url: s.URL()},
		{name: "front address", url: s.URL() + "/api/gms/"},
		{name: "front end", url: "http://frontend:9002", stub: &stubTransport{status: 200, body: `{"config":{"appVersion":"v1"}}`}, wantErr: emitter.ErrNotGMS, wantMsg: "front end"},
		{name: "front end html", url: "http://frontend:9002", stub: &stubTransport{status: 200, body: `<!doctype html><html></html>`}, wantErr: emitter.ErrNotGMS},
		{name: "noCode not a string", url: "http://gms", stub: &stubTransport{status: 200, body: `{"noCode":true}`}, wantErr: emitter.ErrNotGMS},
		{name: "401", url: "http://gms", stub: &stubTransport{status: 401, body: `{"message":"Unauthorized to perform this action."}`}, wantErr: datahub.ErrUnauthorized, wantMsg: "authentication failed"},
		{name: "404", url: "http://gms", stub: &stubTransport{status: 404}, wantErr: datahub.ErrNotFound, wantMsg: "cannot connect"},
		{name: "unreachable", url: "http://gms", stub: &stubTransport{}, wantMsg: "no answer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			opts := []emitter.Option{emitter.WithRetry(emitter.RetryPolicy{MaxAttempts: 1})}
			if tt.stub != nil {
				opts = append(opts, emitter.WithHTTPClient(&http.Client{Transport: *tt.stub}))
			}
			r, err := emitter.NewREST(tt.url, opts...)
			if err != nil {
				t.Fatal(err)
			}
			err = r.TestConnection(t.Context())
			if tt.wantErr == nil && tt.wantMsg == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || (tt.wantErr != nil && !errors.Is(err, tt.wantErr)) || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("err = %v, want %v mentioning %q", err, tt.wantErr, tt.wantMsg)
			}
		})
	}
}

func TestProposalValidation(t *testing.T) {
	t.Parallel()
	ds := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)")
	feature := urn.MustParse("urn:li:mlFeature:(ns,f)")
	tests := []struct {
		name string
		u    urn.URN
		a    aspects.Aspect
	}{
		{name: "aspect not allowed on the entity", u: feature, a: aspects.SchemaMetadata{}},
		{name: "nil URN", u: nil, a: aspects.Status{}},
		{name: "zero URN", u: urn.Dataset{}, a: aspects.Status{}},
		{name: "nil aspect", u: ds, a: nil},
		{name: "nil aspect pointer", u: ds, a: (*aspects.Status)(nil)},
		{name: "unknown entity", u: urn.MustParse("urn:li:noSuchEntity:x"), a: aspects.Status{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if _, err := emitter.NewProposal(tt.u, tt.a); !errors.Is(err, datahub.ErrValidation) {
				t.Errorf("NewProposal: err = %v, want ErrValidation", err)
			}
		})
	}

	s := mockserver.Start(t)
	r, c := newREST(t, s)
	invalid := []emitter.Proposal{
		{URN: ds, EntityType: "mlFeature", Aspect: aspects.Status{}},
		{URN: ds, ChangeType: "MERGE", Aspect: aspects.Status{}},
		{URN: ds},
		{URN: ds, ChangeType: emitter.Delete, AspectName: "status"},
		{Aspect: aspects.Status{}},
		{URN: ds, Aspect: emitter.RawAspect{Name: "status", JSON: json.RawMessage(`{bad`)}},
		{URN: ds, Aspect: emitter.RawAspect{Name: "status", JSON: json.RawMessage(`"a string"`)}},
	}
	for i, p := range invalid {
		if err := r.Emit(t.Context(), p); !errors.Is(err, datahub.ErrValidation) {
			t.Errorf("Emit(invalid %d): err = %v, want ErrValidation", i, err)
		}
	}
	if n := c.attempts.Load(); n != 0 {
		t.Errorf("%d requests sent for invalid proposals", n)
	}
}

func TestDeleteEntity(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	r, _ := newREST(t, s)
	if err := r.Emit(t.Context(), propertiesProposal(t, 1, 0), propertiesProposal(t, 2, 0)); err != nil {
		t.Fatal(err)
	}
	del, err := emitter.NewDeleteEntity(datasetURN(t, 1))
	if err != nil {
		t.Fatal(err)
	}
	// In a batch the delete goes alone, in its place: write 3, delete 1, write 1 again.
	if err := r.Emit(t.Context(), propertiesProposal(t, 3, 0), del, propertiesProposal(t, 1, 1)); err != nil {
		t.Fatal(err)
	}
	if n := s.RequestCount(mockserver.OpDeleteEntity); n != 1 {
		t.Errorf("%d delete requests, want 1", n)
	}
	got, err := s.GetAspect(datasetURN(t, 1).String(), "datasetProperties")
	if err != nil {
		t.Fatal(err)
	}
	if d := got.(*aspects.DatasetProperties).Description; d == nil || *d != description(1, 1) {
		t.Errorf("dataset 1 description %v after delete and rewrite", d)
	}
	if _, err := s.GetAspectJSON(datasetURN(t, 1).String(), "datasetProperties", 1); err == nil {
		t.Error("dataset 1 kept its history after the delete")
	}
}

// TestConcurrentEmit runs single-proposal Emit calls from many goroutines
// with faults, and checks every proposal landed once.
func TestConcurrentEmit(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	r, c := newREST(t, s, emitter.WithRetry(fastRetry))
	chaos(t, s, c)
	const n, workers = 1000, 8
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < n; i += workers {
				if err := r.Emit(t.Context(), propertiesProposal(t, i, 0)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	t.Logf("%d attempts, %d×503, %d×429, %d dropped", c.attempts.Load(), c.status(503), c.status(429), c.errs.Load())
	for i := range n {
		if !checkWrites(t, s, i, 1) {
			break
		}
	}
}

// TestTimeoutPerAttempt checks that WithTimeout bounds one attempt and the
// attempt that timed out is retried.
func TestTimeoutPerAttempt(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithFault(mockserver.Fault{Op: mockserver.OpIngestProposal, Times: 1, Delay: 2 * time.Second}))
	r, _ := newREST(t, s, emitter.WithTimeout(100*time.Millisecond), emitter.WithRetry(fastRetry))
	start := time.Now()
	if err := r.Emit(t.Context(), propertiesProposal(t, 1, 0)); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("Emit took %v: the slow attempt was not cut at 100ms", took)
	}
	if n := s.RequestCount(mockserver.OpIngestProposal); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
	checkWrites(t, s, 1, 1)
}

// TestTLS serves the mock over TLS: the emitter reaches it with the TLS
// settings of WithHTTPClient, and without them fails at once (a certificate
// error is not retried).
func TestTLS(t *testing.T) {
	t.Parallel()
	s := mockserver.New()
	t.Cleanup(func() { s.Close() })
	srv := httptest.NewTLSServer(s)
	t.Cleanup(srv.Close)

	r, err := emitter.NewREST(srv.URL+"/api/gms", emitter.WithHTTPClient(srv.Client()))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Emit(t.Context(), propertiesProposal(t, 1, 0)); err != nil {
		t.Fatal(err)
	}
	checkWrites(t, s, 1, 1)

	untrusted, err := emitter.NewREST(srv.URL, emitter.WithRetry(emitter.RetryPolicy{MaxAttempts: 5, MinWait: time.Second, MaxWait: time.Second}))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = untrusted.Emit(t.Context(), propertiesProposal(t, 2, 0))
	var ue x509.UnknownAuthorityError
	if !errors.As(err, &ue) {
		t.Errorf("err = %v, want an x509.UnknownAuthorityError", err)
	}
	if took := time.Since(start); took > 500*time.Millisecond {
		t.Errorf("a certificate error took %v: it was retried", took)
	}
}

// TestLoggerHidesToken runs retries with a logger and a token: the log
// tells what happened and never shows the token.
func TestLoggerHidesToken(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithToken("tok-SECRET"), mockserver.WithFault(mockserver.Fail(mockserver.OpIngestProposal, 2, 503, 0)))
	var buf safeBuffer
	log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	r, _ := newREST(t, s, emitter.WithToken("tok-SECRET"), emitter.WithLogger(log), emitter.WithRetry(fastRetry))
	if err := r.Emit(t.Context(), propertiesProposal(t, 1, 0)); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if strings.Contains(out, "SECRET") {
		t.Errorf("the log shows the token:\n%s", out)
	}
	if strings.Count(out, "retrying request") != 2 {
		t.Errorf("want 2 retries logged:\n%s", out)
	}
}

type safeBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *safeBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *safeBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
