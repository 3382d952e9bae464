package gms

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// The write statuses of a trace (DataHub's TraceWriteStatus).
const (
	TraceError               = "ERROR"
	TracePending             = "PENDING"
	TraceActiveState         = "ACTIVE_STATE"
	TraceHistoricState       = "HISTORIC_STATE"
	TraceNoOp                = "NO_OP"
	TraceUnknown             = "UNKNOWN"
	TraceTraceNotImplemented = "TRACE_NOT_IMPLEMENTED"
)

// DataHub: the search storage messages of TraceServiceImpl.
const (
	MsgTracePendingPrimary = "Pending primary storage write."
	MsgTracePrimaryFailed  = "Primary storage write failed."
	MsgTraceIndeterminate  = "Primary storage write indeterminate."
)

// maxTraces bounds the write log: when it holds this many trace ids the
// oldest is forgotten (its writes then trace as UNKNOWN).
const maxTraces = 1 << 16

// traceState is what became of one traced write.
type traceState uint8

const (
	statePending traceState = iota // accepted, waiting in the async queue
	stateApplied                   // committed to the store
	stateFailed                    // refused when the async queue applied it
	stateSkipped                   // dropped by If-None-Match: *
)

// traceEntry is the write log's record of one (URN, aspect) of a trace.
// It holds no pointer, so that the log, which keeps up to maxTraces
// requests' entries, is memory the collector does not scan: the rare
// texts (a version that is not a plain number, a failure's message) are
// kept beside it, in traceLog.texts.
type traceEntry struct {
	state      traceState
	timeseries bool
	unchanged  bool
	// hasVer says that the version is ver's decimal text, which applied
	// keeps instead of the store's string (see plainVersion).
	hasVer bool
	// hasText says that traceLog.texts holds the entry's texts.
	hasText bool
	// urnLen and aspectLen are the lengths of the entry's key in its
	// call's text (see traceCall); both 0 for a write without a key. A
	// prepared write's URN has at most 512 bytes, its aspect is a name of
	// the registry.
	urnLen, aspectLen uint32
	ver               uint64
	seq               uint64 // store events up to this one include the write
}

// traceText is what an entry holds as text, kept in traceLog.texts.
type traceText struct {
	version string // systemMetadata.version after the write, unless hasVer
	message string // why it failed
}

// traceOutcome is an entry as lookup gives it back, with its texts.
type traceOutcome struct {
	traceEntry
	traceText
}

// plainVersion returns the number whose decimal text (strconv.FormatUint)
// is s, ok false when there is none (empty, a sign, a leading zero other
// than "0" alone, anything but digits) or s has more than 19 digits (a
// store version is an int64).
func plainVersion(s string) (v uint64, ok bool) {
	if s == "" || len(s) > 19 || (s[0] == '0' && len(s) > 1) {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + uint64(c-'0')
	}
	return v, true
}

// traceKey names one aspect of one entity.
type traceKey struct{ urn, aspect string }

// traceLog is the core's write log: for each trace id of a traced write
// (an OpenAPI request), what became of each aspect it wrote.
type traceLog struct {
	mu     sync.Mutex
	traces map[string]*traceWrites
	order  []string // trace ids, oldest first, for eviction
	// texts are the texts of the entries whose hasText is set.
	texts map[*traceEntry]traceText
}

// traceWrites are the entries of one trace id: those of each begin call,
// in order, found by (URN, aspect) through a map built when the trace is
// first looked up (most traces never are), a later write of an aspect
// hiding an earlier one.
type traceWrites struct {
	calls []traceCall
	byKey map[traceKey]*traceEntry
	keyed int // the calls byKey holds
}

// traceCall is what one begin call recorded: each write's entry and its
// key, (URN, aspect), as text: the keys one after another in text, each
// entry's lengths (urnLen, aspectLen) saying where its key ends. The keys
// are one byte slice, not strings, so that the log holds no pointer a
// write for the collector to follow (nor the request's URN strings
// alive).
type traceCall struct {
	text    []byte
	entries []traceEntry
}

