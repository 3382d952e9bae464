package transport

import (
	"context"
	"io"
	"net/http/httptrace"
	"reflect"
	"time"
)

// callState is also the context of its call's requests: ctx with the
// state as the value of stateKey{}, without a context.WithValue made for
// it a call. Its methods other than Value are ctx's own, so that contexts
// derived from it (net/http's deadlines, cancellations) hang on ctx's
// cancellation as they would on ctx.
var _ context.Context = (*callState)(nil)

// Deadline returns the deadline of the caller's context.
func (st *callState) Deadline() (time.Time, bool) { return st.ctx.Deadline() }

// Done returns the Done channel of the caller's context.
func (st *callState) Done() <-chan struct{} { return st.ctx.Done() }

// Err returns the error of the caller's context.
func (st *callState) Err() error { return st.ctx.Err() }

// Value returns st for stateKey{}, st's trace for httptrace's key when
// traceOn (see withTrace), else the caller's context's value.
func (st *callState) Value(key any) any {
	if _, ok := key.(stateKey); ok {
		return st
	}
	if st.traceOn && key == traceKey {
		return &st.trace
	}
	return st.ctx.Value(key)
}

// withTrace returns the context of st's requests. A write's carries st's
// trace, whose WroteHeaders tells checkRetry that an attempt was sent; a
// read's needs none (it never has an unknown outcome). When the caller's
// context has no trace of its own, st answers httptrace's key itself,
// without a context.WithValue a call; otherwise httptrace composes both.
func (st *callState) withTrace() context.Context {
	if !st.write {
		return st
	}
	st.trace.WroteHeaders = st.wroteHeaders
	if traceByValue && httptrace.ContextClientTrace(st.ctx) == nil {
		st.traceOn = true
		return st
	}
	return httptrace.WithClientTrace(st, &st.trace)
}

// traceKey is the key under which package httptrace keeps a request's
// ClientTrace in its context (its own unexported type), learnt by asking
// it for the trace of a context that records the key it is asked for;
// traceByValue says that a context answering that key is then seen by
// httptrace as carrying the trace (else withTrace uses
// httptrace.WithClientTrace).
var (
	traceKey     any
	traceByValue bool
)

func init() {
	p := &keyProbe{Context: context.Background()}
	httptrace.ContextClientTrace(p)
	if p.key == nil || !reflect.TypeOf(p.key).Comparable() {
		return
	}
	traceKey = p.key
	st := &callState{ctx: context.Background(), traceOn: true}
	traceByValue = httptrace.ContextClientTrace(st) == &st.trace
}

// keyProbe is a context that records the last key it is asked for.
type keyProbe struct {
	context.Context
	key any
}

func (p *keyProbe) Value(key any) any {
	p.key = key
	return nil
}

// limited returns st's LimitedReader (which saves an allocation a call)
// reading at most n bytes from r.
func (st *callState) limited(r io.Reader, n int64) *io.LimitedReader {
	st.limit = io.LimitedReader{R: r, N: n}
	return &st.limit
}
