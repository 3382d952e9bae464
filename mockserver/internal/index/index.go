package index

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
	"github.com/google/btree"
)

// Options configure an [Index].
type Options struct {
	// Clock is the server's clock (nil: time.Now).
	Clock func() time.Time
	// Lag is how long after its commit (on Clock) a change reaches the index.
	Lag time.Duration
	// Paused starts with indexing paused (see [Index.SetPaused]).
	Paused bool
	// NodeID is the Elasticsearch node id in task ids ("" : [DefaultNodeID]).
	NodeID string
	// MaxBacklogBytes and MaxBacklogEvents bound the store changes not yet
	// indexed that [Index.WaitBacklog] lets writers add to (0:
	// [DefaultMaxBacklogBytes], [DefaultMaxBacklogEvents]).
	MaxBacklogBytes, MaxBacklogEvents int
}

// The default bounds of the index's backlog: the changes committed and not
// yet indexed.
const (
	DefaultMaxBacklogBytes  = 64 << 20
	DefaultMaxBacklogEvents = 200_000
)

// DefaultNodeID is the node id of the mock's tasks: 22 characters, as
// Elasticsearch's node ids.
const DefaultNodeID = "datahubMockNode-000001"

// Kind tells an entity index from a timeseries index.
type Kind uint8

// The kinds of index.
const (
	// EntityIndex holds one document per entity with its latest versioned
	// aspects.
	EntityIndex Kind = iota + 1
	// TimeseriesIndex holds the documents of one timeseries aspect of one
	// entity type.
	TimeseriesIndex
)

// Document is one indexed document.
type Document struct {
	// ID identifies the document in its index: the URN for an entity index;
	// the URN, timestamp and identity for a timeseries index.
	ID  string
	URN string
	// Aspects are the entity's latest aspects by name (entity index).
	Aspects map[string]json.RawMessage
	// Source is the timeseries document's value (timeseries index).
	Source json.RawMessage
	// TimestampMillis is the timeseries document's time (timeseries index).
	TimestampMillis int64
	// Size is the document's size in bytes (its JSON).
	Size int

	// shared is set once the document was handed out (Get, Each): it is
	// then never modified again, and a write replaces it with a copy. An
	// entity document nobody was handed is updated in place, so that a
	// write of one aspect does not copy the entity's other aspects.
	shared bool
	// queued is set while the document waits in its search index's pending
	// set (see searchIdx.put).
	queued bool
	// removed is set while an entity document's status says removed
	// ([Removed]); its index counts such documents (idx.removed).
	removed bool
}

func (d *Document) resize() {
	d.Size = len(d.URN) + len(d.Source)
	for name, v := range d.Aspects {
		d.Size += len(name) + len(v)
	}
}

// Info describes one index.
type Info struct {
	Name string
	Kind Kind
	// EntityName is the entity type ("dataset"); AspectName the timeseries
	// aspect as registered ("datasetProfile"), "" for an entity index.
	EntityName, AspectName string
	Docs                   int
	// SizeBytes is the sum of the documents' sizes.
	SizeBytes int64
}

type idx struct {
	info Info
	docs *btree.BTreeG[*Document]
	// byID is an entity index's documents by ID, the same as docs (nil for
	// timeseries): a write finds its entity's document without a tree walk.
	byID map[string]*Document
	// search is an entity index's search documents (nil for timeseries).
	search *searchIdx
	// removed counts the documents whose status says removed (entity
	// index), kept as documents change so that a list's total needs no walk.
	removed int
}

func newIdx(info Info) *idx {
	x := &idx{info: info, docs: btree.NewG(16, func(a, b *Document) bool { return a.ID < b.ID })}
	if info.Kind == EntityIndex {
		x.byID = map[string]*Document{}
		x.search = newSearchIdx(info.EntityName)
	}
	return x
}

func (x *idx) put(d *Document) {
	d.resize()
	if old, ok := x.docs.ReplaceOrInsert(d); ok {
		x.info.SizeBytes -= int64(old.Size)
		if old.removed {
			x.removed--
		}
	} else {
		x.info.Docs++
	}
	x.info.SizeBytes += int64(d.Size)
	if x.byID != nil {
		x.byID[d.ID] = d
		if d.removed = Removed(d.Aspects["status"]); d.removed {
			x.removed++
		}
	}
	if x.search != nil {
		x.search.put(d)
	}
}

