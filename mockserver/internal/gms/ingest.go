package gms

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/catalogkit/datahub-go/internal/jsonx"
	"github.com/catalogkit/datahub-go/internal/par"
	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/patch"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// Proposal is a metadata change proposal as an adapter decoded it from its
// wire (com.linkedin.mxe.MetadataChangeProposal), before validation.
type Proposal struct {
	EntityType, EntityURN, ChangeType, AspectName string
	// EntityKeyAspect and Aspect are the JSON texts of entityKeyAspect.value
	// and aspect.value, nil if absent.
	EntityKeyAspect, Aspect json.RawMessage
	// AspectLiteral, when set, is the JSON string literal (quotes and
	// all) that carried aspect.value, and Aspect is then its decoding
	// without the white space outside the decoding's strings, as
	// pdl.Scanner.AppendASCIIStringCompact writes it: the decoding's
	// compaction when either of them is valid JSON, so that the value
	// means what the text sent means. An adapter sets it to spare writing
	// a decoding that the core would only compact. The core reads the text
	// sent ([Proposal.SentAspect]) wherever it shows (the messages of a
	// value it refuses, a PATCH's document); like the rest of a proposal,
	// the literal is read only during the call it is passed to.
	AspectLiteral json.RawMessage
	// ContentType is aspect.contentType.
	ContentType string
	// SystemMetadata is the systemMetadata object, nil if absent.
	SystemMetadata json.RawMessage
	// Headers is the proposal's headers map (conditions), nil if absent.
	Headers map[string]string
}

// SentAspect returns the text of aspect.value as it was sent: the
// decoding of AspectLiteral when set, else Aspect.
func (p *Proposal) SentAspect() json.RawMessage {
	if p.AspectLiteral == nil {
		return p.Aspect
	}
	if v, ok := pdl.UnquoteJSONBytes(p.AspectLiteral); ok {
		return v
	}
	return p.Aspect // not a literal: Aspect is all there is
}

// useSentAspect makes Aspect the text sent (see AspectLiteral), for the
// paths that show it.
func (p *Proposal) useSentAspect() {
	if p.AspectLiteral != nil {
		p.Aspect, p.AspectLiteral = p.SentAspect(), nil
	}
}

// IngestOptions says how [Core.Ingest] treats its proposals.
type IngestOptions struct {
	// Async accepts the proposals once they are valid and applies them after
	// the core's async lag, as GMS's Kafka path does, each proposal on its
	// own; one whose condition fails then is only logged.
	Async bool
	// Batch names failures by the proposal's index ("[2] ...") and reports
	// every invalid proposal of the batch in one error.
	Batch bool
	// TraceID, when set, records what becomes of each proposal in the
	// core's write log under this trace id, for [Core.Trace].
	TraceID string
	// SystemMetadataCompact reports that every proposal's systemMetadata
	// that is a JSON object is valid JSON without insignificant white space
	// (the adapter checked it with [CheckSystemMetadata], or decoded and
	// compacted it), so that the core splits it without parsing it again.
	// It says nothing of the schema: a systemMetadata gets the same checks
	// and the same errors with it as without it.
	SystemMetadataCompact bool
}

// AsyncUnset is the default of the "async" parameter of Rest.li's
// ingestProposal and ingestProposalBatch.
const AsyncUnset = "unset"

// RestliAsync resolves the "async" parameter of Rest.li's ingestProposal
// as AspectResource does: [AsyncUnset] takes the server's default
// (ASYNC_INGEST_DEFAULT), which the mock leaves false; any other value is
// Boolean.parseBoolean's.
func RestliAsync(param string) bool {
	if param == AsyncUnset {
		return false
	}
	return strings.EqualFold(param, "true")
}

// item is one validated proposal, ready to apply. Its store write is kept
// beside it, at the same position of a []store.Write, so that a batch's
// writes go to the store as they are.
type item struct {
	index int
	// trace is the write log's entry of a traced proposal (nil if none).
	trace *traceEntry
}

