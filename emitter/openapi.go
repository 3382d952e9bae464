package emitter

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/internal/emitctx"
	"github.com/catalogkit/datahub-go/internal/hooks"
	"github.com/catalogkit/datahub-go/internal/par"
	"github.com/catalogkit/datahub-go/internal/transport"
	"github.com/catalogkit/datahub-go/urn"
)

// The OpenAPI paths the emitter calls.
const (
	pathV3Entity   = "/openapi/v3/entity/"
	pathTraceWrite = "/openapi/v1/trace/write/"
	// headerSyncIndex asks GMS to update the search index before a
	// synchronous write answers (an aspect header, not an HTTP header).
	headerSyncIndex = "X-DataHub-Sync-Index-Update"
	// headerIfVersionMatch makes a write conditional on the aspect's
	// version ("-1": on its absence).
	headerIfVersionMatch = "If-Version-Match"
)

// v3Kind is how a proposal goes over OpenAPI.
type v3Kind uint8

const (
	v3Batch  v3Kind = iota + 1 // an element of a batch POST or PATCH /{entityType}
	v3Create                   // alone: POST /{entityType}/{urn}/{aspect}
	v3Delete                   // alone: DELETE /{entityType}/{urn}
)

// v3Encoded is a proposal encoded for the OpenAPI path.
type v3Encoded struct {
	kind   v3Kind
	method string
	path   string // the request path with its query
	// key groups batch elements into requests: method and entity type.
	key string
	// enc is the batch element {"urn":…,"<aspect>":{…}} or the single
	// request's body.
	enc    []byte
	urn    string
	aspect string
	unsafe bool
	// skipOK marks a CREATE sent with If-None-Match: *, for which DataHub
	// answers 404 when it drops the write.
	skipOK bool
	// createEntity marks a CREATE_ENTITY.
	createEntity bool
}

// v3Batch is the state of one Emit over OpenAPI.
type v3Run struct {
	r       *REST
	items   []v3Encoded
	results emitResults
	// traced are the requests whose trace EmitAsyncWait polls.
	traced []tracedRequest
	// versions asks batch writes for their answers' system metadata, to
	// give Written results their versions (EmitResults, synchronous).
	versions bool
	// holds, when set, keeps the memory of the items' encodings (pooled)
	// until the requests no longer read it.
	holds *arenaHolds
	// ps, when set, are the proposals of items whose URN encodeV3Part left
	// empty (see urnOf).
	ps []Proposal
	// spare is memory for a request's indexes: a chunk's, once sent, for
	// the next chunk (nil: none at hand).
	spare []int
}

// urnOf returns the URN of items[i], building its text the first time
// when encodeV3Part left it empty (a dataset URN of b.ps written straight
// into the encoding).
func (b *v3Run) urnOf(i int) string {
	it := &b.items[i]
	if it.urn == "" && b.ps != nil {
		it.urn = b.ps[i].urnString()
	}
	return it.urn
}

// tracedRequest is a request accepted with a trace id: the proposals it
// carried.
type tracedRequest struct {
	traceID string
	idx     []int
}

