package kafka_test

import (
	"context"
	"errors"
	"testing"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/emitter/kafka"
	"github.com/catalogkit/datahub-go/mockserver"
)

// bridgeRetry is a quick bounded retry policy for the Bridge's requests.
var bridgeRetry = kafka.WithRESTOptions(datahub.WithRetry(datahub.RetryPolicy{MaxAttempts: 3,
	Backoff: datahub.ExponentialBackoff(time.Millisecond, 5*time.Millisecond, time.Millisecond)}))

// syncWithin is Bridge.Sync with a deadline: a Bridge that never gets past
// a message fails the test instead of hanging it.
func syncWithin(t *testing.T, b *kafka.Bridge) (int, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return b.Sync(ctx)
}

// TestBridgeLostAnswerOfCreate: a CREATE whose answer GMS lost after
// committing it is written once and reported Unknown, not replayed into
// GMS's "already exists" refusal.
func TestBridgeLostAnswerOfCreate(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 1)
	em := e.emitter(t)
	ds := dataset(t, "created")
	if err := em.Emit(context.Background(), emitter.Proposal{URN: ds, ChangeType: emitter.Create, Aspect: props("first")}); err != nil {
		t.Fatal(err)
	}
	if err := e.mock.Inject(mockserver.CommitThenDrop(mockserver.OpIngestProposal, 1)); err != nil {
		t.Fatal(err)
	}
	b, rec := e.bridge(t, bridgeRetry)
	if n, err := syncWithin(t, b); n != 1 || err != nil {
		t.Fatalf("Sync = %d, %v; want 1 message handled", n, err)
	}
	got := rec.list()
	if len(got) != 1 || got[0].Status != emitter.Unknown || !errors.Is(got[0].Err, datahub.ErrOutcomeUnknown) || errors.Is(got[0].Err, datahub.ErrValidation) {
		t.Fatalf("outcomes %+v, want one Unknown (not a refusal)", got)
	}
	if n := e.mock.RequestCount(mockserver.OpIngestProposal); n != 1 {
		t.Errorf("%d ingest requests, want 1 (no replay of a CREATE)", n)
	}
	if v := getJSON(t, e, ds.String(), "datasetProperties"); !contains(v, `"first"`) {
		t.Errorf("datasetProperties = %s, want the CREATE's value", v)
	}
}

// TestBridgePoisonMessage: a proposal GMS answers 500 every time is
// reported (Unknown) after the bounded retries, and the next message is
// applied.
func TestBridgePoisonMessage(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 1)
	em := e.emitter(t)
	ctx := context.Background()
	if err := em.Emit(ctx, emitter.Proposal{URN: dataset(t, "poison"), Aspect: props("p")}); err != nil {
		t.Fatal(err)
	}
	if err := em.Emit(ctx, emitter.Proposal{URN: dataset(t, "next"), Aspect: props("n")}); err != nil {
		t.Fatal(err)
	}
	// Every attempt of the first proposal fails (3 attempts); the second
	// proposal's request is the 4th.
	if err := e.mock.Inject(mockserver.Fail(mockserver.OpIngestProposal, mockserver.FailSpec{Status: 500, Times: 3})); err != nil {
		t.Fatal(err)
	}
	b, rec := e.bridge(t, bridgeRetry)
	if n, err := syncWithin(t, b); n != 2 || err != nil {
		t.Fatalf("Sync = %d, %v; want both messages handled", n, err)
	}
	got := rec.list()
	if len(got) != 2 || got[0].Status != emitter.Unknown || got[1].Status != emitter.Written || got[1].Err != nil {
		t.Fatalf("outcomes %+v, want Unknown then Written", got)
	}
	if v := getJSON(t, e, dataset(t, "next").String(), "datasetProperties"); !contains(v, `"n"`) {
		t.Errorf("the message after the poison one was not applied: %s", v)
	}
}

// TestBridgeGroupResumes: a Bridge of a consumer group commits what it
// handled, so that a Bridge started again with the group applies only the
// messages written since.
func TestBridgeGroupResumes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 2)
	em := e.emitter(t)
	ctx := context.Background()
	emit := func(names ...string) {
		for _, n := range names {
			if err := em.Emit(ctx, emitter.Proposal{URN: dataset(t, n), Aspect: props(n)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	emit("a", "b", "c")
	first, _ := e.bridge(t, kafka.WithGroup("bridges"))
	if n, err := syncWithin(t, first); n != 3 || err != nil {
		t.Fatalf("first Sync = %d, %v; want 3", n, err)
	}
	first.Close()
	emit("d", "e")
	second, rec := e.bridge(t, kafka.WithGroup("bridges"))
	if n, err := syncWithin(t, second); n != 2 || err != nil {
		t.Fatalf("second Bridge's Sync = %d, %v; want the 2 new messages", n, err)
	}
	for _, a := range rec.list() {
		if a.URN != dataset(t, "d").String() && a.URN != dataset(t, "e").String() {
			t.Errorf("the second Bridge applied %s again", a.URN)
		}
	}
	if n := e.mock.RequestCount(mockserver.OpIngestProposal); n != 5 {
		t.Errorf("%d ingest requests, want 5 (each message once)", n)
	}
}

// TestBridgeStoppedKeepsMessage: cancelling Run's context while a proposal
// is in flight leaves its message uncommitted (its outcome is Stopped, not
// handled), so a second Bridge of the same group applies it. Before the
// fix the offset was committed and the aspect stayed absent.
func TestBridgeStoppedKeepsMessage(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 1)
	e.mock = mockserver.Start(t, mockserver.WithFault(mockserver.Fault{Op: mockserver.OpIngestProposal, Times: 1, Delay: time.Minute}))
	em := e.emitter(t)
	u := dataset(t, "stopped")
	if err := em.Emit(context.Background(), emitter.Proposal{URN: u, Aspect: props("kept")}); err != nil {
		t.Fatal(err)
	}
	first, rec := e.bridge(t, kafka.WithGroup("stoppers"))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- first.Run(ctx) }()
	for e.mock.RequestCount(mockserver.OpIngestProposal) == 0 { // the proposal is in flight, held by the delay
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run = %v, want nil after its context was cancelled", err)
	}
	if got := rec.list(); len(got) != 0 {
		t.Errorf("the first Bridge reported %+v, want nothing (the message is not handled)", got)
	}
	first.Close()

	second, rec2 := e.bridge(t, kafka.WithGroup("stoppers"))
	if n, err := syncWithin(t, second); n != 1 || err != nil {
		t.Fatalf("second Bridge: Sync = %d, %v; want the stopped message applied", n, err)
	}
	if got := rec2.list(); len(got) != 1 || got[0].Status != emitter.Written {
		t.Errorf("second Bridge outcomes %+v, want one Written", got)
	}
	if v := getJSON(t, e, u.String(), "datasetProperties"); !contains(v, `"kept"`) {
		t.Errorf("datasetProperties = %s, want the stopped message's value", v)
	}
}