// Written is the outcome of one proposal of [Core.Write].
type Written struct {
	// Pending reports an async proposal accepted and not applied yet.
	Pending bool
	// Skipped reports a CREATE dropped because of If-None-Match: *.
	Skipped bool
	// Unchanged reports a write equal to the latest version.
	Unchanged bool
	// Version is the aspect's systemMetadata.version after the write.
	Version string
	// Value is the aspect a synchronous write stored: a PATCH's patch
	// applied to the value it found, an UPSERT's value after GMS's
	// mutation hooks (ownerTypes, doubles written as Java writes them),
	// taken from the write itself so that no later writer's value shows;
	// nil for async and skipped writes and deletes.
	Value json.RawMessage
	// Defaults are the aspects GMS added because the write's batch created
	// its entity, on the entity's first write of a synchronous batch
	// (defaults.go).
	Defaults []DefaultAspect
}

// Ingest validates the proposals in DataHub's order and applies them as one
// atomic batch: if any is refused nothing changes and the error (an *Error)
// names every refused item (async proposals are applied one by one, see
// IngestOptions.Async). Due async writes are applied first. It sets
// EntityURN of proposals that name their entity by key aspect.
func (c *Core) Ingest(ctx context.Context, ps []Proposal, o IngestOptions) error {
	_, err := c.ingest(ctx, ps, o, false)
	return err
}

// Write is [Core.Ingest] that also reports the outcome of each proposal, in
// order: pending for async proposals, else what the store did.
func (c *Core) Write(ctx context.Context, ps []Proposal, o IngestOptions) ([]Written, error) {
	return c.ingest(ctx, ps, o, true)
}

// ingest is Ingest and Write; results are made only when asked for.
func (c *Core) ingest(ctx context.Context, ps []Proposal, o IngestOptions, results bool) ([]Written, error) {
	// The arenas' blocks serve the next ingest once the store has copied
	// the values, unless the values leave the ingest (see arenaSpent).
	var spent *arenaSpent
	if !results && !o.Async && o.TraceID == "" {
		spent = newArenaSpent()
	}
	items, ws, err := prepareAll(ps, o.Batch, c.patcher, c.opts.AcceptUnknown, spent)
	if err != nil {
		spent.drop()
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			spent.drop()
		}
	}()
	if err := c.checkStructuredProperties(ps); err != nil {
		return nil, err
	}
	if err := c.checkURNAnnotations(ps); err != nil {
		return nil, err
	}
	if err := c.checkPropertyDefinitions(ps); err != nil {
		return nil, err
	}
	if !(o.Async && c.opts.AsyncLag > 0) {
		if err := c.ix.WaitBacklog(ctx); err != nil {
			return nil, errorf(Internal, MsgStopped, err)
		}
	}
	stampCaller(CallerOf(ctx), ws)
	if o.SystemMetadataCompact {
		for i := range ws {
			if sm := ws[i].SystemMetadata; len(sm) > 0 && sm[0] == '{' { // an object (any other value: the full read)
				ws[i].SystemMetadataCompact = true
			}
		}
	}
	c.traces.begin(o.TraceID, items, ws)
	var out []Written
	if results {
		out = make([]Written, len(ps))
	}
	if o.Async {
		for i := range out {
			out[i].Pending = true
		}
	}
	if o.Async && c.opts.AsyncLag > 0 {
		c.q.add(items, ws, o.Batch)
		return out, nil
	}
	c.barrier()
	if o.Async { // GMS accepted them; its consumer drops what fails, one by one
		c.q.applyEach(items, ws, o.Batch)
		return out, nil
	}
	if results {
		for i := range ws {
			if t := ws[i].Transform; t != nil && ps[items[i].index].ChangeType == "PATCH" {
				k := items[i].index
				ws[i].Transform = func(cur json.RawMessage) (json.RawMessage, error) {
					v, err := t(cur)
					if err == nil {
						out[k].Value = v
					}
					return v, err
				}
			}
		}
	}
	res, defs, aerr := c.applyWithDefaults(items, ws, o.Batch)
	if aerr != nil {
		return nil, aerr
	}
	if syncIndex(ps) {
		c.ix.SyncThrough(c.st.Seq())
	}
	if spent != nil { // no results: nothing below reads a value
		ok = true
		spent.recycle()
	}
	if results {
		for i := range res {
			w := &out[items[i].index]
			w.Skipped, w.Unchanged, w.Version = res[i].Skipped, res[i].Unchanged, res[i].Version
			if w.Skipped {
				w.Value = nil
			} else if w.Value == nil && ws[i].Transform == nil {
				w.Value = ws[i].Value // as stored: after GMS's mutation hooks (hooks.go)
			}
			if defs != nil {
				w.Defaults = defs[i]
			}
		}
	}
	return out, nil
}

