package client

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/mockserver"
)

// TestReadNotSentIsNotUnknown checks that a read whose context was done
// before it was sent fails with the context's error alone: a read changes
// nothing, and nothing was sent, so its outcome is not unknown.
func TestReadNotSentIsNotUnknown(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	table := tableURN(t, "notsent")
	putTable(t, s, table)
	c := newTestClient(t, s)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := GetAspect[aspects.MLFeatureTableProperties](ctx, c, table)
	if !errors.Is(err, context.Canceled) || errors.Is(err, datahub.ErrOutcomeUnknown) || strings.Contains(err.Error(), "outcome unknown") {
		t.Errorf("err = %v, want context.Canceled without ErrOutcomeUnknown", err)
	}
	if n := s.RequestCount(opGetAspect); n != 0 {
		t.Errorf("%d reads reached the server, want 0", n)
	}
}

// TestModifyNotApplied checks that a Modify whose writes were all refused
// as not applied (503, 500 settled by reading back) does not report an
// unknown outcome.
func TestModifyNotApplied(t *testing.T) {
	t.Parallel()
	t.Run("context ends in a Retry-After wait", func(t *testing.T) {
		t.Parallel()
		s := mockserver.Start(t)
		table := tableURN(t, "busy")
		putTable(t, s, table)
		s.Fail(opWrite, mockserver.FailSpec{Status: 503, Times: 5, RetryAfter: 5 * time.Second})
		c := newTestClient(t, s)
		ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
		defer cancel()
		err := c.SetDescription(ctx, table, "new")
		if err == nil {
			t.Fatal("want an error")
		}
		if errors.Is(err, datahub.ErrOutcomeUnknown) || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v, want context.DeadlineExceeded without ErrOutcomeUnknown", err)
		}
		if msg := err.Error(); strings.Contains(msg, "\n") || strings.Contains(msg, "lost") {
			t.Errorf("err = %q, want one line that does not call the answer lost", msg)
		}
		if got := mustGetTable(t, s, table); *got.Description != "t" {
			t.Errorf("description %q, want the old one", *got.Description)
		}
	})
	t.Run("500 every time, settled by reading back", func(t *testing.T) {
		t.Parallel()
		s := mockserver.Start(t)
		table := tableURN(t, "failing")
		putTable(t, s, table)
		s.Fail(opWrite, mockserver.FailSpec{Status: 500, Times: mockserver.Forever})
		c := newTestClient(t, s, datahub.WithRetry(datahub.RetryPolicy{MaxAttempts: 1}), WithConflictPolicy(ConflictPolicy{MaxAttempts: 3}))
		err := c.SetDescription(t.Context(), table, "new")
		var de *datahub.Error
		if !errors.As(err, &de) && !strings.Contains(err.Error(), "500") {
			t.Errorf("err = %v, want it to give the 500", err)
		}
		if errors.Is(err, datahub.ErrOutcomeUnknown) || strings.Contains(err.Error(), "outcome unknown") || !strings.Contains(err.Error(), "not applied") {
			t.Errorf("err = %v, want 'not applied' without 'outcome unknown'", err)
		}
		if n := s.RequestCount(opWrite); n != 3 {
			t.Errorf("%d writes, want 3", n)
		}
		s.ClearFaults()
	})
}

// TestHardDeleteReplayed checks that a delete whose answer was lost is sent
// again and its result says so.
func TestHardDeleteReplayed(t *testing.T) {
	t.Parallel()
	for _, lost := range []bool{false, true} {
		t.Run(map[bool]string{false: "answered", true: "answer lost"}[lost], func(t *testing.T) {
			t.Parallel()
			s := mockserver.Start(t)
			table := tableURN(t, "deleted")
			putTable(t, s, table)
			if lost {
				s.CommitThenDrop(mockserver.OpDeleteEntity, 1)
			}
			c := newTestClient(t, s)
			got, err := c.HardDelete(t.Context(), table)
			if err != nil {
				t.Fatal(err)
			}
			want := DeleteResult{Rows: 4, Replayed: lost} // the aspect, the key aspect, browsePathsV2 and dataPlatformInstance
			if lost {
				want.Rows = 0 // the lost attempt removed it
			}
			if got != want {
				t.Errorf("HardDelete = %+v, want %+v", got, want)
			}
			if n, want := s.RequestCount(mockserver.OpDeleteEntity), map[bool]int{false: 1, true: 2}[lost]; n != want {
				t.Errorf("%d deletes sent, want %d", n, want)
			}
		})
	}
}
