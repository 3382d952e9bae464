package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// Clock returns the current time. The store stamps createdOn with it and
// hands it to [Rules.Received]. Writers read it before they take the
// store's writer lock, so it may be called concurrently.
type Clock func() time.Time

var (
	// ErrNotFound is returned by Get when the requested row does not exist.
	ErrNotFound = errors.New("store: not found")
	// ErrClosed is returned by every operation on a closed Store.
	ErrClosed = errors.New("store: closed")
	// ErrInvalidWrite wraps the error Apply returns for a Write it cannot
	// perform at all (bad JSON, unknown change type, no timestampMillis).
	ErrInvalidWrite = errors.New("store: invalid write")

	// ErrSkip, returned by a [Write.Check], drops the write silently: Apply
	// reports it as Skipped and goes on with the batch.
	ErrSkip = errors.New("store: write skipped")

	errReadOnly = errors.New("store: write in a read-only transaction")
)

// Store is a versioned aspect store shaped like GMS's metadata_aspect_v2
// table plus a timeseries document index. It is safe for concurrent use.
type Store struct {
	kv    backend
	clock Clock

	// mu serialises the writers (Apply, Put, DeleteEntity, Reset). Reads
	// do not take it.
	mu sync.Mutex
	// pub serialises the publication of events, so that they are numbered
	// and queued in commit order: a writer takes it before it releases mu,
	// and Apply keeps it past mu's release while it finishes and publishes
	// its batch's events (see publishLater), as the next writer commits.
	// It guards seq and, with mu, subs (changed holding both).
	pub sync.Mutex
	seq uint64 // the last published event's Seq
	// version counts committed updates, subscribed to or not (see Version).
	version atomic.Uint64
	subs    []*Subscription // open subscriptions
	rec     recorder        // records the changes of an update (see update)
	closed  bool
	// rules make the decisions of writes and reads (see SetRules).
	rules Rules
}

// OpenMemory returns a Store that keeps everything in memory. A nil clock
// means time.Now.
func OpenMemory(clock Clock) *Store { return newStore(newMemBackend(), clock) }

// OpenBolt opens (or creates) a durable Store in the bbolt file at path. Apply
// returns only after the batch is committed and fsynced; reopening the file
// gives everything back. A nil clock means time.Now.
func OpenBolt(path string, clock Clock) (*Store, error) {
	b, err := openBoltBackend(path)
	if err != nil {
		return nil, err
	}
	return newStore(b, clock), nil
}

func newStore(b backend, clock Clock) *Store {
	if clock == nil {
		clock = time.Now
	}
	return &Store{kv: b, clock: clock, rules: defaultRules}
}

// defaultRules are the Rules a Store starts with: none (see [Rules]); the
// package's tests run with the rules core's.
var defaultRules Rules = noRules{}

// SetRules makes the store call r for every decision a write or a read
// needs beyond storing rows (see [Rules]). It is meant to be called once,
// before the store is used: the rules core calls it when it takes the
// store over. A nil r restores the store's own behaviour, which decides
// nothing (see [Rules]).
func (s *Store) SetRules(r Rules) {
	if r == nil {
		r = noRules{}
	}
	s.mu.Lock()
	s.rules = r
	s.mu.Unlock()
}

// Close releases the store; later calls fail with [ErrClosed] and
// subscriptions end after their pending events. For a bbolt store it waits
// for running transactions and closes the file.
func (s *Store) Close() error {
	s.mu.Lock()
	s.pub.Lock()
	s.closed = true
	subs := s.subs
	s.subs = nil
	s.pub.Unlock()
	s.mu.Unlock()
	for _, sub := range subs {
		sub.finish()
	}
	return s.kv.close()
}

