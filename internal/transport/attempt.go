package transport

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"time"
)

// retryReadLimit is how much of an answer that is retried do reads, so
// that its connection can be used again (go-retryablehttp's limit).
const retryReadLimit = 4096

// body is what a call sends: data, or the pieces of parts; each attempt
// reads it with a reader of its own.
type body struct {
	data  []byte
	parts *partsSource
	n     int64
}

// noBody is the GetBody of a request without a body.
func noBody() (io.ReadCloser, error) { return http.NoBody, nil }

// setBody gives req (attempt i's request) its body: a reader, its length,
// and GetBody (which net/http calls to send it again after a redirect or
// on a connection that closed before it was written). The first
// attempt's reader is st's own (of data) or parts' own.
func (b *body) setBody(st *callState, req *http.Request, i int) {
	req.ContentLength = b.n
	switch {
	case b.parts != nil:
		if i == 0 {
			b.parts.start(&b.parts.first)
			req.Body = &b.parts.first
			req.GetBody = b.parts.getBody
		} else {
			req.Body = b.parts.reader()
		}
	case b.data != nil:
		st.holdReader()
		if i == 0 {
			st.br.Reset(b.data)
			// A *bytes.Reader behind io.NopCloser is what net/http
			// recognises as a body in memory: it writes the headers
			// and the body together.
			req.Body = io.NopCloser(&st.br)
			data := b.data
			req.GetBody = func() (io.ReadCloser, error) {
				st.holdReader()
				return io.NopCloser(bytes.NewReader(data)), nil
			}
		} else {
			req.Body = io.NopCloser(bytes.NewReader(b.data))
		}
	default:
		req.Body = nil
		req.GetBody = noBody
	}
}

// do sends req (its body b; its context the one startAttempt gave the
// first attempt) until an attempt is not to be retried or the attempts
// are used up, and returns the last answer or error. It is
// go-retryablehttp's loop, whose policy, hooks and errors it keeps: the
// answer of an attempt to be retried is read (up to 4 KB) and closed
// before the wait; a context done during a wait ends the call with the
// context's error; a call that fails closes the idle connections and
// returns the last answer, when there is one, with the error of the retry
// check or of the attempt. The attempt of the answer returned stays
// watched until Send has read its body (see callState.endAttempt).
func (c *Client) do(st *callState, req *http.Request, b *body) (*http.Response, error) {
	var (
		resp            *http.Response
		doErr, checkErr error
		retry           bool
	)
	for i := 0; ; i++ {
		if i > 0 {
			// A request of its own for each attempt: net/http may still
			// close the last one's body.
			req = req.WithContext(c.startAttempt(st))
		}
		b.setBody(st, req, i)
		if c.logRequest != nil {
			c.logRequest(req, i)
		}
		resp, doErr = c.hc.Do(req)
		if doErr != nil && st.endAttempt(nil) {
			doErr = timedOut(doErr, " (Client.Timeout exceeded while awaiting headers)")
		}
		retry, checkErr = c.checkRetry(st.tctx, resp, doErr)
		if doErr == nil && c.logResponse != nil {
			c.logResponse(resp)
		}
		if !retry || i >= c.policy.attempts-1 {
			break
		}
		if doErr == nil {
			_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, retryReadLimit))
			resp.Body.Close()
			st.endAttempt(nil)
		}
		t := time.NewTimer(c.policy.wait(c.log, i, resp))
		select {
		case <-st.ctx.Done():
			t.Stop()
			c.hc.CloseIdleConnections()
			return nil, st.ctx.Err()
		case <-t.C:
		}
	}
	if doErr == nil && checkErr == nil && !retry {
		return resp, nil
	}
	defer c.hc.CloseIdleConnections()
	if checkErr != nil {
		return resp, checkErr
	}
	return resp, doErr
}

// startAttempt returns the context of the next attempt of st's call and
// starts watching it: a context the watchdog cancels when the attempt
// outlives the client's timeout. With no timeout, or when the caller's
// context ends sooner (net/http then sets no timer either), it is the
// call's own context, not watched.
func (c *Client) startAttempt(st *callState) context.Context {
	if c.wd == nil {
		return st.tctx
	}
	if d, ok := st.ctx.Deadline(); ok && !time.Now().Add(c.wd.timeout).Before(d) {
		return st.tctx
	}
	cctx, cancel := context.WithCancelCause(st.tctx)
	st.wd = c.wd
	c.wd.start(&st.watch, cancel)
	a := &st.actx
	if a.Context != nil { // a retry: the first attempt's may still be read
		a = new(attemptCtx)
	}
	a.Context, a.deadline = cctx, st.watch.deadline
	return a
}

// attemptCtx is the context of a watched attempt: the context the watchdog
// cancels, with the attempt's deadline, as net/http's client timeout gave
// it. Contexts derived from it hang on the cancel context within, which
// Value and Done give, without a goroutine of their own.
type attemptCtx struct {
	context.Context
	deadline time.Time
}

// Deadline returns the attempt's deadline.
func (a *attemptCtx) Deadline() (time.Time, bool) { return a.deadline, true }

// endAttempt ends the watch of the current attempt, if any, and reports
// whether the timeout cut it short; err, when not nil, is an error of
// reading its answer, which is then returned marked as net/http marks a
// body cut by its client timeout (see timedOut).
func (st *callState) endAttempt(err *error) bool {
	if st.wd == nil {
		return false
	}
	fired := st.wd.stop(&st.watch)
	st.wd = nil
	if fired && err != nil && *err != nil {
		*err = timedOut(*err, " (Client.Timeout or context cancellation while reading body)")
	}
	return fired
}

// timedOut returns err, the failure of an attempt the timeout cut, as
// net/http's client timeout reports it: the same text followed by what,
// and an error that matches context.DeadlineExceeded and is a net.Error
// whose Timeout is true. A *url.Error keeps its place around it, for the
// retry policy.
func timedOut(err error, what string) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		ue.Err = &timeoutError{ue.Err.Error() + what}
		return err
	}
	return &timeoutError{err.Error() + what}
}

// timeoutError is net/http's error of a client timeout.
type timeoutError struct{ err string }

func (e *timeoutError) Error() string   { return e.err }
func (e *timeoutError) Timeout() bool   { return true }
func (e *timeoutError) Temporary() bool { return true }
func (e *timeoutError) Is(err error) bool {
	return err == context.DeadlineExceeded
}