// emitOpenAPI sends ps through the OpenAPI v3 entity API.
//
// Each proposal keeps its meaning: UPSERT goes in a batch POST
// /openapi/v3/entity/{entityType}, PATCH in a batch PATCH of the same path
// (the patch as {"patch":[…]}); CREATE and CREATE_ENTITY go alone as POST
// /openapi/v3/entity/{entityType}/{urn}/{aspect} with createIfNotExists or
// createIfEntityNotExists, since the batch routes know only UPSERT; a
// DELETE (of the key aspect) goes alone as DELETE
// /openapi/v3/entity/{entityType}/{urn}, which deletes the entity. UPDATE
// and RESTATE have no OpenAPI form and are Rejected. Headers
// (If-Version-Match, ...) go in each aspect's "headers". Batches hold
// proposals of one entity type and method, in order, within the batch
// limits; a proposal is never sent before an earlier one of the same URN.
func (r *REST) emitOpenAPI(ctx context.Context, ps []Proposal, versions bool) (results []Result, err error) {
	// The request bodies are read from the encodings' memory, which goes
	// back to the pool once the call and its requests are done with it.
	holds := newArenaHolds()
	defer holds.release()
	run := &v3Run{r: r, versions: versions && (r.mode == EmitSyncPrimary || r.mode == EmitSyncWait), holds: holds}
	// Unless the run reads every URN (EmitResults, EmitAsyncWait's traces),
	// a dataset URN's text is built only where it is needed (see
	// v3Run.urnOf), and for the results only when they are returned.
	if !versions && r.mode != EmitAsyncWait {
		run.ps = ps
		defer func() {
			if err != nil {
				nameResults(results, ps)
			}
		}()
	}
	atomic := emitctx.AllOrNothing(ctx)
	// The items are read only within this call: their list is kept for
	// the next one.
	items := getV3Items(len(ps))
	defer putV3Items(items)
	// So is their bookkeeping, unless the results are returned (see
	// v3Scratch).
	sc := getV3Scratch()
	run.spare = sc.idx
	run.items, run.results = r.encodeV3Into(encoders(len(ps)), ps, atomic, &holds.arena, run.ps != nil, *items, sc)
	if atomic {
		size := 2 + len(run.items) - 1
		for i, it := range run.items {
			if run.results[i].Status != Rejected && (it.kind != v3Batch || it.key != run.items[0].key) {
				return run.results, allOrNothing(run.results, fmt.Errorf("proposals of several entity types, PATCHes beside other changes or a delete go in several requests: %w", datahub.ErrValidation))
			}
			size += len(it.enc)
		}
		if err := oneRequest(run.results, len(run.items), size, r.maxBatch, r.maxBytes); err != nil {
			return run.results, err
		}
	}
	if err := run.run(ctx); err != nil || versions {
		return run.results, err
	}
	sc.put(run.results, run.spare)
	return nil, nil
}

// v3Async is the async query value of the emitter's mode.
func (r *REST) v3Async() string {
	if r.mode == EmitAsync || r.mode == EmitAsyncWait {
		return "true"
	}
	return "false"
}

// encodeV3 checks and encodes every proposal for OpenAPI; those that
// cannot be sent are Rejected, the others NotAttempted. With atomic, a
// CREATE or CREATE_ENTITY becomes a batch element conditional on the
// aspect's absence (If-Version-Match: -1, which fails as CREATE does when
// the aspect, or for the key aspect the entity, exists), so that a batch
// POST carries it with the rest.
//
// Contiguous parts of ps are encoded on their own goroutines (see
// encoders); the outcome is the same as one goroutine's.
func (r *REST) encodeV3(ps []Proposal, atomic bool) ([]v3Encoded, []Result) {
	return r.encodeV3In(ps, atomic, nil)
}

// encodeV3In is encodeV3 with the encodings in buffers of arena (nil:
// memory of their own), which must not be released while they are used.
func (r *REST) encodeV3In(ps []Proposal, atomic bool, arena *encodeArena) ([]v3Encoded, []Result) {
	return r.encodeV3OnIn(encoders(len(ps)), ps, atomic, arena, false)
}

// encodeV3On is encodeV3 on k goroutines (1 <= k <= len(ps)).
func (r *REST) encodeV3On(k int, ps []Proposal, atomic bool) ([]v3Encoded, []Result) {
	return r.encodeV3OnIn(k, ps, atomic, nil, false)
}

// encodeV3OnIn is encodeV3In on k goroutines (1 <= k <= len(ps)). With
// lazyURN, a batch element's dataset URN (see directURN) is written
// straight into its encoding, and its item's urn and its result's URN are
// left empty (see v3Run.urnOf and nameResults).
func (r *REST) encodeV3OnIn(k int, ps []Proposal, atomic bool, arena *encodeArena, lazyURN bool) ([]v3Encoded, []Result) {
	return r.encodeV3Into(k, ps, atomic, arena, lazyURN, make([]v3Encoded, len(ps)), nil)
}

