package transport

import (
	"context"
	"errors"
	"testing"
	"time"
)

type otherKey struct{}

// TestCallStateContext holds a callState, the context of its call's
// requests, to what it replaces: context.WithValue(ctx, stateKey{}, st).
// Both must answer alike, before and after ctx ends, and contexts derived
// from them must end with ctx, with its cause.
func TestCallStateContext(t *testing.T) {
	t.Parallel()
	cause := errors.New("the caller gave up")
	deadline := time.Now().Add(time.Hour)
	for _, tc := range []struct {
		name string
		make func() (context.Context, func())
	}{
		{"background", func() (context.Context, func()) { return context.Background(), func() {} }},
		{"cancel", func() (context.Context, func()) {
			ctx, cancel := context.WithCancelCause(context.WithValue(context.Background(), otherKey{}, "v"))
			return ctx, func() { cancel(cause) }
		}},
		{"deadline", func() (context.Context, func()) {
			ctx, cancel := context.WithDeadlineCause(context.Background(), deadline, cause)
			return ctx, cancel
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx, end := tc.make()
			st := &callState{ctx: ctx}
			want := context.WithValue(ctx, stateKey{}, st)
			derived, stop := context.WithTimeout(st, time.Hour)
			defer stop()
			wantDerived, wantStop := context.WithTimeout(want, time.Hour)
			defer wantStop()
			check := func(when string) {
				t.Helper()
				gd, gok := st.Deadline()
				wd, wok := want.Deadline()
				if !gd.Equal(wd) || gok != wok || st.Done() != want.Done() || st.Err() != want.Err() ||
					context.Cause(st) != context.Cause(want) || st.Value(otherKey{}) != want.Value(otherKey{}) ||
					stateOf(st) != st || stateOf(want) != st {
					t.Fatalf("%s: the state's context answers unlike context.WithValue's", when)
				}
				if derived.Err() != wantDerived.Err() || context.Cause(derived) != context.Cause(wantDerived) {
					t.Fatalf("%s: derived context: %v (%v), want %v (%v)", when, derived.Err(), context.Cause(derived),
						wantDerived.Err(), context.Cause(wantDerived))
				}
			}
			check("before")
			end()
			if ctx.Done() != nil {
				<-derived.Done()
				<-wantDerived.Done()
			}
			check("after")
		})
	}
}