// arenaNeed is the arena memory prepare may take for p's value: its
// compaction, and for an ownership value the ownerTypes hook's (which
// holds the compaction and the owners' type groups).
func arenaNeed(p *Proposal) int {
	n := len(p.Aspect)
	if p.AspectLiteral != nil {
		// The text sent's length, which bounds its decoding's: a value
		// refused is checked again as sent.
		n = len(p.AspectLiteral)
	}
	if p.AspectName == "ownership" {
		return 2 * n
	}
	return n
}

// prepareAll validates every proposal and returns the valid ones with their
// store writes, in order; a batch is refused as a whole, with every bad item
// named by its index. The kind is the first bad item's. A batch's
// proposals are prepared in chunks on the machine's cores (each proposal's
// checks stand alone); a single proposal's refusal stops at the first bad
// one, in order. It adds the full blocks of its value arenas to spent and
// takes its writes' memory from spent (nil: none is given back, the writes
// are allocated).
func prepareAll(ps []Proposal, batch bool, pt *patch.Patcher, lax map[string]bool, spent *arenaSpent) ([]item, []store.Write, error) {
	ws := spent.writes(len(ps))
	if !batch {
		values := arenas.Get().(*valueArena)
		defer func() { spent.add(values); *values = valueArena{}; arenas.Put(values) }() // the values stay the writes'
		for i := range ps {
			values.size += arenaNeed(&ps[i])
		}
		for i := range ps {
			if err := prepare(&ps[i], pt, lax, nil, values, &ws[i]); err != nil {
				err.Index = i
				return nil, nil, err
			}
		}
		return itemsOf(len(ps)), ws, nil
	}
	var errs []*Error // per proposal, made once one is refused
	var errsOnce sync.Once
	par.Chunks(len(ps), par.MinChunk, func(_, lo, hi int) {
		values := arenas.Get().(*valueArena)
		defer func() { spent.add(values); *values = valueArena{}; arenas.Put(values) }() // the values stay the writes'
		for i := lo; i < hi; i++ {
			values.size += arenaNeed(&ps[i])
		}
		for i := lo; i < hi; i++ {
			if err := prepare(&ps[i], pt, lax, nil, values, &ws[i]); err != nil {
				errsOnce.Do(func() { errs = make([]*Error, len(ps)) })
				err.Index = i
				errs[i] = err
			}
		}
	})
	if errs == nil {
		return itemsOf(len(ps)), ws, nil
	}
	var bad []string
	var first *Error
	for i, err := range errs {
		if err == nil {
			continue
		}
		if first == nil {
			first = err
		}
		bad = append(bad, fmt.Sprintf(MsgBatchItem, i, err.Message))
	}
	return nil, nil, &Error{Kind: first.Kind, Index: first.Index,
		Message: fmt.Sprintf(MsgBatchInvalid, len(bad), len(ps), JoinMessages(bad, "; "))}
}

// itemsOf is the items of n proposals that all passed.
func itemsOf(n int) []item {
	items := make([]item, n)
	for i := range items {
		items[i].index = i
	}
	return items
}

// arenas are the headers of prepareAll's value arenas, kept for the next
// batch: the arena memory stays with the values, the header is handed to
// pdl behind an interface, which would move it to the heap every batch.
var arenas = sync.Pool{New: func() any { return new(valueArena) }}