// encodeV3Into is encodeV3OnIn encoding into items, len(ps) zero items,
// which it returns; the results and the encodings' offsets are in sc's
// memory (nil: memory of their own).
func (r *REST) encodeV3Into(k int, ps []Proposal, atomic bool, arena *encodeArena, lazyURN bool, items []v3Encoded, sc *v3Scratch) ([]v3Encoded, []Result) {
	now := r.nowMillis(time.Now())
	var results []Result
	var offsets [][2]int
	if sc != nil {
		results, offsets = sc.take(len(ps))
	} else {
		results, offsets = make([]Result, len(ps)), make([][2]int, len(ps))
	}
	bufs := make([]*[]byte, k)
	for j := range bufs {
		if arena != nil {
			bufs[j] = arena.get()
		} else {
			bufs[j] = new([]byte)
		}
	}
	par.In(k, len(ps), func(j, lo, hi int) {
		r.encodeV3Part(ps[lo:hi], lo, items[lo:hi], results[lo:hi], offsets[lo:hi], now, atomic, lazyURN, true, bufs[j])
	})
	return items, results
}

// encodeV3Part encodes ps, the proposals from index base of a call, into
// items and results, appending to *buf (left holding the grown buffer);
// offsets, len(ps) zero pairs, are its memory for the encodings' places
// in *buf; lazyURN is encodeV3OnIn's. With shaped, the usual proposal
// is written from its usualShape's pieces (see usualShape), unless the
// emit mode adds headers; without, every proposal takes the general
// path, which the tests compare it with.
func (r *REST) encodeV3Part(ps []Proposal, base int, items []v3Encoded, results []Result, offsets [][2]int, now int64, atomic, lazyURN, shaped bool, buf *[]byte) {
	async := r.v3Async()
	sm := r.defaultSM(now) // the system metadata of the proposals that have none
	var valueBuf bytes.Buffer
	var route v3Route // the batch route of the last entity type, for the next
	var shapes shapeFinder
	var dsRoute v3Route // the datasets' batch route, made for the first usual proposal
	shaped = shaped && r.mode != EmitSyncWait
	// The encodings go one after another into one arena, sized after the
	// first for the rest; offsets are their places in it, made slices once
	// the arena has its final memory.
	arena := (*buf)[:0]
	defer func() { *buf = arena }()
	sized := false
	for i := range ps {
		p := &ps[i]
		res := &results[i]
		var s *usualShape
		var text string
		if shaped {
			s, text = r.usualOf(p, now, &shapes)
		}
		if s != nil && s.v3 {
			// The usual proposal: an UPSERT batch element written from its
			// shape's pieces. One whose aspect fails, or that is too large,
			// takes the general path, which says why.
			start := len(arena)
			if out, ok := s.appendUsualV3(arena, p, text); ok && len(out)-1-start+2 <= r.maxBytes {
				arena = out
				if lazyURN {
					// As the general path leaves it (see v3Run.urnOf): a
					// Dataset with text has a name (urn.NewDataset and
					// urn.ParseDataset refuse an empty one), so directURN
					// holds.
					text = ""
				}
				if dsRoute.path == "" {
					dsRoute = newV3Route(urn.TypeDataset, async)
				}
				*res = Result{Index: base + i, URN: text, Aspect: s.name}
				it := &items[i] // zero
				it.kind, it.method, it.path, it.key = v3Batch, http.MethodPost, dsRoute.path, dsRoute.postKey
				it.urn, it.aspect, it.unsafe = text, s.name, s.unsafe
				offsets[i] = [2]int{start, len(arena) - 1}
				if !sized {
					n := len(arena) - start
					arena, sized = slices.Grow(arena, (n+1+n/8)*(len(ps)-i-1)), true
				}
				continue
			}
		}
		// p's change type, aspect name and whether its aspect appends its
		// own JSON, found once (as encodePart does): f.own answers
		// plainWriteOf's and isAspectsType's questions without reflection.
		f := findShape(p, "")
		*res = Result{Index: base + i, Aspect: f.name}
		change := f.ct
		// A batch element's dataset URN may be written without its text
		// being built (plainWriteOf: it passes checkURN).
		lazy := directURN(p.URN)
		lazy = lazy && lazyURN && plainWriteOf(p, change, f.name, f.own) && (change == Upsert || change == Patch)
		var err error
		if !lazy {
			res.URN = p.urnString()
			err = p.checkURN(res.URN)
		}
		if err == nil {
			err = checkV3(p, lazy || res.URN != "")
		}
		if err != nil {
			res.URN = p.urnString()
			res.Status, res.Err = Rejected, err
			continue
		}
		it := &items[i]
		it.urn, it.aspect, it.unsafe = res.URN, res.Aspect, !p.replaySafe()
		if change == Delete {
			it.kind, it.method, it.path = v3Delete, http.MethodDelete, v3EntityPath(p.entityType(), it.urn)
			continue
		}
		// An aspect of package aspects (not a PATCH, which wraps a list)
		// is written straight into the encoding, below; any other first
		// into valueBuf.
		inPlace := change != Patch && (f.own || isAspectsType(p.Aspect))
		var value []byte
		if !inPlace {
			if value, err = aspectJSON(p.Aspect, &valueBuf); err != nil {
				res.Status, res.Err = Rejected, err
				continue
			}
		}
		single := change == Create || change == CreateEntity
		headers := p.Headers
		if single && atomic {
			single = false
			headers = withHeader(headers, headerIfVersionMatch, "-1")
		}
		// A batch element is {"urn":…,"<aspect>":<part>}, a single request's
		// body the part alone: {"value":…,"systemMetadata":…,"headers":…}.
		start := len(arena)
		enc := arena
		if !single {
			if it.urn == "" {
				enc = appendV3DatasetHead(enc, p.URN)
			} else {
				enc = append(enc, `{"urn":`...)
				enc = appendString(enc, it.urn)
			}
			enc = append(enc, ',', '"')
			if f.own { // plain text (see propShape)
				enc = append(enc, it.aspect...)
			} else {
				enc = appendPlainBody(enc, it.aspect)
			}
			enc = append(enc, '"', ':')
		}
		enc = append(enc, `{"value":`...)
		switch {
		case inPlace:
			at := len(enc)
			enc, err = aspects.AppendJSON(enc, p.Aspect)
			if err = checkAspectJSON(p.Aspect, enc[at:], err); err != nil {
				res.Status, res.Err = Rejected, err
				continue // arena is as it was
			}
		case change == Patch && len(value) > 0 && value[0] == '[':
			enc = append(enc, `{"patch":`...)
			enc = append(enc, value...)
			enc = append(enc, '}')
		default:
			enc = append(enc, value...)
		}
		enc = append(enc, `,"systemMetadata":`...)
		if p.SystemMetadata == nil { // the call's text, made once
			enc = append(enc, sm...)
		} else {
			enc = appendFilledSystemMetadata(enc, p.SystemMetadata, now)
		}
		if r.mode == EmitSyncWait {
			h := make(map[string]string, len(headers)+1)
			for k, v := range headers {
				h[k] = v
			}
			h[headerSyncIndex] = "true"
			headers = h
		}
		if len(headers) > 0 {
			enc = append(enc, `,"headers":`...)
			enc = appendStringMap(enc, headers)
		}
		enc = append(enc, '}')
		if single {
			it.kind, it.method = v3Create, http.MethodPost
			it.path = v3EntityPath(p.entityType(), it.urn) + "/" + url.PathEscape(it.aspect) + "?async=" + async + "&createIfNotExists=true"
			if change == CreateEntity {
				it.path += "&createIfEntityNotExists=true"
				it.createEntity = true
			}
			for k, v := range p.Headers {
				if strings.EqualFold(k, "If-None-Match") && v == "*" {
					it.skipOK = true
				}
			}
		} else {
			if typ := p.entityType(); typ != route.entityType || route.path == "" {
				route = newV3Route(typ, async)
			}
			it.kind, it.method, it.path, it.key = v3Batch, http.MethodPost, route.path, route.postKey
			if change == Patch {
				it.method, it.key = http.MethodPatch, route.patchKey
			}
			enc = append(enc, '}')
		}
		arena = enc
		if size := len(arena) - start + 2; size > r.maxBytes {
			res.URN = p.urnString()
			res.Status, res.Err = Rejected, &TooLargeError{Index: base + i, URN: res.URN, Aspect: res.Aspect, Size: size, Limit: r.maxBytes}
			arena = arena[:start]
			continue
		}
		offsets[i] = [2]int{start, len(arena)}
		arena = append(arena, ',') // what separates it from the next in a request: see joined
		if !sized {
			n := len(arena) - start
			arena, sized = slices.Grow(arena, (n+1+n/8)*(len(ps)-i-1)), true
		}
	}
	for i, o := range offsets {
		if o[1] > o[0] {
			items[i].enc = arena[o[0]:o[1]] // its capacity to the arena's end: see joined
		}
	}
}

