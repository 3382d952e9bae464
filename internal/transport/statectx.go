package transport

import (
	"context"
	"io"
	"net/http/httptrace"
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

// Value returns st for stateKey{}, else the caller's context's value.
func (st *callState) Value(key any) any {
	if _, ok := key.(stateKey); ok {
		return st
	}
	return st.ctx.Value(key)
}

// String names the context in panics and logs.
func (st *callState) String() string { return "transport.callState" }

// withTrace returns the context of st's requests. A write's carries st's
// trace, whose WroteHeaders tells checkRetry that an attempt was sent
// (composed by httptrace with a trace on the caller's context); a read's
// needs none (it never has an unknown outcome).
func (st *callState) withTrace() context.Context {
	if !st.write {
		return st
	}
	st.trace.WroteHeaders = st.wroteHeaders
	return httptrace.WithClientTrace(st, &st.trace)
}

// limited returns st's LimitedReader (which saves an allocation a call)
// reading at most n bytes from r.
func (st *callState) limited(r io.Reader, n int64) *io.LimitedReader {
	st.limit = io.LimitedReader{R: r, N: n}
	return &st.limit
}

// holdBody makes done the release of a write's body in one slice, sent as
// net/http's in-memory body (an io.NopCloser of a *bytes.Reader), whose
// Close net/http makes but nobody sees: Send holds the body until it
// returns, and each reader of it handed to net/http (holdReader) until
// the trace's WroteRequest reports that an attempt wrote its body whole.
// After such a write net/http does not read that reader again (a replay
// reads a new one, from GetBody); a reader not written whole keeps its
// hold, and done is never called. The last hold given up calls done.
func (st *callState) holdBody(done func()) {
	st.bodyDone = done
	st.bodyHolds.Store(1)
	st.trace.WroteRequest = st.wroteRequest
}

// holdReader adds the hold of a reader of the body handed to net/http,
// when the body's release is tracked (see holdBody).
func (st *callState) holdReader() {
	if st.bodyDone != nil {
		st.bodyHolds.Add(1)
	}
}

// wroteRequest is the trace's WroteRequest when the body's release is
// tracked: an attempt that wrote its request whole gives up its reader's
// hold.
func (st *callState) wroteRequest(info httptrace.WroteRequestInfo) {
	if info.Err == nil {
		st.releaseBody()
	}
}

// releaseBody gives up one hold on the body (see holdBody); the last
// calls its done.
func (st *callState) releaseBody() {
	if st.bodyHolds.Add(-1) == 0 {
		st.bodyDone()
	}
}
