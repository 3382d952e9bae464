package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"sync"
	"time"
)

// EventKind is the kind of change an [Event] reports.
type EventKind uint8

// The kinds of change the store reports.
const (
	// EventUpsert: Event.Row is the new latest row (version 0) of
	// (URN, Aspect), its systemMetadata carrying the version. A write that
	// changes only systemMetadata (an unchanged value from a new run) reports
	// the refreshed row too; an entity's key aspect, written with its first
	// aspect, has an event of its own before it.
	EventUpsert EventKind = iota + 1
	// EventDeleteAspect: the latest row of (URN, Aspect) was removed.
	EventDeleteAspect
	// EventDeleteEntity: the entity URN no longer exists (its key aspect is
	// gone). The removal of each of its aspects and documents is reported by
	// its own event before this one.
	EventDeleteEntity
	// EventTimeseries: Event.Doc was written (or replaced a document with the
	// same identity).
	EventTimeseries
	// EventDeleteTimeseries: the documents of (URN, Aspect) at
	// Event.Doc.TimestampMillis with Event.Doc's identity were removed;
	// Event.Doc.Value is nil.
	EventDeleteTimeseries
	// EventReset: everything was removed.
	EventReset
)

var eventKindNames = [...]string{
	EventUpsert:           "upsert",
	EventDeleteAspect:     "deleteAspect",
	EventDeleteEntity:     "deleteEntity",
	EventTimeseries:       "timeseries",
	EventDeleteTimeseries: "deleteTimeseries",
	EventReset:            "reset",
}

// String returns the kind's name ("upsert", "deleteAspect", ...).
func (k EventKind) String() string {
	if int(k) < len(eventKindNames) && eventKindNames[k] != "" {
		return eventKindNames[k]
	}
	return fmt.Sprintf("EventKind(%d)", uint8(k))
}

// Event is one change the store committed. The events of one batch are
// consecutive, in the order of the changes within the batch.
type Event struct {
	// Seq numbers the store's events from 1, without gaps, in commit order.
	Seq uint64
	// Time is the store clock's time of the committing operation (for Apply,
	// the time its rows are stamped with). An operation reads the clock
	// before it waits for the writer lock, so of two concurrent ones the one
	// committed later may carry the earlier time.
	Time time.Time
	Kind EventKind
	// URN and Aspect name what changed ("" for a reset; Aspect is "" for an
	// entity delete).
	URN, Aspect string
	// Row is the new latest row of an EventUpsert. Its JSON (and Doc's) is
	// read-only: it may share the store's memory.
	Row Aspect
	// Doc is the document of an EventTimeseries, or the identity of the
	// removed documents of an EventDeleteTimeseries.
	Doc TimeseriesDoc
}

// recorder is a write transaction that turns the changes it passes on into
// events: every put and delete of a latest row, every document and entity
// marker, every cleared bucket. Puts of latest rows and documents come
// through putLatest and putDoc (putRow and putDoc in apply.go call them)
// with the row or document the write built, so that nothing is decoded
// again; deletes and clears are recorded whatever calls them.
type recorder struct {
	txn
	events []Event
	// later is set while the update's caller fills in, after the writer
	// lock, the events of the rows built before it (see upsertBuilt).
	later bool
}

// sharesValues forwards the backend's answer (see storedCopy).
func (r *recorder) sharesValues() bool {
	v, ok := r.txn.(interface{ sharesValues() bool })
	return ok && v.sharesValues()
}

// putLatest stores a latest row built by the write and records its event
// from the row as built (its JSON shares val, which nobody modifies).
func (r *recorder) putLatest(key, val []byte, urn, aspect string, built row) error {
	if err := r.txn.put(aspectRows, key, val); err != nil {
		return err
	}
	r.upsert(urn, aspect, built)
	return nil
}

// upsert records the event of the new latest row built of (urn, aspect),
// which the caller stored itself; r may be nil (nothing records).
func (r *recorder) upsert(urn, aspect string, built row) {
	if r != nil {
		r.events = append(r.events, Event{Kind: EventUpsert, URN: urn, Aspect: aspect, Row: built.aspect(urn, aspect, 0)})
	}
}

// upsertBuilt is upsert of the row p.pre.built of write w, which was built
// before the writer lock: when r's caller fills events in after the lock
// (see fillEvents), it only keeps the event's place, in p.event. r may be
// nil (nothing records).
func (r *recorder) upsertBuilt(w *Write, p *prepared) {
	switch {
	case r == nil:
	case !r.later:
		r.upsert(w.URN, w.Aspect, p.pre.built)
	default:
		// The place is overwritten whole by fillEvents: what a pooled
		// buffer held there does not matter.
		n := len(r.events)
		if n < cap(r.events) {
			r.events = r.events[:n+1]
		} else {
			r.events = append(r.events, Event{})
		}
		p.event = int32(n + 1)
	}
}