func (x *idx) del(id string) {
	if old, ok := x.docs.Delete(&Document{ID: id}); ok {
		x.info.Docs--
		x.info.SizeBytes -= int64(old.Size)
		if old.removed {
			x.removed--
		}
		if x.byID != nil {
			delete(x.byID, id)
		}
		if x.search != nil {
			x.search.drop(id)
		}
	}
}

// setAspect sets one aspect of the entity document d, or removes it when
// remove is set; d holds urn's aspects in this entity index (nil: none
// yet). A document handed out to a reader is replaced by a changed copy;
// any other is changed in place, its size adjusted by the difference.
func (x *idx) setAspect(d *Document, urn, aspect string, value json.RawMessage, remove bool) {
	if d == nil {
		if !remove {
			x.put(&Document{ID: urn, URN: urn, Aspects: map[string]json.RawMessage{aspect: value}})
		}
		return
	}
	old, had := d.Aspects[aspect]
	if remove && !had {
		return
	}
	copied := d.shared
	if copied {
		d = &Document{ID: d.ID, URN: d.URN, Aspects: cloneAspects(d.Aspects)}
	}
	delta := len(value) - len(old)
	if remove {
		delete(d.Aspects, aspect)
		delta -= len(aspect)
	} else {
		d.Aspects[aspect] = value
		if !had {
			delta += len(aspect)
		}
	}
	switch {
	case len(d.Aspects) == 0:
		x.del(d.ID)
	case copied:
		x.put(d)
	default:
		d.Size += delta
		x.info.SizeBytes += int64(delta)
		if aspect == "status" {
			if r := Removed(d.Aspects["status"]); r != d.removed {
				d.removed = r
				if r {
					x.removed++
				} else {
					x.removed--
				}
			}
		}
		x.search.put(d)
	}
}

// Index is the simulated search index over a store. It applies the store's
// due changes and advances its tasks in [Index.Sync], which every read
// calls, and from [Index.FollowAsync], which the rules core calls at its
// barrier (before every read and write of the server) and which has them
// applied only when many changes are pending or a task runs: by the
// index's follower goroutine, started by the first such call and ended by
// [Index.Close], or by the caller. All methods are safe for concurrent use.
type Index struct {
	st   *store.Store
	sub  *store.Subscription
	opts Options

	mu      sync.Mutex
	paused  bool
	indices map[string]*idx
	// entities are the entity indices of indices by entity type, as the
	// URNs of writes spell it.
	entities map[string]*idx
	tasks    map[int64]*task
	taskSeq  int64
	applied  int    // events applied, for tests
	dropped  int    // events dropped while paused
	replaced int    // upserts applyDue left out (replaced), for tests
	pos      uint64 // the Seq of the last event taken (applied or dropped)
	// gen changes whenever the searched documents may have: the results of
	// a query at one generation are those of the same query at another
	// with the same gen (see flushSearch).
	gen uint64
	// tested counts the documents searches tested and pages visited, and
	// the edges lineage walks followed, for tests.
	tested int

	pits pits // open scrolls (scroll.go)

	runs runs // the run of each latest row (runs.go)

	// lastType and lastIdx are the entity type and index entityIdxOf
	// found last ("" and nil: none).
	lastType string
	lastIdx  *idx

	// due and last are catchUp's memory, kept between calls (see
	// applyDue).
	due  []store.Event
	last rowSet
	// tasksRunning is set while a task may have batches to run (see
	// Follow).
	tasksRunning atomic.Bool

	// follower applies piled-up changes off the writers' requests (see
	// FollowAsync); followHook, when set, is called by its goroutine
	// with x.mu held before each catch-up (tests).
	follower   follower
	followHook func()

	// deletions are the source deletions of the truncation batches that
	// ran, for the rules core to take (see [Index.TakeDeletions]); dmu
	// guards them apart from mu, so that taking them never waits for a
	// search.
	dmu       sync.Mutex
	deletions []Deletion
	pending   atomic.Bool // len(deletions) > 0
}