// appendV3DatasetHead appends the head of an OpenAPI batch element for u,
// a dataset URN with a name: `{"urn":` and its text as a JSON string,
// copied as it is when the Dataset keeps it plain (hooks.DatasetText;
// u is the proposal's own interface value, so asking boxes nothing),
// escaped otherwise (FuzzV3DatasetHead).
func appendV3DatasetHead(dst []byte, u urn.URN) []byte {
	dst = append(dst, `{"urn":`...)
	if text, plain, ok := hooks.DatasetText(u); ok && plain {
		dst = append(dst, '"')
		dst = append(dst, text...)
		return append(dst, '"')
	}
	return appendString(dst, u.String())
}

// withHeader returns a copy of headers with name set to value, unless
// headers sets name already (in any case).
func withHeader(headers map[string]string, name, value string) map[string]string {
	out := make(map[string]string, len(headers)+1)
	for k, v := range headers {
		if strings.EqualFold(k, name) {
			return headers
		}
		out[k] = v
	}
	out[name] = value
	return out
}

// v3EntityPath is the path of an entity: /openapi/v3/entity/{entityType}/{urn}.
func v3EntityPath(entityType, urn string) string {
	return pathV3Entity + url.PathEscape(entityType) + "/" + transport.URNInPath(urn)
}