// fillEvents fills in the events whose places upsertBuilt kept for the
// writes ws, prepared as ps, in the events of their update.
func fillEvents(events []Event, ws []Write, ps []prepared) {
	// The rows of a batch most often carry one createdOn: its time is
	// made once.
	var ms int64
	var on time.Time
	made := false
	for i := range ps {
		if k := ps[i].event; k != 0 {
			w, r := &ws[i], &ps[i].pre.built
			if !made || r.CreatedOn != ms {
				ms, on, made = r.CreatedOn, time.UnixMilli(r.CreatedOn).UTC(), true
			}
			events[k-1] = Event{Kind: EventUpsert, URN: w.URN, Aspect: w.Aspect, Row: r.aspectOn(w.URN, w.Aspect, 0, on)}
		}
	}
}

// putDoc stores a timeseries document and records its event from d.
func (r *recorder) putDoc(key, val []byte, urn, aspect string, ms int64, d doc) error {
	if err := r.txn.put(timeseriesDocs, key, val); err != nil {
		return err
	}
	r.events = append(r.events, Event{Kind: EventTimeseries, URN: urn, Aspect: aspect,
		Doc: TimeseriesDoc{URN: urn, Aspect: aspect, TimestampMillis: ms, Value: d.Value, SystemMetadata: d.SystemMetadata}})
	return nil
}

func (r *recorder) del(b bucket, key []byte) error {
	if b == aspectRows && (len(key) < 8 || rowVer(key) != 0) {
		return r.txn.del(b, key) // not a latest row: nothing to report
	}
	if r.txn.get(b, key) == nil {
		return r.txn.del(b, key) // nothing to remove, nothing to report
	}
	var e Event
	switch b {
	case aspectRows:
		urn, name, ver, ok := parseRowKey(key)
		if ok && ver == 0 {
			e = Event{Kind: EventDeleteAspect, URN: urn, Aspect: name}
		}
	case entities:
		if urn, _, ok := readLP(key); ok {
			e = Event{Kind: EventDeleteEntity, URN: urn}
		}
	case timeseriesDocs:
		if urn, aspect, ms, ok := parseTSKey(key); ok {
			e = Event{Kind: EventDeleteTimeseries, URN: urn, Aspect: aspect,
				Doc: TimeseriesDoc{URN: urn, Aspect: aspect, TimestampMillis: ms}}
		}
	}
	if err := r.txn.del(b, key); err != nil {
		return err
	}
	if e.Kind != 0 {
		r.events = append(r.events, e)
	}
	return nil
}

func (r *recorder) clear(b bucket) error {
	if err := r.txn.clear(b); err != nil {
		return err
	}
	if n := len(r.events); n == 0 || r.events[n-1].Kind != EventReset {
		r.events = append(r.events, Event{Kind: EventReset})
	}
	return nil
}

// parseTSKey splits the (urn, aspect, timestampMillis) head of a tsKey.
func parseTSKey(k []byte) (urn, aspect string, ms int64, ok bool) {
	urn, rest, ok := readLP(k)
	if !ok {
		return "", "", 0, false
	}
	aspect, rest, ok = readLP(rest)
	if !ok || len(rest) < 8 {
		return "", "", 0, false
	}
	return urn, aspect, int64(binary.BigEndian.Uint64(rest) ^ (1 << 63)), true
}

// update runs fn in one write transaction of the backend and, when it
// commits, publishes the changes it made as events stamped with now. s.mu
// is held.
func (s *Store) update(now time.Time, fn func(txn) error) error {
	var later tidy
	defer later.do()
	return s.updateThen(now, fn, &later)
}

// updateThen is update, leaving to later what can wait for the writer
// lock's release: clearing the memory the update used (its undo log and
// its event buffer, which refer to rows) for the next one. The changes are
// recorded only while somebody subscribes, by the recorder kept in s, in
// an event buffer from eventBuffers. s.mu is held.
func (s *Store) updateThen(now time.Time, fn func(txn) error, later *tidy) error {
	var rec *recorder
	record := func(t txn) error {
		if len(s.subs) > 0 {
			rec = &s.rec
			later.events = eventBuffers.Get().(*[]Event)
			rec.txn, rec.events, rec.later = t, (*later.events)[:0], later.publishAfter
			t = rec
		}
		return fn(t)
	}
	var err error
	if kv, ok := s.kv.(*memBackend); ok {
		later.log, err = kv.updateThen(record)
	} else {
		err = s.kv.update(record)
	}
	if rec != nil {
		*later.events = rec.events
		rec.txn, rec.events, rec.later = nil, nil, false
	}
	if err != nil {
		return mapErr(err)
	}
	s.version.Add(1)
	if rec != nil && len(*later.events) > 0 {
		s.pub.Lock()
		if later.publishAfter {
			later.publishing, later.now = true, now // publishLater releases s.pub
			return nil
		}
		defer s.pub.Unlock()
		s.publish(now, *later.events)
	}
	return nil
}