// New returns an index of st: it indexes the rows and timeseries documents
// st already holds (a data directory opened again), then follows st's
// changes.
func New(st *store.Store, opts Options) *Index {
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.NodeID == "" {
		opts.NodeID = DefaultNodeID
	}
	pos := st.Seq() // no traced write exists before the index
	x := &Index{st: st, sub: st.Subscribe(), pos: pos, opts: opts, paused: opts.Paused,
		indices: make(map[string]*idx), entities: make(map[string]*idx), tasks: make(map[int64]*task)}
	x.bootstrap()
	return x
}

// bootstrap indexes what the store holds when the index starts. It runs
// after Subscribe, so a change committed in between is both read here and
// applied later, never missed.
func (x *Index) bootstrap() {
	rows, err := x.st.Rows(store.RowQuery{})
	if err != nil || len(rows) == 0 {
		return
	}
	var last string
	for _, r := range rows {
		x.upsertAspect(r.URN, r.Name, r.Value)
		x.runs.record(r.URN, r.Name, r.SystemMetadata)
		if r.URN == last {
			continue
		}
		last = r.URN
		e, ok := pdl.Registered(entityTypeOf(r.URN))
		if !ok {
			continue
		}
		for _, a := range e.Aspects {
			if info, ok := pdl.LookupAspect(a); !ok || !info.Timeseries {
				continue
			}
			docs, err := x.st.Timeseries(r.URN, a, 0, 0, 0)
			if err != nil {
				continue
			}
			for _, d := range docs {
				x.timeseriesIdx(e.Name, a).put(&Document{ID: tsID(r.URN, d.TimestampMillis, d.Value), URN: r.URN,
					Source: d.Value, TimestampMillis: d.TimestampMillis})
			}
		}
	}
}

// WaitBacklog is the index's back-pressure on writers, as a lagging Kafka
// consumer holds GMS's writes back: while the changes not yet indexed pass
// the backlog bounds (see [Options]) it applies those that are due and
// waits for the rest to fall due. It returns nil once the backlog is
// within the bounds, ctx's error if ctx ends first. A paused index drops
// what falls due, so it never holds writers back for long.
func (x *Index) WaitBacklog(ctx context.Context) error {
	for wait := time.Millisecond; ; wait = min(2*wait, 20*time.Millisecond) {
		if x.withinBacklog() {
			return nil
		}
		x.Sync()
		if x.withinBacklog() {
			return nil
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// withinBacklog reports whether the changes not yet indexed are within the
// backlog bounds.
func (x *Index) withinBacklog() bool {
	events, bytes := x.sub.Backlog()
	maxBytes, maxEvents := x.opts.MaxBacklogBytes, x.opts.MaxBacklogEvents
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBacklogBytes
	}
	if maxEvents <= 0 {
		maxEvents = DefaultMaxBacklogEvents
	}
	return events < maxEvents && bytes < maxBytes
}

// Close stops following the store and ends the index's follower goroutine
// (see [Index.FollowAsync]), waiting for a catch-up it is running. It does
// not close the store. Close is idempotent.
func (x *Index) Close() {
	x.sub.Close()
	x.follower.close()
}

// NodeID returns the node id of the index's tasks.
func (x *Index) NodeID() string { return x.opts.NodeID }

// SetPaused pauses (true) or resumes (false) indexing. While paused, the
// changes that fall due are dropped, as if GMS's consumers had lost them, so
// that the index drifts from the store; tasks still progress.
func (x *Index) SetPaused(paused bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.syncLocked()
	x.paused = paused
}

// Paused reports whether indexing is paused.
func (x *Index) Paused() bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.paused
}

// Sync applies the store's changes that are due on the clock, in commit
// order, and advances the tasks. Every read calls it first.
func (x *Index) Sync() {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.syncLocked()
}

func (x *Index) syncLocked() { x.syncThroughLocked(0) }

// SyncThrough applies, besides the changes that are due, every change up
// to the store event seq at once, whatever the lag: what GMS does for a
// write sent with X-DataHub-Sync-Index-Update (changes before it are
// applied first, in order).
func (x *Index) SyncThrough(seq uint64) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.syncThroughLocked(seq)
}