// Write is one aspect write, the store-level form of a MetadataChangeProposal.
type Write struct {
	// URN and Aspect name the row. The store checks neither: the caller
	// validated the write against the entity registry.
	URN, Aspect string
	// Value is the aspect as a JSON object, already validated by the caller.
	Value json.RawMessage
	// ValueHash is jsonx.Hash(Value) when the caller computed it on its
	// way (the rules core's schema check does), 0 when unknown: the store
	// then computes it.
	ValueHash uint64
	// SystemMetadata is nil or the proposal's systemMetadata object. What
	// the written rows hold is the [Rules]' decision: [Rules.Received] reads
	// it when the write arrives, and [Rules.First], [Rules.Next] and
	// [Rules.Same] make the row's from it.
	SystemMetadata json.RawMessage
	// SystemMetadataCompact promises that SystemMetadata, when set, is a
	// valid JSON object without insignificant white space (the caller
	// checked it), for the Rules to read it without checking it again.
	SystemMetadataCompact bool
	// Actor is who writes; [Rules.Received] decides the row's createdBy
	// from it.
	Actor string
	// Timeseries stores the value as a document under the identity
	// [Rules.Document] gives it instead of versioning it.
	Timeseries bool
	// KeyAspect and KeyValue are the entity's key aspect name and JSON, the
	// entity's companion row: it is written (version 0, once, with the
	// systemMetadata of [Rules.First]) with the first write to an entity
	// that has none; a write of the key aspect itself (Aspect == KeyAspect)
	// needs no KeyValue. Entity existence ([Store.Exists],
	// [Current.EntityExists]) is tracked through these fields, so callers set
	// them on every write.
	KeyAspect string
	KeyValue  json.RawMessage
	// Check, when set, is called inside the batch's transaction with the
	// aspect's state before the write (versioned aspects only): it is where
	// the caller's conditions run. [ErrSkip] skips the item (Result.Skipped);
	// any other error fails the batch as a *[CheckError].
	Check func(Current) error
	// Transform, when set, computes the value to write from the aspect's
	// latest value inside the batch's transaction, under the store's writer
	// lock, after the conditions and Check: current is the stored JSON (nil
	// when the aspect is absent; earlier items of the batch included, and
	// read-only), and what Transform returns replaces Value (it must be a
	// JSON object, compact when Compact is set). A read-modify-write such as
	// a PATCH thus loses no concurrent write. An error fails the batch as a
	// *[CheckError]. Not for timeseries writes.
	Transform func(current json.RawMessage) (json.RawMessage, error)
	// Compact promises that Value is a valid JSON object without
	// insignificant white space (the rules core validated and compacted it):
	// Apply then neither checks nor compacts it again.
	Compact bool
	// DeleteEntity makes the write a hard delete of the entity URN (every
	// row and timeseries document, as [Store.DeleteEntity]) inside the
	// batch; the other fields but URN are ignored.
	DeleteEntity bool
}

// Result is the outcome of one Write.
type Result struct {
	// Version is the aspect's systemMetadata.version after the write ("" for
	// timeseries and skipped writes).
	Version string
	// Skipped reports a write its Check skipped ([ErrSkip]).
	Skipped bool
	// Unchanged reports a write whose value equalled the latest version: as in
	// DataHub no new version was made (at most systemMetadata was refreshed).
	Unchanged bool
}

// Aspect is one versioned row: Version 0 is the latest, 1..n the history
// (1 the oldest).
type Aspect struct {
	URN, Name      string
	Version        int64
	Value          json.RawMessage
	SystemMetadata json.RawMessage
	CreatedOn      time.Time // millisecond precision, UTC
	CreatedBy      string
}

// TimeseriesDoc is one timeseries document.
type TimeseriesDoc struct {
	URN, Aspect     string
	TimestampMillis int64
	Value           json.RawMessage
	SystemMetadata  json.RawMessage
}

// Apply performs the writes in order as one atomic batch: either every item
// is applied (or skipped, see [ErrSkip]) or nothing is. Later items
// see the effect of earlier ones. A failed Check or Transform is a
// *[CheckError]; malformed writes wrap [ErrInvalidWrite].
func (s *Store) Apply(ws []Write) ([]Result, error) {
	if len(ws) == 0 {
		return []Result{}, nil
	}
	a := s.begin(ws)
	defer a.release()
	return a.commit()
}

// applying is a batch of Apply between its two halves: what is done
// before the writer lock (begin) and the update under it (commit).
type applying struct {
	s   *Store
	ws  []Write
	ps  []prepared
	bm  *batchMemory
	now time.Time
}

// begin does what the writes of ws need before the writer lock: GMS
// stamps a proposal when it arrives, before its transaction, so what does
// not depend on the stored rows is done before taking the lock, and the
// rows that can be are built (see preBuild).
func (s *Store) begin(ws []Write) applying {
	now := s.clock()
	_, preBuilds := s.kv.(*memBackend)
	ps, bm := prepareFor(ws, now, s.rules, preBuilds)
	s.preBuild(ws, ps, bm.chunks)
	return applying{s: s, ws: ws, ps: ps, bm: bm, now: now}
}