// publishLater publishes the events of an update whose caller set
// later.publishAfter, once the writer lock is released: updateThen took
// s.pub before that, so the next writer's events wait for these. fill
// completes them first (see upsertBuilt).
func (s *Store) publishLater(later *tidy, fill func([]Event)) {
	if !later.publishing {
		return
	}
	later.publishing = false
	defer s.pub.Unlock()
	fill(*later.events)
	s.publish(later.now, *later.events)
}

// tidy is what an update leaves for after the writer lock (see
// updateThen).
type tidy struct {
	log    *[]undo  // the memory backend's undo log, nil if none
	events *[]Event // the recorder's event buffer, nil if none
	// publishAfter, set by the caller, leaves the publication of the
	// events to publishLater; publishing is then set while s.pub is held
	// for it, with now the events' time.
	publishAfter, publishing bool
	now                      time.Time
}

// do clears and gives back the memory t holds.
func (t *tidy) do() {
	if t.log != nil {
		releaseLog(t.log)
		t.log = nil
	}
	if e := t.events; e != nil {
		t.events = nil
		if cap(*e) > maxKeptEvents {
			return
		}
		clear(*e)
		*e = (*e)[:0]
		eventBuffers.Put(e)
	}
}

// eventBuffers are the recorders' event buffers kept between updates.
var eventBuffers = sync.Pool{New: func() any { return new([]Event) }}

// maxKeptEvents is the event buffer capacity kept between updates.
const maxKeptEvents = 4096

// publish numbers the events and appends them to every subscription's
// queue, which copy them; s.pub is held. It never waits for a consumer.
func (s *Store) publish(now time.Time, events []Event) {
	for i := range events {
		s.seq++
		events[i].Seq = s.seq
		events[i].Time = now
	}
	for i, sub := range s.subs {
		evs := events
		if i > 0 { // the first subscription takes the recorder's JSON
			evs = cloneEvents(events)
		}
		sub.push(evs)
	}
}

func cloneEvents(in []Event) []Event {
	out := slices.Clone(in)
	for i := range out {
		e := &out[i]
		e.Row.Value = bytes.Clone(e.Row.Value)
		e.Row.SystemMetadata = bytes.Clone(e.Row.SystemMetadata)
		e.Doc.Value = bytes.Clone(e.Doc.Value)
		e.Doc.SystemMetadata = bytes.Clone(e.Doc.SystemMetadata)
	}
	return out
}

// Seq returns the sequence number of the last event the store published (0
// before the first). Every event a subscription made after this call
// receives has a higher one.
func (s *Store) Seq() uint64 {
	s.pub.Lock()
	defer s.pub.Unlock()
	return s.seq
}

// Version returns a number that moves with every committed write, whether
// or not anybody subscribes, without waiting for a writer: a reader that
// sees the same Version before and after reading saw no write land between
// (a write committed but not yet counted is seen by a read that also sees
// the number move right after it).
func (s *Store) Version() uint64 { return s.version.Load() }

// Subscribe returns a subscription to every change committed from now on,
// in commit order. Its queue is unbounded: a consumer that falls behind
// loses nothing and never slows a writer down. Close it when done.
//
// To follow the store from a consistent start, subscribe first and then read
// the rows (for example with [Store.Rows]): a change committed between the
// two shows up in both, never in neither.
func (s *Store) Subscribe() *Subscription {
	sub := &Subscription{s: s, wake: make(chan struct{}, 1)}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pub.Lock()
	defer s.pub.Unlock()
	if s.closed {
		sub.done = true
		return sub
	}
	s.subs = append(s.subs, sub)
	return sub
}

// Subscription is an ordered, unbounded queue of the store's events. Its
// methods are safe for concurrent use and never take the store's lock.
type Subscription struct {
	s    *Store
	wake chan struct{} // has a token when the queue grew or done was set

	mu     sync.Mutex
	queue  []Event
	head   int  // queue[head:] are pending
	bytes  int  // about the memory the pending events hold (see eventSize)
	done   bool // no more events will come (store or subscription closed)
	closed bool // Close was called: pending events are dropped
}