func (x *Index) syncThroughLocked(seq uint64) { x.catchUp(seq, false) }

// catchUp is syncThroughLocked. A writer's catch-up (reuse set, see
// Follow) keeps the memory of the events it took (and applyDue's map) for
// the next one; a reader's gives back what is more than a little.
func (x *Index) catchUp(seq uint64, reuse bool) {
	now := x.opts.Clock()
	spare := x.due
	if !reuse && cap(spare) > keptDue {
		spare = nil
	}
	x.due = nil
	due := x.sub.TakeDue(spare, func(e *store.Event) bool {
		return e.Seq <= seq || !e.Time.Add(x.opts.Lag).After(now)
	})
	if n := len(due); n > 0 {
		x.pos = due[n-1].Seq
	}
	if x.paused {
		x.dropped += len(due)
		clear(due)
		due = due[:0]
	}
	x.applyDue(due)
	if reuse && cap(due) <= 4*followAt || cap(due) <= keptDue {
		x.due = due[:0]
	}
	if !reuse || len(x.last.slots) > 8*followAt {
		x.last = rowSet{} // a reader's, or a catch-up past the usual: its table goes
	}
	x.advanceTasks(now)
}

// EntityIndexName is the name of the entity type's index, as DataHub's
// IndexConvention names it: "datasetindex_v2".
func EntityIndexName(entityType string) string { return strings.ToLower(entityType) + "index_v2" }

// TimeseriesIndexName is the name of a timeseries aspect's index:
// "dataset_datasetprofileaspect_v1".
func TimeseriesIndexName(entityType, aspect string) string {
	return strings.ToLower(entityType) + "_" + strings.ToLower(aspect) + "aspect_v1"
}

// entityTypeOf returns the entity type of a URN ("urn:li:dataset:(...)").
func entityTypeOf(urn string) string {
	rest, ok := strings.CutPrefix(urn, "urn:li:")
	if !ok {
		return ""
	}
	t, _, _ := strings.Cut(rest, ":")
	return t
}

func (x *Index) entityIdx(entityType string) *idx {
	if i := x.entities[entityType]; i != nil {
		return i
	}
	entityType = strings.Clone(entityType) // not the URN it was cut from
	name := EntityIndexName(entityType)
	i := x.indices[name]
	if i == nil {
		i = newIdx(Info{Name: name, Kind: EntityIndex, EntityName: entityType})
		x.indices[name] = i
	}
	x.entities[entityType] = i
	return i
}

func (x *Index) timeseriesIdx(entityType, aspect string) *idx {
	name := TimeseriesIndexName(entityType, aspect)
	i := x.indices[name]
	if i == nil {
		i = newIdx(Info{Name: name, Kind: TimeseriesIndex, EntityName: entityType, AspectName: aspect})
		x.indices[name] = i
	}
	return i
}

// tsID is the document ID of a timeseries document: its URN and time, then
// its identity (DataHub's document id hashes the same fields).
func tsID(urn string, ms int64, value json.RawMessage) string {
	var id struct {
		MessageID     string          `json:"messageId"`
		Granularity   json.RawMessage `json:"eventGranularity"`
		PartitionSpec json.RawMessage `json:"partitionSpec"`
	}
	_ = json.Unmarshal(value, &id)
	return tsPrefix(urn, ms) + id.MessageID + "\x00" + string(id.Granularity) + "\x00" + string(id.PartitionSpec)
}

// tsPrefix is the start of the IDs of urn's documents at ms; IDs order by
// URN, then time.
func tsPrefix(urn string, ms int64) string {
	var b [8]byte
	u := uint64(ms) ^ (1 << 63)
	for i := range 8 {
		b[7-i] = byte(u >> (8 * i))
	}
	return urn + "\x00" + string(b[:]) + "\x00"
}