// prepare validates a proposal in the order of GMS's
// ValidationApiUtils.validateMCP and turns it into the store write *w
// (left as it is when p is refused). It fills
// p.EntityURN when the proposal names its entity by key. A PATCH becomes
// a write whose Transform applies the patch with pt (see patchWrite); an
// UPSERT with update set (p.Aspect unused) one whose Transform computes the
// value with update and validates it (see Core.Update). A value compacted
// takes its memory from values (nil: allocated).
func prepare(p *Proposal, pt *patch.Patcher, lax map[string]bool, update UpdateFunc, values *valueArena, w *store.Write) *Error {
	switch p.ChangeType {
	case "UPSERT", "CREATE", "CREATE_ENTITY", "DELETE", "PATCH":
	default:
		return errorf(Invalid, MsgChangeUnsupported, Abbreviate(p.ChangeType))
	}
	// As ValidationApiUtils.validateMCP: the entity comes from the URN when
	// there is one, else from entityType and the URN from the key aspect.
	var entity pdl.Entity
	var u string
	var keyParts []string // u's key parts, when checkURN found them
	facts, cached := urnFacts{}, false
	if p.EntityURN != "" {
		facts, cached = cachedURNFacts(p.EntityURN)
	}
	switch {
	case cached:
		entity, u = facts.entity, p.EntityURN
	case p.EntityURN != "":
		parsed, parts, err := checkURN(p.EntityURN)
		if err != nil {
			return err
		}
		e, ok := lookupEntity(parsed.EntityType())
		if !ok {
			return errorf(UnknownEntity, MsgUnknownEntity, Abbreviate(parsed.EntityType()))
		}
		entity, u = e, p.EntityURN
		if e.Name == EntityTypeOf(u) { // the parts were checked against e's key
			keyParts = parts
		}
	default:
		if p.EntityKeyAspect == nil {
			return errorf(BadArgument, MsgNoURN)
		}
		e, ok := lookupEntity(p.EntityType)
		if !ok {
			return errorf(UnknownEntity, MsgUnknownEntity, Abbreviate(p.EntityType))
		}
		if !jsonx.IsObject(p.EntityKeyAspect) {
			return errorf(BadArgument, MsgAspectNotJSON, e.KeyAspect, e.Name, Abbreviate(string(p.EntityKeyAspect)))
		}
		built, err := urnFromKey(e, p.EntityKeyAspect)
		if err != nil {
			return errorf(BadArgument, MsgAspectNotJSON, e.KeyAspect, e.Name, JSONErrorText(err))
		}
		if _, err := CheckURN(built); err != nil {
			return err
		}
		entity, u = e, built
		p.EntityURN = u
	}
	// The MCP's entityType must name the URN's entity, in any case.
	if p.EntityType != entity.Name && !strings.EqualFold(p.EntityType, entity.Name) {
		return errorf(Invalid, MsgEntityTypeMismatch, entity.Name, Abbreviate(p.EntityType))
	}
	keyValue := facts.key
	if !cached {
		var err *Error
		if keyValue, err = checkKey(entity, u, keyParts); err != nil {
			return err
		}
		if p.EntityURN == u && p.EntityKeyAspect == nil {
			cacheURNFacts(u, urnFacts{entity: entity, key: keyValue, aspects: allowedAspects()[entity.Name]})
		}
	}
	if p.AspectName == "" {
		return errorf(Invalid, MsgAspectNameMissing)
	}
	// Unknown: not an aspect of the entity, or one the registry names
	// without facts.
	aspects := facts.aspects
	if aspects == nil { // not cached, or cached without them
		aspects = allowedAspects()[entity.Name]
	}
	af, ok := aspects[p.AspectName]
	if !ok {
		return errorf(UnknownAspect, MsgUnknownAspect, Abbreviate(p.AspectName), entity.Name)
	}
	info := af.info
	// As MCPItem.isValidChangeType: a timeseries aspect accepts only UPSERT.
	if info.Timeseries && p.ChangeType != "UPSERT" {
		return errorf(Invalid, MsgTimeseriesUnchanged, p.ChangeType, info.Name)
	}
	if p.ChangeType == "DELETE" {
		if p.AspectName != entity.KeyAspect {
			return errorf(Invalid, MsgDeleteNonKey, p.AspectName)
		}
		*w = store.Write{URN: u, Aspect: p.AspectName, DeleteEntity: true}
		return nil
	}
	if p.Aspect == nil && update == nil {
		return errorf(Invalid, MsgAspectMissing, p.ChangeType, p.AspectName)
	}
	var value json.RawMessage
	var valueHash uint64
	var transform func(json.RawMessage) (json.RawMessage, error)
	if update != nil {
		if info.Timeseries {
			return errorf(Invalid, MsgTimeseriesUnchanged, "PATCH", info.Name)
		}
		transform = updateWrite(update, info, entity.Name, lax[info.Name])
	} else if p.ChangeType == "PATCH" {
		p.useSentAspect()
		var err *Error
		if transform, err = patchWrite(p, info, entity.Name, pt, lax[info.Name]); err != nil {
			return err
		}
	} else {
		if p.ContentType != "application/json" {
			return errorf(BadArgument, MsgContentType, Abbreviate(p.ContentType))
		}
		schema := af.validated && !lax[info.Name]
		var repeated bool
		if value, valueHash, repeated = values.repeatedValue(p.Aspect, entity.Name, info.Name, schema); !repeated {
			var err *Error
			var marks []pdl.Mark // the check's marks of value (see ownerTypesMarked)
			if value, valueHash, marks, err = checkHeldMarks(info, af.held, entity.Name, p.Aspect, schema, values); err != nil {
				if p.AspectLiteral == nil {
					return err
				}
				// The text sent decides a refusal: its messages may quote
				// it or point into it.
				p.useSentAspect()
				if value, valueHash, err = checkHeld(info, af.held, entity.Name, p.Aspect, schema, values); err != nil {
					return err
				}
				marks = nil
			}
			if m, h, changed := mutateHashed(info, af.floats, value, valueHash, values, marks); changed { // GMS's serialisation and mutation hooks (hooks.go)
				if h == 0 {
					h = jsonx.Hash(m)
				}
				// The compaction the hooks rewrote is not kept: the
				// rewritten value takes its room in the arena.
				value, valueHash = values.retake(value, m), h
			}
			values.keepValue(p.Aspect, entity.Name, info.Name, schema, value, valueHash)
		}
	}
	cond, err := conditionsOf(p)
	if err != nil {
		return err
	}
	*w = store.Write{
		URN:            u,
		Aspect:         p.AspectName,
		Value:          value,
		ValueHash:      valueHash,
		SystemMetadata: p.SystemMetadata,
		Transform:      transform,
		Timeseries:     info.Timeseries,
		Compact:        true, // checkAspect validated and compacted it
	}
	if cond != nil {
		w.Check = cond.check
	}
	switch {
	case p.AspectName == entity.KeyAspect: // the write is the key row
		w.KeyAspect = entity.KeyAspect
	case keyValue != nil: // nil: no key schema, no key row
		w.KeyAspect, w.KeyValue = entity.KeyAspect, keyValue
	}
	return nil
}

