package gms

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"time"

	"github.com/catalogkit/datahub-go/mockserver/internal/index"
	"github.com/catalogkit/datahub-go/mockserver/internal/patch"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// Options configure a [Core].
type Options struct {
	// Clock is the server's clock (nil: time.Now); it drives the async lag.
	Clock func() time.Time
	// AsyncLag delays async proposals by this much on Clock (0: at once).
	AsyncLag time.Duration
	// Logger receives a warning for every async write dropped when it falls
	// due (nil: discard).
	Logger *slog.Logger
	// AcceptUnknown names aspects whose values get a structural check only
	// and are stored with members their PDL record does not know, as a
	// newer GMS with more members would (a test aid).
	AcceptUnknown map[string]bool
	// IndexPaused starts the search index with indexing paused (see
	// [Core.SetIndexPaused]).
	IndexPaused bool
	// Follow, when set, is called at the barrier after the due async
	// writes and the search index's catching up (a test's hook).
	Follow func()
	// IndexMaxBacklogEvents and IndexMaxBacklogBytes bound the store
	// changes the search index has not applied yet: a synchronous write
	// (and an async one without lag) waits, before it reaches the store,
	// while they are passed, as a lagging Kafka consumer holds GMS's writes
	// back; the write's context ending first refuses it, changing nothing
	// (0: the index's defaults, 200,000 events and 64 MiB).
	IndexMaxBacklogEvents, IndexMaxBacklogBytes int
	// NoDefaultAspects turns off the aspects GMS adds when a write creates
	// an entity (browsePathsV2, dataPlatformInstance: see defaults.go).
	NoDefaultAspects bool
	// LenientMCPValidation is GMS's code default for its
	// alternateMCPValidation flag (ALTERNATE_MCP_VALIDATION=false): an
	// OpenAPI batch item's member that names no aspect of the entity is
	// left out of the batch. The zero value is what DataHub's quickstart
	// runs (ALTERNATE_MCP_VALIDATION=true): such a write is refused
	// (see [Core.CheckItemAspect]).
	LenientMCPValidation bool
	// EntityVersioning is DataHub's entityVersioning feature flag
	// (ENTITY_VERSIONING_ENABLED, off in DataHub's quickstart): off, the
	// linkAssetVersion and unlinkAssetVersion mutations are refused (see
	// [Core.LinkAssetVersion]).
	EntityVersioning bool
}

// Core holds GMS's rules over a store and the search index that follows it:
// validation, conditional writes, the async queue, reads, searches and the
// index's operations; it is the protocol adapters' one door to the state.
// Every method is safe for concurrent use and applies the async writes that
// are due before it reads or writes (the one read barrier), in the order
// they were accepted.
type Core struct {
	st   *store.Store
	ix   *index.Index
	opts Options
	q    *asyncQueue
	// patcher applies PATCH proposals with the server's clock.
	patcher *patch.Patcher
	// traces is the write log of traced writes (see Trace).
	traces traceLog
	// ops is the state of the Rest.li operations beyond the aspect store:
	// writes turned off, graph nodes removed, platform events (opsstate.go).
	ops opsState
	// events is the log of the events API (see PollEvents).
	events eventLog
	// lists keeps the sorted matches of recent lists (see List).
	lists listCache
}

// New returns a core over st and gives st the core's [Rules]; its search
// index indexes what st holds and follows st after opts.AsyncLag. It starts
// the async queue's goroutine when opts.AsyncLag is positive; [Core.Close]
// stops it.
func New(st *store.Store, opts Options) *Core {
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	st.SetRules(Rules{})
	ix := index.New(st, index.Options{Clock: opts.Clock, Lag: opts.AsyncLag, Paused: opts.IndexPaused,
		MaxBacklogEvents: opts.IndexMaxBacklogEvents, MaxBacklogBytes: opts.IndexMaxBacklogBytes})
	c := &Core{st: st, ix: ix, opts: opts, patcher: &patch.Patcher{Now: opts.Clock}}
	c.q = newAsyncQueue(c)
	return c
}

// barrier applies the async writes that are due, in order, then has the
// search index catch up when many changes are pending (on the index's
// follower goroutine, so that the request goes on meanwhile) or a task runs
// (here, unless another caller is at it: that caller applies the same
// changes; the index's reads catch up themselves, after a catch-up in
// flight), then deletes from the store what the truncation batches that ran
// delete. Every read and write of the core calls it first.
func (c *Core) barrier() {
	c.q.flushDue()
	c.ix.FollowAsync()
	c.deleteTruncated()
	if c.opts.Follow != nil {
		c.opts.Follow()
	}
}

// Close stops the async queue and applies every write still pending (nothing
// acknowledged is lost), then stops the search index. It does not close the
// store. Close is idempotent.
func (c *Core) Close() error {
	err := c.q.close()
	c.ix.Close()
	c.events.close()
	return err
}

// Reset applies the due async writes, then drops the pending ones and every
// row of the store.
func (c *Core) Reset(ctx context.Context) error {
	c.barrier()
	c.q.reset()
	c.traces.reset()
	c.ops.reset()
	if err := c.st.Reset(); err != nil {
		return errorf(Internal, MsgStore, err)
	}
	return nil
}

// Put writes value as the latest version of aspect of urn, validated and
// stored as an UPSERT proposal would be.
func (c *Core) Put(ctx context.Context, urn, aspect string, value json.RawMessage) error {
	return c.Ingest(ctx, []Proposal{{EntityType: EntityTypeOf(urn), EntityURN: urn, ChangeType: "UPSERT",
		AspectName: aspect, Aspect: value, ContentType: "application/json"}}, IngestOptions{})
}

// ApplyDue applies the async writes that are due on the clock, in the
// order they were accepted (what every read and write does first). A test
// clock's owner calls it after moving the clock.
func (c *Core) ApplyDue() { c.barrier() }

// Exists reports whether the entity urn exists (its key aspect was written),
// as GMS's EntityService.exists. GMS writes the key aspect with an entity's
// first aspect, and so does the mock, for every entity type of the registry.
func (c *Core) Exists(ctx context.Context, urn string) (bool, error) {
	c.barrier()
	if _, err := CheckURN(urn); err != nil {
		return false, err
	}
	return c.st.Exists(urn), nil
}
