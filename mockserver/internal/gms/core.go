package gms

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"time"

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
	// IndexPosition reports the store event position the search index has
	// applied (nil: always caught up); [Core.Trace] reads it.
	IndexPosition func() uint64
	// IndexThrough brings the search index up to the store event position
	// it is given at once (nil: nothing), for synchronous writes sent with
	// the X-DataHub-Sync-Index-Update header.
	IndexThrough func(seq uint64)
	// Follow, when set, is called at the barrier after the due async
	// writes: what follows the store (the search index) catches up there,
	// before every read and write of the core, with no goroutine of its own.
	Follow func()
	// Backpressure, when set, is called before a proposal write reaches the
	// store, with the request's context: it waits while what follows the
	// store (the search index) lags too far behind, and its error (the
	// context's) refuses the write, which then changes nothing.
	Backpressure func(ctx context.Context) error
}

// Core holds GMS's rules over a store: validation, conditional writes, the
// async queue and reads. Every method is safe for concurrent use and applies
// the async writes that are due before it reads or writes (the one read
// barrier), in the order they were accepted.
type Core struct {
	st   *store.Store
	opts Options
	q    *asyncQueue
	// patcher applies PATCH proposals with the server's clock.
	patcher *patch.Patcher
	// traces is the write log of traced writes (see Trace).
	traces traceLog
}

// New returns a core over st and gives st the core's [Rules]. It starts the
// async queue's goroutine when opts.AsyncLag is positive; [Core.Close]
// stops it.
func New(st *store.Store, opts Options) *Core {
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	st.SetRules(Rules{})
	c := &Core{st: st, opts: opts, patcher: &patch.Patcher{Now: opts.Clock}}
	c.q = newAsyncQueue(c)
	return c
}

// barrier applies the async writes that are due, in order, then lets
// Options.Follow catch up. Every read and write of the core calls it first.
func (c *Core) barrier() {
	c.q.flushDue()
	if c.opts.Follow != nil {
		c.opts.Follow()
	}
}

// Close stops the async queue and applies every write still pending (nothing
// acknowledged is lost). It does not close the store. Close is idempotent.
func (c *Core) Close() error { return c.q.close() }

// Reset applies the due async writes, then drops the pending ones and every
// row of the store.
func (c *Core) Reset(ctx context.Context) error {
	c.barrier()
	c.q.reset()
	c.traces.reset()
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