// commit applies the batch under the writer lock and returns its results.
func (a *applying) commit() ([]Result, error) {
	ws, ps := a.ws, a.ps
	later := tidy{publishAfter: true}
	defer later.do()
	err := func() error {
		a.s.mu.Lock()
		defer a.s.mu.Unlock()
		return a.s.updateThen(a.now, func(t txn) error {
			for i := range ws {
				o, err := applyOne(t, i, &ws[i], &ps[i])
				if err != nil {
					return err
				}
				ps[i].out = o
			}
			return nil
		}, &later)
	}()
	if err != nil {
		return nil, err
	}
	a.s.publishLater(&later, func(events []Event) { fillEvents(events, ws, ps) })
	return results(ps), nil
}

// release gives the batch's memory back; a is not used again.
func (a *applying) release() { a.bm.release(a.ps) }

// results are the Results of the applied writes ps. Their versions of 100
// and more share one allocation (strconv has the others).
func results(ps []prepared) []Result {
	out := make([]Result, len(ps))
	n := 0
	for i := range ps {
		if v := ps[i].out.version; v >= 100 {
			n += uvarintLen(uint64(v)) * 3 // a decimal digit per 3 bits and a bit
		}
	}
	var text []byte
	if n > 0 {
		text = make([]byte, 0, n)
	}
	for i := range ps {
		o := ps[i].out
		out[i] = Result{Skipped: o.skipped, Unchanged: o.unchanged}
		switch {
		case o.version >= 100:
			start := len(text)
			text = strconv.AppendInt(text, o.version, 10)
			out[i].Version = unsafe.String(&text[start], len(text)-start) // text is not written again
		case o.version != 0:
			out[i].Version = strconv.FormatInt(o.version, 10) // no allocation
		}
	}
	return out
}

// Put writes a as a new latest version of (a.URN, a.Name), with the same
// versioning as Apply (a.Version is ignored). A zero CreatedOn means now; the
// events of the write carry the same time.
func (s *Store) Put(a Aspect) error {
	w := Write{URN: a.URN, Aspect: a.Name, Value: a.Value, SystemMetadata: a.SystemMetadata, Actor: a.CreatedBy}
	now := a.CreatedOn
	if now.IsZero() {
		now = s.clock()
	}
	ps, bm := prepare([]Write{w}, now, s.rules)
	defer bm.release(ps)
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.update(now, func(t txn) error {
		_, err := applyOne(t, 0, &w, &ps[0])
		return err
	})
}

// Get returns one row of (urn, aspect): version 0 is the latest, 1..n the
// history (1 the oldest). A negative version reads the version
// [Rules.ReadVersion] makes of it and the highest history version. The
// returned Aspect.Version is the version read.
func (s *Store) Get(urn, aspect string, version int64) (Aspect, error) {
	var (
		a     Aspect
		found bool
	)
	var err error
	if version >= 0 {
		err = s.kv.view(func(t txn) error {
			var err error
			a, found, err = readRow(t, urn, aspect, version)
			return err
		})
	} else {
		rules := s.rules
		err = s.kv.view(func(t txn) error {
			max, err := maxHistoryVersion(t, urn, aspect)
			if err != nil {
				return err
			}
			v := rules.ReadVersion(max, version)
			if v < 0 {
				return nil
			}
			a, found, err = readRow(t, urn, aspect, v)
			return err
		})
	}
	if err != nil {
		return Aspect{}, mapErr(err)
	}
	if !found {
		return Aspect{}, fmt.Errorf("%w: %s %s version %d", ErrNotFound, urn, aspect, version)
	}
	return a, nil
}

// readRow reads version v of (urn, aspect) inside t.
func readRow(t txn, urn, aspect string, v int64) (Aspect, bool, error) {
	r, ok, err := getRow(t, urn, aspect, v)
	if err != nil || !ok {
		return Aspect{}, false, err
	}
	return r.aspect(urn, aspect, v), true, nil
}

