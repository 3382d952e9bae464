package client

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/internal/transport"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// afterWrite is an http.RoundTripper that calls hook once, after the first
// ingest request fails without an answer: another writer acting while the
// client does not know what became of its write.
type afterWrite struct {
	next http.RoundTripper
	hook func()
	done atomic.Bool
}

func (a *afterWrite) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := a.next.RoundTrip(r)
	if err != nil && isWrite(r) && a.done.CompareAndSwap(false, true) {
		a.hook()
	}
	return resp, err
}

func TestModifyLostAnswer(t *testing.T) {
	t.Parallel()
	const a, b, mine = "urn:li:mlFeature:(lost,a)", "urn:li:mlFeature:(lost,b)", "urn:li:mlFeature:(lost,mine)"
	for _, tc := range []struct {
		name   string
		fault  func(s *mockserver.Server)
		other  []string // what another writer stores after the lost answer; nil: nobody
		want   []string
		calls  int // times fn runs
		writes int
	}{
		{"applied, nobody else", func(s *mockserver.Server) { s.CommitThenDrop(opWrite, 1) },
			nil, []string{a, mine}, 1, 1},
		// The stored version is past the one the write made: the history
		// row of that version shows the write.
		{"applied, then another writer", func(s *mockserver.Server) { s.CommitThenDrop(opWrite, 1) },
			[]string{a, mine, b}, []string{a, mine, b}, 1, 1},
		{"not applied, nobody else", func(s *mockserver.Server) { s.Drop(opWrite, 1) },
			nil, []string{a, mine}, 2, 2},
		{"not applied, another writer", func(s *mockserver.Server) { s.Drop(opWrite, 1) },
			[]string{a, b}, []string{a, b, mine}, 2, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := mockserver.Start(t)
			table := tableURN(t, "lost")
			putTable(t, s, table, a)
			rt := &afterWrite{next: transport.NewPooledClient().Transport, hook: func() {
				if tc.other != nil {
					putTable(t, s, table, tc.other...)
				}
			}}
			c := newTestClient(t, s, datahub.WithHTTPClient(&http.Client{Transport: rt}))
			tc.fault(s)
			calls := 0
			err := Modify(t.Context(), c, table, func(p *aspects.MLFeatureTableProperties) error {
				calls++
				p.MLFeatures = append(p.MLFeatures, mine) // blind append: twice would duplicate
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, mustGetTable(t, s, table).MLFeatures); diff != "" {
				t.Errorf("features (-want +got):\n%s", diff)
			}
			if calls != tc.calls {
				t.Errorf("fn ran %d times, want %d", calls, tc.calls)
			}
			if n := s.RequestCount(opWrite); n != tc.writes {
				t.Errorf("%d writes, want %d", n, tc.writes)
			}
		})
	}
}

func TestModifyContextEndsDuringWrite(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	table := tableURN(t, "deadline")
	putTable(t, s, table)
	s.Latency(opWrite, time.Minute)
	ctx, cancel := context.WithCancel(t.Context())
	// Cancel once the write is on its way: the client cannot know whether
	// the server applied it.
	rt := &beforeWrite{next: transport.NewPooledClient().Transport, hook: cancel}
	c := newTestClient(t, s, datahub.WithHTTPClient(&http.Client{Transport: rt}))
	err := c.AddFeatureToTable(ctx, table, featureURN(t, "deadline", "a"))
	if !errors.Is(err, datahub.ErrOutcomeUnknown) || !errors.Is(err, context.Canceled) || !errors.Is(err, datahub.ErrStopped) {
		t.Errorf("err = %v, want ErrStopped, ErrOutcomeUnknown and context.Canceled", err)
	}
	s.ClearFaults()
}

// beforeWrite is an http.RoundTripper that calls hook as an ingest
// request is sent.
type beforeWrite struct {
	next http.RoundTripper
	hook func()
}

func (b *beforeWrite) RoundTrip(r *http.Request) (*http.Response, error) {
	if isWrite(r) {
		time.AfterFunc(50*time.Millisecond, b.hook)
	}
	return b.next.RoundTrip(r)
}

// TestEnsureStoppedByItsCaller checks that Ensure reports a create its
// caller stopped in flight as ErrStopped (with ErrOutcomeUnknown and the
// context's error), instead of reading back with a dead context, and that
// running it again finishes the work.
func TestEnsureStoppedByItsCaller(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	u := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.ensure_stopped,PROD)").(urn.Dataset)
	s.Latency(opBatchWrite, time.Minute)
	ctx, cancel := context.WithCancel(t.Context())
	rt := &beforeWrite{next: transport.NewPooledClient().Transport, hook: cancel}
	c := newTestClient(t, s, datahub.WithHTTPClient(&http.Client{Transport: rt}))
	_, err := c.Entities().Ensure(ctx, entity.NewDataset(u, "ensured"))
	if !errors.Is(err, datahub.ErrStopped) || !errors.Is(err, datahub.ErrOutcomeUnknown) || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want ErrStopped, ErrOutcomeUnknown and context.Canceled", err)
	}
	s.ClearFaults()
	if _, err := newTestClient(t, s).Entities().Ensure(t.Context(), entity.NewDataset(u, "ensured")); err != nil {
		t.Fatalf("Ensure again: %v", err)
	}
}
