package emitter

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/internal/transport"
)

// The waits before the polls of a write trace in EmitAsyncWait: the first
// poll comes after defaultPollMin, each later wait is twice the one before,
// up to defaultPollMax, so that a write the server applies at once costs a
// few milliseconds and a slow one costs few requests. (DataHub's Python
// emitter starts at 1 s and doubles up to 300 s.) The caller's context
// bounds the whole wait.
const (
	defaultPollMin = 500 * time.Microsecond
	defaultPollMax = 5 * time.Second
)

// TraceError reports a proposal that GMS accepted for later (EmitAsyncWait) and
// then failed to write, as its write trace says: the proposal is Rejected
// with it. Message is the server's reason, such as "Expected version 3,
// actual version 4" for a failed If-Version-Match.
type TraceError struct {
	// TraceID is the trace id of the request that carried the proposal.
	TraceID string
	// URN and Aspect name the proposal.
	URN, Aspect string
	// Primary and Search are the write statuses of primary storage and of
	// the search index ("ERROR", ...).
	Primary, Search string
	// Message is the server's reason, "" when it gave none.
	Message string
}

// Error names the proposal, the statuses and the reason.
func (e *TraceError) Error() string {
	s := fmt.Sprintf("emitter: %s %s was accepted and then not written (trace %s: primary storage %s, search %s)",
		e.URN, e.Aspect, e.TraceID, e.Primary, e.Search)
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// traceIDOf returns the trace id of a traceparent header, "" without one.
func traceIDOf(tp string) string {
	parts := strings.Split(strings.TrimSpace(tp), "-")
	if len(parts) < 2 || len(parts[1]) != 32 {
		return ""
	}
	return parts[1]
}

// traceStorage is one storage's status in a trace answer.
type traceStorage struct {
	WriteStatus     string `json:"writeStatus"`
	WriteMessage    string `json:"writeMessage"`
	WriteExceptions []struct {
		Message string `json:"message"`
	} `json:"writeExceptions"`
}

// traceStatus is one aspect's status in a trace answer.
type traceStatus struct {
	Success        *bool        `json:"success"`
	PrimaryStorage traceStorage `json:"primaryStorage"`
	SearchStorage  traceStorage `json:"searchStorage"`
}

// wait polls the trace of every accepted request until each proposal is
// written in both storages or failed, as DataHub's Python emitter's
// ASYNC_WAIT does. A proposal whose trace reports a failure becomes
// Rejected with a *TraceError. A proposal whose trace was not read to the
// end is never left Written: when ctx ends first it becomes Stopped
// (datahub.ErrStopped), and when a poll fails (after the transport's
// retries) every proposal still pending becomes Unknown
// (datahub.ErrOutcomeUnknown and the poll's error), since the server
// accepted it and may yet refuse it. It returns the error that ended the
// wait, nil when every trace was read.
func (b *v3Run) wait(ctx context.Context) error {
	pending := make(map[int]string, len(b.results)) // proposal -> trace id
	for _, tr := range b.traced {
		for _, i := range tr.idx {
			if b.results[i].Status == Written {
				pending[i] = tr.traceID
			}
		}
	}
	delay := b.r.pollMin
	t := time.NewTimer(delay)
	defer t.Stop()
	for len(pending) > 0 {
		select {
		case <-ctx.Done():
			b.stopped(ctx, pending)
			return ctx.Err()
		case <-t.C:
		}
		for _, tr := range b.traced {
			if err := b.poll(ctx, tr.traceID, pending); err != nil {
				if ctx.Err() != nil {
					b.stopped(ctx, pending)
					return ctx.Err()
				}
				for i := range pending {
					b.results[i].Status = Unknown
					b.results[i].Err = fmt.Errorf("emitter: accepted, but its write trace could not be read: %w: %w", datahub.ErrOutcomeUnknown, err)
				}
				return err
			}
		}
		delay = min(2*delay, b.r.pollMax)
		t.Reset(delay)
	}
	return nil
}

// stopped marks the proposals still pending Stopped: ctx ended before
// their trace said whether they were written.
func (b *v3Run) stopped(ctx context.Context, pending map[int]string) {
	for i := range pending {
		b.results[i].Status = Stopped
		b.results[i].Err = fmt.Errorf("emitter: accepted, but the wait for its write trace was stopped: %w: %w (%w)",
			datahub.ErrStopped, datahub.ErrOutcomeUnknown, ctx.Err())
	}
}

// poll asks for the trace of traceID's proposals still pending, and
// settles those that are done.
func (b *v3Run) poll(ctx context.Context, traceID string, pending map[int]string) error {
	body := map[string][]string{}
	var idx []int
	for i, id := range pending {
		if id == traceID {
			idx = append(idx, i)
		}
	}
	slices.Sort(idx) // the aspects in the proposals' order
	for _, i := range idx {
		u, a := b.items[i].urn, b.items[i].aspect
		found := false
		for _, have := range body[u] {
			found = found || have == a
		}
		if !found {
			body[u] = append(body[u], a)
		}
	}
	if len(idx) == 0 {
		return nil
	}
	enc, _ := json.Marshal(body)
	resp, err := b.r.tc.Send(ctx, transport.Request{Method: http.MethodPost,
		Path: pathTraceWrite + traceID + "?onlyIncludeErrors=false&detailed=true", Body: enc})
	if err != nil {
		return fmt.Errorf("emitter: polling write trace %s: %w", traceID, err)
	}
	var got map[string]map[string]traceStatus
	if err := json.Unmarshal(resp.Body, &got); err != nil {
		return fmt.Errorf("emitter: write trace %s: unreadable answer: %w", traceID, err)
	}
	for _, i := range idx {
		st, ok := got[b.items[i].urn][b.items[i].aspect]
		if !ok {
			continue // not reported yet
		}
		p, s := st.PrimaryStorage.WriteStatus, st.SearchStorage.WriteStatus
		if st.Success != nil && !*st.Success || p == "ERROR" || s == "ERROR" {
			msg := st.PrimaryStorage.WriteMessage
			for _, e := range st.PrimaryStorage.WriteExceptions {
				if e.Message != "" {
					msg = e.Message
					break
				}
			}
			if msg == "" {
				msg = st.SearchStorage.WriteMessage
			}
			b.results[i].Status = Rejected
			b.results[i].Err = &TraceError{TraceID: traceID, URN: b.items[i].urn, Aspect: b.items[i].aspect, Primary: p, Search: s, Message: msg}
			delete(pending, i)
			continue
		}
		if p != "PENDING" && s != "PENDING" {
			delete(pending, i)
		}
	}
	return nil
}