// Latest returns the latest version of every versioned aspect of the entity,
// sorted by aspect name.
func (s *Store) Latest(urn string) ([]Aspect, error) {
	var out []Aspect
	err := s.kv.view(func(t txn) error {
		return scanLatest(t, urnPrefix(urn), func(u, name string, v []byte) (bool, error) {
			if u != urn {
				return true, nil
			}
			r, err := decodeRow(v)
			if err != nil {
				return false, err
			}
			out = append(out, r.aspect(u, name, 0))
			return true, nil
		})
	})
	if err != nil {
		return nil, mapErr(err)
	}
	slices.SortFunc(out, func(a, b Aspect) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// Exists reports whether the entity's key aspect has been written.
func (s *Store) Exists(urn string) bool {
	var ok bool
	_ = s.kv.view(func(t txn) error {
		ok = t.get(entities, urnPrefix(urn)) != nil
		return nil
	})
	return ok
}

// ExistAll reports, for each of urns, whether Exists would: all in one
// read of the store.
func (s *Store) ExistAll(urns []string) []bool {
	out := make([]bool, len(urns))
	var key []byte
	_ = s.kv.view(func(t txn) error {
		for i, u := range urns {
			key = lp(key[:0], u)
			out[i] = t.get(entities, key) != nil
		}
		return nil
	})
	return out
}

// DeleteEntity removes every versioned row of the entity (all versions of all
// aspects, the key aspect included) and its timeseries documents, like GMS's
// hard delete, and returns how many of each it removed.
func (s *Store) DeleteEntity(urn string) (rows, timeseriesRows int, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	err = s.update(s.clock(), func(t txn) error {
		var err error
		rows, timeseriesRows, err = deleteEntity(t, urn)
		return err
	})
	if err != nil {
		return 0, 0, err
	}
	return rows, timeseriesRows, nil
}

func deletePrefix(t txn, b bucket, prefix []byte) (int, error) {
	var keys [][]byte
	err := t.scan(b, prefix, nil, func(k, _ []byte) (bool, error) {
		keys = append(keys, append([]byte(nil), k...))
		return true, nil
	})
	if err != nil {
		return 0, err
	}
	for _, k := range keys {
		if err := t.del(b, k); err != nil {
			return 0, err
		}
	}
	return len(keys), nil
}

// Timeseries returns the documents of (urn, aspect) with startMillis <=
// timestampMillis <= endMillis, newest first, at most limit of them. A zero
// startMillis, endMillis or limit means unbounded.
func (s *Store) Timeseries(urn, aspect string, startMillis, endMillis int64, limit int) ([]TimeseriesDoc, error) {
	var out []TimeseriesDoc
	prefix := aspectPrefix(urn, aspect)
	var from []byte
	if startMillis != 0 {
		from = tsTime(aspectPrefix(urn, aspect), startMillis)
	}
	err := s.kv.view(func(t txn) error {
		return t.scan(timeseriesDocs, prefix, from, func(k, v []byte) (bool, error) {
			if len(k) < len(prefix)+8 {
				return true, nil
			}
			ms := int64(beUint64(k[len(prefix):]) ^ (1 << 63))
			if endMillis != 0 && ms > endMillis {
				return false, nil
			}
			d, err := decodeDoc(v)
			if err != nil {
				return false, err
			}
			out = append(out, TimeseriesDoc{URN: urn, Aspect: aspect, TimestampMillis: ms,
				Value: d.Value, SystemMetadata: d.SystemMetadata})
			return true, nil
		})
	})
	if err != nil {
		return nil, mapErr(err)
	}
	// Ascending by time (then document identity); newest first means reversed.
	// Documents with equal timestamps keep a stable identity order.
	slices.Reverse(out)
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// All returns copies of the latest version of every versioned aspect, sorted
// by URN then aspect name. A row that cannot be decoded fails it (the store
// is damaged) rather than being left out.
func (s *Store) All() ([]Aspect, error) {
	var out []Aspect
	err := s.kv.view(func(t txn) error {
		return scanLatest(t, nil, func(u, name string, v []byte) (bool, error) {
			r, err := decodeRow(v)
			if err != nil {
				return false, fmt.Errorf("store: row %s %s: %w", u, name, err)
			}
			out = append(out, r.aspect(u, name, 0))
			return true, nil
		})
	})
	if err != nil {
		return nil, mapErr(err)
	}
	slices.SortFunc(out, func(a, b Aspect) int {
		if c := strings.Compare(a.URN, b.URN); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out, nil
}

// Reset removes everything.
func (s *Store) Reset() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.update(s.clock(), func(t txn) error {
		for b := range numBuckets {
			if err := t.clear(b); err != nil {
				return err
			}
		}
		return nil
	})
}

func mapErr(err error) error {
	if errors.Is(err, errClosedTxn) {
		return ErrClosed
	}
	return err
}

// DeleteAspect removes every version of the versioned aspect of urn and
// returns how many rows it removed (0 when there are none).
func (s *Store) DeleteAspect(urn, aspect string) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var n int
	err := s.update(s.clock(), func(t txn) error {
		var err error
		n, err = deletePrefix(t, aspectRows, aspectPrefix(urn, aspect))
		return err
	})
	if err != nil {
		return 0, mapErr(err)
	}
	return n, nil
}