// headerOK returns the proposal header name and whether it is present: as
// written when present, else its first other spelling in key order (not map
// order, so that the answer is the same every time).
func headerOK(h map[string]string, name string) (string, bool) {
	if v, ok := h[name]; ok {
		return v, true
	}
	first, v, found := "", "", false
	for k, kv := range h {
		if strings.EqualFold(k, name) && (!found || k < first) {
			first, v, found = k, kv, true
		}
	}
	return v, found
}

// header is headerOK's value.
func header(h map[string]string, name string) string {
	v, _ := headerOK(h, name)
	return v
}

// apply writes validated items, whose store writes are ws, as one atomic
// store batch with the default aspects of the entities they create (see
// applyWithDefaults).
func (c *Core) apply(items []item, ws []store.Write, batch bool) ([]store.Result, *Error) {
	res, _, err := c.applyWithDefaults(items, ws, batch)
	return res, err
}

// syncIndex reports whether a proposal asks for its search index update in
// the request (X-DataHub-Sync-Index-Update: true, GMS's
// SYNC_INDEX_UPDATE_HEADER_NAME); async proposals never are.
func syncIndex(ps []Proposal) bool {
	for i := range ps {
		if strings.EqualFold(header(ps[i].Headers, HeaderSyncIndexUpdate), "true") {
			return true
		}
	}
	return false
}

// traced reports whether any item is in the write log.
func traced(items []item) bool {
	for i := range items {
		if items[i].trace != nil {
			return true
		}
	}
	return false
}

// storeError maps a store failure to GMS's answer: a failed condition or
// transform gets the core's error (naming the batch item), anything else
// is Internal.
func storeError(err error, items []item, batch bool) *Error {
	var e *Error
	var fe *store.CheckError
	var inner *Error
	switch {
	case errors.As(err, &fe) && errors.As(fe.Err, &inner):
		e = &Error{Kind: inner.Kind, Message: inner.Message, Index: fe.Index}
	case errors.Is(err, store.ErrInvalidWrite): // input the checks above let through
		return errorf(BadArgument, "%v", err)
	default:
		return errorf(Internal, MsgStore, err)
	}
	if e.Index >= 0 && e.Index < len(items) {
		e.Index = items[e.Index].index
	}
	if batch {
		e.Message = fmt.Sprintf(MsgBatchItem, e.Index, e.Message)
	}
	return e
}