// v3Route is the batch route of an entity type: its path with the async
// query, and the keys that group its POST and PATCH elements.
type v3Route struct {
	entityType, path, postKey, patchKey string
}

// newV3Route returns the batch route of entityType.
func newV3Route(entityType, async string) v3Route {
	return v3Route{entityType: entityType, path: pathV3Entity + url.PathEscape(entityType) + "?async=" + async,
		postKey: http.MethodPost + " " + entityType, patchKey: http.MethodPatch + " " + entityType}
}

// checkV3 refuses what the OpenAPI path cannot carry; hasURN reports
// that p.urnString() is not empty.
func checkV3(p *Proposal, hasURN bool) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("emitter: "+format+": %w", append(args, datahub.ErrValidation)...)
	}
	switch {
	case !hasURN:
		return bad("proposal without a URN: the OpenAPI write path names entities by URN (use the Rest.li endpoint for a key aspect alone)")
	case p.changeType() == Update || p.changeType() == Restate:
		return bad("change type %s has no OpenAPI form (it knows UPSERT, CREATE, CREATE_ENTITY, PATCH and DELETE): use the Rest.li endpoint", p.changeType())
	case p.changeType() != Delete && p.changeType() != Patch && p.contentType() != ContentTypeJSON:
		return bad("content type %q: the OpenAPI write path takes JSON aspects", p.contentType())
	}
	return nil
}

// v3Chunk is a batch request being filled.
type v3Chunk struct {
	key  string
	idx  []int
	size int
	// urns are the URNs of idx, built only once another chunk is open
	// beside this one (nil until then).
	urns map[string]bool
}

// has reports whether c holds a proposal of b's items for urn.
func (b *v3Run) has(c *v3Chunk, urn string) bool {
	if c.urns == nil {
		c.urns = make(map[string]bool, len(c.idx))
		for _, i := range c.idx {
			c.urns[b.urnOf(i)] = true
		}
	}
	return c.urns[urn]
}