// keys calls yield with the key of each of c's entries that has one, in
// order.
func (c *traceCall) keys(yield func(traceKey, *traceEntry)) {
	at := 0
	for i := range c.entries {
		e := &c.entries[i]
		u, a := at+int(e.urnLen), at+int(e.urnLen)+int(e.aspectLen)
		if a == at {
			continue
		}
		yield(traceKey{string(c.text[at:u]), string(c.text[u:a])}, e)
		at = a
	}
}

// find returns the entry of k, adding the calls not in byKey first.
func (t *traceWrites) find(k traceKey) (*traceEntry, bool) {
	for ; t.keyed < len(t.calls); t.keyed++ {
		c := &t.calls[t.keyed]
		if t.byKey == nil {
			t.byKey = make(map[traceKey]*traceEntry, len(c.entries))
		}
		c.keys(func(k traceKey, e *traceEntry) { t.byKey[k] = e })
	}
	e, ok := t.byKey[k]
	return e, ok
}

// begin records items, whose writes are ws, under traceID, each pending,
// and sets their entries (items of the same aspect share the later one, as
// DataHub's trace reports one status per aspect).
func (l *traceLog) begin(traceID string, items []item, ws []store.Write) {
	if traceID == "" {
		return
	}
	// The entries and their keys' text in one allocation each, before
	// the lock.
	size := 0
	for i := range items {
		if w := &ws[i]; !w.DeleteEntity {
			size += len(w.URN) + len(w.Aspect)
		}
	}
	c := traceCall{text: make([]byte, 0, size), entries: make([]traceEntry, len(items))}
	for i := range items {
		if w := &ws[i]; !w.DeleteEntity {
			e := &c.entries[i]
			e.timeseries = w.Timeseries
			e.urnLen, e.aspectLen = uint32(len(w.URN)), uint32(len(w.Aspect))
			items[i].trace = e
			c.text = append(append(c.text, w.URN...), w.Aspect...)
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.traces == nil {
		l.traces = make(map[string]*traceWrites)
	}
	t := l.traces[traceID]
	if t == nil {
		if len(l.order) >= maxTraces {
			l.forget(l.order[0])
			l.order = l.order[1:]
		}
		t = &traceWrites{}
		l.traces[traceID] = t
		l.order = append(l.order, traceID)
	}
	t.calls = append(t.calls, c)
}

// applied records the outcome of items committed together: res are the
// store's results, seq the store's event position after the commit.
func (l *traceLog) applied(items []item, res []store.Result, seq uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i := range items {
		e := items[i].trace
		if e == nil || i >= len(res) {
			continue
		}
		e.seq = seq
		e.unchanged = res[i].Unchanged
		var t traceText
		if e.hasText {
			t = l.texts[e]
		}
		if e.ver, e.hasVer = plainVersion(res[i].Version); e.hasVer {
			t.version = ""
		} else {
			t.version = res[i].Version
		}
		l.setText(e, t)
		e.state = stateApplied
		if res[i].Skipped {
			e.state = stateSkipped
		}
	}
}

// failed records items refused when they were applied.
func (l *traceLog) failed(items []item, err *Error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i := range items {
		if e := items[i].trace; e != nil {
			// the message without the batch index a batch's failure carries
			msg, _ := strings.CutPrefix(err.Message, fmt.Sprintf(MsgBatchItem, items[i].index, ""))
			var t traceText
			if e.hasText {
				t = l.texts[e]
			}
			t.message = msg
			e.state = stateFailed
			l.setText(e, t)
		}
	}
}

// setText makes t the texts of e.
func (l *traceLog) setText(e *traceEntry, t traceText) {
	if t == (traceText{}) {
		if e.hasText {
			delete(l.texts, e)
			e.hasText = false
		}
		return
	}
	if l.texts == nil {
		l.texts = make(map[*traceEntry]traceText)
	}
	l.texts[e], e.hasText = t, true
}

// forget drops traceID's writes and their texts.
func (l *traceLog) forget(traceID string) {
	if t := l.traces[traceID]; t != nil && len(l.texts) > 0 {
		for k := range t.calls {
			for i := range t.calls[k].entries {
				if e := &t.calls[k].entries[i]; e.hasText {
					delete(l.texts, e)
				}
			}
		}
	}
	delete(l.traces, traceID)
}

// lookup returns a copy of the entry of (urn, aspect) in traceID with its
// texts, its version as text.
func (l *traceLog) lookup(traceID, urn, aspect string) (traceOutcome, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	t := l.traces[traceID]
	if t == nil {
		return traceOutcome{}, false
	}
	e, ok := t.find(traceKey{urn, aspect})
	if !ok {
		return traceOutcome{}, false
	}
	out := traceOutcome{traceEntry: *e}
	if e.hasText {
		out.traceText = l.texts[e]
	}
	if out.hasVer {
		out.version = strconv.FormatUint(out.ver, 10)
	}
	return out, true
}

// reset forgets every trace.
func (l *traceLog) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.traces, l.order, l.texts = nil, nil, nil
}

// TraceStorage is the status of a write in one storage (DataHub's
// TraceStorageStatus).
type TraceStorage struct {
	WriteStatus  string
	WriteMessage string
	// Exceptions are the failures of an ERROR write.
	Exceptions []TraceException
}

// TraceException is one failure of a write (DataHub's TraceException).
type TraceException struct {
	Message, ExceptionClass string
}

// TraceStatus is what became of the write of one aspect in a trace:
// Success is false when either storage reports ERROR.
type TraceStatus struct {
	Success         bool
	Primary, Search TraceStorage
}

// TraceAspects is one entity's aspects in the answer of [Core.Trace], in the
// order they were asked for.
type TraceAspects struct {
	URN     string
	Aspects []string
	Status  map[string]TraceStatus
}

// classValidation is the exception class reported for a refused write.
const classValidation = "com.linkedin.metadata.aspect.plugins.validation.AspectValidationException"

// Trace reports what became of the writes of traceID (the trace id of the
// request that made them) to the aspects asked for (URN to aspect names; no
// names: every aspect of the entity type), as DataHub's TraceService: the
// primary storage status from the write log and the store (PENDING while
// queued, ERROR when refused later, ACTIVE_STATE while the write is the
// latest version, HISTORIC_STATE once replaced, NO_OP when nothing
// changed), the search storage status from the index's position
// (Options.IndexPosition: PENDING until the index applied the write). With
// onlyErrors, only failed aspects are kept and entities left without any
// are dropped. Aspect names are matched as DataHub's request parser does;
// an unknown name is ignored.
func (c *Core) Trace(ctx context.Context, traceID string, req []TraceAspects, onlyErrors bool) ([]TraceAspects, error) {
	c.barrier()
	pos := c.indexPosition()
	out := make([]TraceAspects, 0, len(req))
	for _, r := range req {
		parsed, err := CheckURN(r.URN)
		if err != nil {
			return nil, err
		}
		e, ok := lookupEntity(parsed.EntityType())
		if !ok {
			return nil, errorf(UnknownEntity, MsgUnknownEntity, Abbreviate(parsed.EntityType()))
		}
		names := r.Aspects
		if len(names) == 0 {
			names = e.Aspects
		}
		ta := TraceAspects{URN: r.URN, Status: make(map[string]TraceStatus)}
		for _, n := range names {
			name, ok := ResolveAspect(e, n)
			if !ok {
				continue
			}
			st := c.traceOne(traceID, r.URN, name, pos)
			if onlyErrors && st.Success {
				continue
			}
			if _, dup := ta.Status[name]; !dup {
				ta.Aspects = append(ta.Aspects, name)
			}
			ta.Status[name] = st
		}
		if onlyErrors && len(ta.Aspects) == 0 {
			continue
		}
		out = append(out, ta)
	}
	return out, nil
}

// indexPosition is the search index's event position.
func (c *Core) indexPosition() uint64 { return c.ix.Position() }

// traceOne derives the status of one aspect of a trace.
func (c *Core) traceOne(traceID, urn, aspect string, pos uint64) TraceStatus {
	info, _ := pdl.LookupAspect(aspect)
	e, ok := c.traces.lookup(traceID, urn, aspect)
	var primary TraceStorage
	switch {
	case !ok && info.Timeseries:
		primary.WriteStatus = TraceNoOp
	case !ok:
		primary.WriteStatus = TraceUnknown
	case e.state == statePending:
		primary.WriteStatus = TracePending
	case e.state == stateFailed:
		primary = TraceStorage{WriteStatus: TraceError, Exceptions: []TraceException{{Message: e.message, ExceptionClass: classValidation}}}
	case e.state == stateSkipped, e.timeseries:
		primary.WriteStatus = TraceNoOp
	default:
		primary.WriteStatus = c.currentState(urn, aspect, e)
	}
	var search TraceStorage
	switch primary.WriteStatus {
	case TracePending:
		search = TraceStorage{WriteStatus: TracePending, WriteMessage: MsgTracePendingPrimary}
	case TraceError:
		search = TraceStorage{WriteStatus: TraceError, WriteMessage: MsgTracePrimaryFailed}
	case TraceUnknown:
		search = TraceStorage{WriteStatus: TraceUnknown, WriteMessage: MsgTraceIndeterminate}
	case TraceNoOp:
		search.WriteStatus = TraceNoOp
		if info.Timeseries {
			search.WriteStatus = TraceTraceNotImplemented
		}
	case TraceHistoricState:
		search.WriteStatus = TraceHistoricState
	default: // ACTIVE_STATE: in the index once it applied the write's event
		search.WriteStatus = TracePending
		if pos >= e.seq {
			search.WriteStatus = TraceActiveState
		}
	}
	return TraceStatus{Success: primary.WriteStatus != TraceError && search.WriteStatus != TraceError,
		Primary: primary, Search: search}
}

// currentState compares an applied write with the aspect's latest row:
// still its version (ACTIVE_STATE, NO_OP when it changed nothing) or
// replaced since (HISTORIC_STATE).
func (c *Core) currentState(urn, aspect string, e traceOutcome) string {
	a, err := c.st.Get(urn, aspect, 0)
	if errors.Is(err, store.ErrNotFound) || err != nil || versionOf(a.SystemMetadata) != e.version {
		return TraceHistoricState
	}
	if e.unchanged {
		return TraceNoOp
	}
	return TraceActiveState
}

// versionOf reads systemMetadata.version.
func versionOf(sm json.RawMessage) string {
	var v struct {
		Version string `json:"version"`
	}
	_ = json.Unmarshal(sm, &v)
	return v.Version
}

// ResolveAspect finds aspect name of entity e as DataHub's OpenAPI request
// parser does: the exact name, else the one whose lower-cased name equals
// name ("datasetproperties", not "DatasetProperties").
func ResolveAspect(e pdl.Entity, name string) (string, bool) {
	if e.Allows(name) {
		return name, true
	}
	for _, a := range e.Aspects {
		if strings.ToLower(a) == name {
			return a, true
		}
	}
	return "", false
}

// ResolveEntity finds an entity type by name in any case, as DataHub's
// entity registry does.
func ResolveEntity(name string) (pdl.Entity, bool) {
	if e, ok := lookupEntity(name); ok {
		return e, true
	}
	e, ok := lowerEntities()[strings.ToLower(name)]
	return e, ok
}

// lowerEntities is the registry by lower-cased name.
var lowerEntities = sync.OnceValue(func() map[string]pdl.Entity {
	m := make(map[string]pdl.Entity, len(pdl.Registry()))
	for _, e := range pdl.Registry() {
		m[strings.ToLower(e.Name)] = e
	}
	return m
})
