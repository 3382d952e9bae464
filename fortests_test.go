package datahub_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// TestForTestsRetries checks the preset's retry policy against the mock:
// an answer that stays 503 (with a Retry-After of a minute) is tried
// TestMaxAttempts times, each Retry-After wait capped: within a 30 s
// deadline, which the default policy (a Retry-After honoured up to a
// minute) would exceed with the deadline's error instead of the 503.
func TestForTestsRetries(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	s.Fail(mockserver.OpIngestProposal, mockserver.FailSpec{Status: http.StatusServiceUnavailable, Times: mockserver.Forever, RetryAfter: time.Minute})
	em, err := emitter.NewREST(s.URL(), datahub.ForTests())
	if err != nil {
		t.Fatal(err)
	}
	ds := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)")
	p, err := emitter.NewProposal(ds, aspects.Status{})
	if err != nil {
		t.Fatal(err)
	}
	var de *datahub.Error
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	if err := em.Emit(ctx, p); !errors.As(err, &de) || de.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("Emit = %v, want the 503", err)
	}
	if got := s.RequestCount(mockserver.OpIngestProposal); got != datahub.TestMaxAttempts {
		t.Errorf("%d attempts, want %d", got, datahub.TestMaxAttempts)
	}
}

// TestForTestsConflicts checks the preset's conflict policy: a conflict
// that never clears ends Modify after TestConflictAttempts rounds, and an
// option after the preset overrides it.
func TestForTestsConflicts(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		opts []client.Option
		want int
	}{
		{"preset", []client.Option{datahub.ForTests()}, datahub.TestConflictAttempts},
		{"overridden", []client.Option{datahub.ForTests(), client.WithConflictPolicy(client.ConflictPolicy{MaxAttempts: 2})}, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := mockserver.Start(t)
			c, err := client.New(s.URL(), tt.opts...)
			if err != nil {
				t.Fatal(err)
			}
			table := urn.MustParse("urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,contended)")
			if err := s.PutAspect(table.String(), aspects.MLFeatureTableProperties{}); err != nil {
				t.Fatal(err)
			}
			rounds := 0
			err = client.Modify(t.Context(), c, table, func(p *aspects.MLFeatureTableProperties) error {
				rounds++
				// Another writer changes the aspect between every read and write.
				if err := s.PutAspect(table.String(), aspects.MLFeatureTableProperties{Description: aspects.Ptr(string(rune('a' + rounds)))}); err != nil {
					t.Error(err)
				}
				p.Description = aspects.Ptr("mine")
				return nil
			})
			var ce *client.ConflictError
			if !errors.As(err, &ce) || ce.Attempts != tt.want || rounds != tt.want {
				t.Errorf("Modify = %v after %d rounds, want a *client.ConflictError after %d", err, rounds, tt.want)
			}
		})
	}
}

// TestForTestsWrongAddress checks that a server that does not listen is
// reported after the preset's short waits: within a 5 s deadline, which
// the default policy's waits (at least 15 s over 5 attempts) would exceed
// with the deadline's error instead of the connection error.
func TestForTestsWrongAddress(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	addr := s.URL()
	if err := s.Close(); err != nil { // the port now refuses connections
		t.Fatal(err)
	}
	em, err := emitter.NewREST(addr, datahub.ForTests())
	if err != nil {
		t.Fatal(err)
	}
	p, err := emitter.NewProposal(urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)"), aspects.Status{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	err = em.Emit(ctx, p)
	if err == nil || errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Emit to a closed port = %v, want the connection error before the deadline", err)
	}
}