// run sends the proposals, in batches by entity type and method, and
// waits for their traces in EmitAsyncWait.
func (b *v3Run) run(ctx context.Context) error {
	r := b.r
	var open []*v3Chunk
	var stop error
	flush := func(c *v3Chunk) {
		for k, o := range open {
			if o == c {
				open = append(open[:k], open[k+1:]...)
				break
			}
		}
		if stop == nil && len(c.idx) > 0 {
			stop = b.sendBatch(ctx, c.idx)
		}
		// Nothing keeps a chunk's indexes once it is sent (a trace keeps a
		// copy): the next chunk may have their memory.
		if cap(c.idx) > cap(b.spare) {
			b.spare = c.idx[:0]
		}
		c.idx = nil
	}
	flushAll := func() {
		for len(open) > 0 {
			flush(open[0])
		}
	}
	var refused map[string]error // URNs whose CREATE_ENTITY was refused
	for i := range b.results {
		if stop != nil {
			break
		}
		if b.results[i].Status == Rejected {
			continue
		}
		it := &b.items[i]
		if len(refused) > 0 {
			if cause := refused[b.urnOf(i)]; cause != nil {
				// Rest.li applies an entity's CREATE_ENTITY and what follows
				// it in one request, all or nothing; OpenAPI sends them apart,
				// so what follows a refused CREATE_ENTITY is not sent.
				b.results[i].Err = fmt.Errorf("emitter: not sent: the CREATE_ENTITY of %s before it was refused: %w", it.urn, cause)
				continue
			}
		}
		if it.kind != v3Batch { // sent alone, in its place
			flushAll()
			if stop == nil {
				stop = b.sendSingle(ctx, i)
				if r := b.results[i]; r.Status == Rejected && it.createEntity {
					if refused == nil {
						refused = map[string]error{}
					}
					refused[it.urn] = r.Err
				}
			}
			continue
		}
		var c *v3Chunk
		if len(open) == 1 && open[0].key == it.key {
			c = open[0] // the usual case: no other chunk to look through
		} else {
			for _, o := range open {
				if o.key == it.key {
					c = o
				}
			}
			for _, o := range open { // keep the order of writes to one URN
				if o != c && b.has(o, b.urnOf(i)) {
					flush(o)
				}
			}
		}
		if stop != nil {
			break
		}
		add := len(it.enc) + 1
		if c != nil && (len(c.idx) == r.maxBatch || c.size+add > r.maxBytes) {
			flush(c)
			c = nil
		}
		if c == nil {
			// Room for the rest of the proposals, as many as a batch holds.
			c = &v3Chunk{key: it.key, size: 2}
			if n := min(len(b.results)-i, r.maxBatch); cap(b.spare) >= n {
				c.idx, b.spare = b.spare[:0], nil
			} else {
				c.idx = make([]int, 0, n)
			}
			open = append(open, c)
		}
		c.idx = append(c.idx, i)
		c.size += add
		if c.urns != nil {
			c.urns[b.urnOf(i)] = true
		}
	}
	flushAll()
	if stop == nil && r.mode == EmitAsyncWait && len(b.traced) > 0 {
		stop = b.wait(ctx)
	}
	return b.results.settle(stop)
}

// sendBatch sends the batch elements idx (one entity type and method) in
// one request; a request refused for its content is split in halves. It
// returns the error that must stop the Emit call, nil to go on.
func (b *v3Run) sendBatch(ctx context.Context, idx []int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	first := &b.items[idx[0]]
	req := transport.Request{Method: first.method, Path: first.path}
	if b.versions {
		req.Path += "&systemMetadata=true"
	}
	// The body is sent from the encodings' memory, consecutive ones as
	// one slice (see joined); the answer, which echoes the aspects
	// written, is read only for the versions.
	run, unsafe, ok := b.joinedRun(idx)
	req.NoReplay = unsafe
	if ok {
		req.Parts = [][]byte{openBracket, run, closeBracket}
	} else {
		req.Parts = bodyParts(openBracket, closeBracket, idx, func(i int) []byte { return b.items[i].enc })
	}
	if b.holds != nil {
		req.Done = b.holds.hold()
	}
	req.DiscardBody = !b.versions
	resp, err := b.r.tc.Send(ctx, req)
	if err == nil {
		b.accepted(idx, resp)
		if b.versions {
			b.setVersions(idx, resp.Body)
		}
		return nil
	}
	return b.r.refused(ctx, err, idx, b.sendBatch, b.results.mark)
}