func (sub *Subscription) push(events []Event) {
	sub.mu.Lock()
	if sub.head > 0 && sub.head >= len(sub.queue)/2 {
		// Reuse the consumed half instead of growing without end.
		n := copy(sub.queue, sub.queue[sub.head:])
		clear(sub.queue[n:])
		sub.queue, sub.head = sub.queue[:n], 0
	}
	sub.queue = append(sub.queue, events...)
	for i := range events {
		sub.bytes += eventSize(&events[i])
	}
	sub.mu.Unlock()
	sub.signal()
}

func (sub *Subscription) signal() {
	select {
	case sub.wake <- struct{}{}:
	default:
	}
}

// finish marks the subscription as receiving nothing more.
func (sub *Subscription) finish() {
	sub.mu.Lock()
	sub.done = true
	sub.mu.Unlock()
	sub.signal()
}

// TryNext returns the next event without waiting; ok is false when none is
// pending.
func (sub *Subscription) TryNext() (e Event, ok bool) {
	sub.mu.Lock()
	defer sub.mu.Unlock()
	return sub.pop(true)
}

// Peek returns the next event without removing it; ok is false when none is
// pending. A consumer that follows the store with a lag peeks at the next
// event's Time and takes it with TryNext once it is due.
func (sub *Subscription) Peek() (e Event, ok bool) {
	sub.mu.Lock()
	defer sub.mu.Unlock()
	return sub.pop(false)
}

// pop returns (and when take, removes) the next event; sub.mu is held.
func (sub *Subscription) pop(take bool) (Event, bool) {
	if sub.closed || sub.head >= len(sub.queue) {
		return Event{}, false
	}
	e := sub.queue[sub.head]
	if take {
		sub.queue[sub.head] = Event{}
		sub.head++
		sub.bytes -= eventSize(&e)
		if sub.head == len(sub.queue) {
			// Drained: a queue grown by a burst gives its memory back.
			if cap(sub.queue) > maxKeptEvents {
				sub.queue = nil
			}
			sub.queue, sub.head, sub.bytes = sub.queue[:0], 0, 0
		}
	}
	return e, true
}

// eventSize is about the memory an event holds in a queue: its JSON, its
// names and the Event itself.
func eventSize(e *Event) int {
	const fixed = 288 // an Event's own size on 64-bit platforms
	return fixed + len(e.URN) + len(e.Aspect) + len(e.Row.Value) + len(e.Row.SystemMetadata) +
		len(e.Row.CreatedBy) + len(e.Doc.Value) + len(e.Doc.SystemMetadata)
}

// Backlog returns the number of pending events and about the memory they
// hold.
func (sub *Subscription) Backlog() (events, bytes int) {
	sub.mu.Lock()
	defer sub.mu.Unlock()
	if sub.closed {
		return 0, 0
	}
	return len(sub.queue) - sub.head, sub.bytes
}

// Len returns the number of pending events.
func (sub *Subscription) Len() int {
	sub.mu.Lock()
	defer sub.mu.Unlock()
	if sub.closed {
		return 0
	}
	return len(sub.queue) - sub.head
}

// Next returns the next event, waiting for one until ctx is done. After the
// store or the subscription is closed it returns the events still pending
// (none after Close) and then [ErrClosed].
func (sub *Subscription) Next(ctx context.Context) (Event, error) {
	for {
		sub.mu.Lock()
		e, ok := sub.pop(true)
		done := sub.done || sub.closed
		more := sub.head < len(sub.queue)
		sub.mu.Unlock()
		if ok {
			if more || done {
				sub.signal() // for another goroutine waiting in Next
			}
			return e, nil
		}
		if done {
			sub.signal()
			return Event{}, ErrClosed
		}
		select {
		case <-sub.wake:
		case <-ctx.Done():
			return Event{}, ctx.Err()
		}
	}
}

// Close ends the subscription: the store stops queueing events for it and
// pending ones are dropped. Next then returns [ErrClosed].
func (sub *Subscription) Close() {
	sub.s.mu.Lock()
	sub.s.pub.Lock()
	sub.s.subs = slices.DeleteFunc(sub.s.subs, func(x *Subscription) bool { return x == sub })
	sub.s.pub.Unlock()
	sub.s.mu.Unlock()
	sub.mu.Lock()
	sub.closed, sub.done = true, true
	sub.queue, sub.head, sub.bytes = nil, 0, 0
	sub.mu.Unlock()
	sub.signal()
}
