package kafka_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/emitter/kafka"
	"github.com/catalogkit/datahub-go/mockserver"
)

// TestCloseLosesNothing hands proposals to the producer with EmitAsync and
// closes the Emitter without flushing: every proposal must be acknowledged
// before Close returns, and reach the mock.
func TestCloseLosesNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 3)
	var mu sync.Mutex
	var acks, onAcks []kafka.Ack
	em := e.emitter(t, kafka.WithOnAck(func(a kafka.Ack) {
		mu.Lock()
		defer mu.Unlock()
		onAcks = append(onAcks, a)
	}))
	ctx := context.Background()
	const n = 100
	for i := range n {
		p := emitter.Proposal{URN: dataset(t, fmt.Sprintf("c%d", i)), Aspect: props(fmt.Sprintf("c%d", i))}
		err := em.EmitAsync(ctx, p, func(a kafka.Ack) {
			mu.Lock()
			defer mu.Unlock()
			acks = append(acks, a)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := em.Close(ctx); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	if len(acks) != n || len(onAcks) != n {
		t.Errorf("after Close: %d done callbacks and %d WithOnAck calls, want %d each", len(acks), len(onAcks), n)
	}
	for _, a := range acks {
		if a.Err != nil {
			t.Errorf("%s: %v", a.URN, a.Err)
		}
	}
	mu.Unlock()

	if err := em.EmitAsync(ctx, emitter.Proposal{URN: dataset(t, "late"), Aspect: props("late")}, nil); !errors.Is(err, kafka.ErrClosed) {
		t.Errorf("EmitAsync after Close = %v, want ErrClosed", err)
	}
	var be *emitter.BatchError
	if err := em.Emit(ctx, emitter.Proposal{URN: dataset(t, "late"), Aspect: props("late")}); !errors.As(err, &be) ||
		be.Results[0].Status != emitter.NotAttempted || !errors.Is(be.Results[0].Err, kafka.ErrClosed) {
		t.Errorf("Emit after Close = %v, want the proposal not attempted with ErrClosed", err)
	}

	b, _ := e.bridge(t)
	if got := syncBridge(t, b); got != n {
		t.Errorf("bridge handled %d messages, want %d", got, n)
	}
	for i := range n {
		if got := getJSON(t, e, dataset(t, fmt.Sprintf("c%d", i)).String(), "datasetProperties"); !contains(got, fmt.Sprintf(`"c%d"`, i)) {
			t.Errorf("c%d: datasetProperties = %s", i, got)
		}
	}
}

// TestBridgeRetriesAndSkips checks that the Bridge retries a GMS answering
// 503, reports a message it cannot decode and goes on, and sends the token.
func TestBridgeRetriesAndSkips(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 1)
	e.mock = mockserver.Start(t, mockserver.WithToken("s3cret"),
		mockserver.WithFault(mockserver.Fault{Op: mockserver.OpIngestProposal, Times: 2, Status: http.StatusServiceUnavailable}))
	em := e.emitter(t)
	ctx := context.Background()
	u := dataset(t, "retried")
	if err := em.Emit(ctx, emitter.Proposal{URN: u, Aspect: props("one")}); err != nil {
		t.Fatal(err)
	}
	raw, err := kgo.NewClient(kgo.SeedBrokers(e.brokers...), kgo.DefaultProduceTopic(kafka.DefaultMCPTopic))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	for _, v := range [][]byte{[]byte(`{"not":"avro"}`), {0, 0, 0, 0, 1, 0xff, 0xff}} {
		if err := raw.ProduceSync(ctx, &kgo.Record{Key: []byte("junk"), Value: v}).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
	if err := em.Emit(ctx, emitter.Proposal{URN: u, Aspect: props("two")}); err != nil {
		t.Fatal(err)
	}

	// Without the token, Sync stops at the first proposal and applies
	// nothing; the next call, with the token, applies it.
	noToken, _ := e.bridge(t)
	ctx1, cancel := context.WithCancel(ctx)
	defer cancel()
	if n, err := noToken.Sync(ctx1); n != 0 || !errors.Is(err, datahub.ErrUnauthorized) {
		t.Errorf("Sync without the token = %d, %v; want 0, an error matching datahub.ErrUnauthorized", n, err)
	}
	b, rec := e.bridge(t, kafka.WithRESTOptions(datahub.WithToken("s3cret")))
	if n := syncBridge(t, b); n != 4 {
		t.Errorf("bridge handled %d messages, want 4", n)
	}
	var oks, errs int
	for _, a := range rec.list() {
		if a.Err != nil {
			errs++
		} else {
			oks++
		}
	}
	if oks != 2 || errs != 2 {
		t.Errorf("applied %d and reported %d undecodable, want 2 and 2: %+v", oks, errs, rec.list())
	}
	// The mock does not count the unauthorized request.
	if got := e.mock.RequestCount(mockserver.OpIngestProposal); got != 4 {
		t.Errorf("%d ingest requests, want 4 (2 refused with 503, then 2 proposals)", got)
	}
	if got := getJSON(t, e, u.String(), "datasetProperties"); !contains(got, `"two"`) {
		t.Errorf("datasetProperties = %s", got)
	}
}