// joinedRun returns the encodings of idx, comma-separated, as one slice
// of their memory when each follows the one before it there (see joined),
// ok false when they do not: the body bodyParts makes of them is then
// more than one slice. unsafe reports whether any of them is not
// replay-safe, ok or not. It is bodyParts's usual case in one pass with
// the replay check, without a call through a function value an element.
func (b *v3Run) joinedRun(idx []int) (run []byte, unsafe, ok bool) {
	first := &b.items[idx[0]]
	run, unsafe, ok = first.enc, first.unsafe, true
	for _, i := range idx[1:] {
		it := &b.items[i]
		unsafe = unsafe || it.unsafe
		if ok {
			run, ok = joined(run, it.enc)
		}
	}
	return run, unsafe, ok
}

// The brackets of a batch body, as its pieces (never written to).
var openBracket, closeBracket = []byte("["), []byte("]")

// sendSingle sends a CREATE or a DELETE alone.
func (b *v3Run) sendSingle(ctx context.Context, i int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	it := &b.items[i]
	req := transport.Request{Method: it.method, Path: it.path, Body: it.enc, NoReplay: it.unsafe}
	if b.holds != nil && len(it.enc) > 0 {
		req.Done = b.holds.hold()
	}
	resp, err := b.r.tc.Send(ctx, req)
	if err == nil {
		b.accepted([]int{i}, resp)
		return nil
	}
	var de *datahub.Error
	if it.skipOK && errors.As(err, &de) && de.StatusCode == http.StatusNotFound && de.Message == http.StatusText(http.StatusNotFound) {
		b.results.mark([]int{i}, Written, nil) // If-None-Match: * dropped the CREATE, as asked
		return nil
	}
	status := classify(err)
	b.results.mark([]int{i}, status, err)
	if status == Rejected && (itemRejection(err) || (it.kind == v3Delete && errors.Is(err, datahub.ErrNotFound))) {
		return nil
	}
	return err
}

// accepted records a 2xx answer: the proposals are Written, and in
// EmitAsyncWait the request's trace id is kept to poll.
func (b *v3Run) accepted(idx []int, resp *transport.Response) {
	b.results.mark(idx, Written, nil)
	if b.r.mode != EmitAsyncWait || b.items[idx[0]].kind == v3Delete {
		return
	}
	id := traceIDOf(resp.Header.Get("traceparent"))
	if id == "" {
		return // no tracing on this server: the acknowledgement is all there is
	}
	b.traced = append(b.traced, tracedRequest{traceID: id, idx: append([]int(nil), idx...)})
}

// setVersions gives the Written results idx of a synchronous batch write
// the versions its answer reports: a list of entities, each with one
// member per aspect holding its systemMetadata. DataHub answers an aspect
// written twice in one request once, with the later write: that version
// goes to the later proposal. An answer that cannot be read leaves the
// versions empty; the writes were acknowledged all the same.
func (b *v3Run) setVersions(idx []int, body []byte) {
	var answer []map[string]json.RawMessage
	if json.Unmarshal(body, &answer) != nil {
		return
	}
	type key struct{ urn, aspect string }
	got := map[key]string{}
	for _, ent := range answer {
		var u string
		if json.Unmarshal(ent["urn"], &u) != nil {
			continue
		}
		for name, raw := range ent {
			if name == "urn" {
				continue
			}
			var a struct {
				SystemMetadata struct {
					Version string `json:"version"`
				} `json:"systemMetadata"`
			}
			if json.Unmarshal(raw, &a) == nil && a.SystemMetadata.Version != "" {
				got[key{u, name}] = a.SystemMetadata.Version
			}
		}
	}
	for k := len(idx) - 1; k >= 0; k-- {
		i := idx[k]
		it := &b.items[i]
		kk := key{b.urnOf(i), it.aspect}
		if v, ok := got[kk]; ok && b.results[i].Status == Written {
			b.results[i].Version = v
			delete(got, kk) // an earlier write of the same aspect is not answered
		}
	}
}