// apply updates the index for one store event; x.mu is held.
func (x *Index) apply(e *store.Event) {
	switch e.Kind {
	case store.EventUpsert:
		x.upsertAspect(e.URN, e.Aspect, e.Row.Value)
		x.runs.record(e.URN, e.Aspect, e.Row.SystemMetadata)
	case store.EventDeleteAspect:
		i := x.entityIdxOf(e.URN)
		i.setAspect(i.byID[e.URN], e.URN, e.Aspect, nil, true)
		x.runs.drop(e.URN, e.Aspect)
	case store.EventDeleteEntity:
		x.entityIdxOf(e.URN).del(e.URN)
		x.runs.dropEntity(e.URN)
	case store.EventTimeseries:
		i := x.timeseriesIdx(entityTypeOf(e.URN), e.Aspect)
		i.put(&Document{ID: tsID(e.URN, e.Doc.TimestampMillis, e.Doc.Value), URN: e.URN,
			Source: e.Doc.Value, TimestampMillis: e.Doc.TimestampMillis})
	case store.EventDeleteTimeseries:
		i := x.timeseriesIdx(entityTypeOf(e.URN), e.Aspect)
		p := tsPrefix(e.URN, e.Doc.TimestampMillis)
		var ids []string
		i.docs.AscendGreaterOrEqual(&Document{ID: p}, func(d *Document) bool {
			if !strings.HasPrefix(d.ID, p) {
				return false
			}
			ids = append(ids, d.ID)
			return true
		})
		for _, id := range ids {
			i.del(id)
		}
	case store.EventReset:
		x.gen++
		clear(x.indices)
		clear(x.entities)
		x.lastType, x.lastIdx = "", nil
		x.runs = runs{}
	}
}

// upsertAspect sets one aspect of an entity document; x.mu is held.
func (x *Index) upsertAspect(urn, aspect string, value json.RawMessage) {
	i := x.entityIdxOf(urn)
	i.setAspect(i.byID[urn], urn, aspect, value, false)
}

// entityIdxOf is entityIdx(entityTypeOf(urn)), without a map lookup when
// urn's type is that of the last call (a catch-up's changes come in runs
// of one type); x.mu is held.
func (x *Index) entityIdxOf(urn string) *idx {
	const prefix = "urn:li:"
	if t := x.lastType; t != "" && len(urn) > len(prefix)+len(t) && urn[len(prefix)+len(t)] == ':' &&
		urn[len(prefix):len(prefix)+len(t)] == t && urn[:len(prefix)] == prefix {
		return x.lastIdx
	}
	i := x.entityIdx(entityTypeOf(urn))
	x.lastType, x.lastIdx = i.info.EntityName, i
	return i
}

func cloneAspects(m map[string]json.RawMessage) map[string]json.RawMessage {
	out := make(map[string]json.RawMessage, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Indices returns the indices that hold or held documents, by name.
func (x *Index) Indices() []Info {
	x.Sync()
	x.mu.Lock()
	defer x.mu.Unlock()
	out := make([]Info, 0, len(x.indices))
	for _, i := range x.indices {
		out = append(out, i.info)
	}
	slices.SortFunc(out, func(a, b Info) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Each calls fn with the documents of the named index in ID order until fn
// returns false. Documents are shared: fn must not modify them. It reports
// false when there is no such index.
func (x *Index) Each(name string, fn func(*Document) bool) bool {
	x.Sync()
	x.mu.Lock()
	i := x.indices[name]
	var docs []*Document
	if i != nil {
		i.docs.Ascend(func(d *Document) bool { d.shared = true; docs = append(docs, d); return true })
	}
	x.mu.Unlock()
	for _, d := range docs {
		if !fn(d) {
			break
		}
	}
	return i != nil
}

// Get returns the document id of the named index.
func (x *Index) Get(name, id string) (*Document, bool) {
	x.Sync()
	x.mu.Lock()
	defer x.mu.Unlock()
	i := x.indices[name]
	if i == nil {
		return nil, false
	}
	d, ok := i.docs.Get(&Document{ID: id})
	if ok {
		d.shared = true
	}
	return d, ok
}

// Position returns the store event position the index has reached: every
// change with a Seq up to it was applied (or dropped while paused), after
// applying the changes that are due.
func (x *Index) Position() uint64 {
	x.Sync()
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.pos
}

// Stats reports how many events were applied and dropped (while paused).
func (x *Index) Stats() (applied, dropped int) {
	x.Sync()
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.applied, x.dropped
}
