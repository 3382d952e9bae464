package kafka_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/emitter/kafka"
)

// TestUnacknowledgedIsUnknown drops every produce request once the schema is
// registered, so no acknowledgement ever comes: when the caller's context
// ends the outcome is Stopped (the record may have been appended before its
// answer was lost), matching datahub.ErrOutcomeUnknown, never Failed (which the emitter package keeps
// for "not written, safe to send again"), and Emit returns when its context
// ends although the idempotent producer keeps the record in flight.
func TestUnacknowledgedIsUnknown(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 1)
	em := e.emitter(t)
	ctx := context.Background()
	if err := em.Emit(ctx, emitter.Proposal{URN: dataset(t, "first"), Aspect: props("acknowledged")}); err != nil {
		t.Fatalf("first Emit: %v", err)
	}

	var healed atomic.Bool // set once Emit returned, so Close can deliver
	e.cluster.ControlKey(kmsg.Produce.Int16(), func(kmsg.Request) (kmsg.Response, error, bool) {
		if healed.Load() {
			return nil, nil, false
		}
		e.cluster.KeepControl()
		return nil, errors.New("dropped"), true // the connection is closed, no answer
	})
	defer healed.Store(true)
	// An idempotent producer keeps a sent record until the brokers answer,
	// so only the context ends the wait.
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	err := em.Emit(ctx, emitter.Proposal{URN: dataset(t, "second"), Aspect: props("never acknowledged")})
	var be *emitter.BatchError
	if !errors.As(err, &be) || len(be.Results) != 1 {
		t.Fatalf("Emit = %v, want a *emitter.BatchError with one result", err)
	}
	if got := be.Results[0].Status; got != emitter.Stopped {
		t.Errorf("status = %v, want Stopped", got)
	}
	if !errors.Is(err, datahub.ErrOutcomeUnknown) || !errors.Is(err, datahub.ErrStopped) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v, want one matching datahub.ErrOutcomeUnknown, datahub.ErrStopped and context.DeadlineExceeded", err)
	}
}

// TestCancelledContextNotAttempted emits with a context that is already
// done: nothing is sent, so each proposal is NotAttempted (not Unknown) and
// the topic holds only the acknowledged records around it.
func TestCancelledContextNotAttempted(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 1)
	em := e.emitter(t)
	if err := em.Emit(context.Background(), emitter.Proposal{URN: dataset(t, "warm"), Aspect: props("acknowledged")}); err != nil {
		t.Fatalf("first Emit: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := em.Emit(ctx, emitter.Proposal{URN: dataset(t, "cancelled"), Aspect: props("never sent")})
	var be *emitter.BatchError
	if !errors.As(err, &be) || len(be.Results) != 1 {
		t.Fatalf("Emit = %v, want a *emitter.BatchError with one result", err)
	}
	if got := be.Results[0].Status; got != emitter.NotAttempted {
		t.Errorf("status = %v, want NotAttempted", got)
	}
	if errors.Is(err, datahub.ErrOutcomeUnknown) || !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled and not datahub.ErrOutcomeUnknown", err)
	}
	// One partition: had the cancelled record been written, it would be
	// the second message, before this one.
	after := dataset(t, "after")
	if err := em.Emit(context.Background(), emitter.Proposal{URN: after, Aspect: props("acknowledged too")}); err != nil {
		t.Fatalf("last Emit: %v", err)
	}
	recs := consumeAll(t, e, kafka.DefaultMCPTopic, 2)
	if got := string(recs[1].Key); got != after.String() {
		t.Errorf("second message key = %s, want %s (the cancelled proposal must not be written)", got, after)
	}
}
