package emitter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/internal/config"
	"github.com/catalogkit/datahub-go/internal/emitctx"
	"github.com/catalogkit/datahub-go/internal/mcpwire"
	"github.com/catalogkit/datahub-go/internal/serverconfig"
	"github.com/catalogkit/datahub-go/internal/transport"
)

// The Rest.li actions the emitter calls.
const (
	pathIngest      = "/aspects?action=ingestProposal"
	pathIngestBatch = "/aspects?action=ingestProposalBatch"
	pathDelete      = "/entities?action=delete"
	pathConfig      = "/config"
	// pathTokenCheck is the read TestConnection checks the token with: the
	// status of DataHub's built-in admin user, a read GMS authenticates
	// (/config is not).
	pathTokenCheck = "/aspects/urn%3Ali%3Acorpuser%3Adatahub?aspect=status&version=0"
)

// REST emits proposals to DataHub's GMS over its Rest.li write path, as
// DataHub's Python REST emitter does. It is safe for concurrent use.
type REST struct {
	tc       *transport.Client
	log      *slog.Logger
	maxBatch int
	maxBytes int
	isolate  bool
	// suffix ends every ingest body with its "async" member:
	// `,"async":"false"}`.
	suffix string
	// suffixBytes is suffix, and batchTail "]" and suffix, as pieces of
	// a request body.
	suffixBytes, batchTail []byte
	// token says whether requests carry a token (WithToken or an
	// Authorization header), for TestConnection's message.
	token bool
	// now is the clock of systemMetadata.lastObserved; nil is time.Now
	// (see nowMillis).
	now func() time.Time

	// ep is the configured write path; auto decides datahub.EndpointAuto.
	ep   datahub.Endpoint
	auto serverconfig.Resolver
	// mode is the emit mode.
	mode EmitMode
	// pollMin and pollMax bound the waits between trace polls of EmitAsyncWait.
	pollMin, pollMax time.Duration
	// degraded logs once that EmitAsyncWait writes synchronously over Rest.li.
	degraded sync.Once
	// oneSize is the size of the last body emitOne sent.
	oneSize atomic.Int64
	// sm is the system metadata text of the last millisecond proposals
	// were encoded in (see defaultSM).
	sm atomic.Pointer[smText]
	// shapes are the usualShapes of the proposals encoded last, by the
	// slot of their aspect name (see usualOf).
	shapes [shapeSlots]atomic.Pointer[usualShape]
}

// Fixed parts of the request bodies.
const (
	singlePrefix = `{"proposal":`
	batchPrefix  = `{"proposals":[`
)

// The fixed parts as pieces of a request body (never written to).
var (
	singlePrefixBytes = []byte(singlePrefix)
	batchPrefixBytes  = []byte(batchPrefix)
	commaBytes        = []byte(",")
)

// NewREST returns an emitter for the GMS at serverURL: a GMS root
// (http://localhost:8080) or a front end's GMS proxy path
// (https://datahub.example.com/api/gms); trailing slashes are dropped. It
// fails, wrapping datahub.ErrValidation, when serverURL is not an absolute
// http or https URL. NewREST sends nothing; see TestConnection.
func NewREST(serverURL string, opts ...Option) (*REST, error) {
	s := config.Defaults()
	config.ApplyEmitter(&s, opts)
	if err := transport.Check(s); err != nil {
		return nil, err
	}
	tc, err := transport.New(serverURL, s)
	if err != nil {
		return nil, err
	}
	mode := EmitMode(s.Emitter.Mode)
	async := "false"
	if mode == EmitAsync { // EmitAsyncWait is synchronous on Rest.li (no trace to wait on)
		async = "true"
	}
	r := &REST{
		tc:       tc,
		log:      s.Logger,
		maxBatch: s.Emitter.MaxBatchSize,
		maxBytes: s.Emitter.MaxBatchBytes,
		isolate:  s.Emitter.IsolateRejected == nil || *s.Emitter.IsolateRejected,
		suffix:   `,"async":"` + async + `"}`,
		token:    s.Token != "" || hasAuthorization(s.Headers),
		ep:       datahub.Endpoint(s.Endpoint),
		mode:     mode,
		pollMin:  defaultPollMin,
		pollMax:  defaultPollMax,
	}
	r.suffixBytes, r.batchTail = []byte(r.suffix), []byte("]"+r.suffix)
	if r.maxBatch <= 0 {
		r.maxBatch = DefaultMaxBatchSize
	}
	if r.maxBytes <= 0 {
		r.maxBytes = DefaultMaxBatchBytes
	}
	return r, nil
}

// nowMillis returns the observation time of proposals encoded at t (the
// time.Now of the caller, who may need it too), in Unix milliseconds: t's,
// or the clock r.now's when one was set.
func (r *REST) nowMillis(t time.Time) int64 {
	if r.now != nil {
		return r.now().UnixMilli()
	}
	return t.UnixMilli()
}

// ServerURL returns the normalised server URL requests are sent under.
func (r *REST) ServerURL() string { return r.tc.BaseURL() }

// Emit sends proposals to the server and returns once it has acknowledged
// them, or failed. It returns nil when every proposal was written, else a
// *BatchError that gives the outcome of each ([Written], [Rejected] and
// why, [Failed], [Unknown], [Stopped] or [NotAttempted]), whether one
// proposal was given or many; errors.Is and errors.As see through it to
// the causes (a *datahub.Error, datahub.ErrValidation, a *TooLargeError,
// datahub.ErrOutcomeUnknown, datahub.ErrStopped, the context's error).
// Emit keeps nothing to send again: see the package's "Outcomes" section.
//
// One proposal goes as POST /aspects?action=ingestProposal. Several go as
// POST /aspects?action=ingestProposalBatch, in order, in requests of at
// most WithMaxBatchSize proposals and WithMaxBatchBytes bytes (a request
// left with a single proposal uses ingestProposal); a Delete goes alone, as
// POST /entities?action=delete.
//
// Invalid and oversized proposals are reported without being sent, and the
// others are still sent. A request refused for its content (400, 412, 413,
// 422) is split to find the proposals at fault (see WithIsolateRejected)
// and Emit goes on; any other failure (5xx, 429 or network errors after
// every retry, 401, 403, the context done) stops the call, and the
// proposals after it are not attempted. Requests are retried as
// datahub.WithRetry says, except that a request carrying a conditional
// write or a CREATE is replayed only when it provably was not applied (see
// package datahub); once ctx is done, no request is started or retried.
func (r *REST) Emit(ctx context.Context, ps ...Proposal) error {
	if len(ps) == 0 {
		return nil
	}
	return r.emit(ctx, ps)
}

// emitWire is Emit for proposals already in their wire form, sent exactly
// as given (nothing defaulted or filled in): a relay of proposals made
// elsewhere, such as the Kafka module's Bridge, which consumes them from a
// topic, uses it (through package mcpwire) to apply them with the
// emitter's requests, retries and replay rules. A Delete is sent as Emit
// sends one; a proposal without entity type, change type or aspect name,
// or a Delete without URN, is Rejected without being sent.
func (r *REST) emitWire(ctx context.Context, ws []mcpwire.Proposal) error {
	if len(ws) == 0 {
		return nil
	}
	items, results := r.encodeWire(ws)
	b := &batch{r: r, items: items, results: results}
	return b.run(ctx)
}

// encodeWire is encode for wire proposals.
func (r *REST) encodeWire(ws []mcpwire.Proposal) ([]encoded, []Result) {
	items, results := make([]encoded, len(ws)), make([]Result, len(ws))
	single := len(singlePrefix) + len(r.suffix)
	for i := range ws {
		w := &ws[i]
		ct := ChangeType(w.ChangeType)
		items[i].unsafe = !replaySafe(ct, w.Headers)
		res := &results[i]
		*res = Result{Index: i, URN: w.EntityURN, Aspect: w.AspectName}
		switch {
		case w.EntityType == "" || !ct.valid() || w.AspectName == "":
			res.Status, res.Err = Rejected, fmt.Errorf("emitter: wire proposal for %q without entity type, valid change type or aspect name: %w", w.EntityURN, datahub.ErrValidation)
			continue
		case ct == Delete && w.EntityURN == "":
			res.Status, res.Err = Rejected, fmt.Errorf("emitter: delete without a URN: %w", datahub.ErrValidation)
			continue
		case ct == Delete:
			continue
		}
		enc := appendWire(nil, w)
		if size := len(enc) + single; size > r.maxBytes {
			res.Status, res.Err = Rejected, &TooLargeError{Index: i, URN: res.URN, Aspect: res.Aspect, Size: size, Limit: r.maxBytes}
			continue
		}
		items[i].enc = enc
	}
	return items, results
}

// deleteEntity deletes an entity as DataHub's Python emitter does for a
// DELETE of a key aspect.
func (r *REST) deleteEntity(ctx context.Context, u string) error {
	body := make([]byte, 0, len(u)+16)
	body = append(body, `{"urn":`...)
	body = appendString(body, u)
	body = append(body, '}')
	_, err := r.tc.Do(ctx, http.MethodPost, pathDelete, body)
	return err
}

// encoded is a proposal checked and encoded for the wire.
type encoded struct {
	// enc is the proposal object; nil for a delete and for a proposal that
	// cannot be sent.
	enc []byte
	// unsafe marks a proposal that must not be replayed (see replaySafe).
	unsafe bool
	// chunk, when set, is the keptChunk enc was written in (by
	// encodeKept), which holds a reference for it until it is sent.
	chunk *keptChunk
}

// batch is the state of one Emit.
type batch struct {
	r       *REST
	items   []encoded
	results emitResults
	// holds, when set, keeps the memory of the items' encodings (pooled)
	// until the requests no longer read it.
	holds *arenaHolds
	// single, when set, is the whole ingestProposal body of the batch's
	// only item, sent as it is.
	single []byte
	// whole, when set, is the ingestProposalBatch body of the wholeN
	// encoded items, in the encodings' memory (see wholeBody): a request
	// of all of them sends it as one slice.
	whole  []byte
	wholeN int
	// parts, when set, is the ingestProposalBatch body of all the items
	// (two or more, every one encoded), partsLen bytes long, in the parts
	// bodyParts would make of them (see Async.send): a request of all of
	// them sends it.
	parts    [][]byte
	partsLen int
	// scratch, when set, holds the memory of a request's indexes; else
	// idx, when not nil, is that memory.
	scratch *emitScratch
	idx     []int
}

func (r *REST) emit(ctx context.Context, ps []Proposal) error {
	_, err := r.emitWith(ctx, ps, false)
	return err
}

// EmitResults is Emit that also returns the outcome of every proposal, in
// the order given, when all were written as well as when some were not
// (then they are the *BatchError's Results): the way to learn, on success,
// the version each write gave its aspect.
//
// Over the OpenAPI v3 entity API in a synchronous mode (EmitSyncPrimary,
// EmitSyncWait), the writes ask for the system metadata in their answer
// (systemMetadata=true) and each Written UPSERT or PATCH of a batch gets
// the aspect's version after the write in Result.Version. An UPSERT whose
// value equals the stored one is a no-op in GMS: its version is the one
// the aspect had. Version stays empty for a write the server applies later
// (EmitAsync, EmitAsyncWait), for a CREATE or a DELETE, for a proposal
// not written, and for every proposal sent through Rest.li: its
// ingestProposal answers only the URN.
func (r *REST) EmitResults(ctx context.Context, ps ...Proposal) ([]Result, error) {
	if len(ps) == 0 {
		return nil, nil
	}
	return r.emitWith(ctx, ps, true)
}

// emitWith is Emit; with versions, it asks OpenAPI's synchronous writes
// for the versions they made (see EmitResults). It returns every result.
func (r *REST) emitWith(ctx context.Context, ps []Proposal, versions bool) (results []Result, err error) {
	if r.openAPI(ctx) {
		return r.emitOpenAPI(ctx, ps, versions)
	}
	r.logDegraded()
	// The results are returned only then: their URNs' text is built for
	// them only then.
	defer func() {
		if err != nil || versions {
			nameResults(results, ps)
		}
	}()
	if len(ps) == 1 && !emitctx.AllOrNothing(ctx) {
		return r.emitOne(ctx, ps)
	}
	// The request bodies are read from the encodings' memory, which goes
	// back to the pool once the call and its requests are done with it.
	holds := newArenaHolds()
	defer holds.release()
	// The call's bookkeeping goes back to the pool when no result is
	// shown (see emitScratch).
	sc := getScratch()
	holds.arena.scratch = sc
	// The encodings follow the batch body's head in one buffer, so that
	// a request of all of them can send that buffer (see wholeBody).
	holds.arena.head, holds.arena.room = batchPrefixBytes, len(r.batchTail)
	var items []encoded
	if encoders(len(ps)) == 1 {
		items, results = r.encodeSeq(ps, &holds.arena)
	} else {
		items, results = r.encodeIn(ps, &holds.arena)
	}
	if emitctx.AllOrNothing(ctx) {
		size := len(batchPrefix) + len("]") + len(r.suffix) + len(items) - 1
		for i, it := range items {
			if it.enc == nil && results[i].Status != Rejected {
				return results, allOrNothing(results, fmt.Errorf("a delete goes in a request of its own: %w", datahub.ErrValidation))
			}
			size += len(it.enc)
		}
		if err := oneRequest(results, len(items), size, r.maxBatch, r.maxBytes); err != nil {
			return results, err
		}
	}
	b := &batch{r: r, items: items, results: results, holds: holds, scratch: sc}
	b.whole, b.wholeN = r.wholeBody(holds.arena.first, items)
	if err := b.run(ctx); err != nil || versions {
		return results, err
	}
	putScratch(sc)
	return nil, nil
}

// emitOne is emitWith of one proposal (len(ps) is 1) that need not be
// written all or nothing: its ingestProposal body is encoded whole into
// memory of its own and sent as one slice, without a pooled arena to give
// back or body parts to join.
func (r *REST) emitOne(ctx context.Context, ps []Proposal) ([]Result, error) {
	var offsets [1][2]int
	one := new(oneCall)
	items, results := one.items[:], one.results[:]
	// Sized after the last single body, which is usually alike.
	body := make([]byte, 0, r.oneSize.Load()+64)
	body = append(body, singlePrefix...)
	r.encodePart(ps[:1], 0, items, results, offsets[:], r.nowMillis(time.Now()), &body)
	b := &batch{r: r, items: items, results: results, idx: one.idx[:0]}
	if o := offsets[0]; o[1] > o[0] {
		// body holds the prefix, the encoding and a comma (see encodePart).
		body = append(body[:o[1]], r.suffix...)
		items[0].enc = body[o[0]:o[1]:o[1]]
		b.single = body
		r.oneSize.Store(int64(len(body)))
	}
	return results, b.run(ctx)
}

// oneCall is the memory of an emitOne call in one allocation: its result
// (returned), its item and the index of its request.
type oneCall struct {
	results [1]Result
	items   [1]encoded
	idx     [1]int
}

// oneRequest returns nil when n proposals of size bytes in all fit one
// request, and none is Rejected already; otherwise it settles results
// (the rest NotAttempted, with the reason) and returns the *BatchError.
func oneRequest(results emitResults, n, size, maxBatch, maxBytes int) error {
	for _, res := range results {
		if res.Status == Rejected {
			// The rejected proposal's own error says why, and is kept.
			return allOrNothing(results, fmt.Errorf("proposal %d (%s %s) cannot be sent: %w", res.Index, res.URN, res.Aspect, res.Err))
		}
	}
	if n > maxBatch || size > maxBytes {
		return allOrNothing(results, fmt.Errorf("%d proposals of %d bytes do not fit one request (%d proposals, %d bytes): %w", n, size, maxBatch, maxBytes, datahub.ErrValidation))
	}
	return nil
}

// allOrNothing ends a call that must write all or nothing and cannot,
// because of cause: nothing is sent.
func allOrNothing(results emitResults, cause error) error {
	err := fmt.Errorf("emitter: not sent: the proposals must be written all or none, and %w", cause)
	for i := range results {
		if results[i].Status != Rejected {
			results[i].Status, results[i].Err = NotAttempted, err
		}
	}
	return &BatchError{Results: results}
}

// run sends the encoded proposals of b in requests and returns nil or the
// *BatchError of the call.
func (b *batch) run(ctx context.Context) error {
	r := b.r
	// The proposals of one request, by index; its memory is used again
	// for the next (send keeps nothing of it).
	var chunk []int
	if b.scratch != nil {
		chunk = slices.Grow(b.scratch.idx[:0], min(len(b.results), r.maxBatch))
		defer func() { b.scratch.idx = chunk[:0] }()
	} else {
		chunk = slices.Grow(b.idx[:0], min(len(b.results), r.maxBatch))
	}
	if b.allInOne() {
		// The usual batch: one request of all, whose body is whole, as
		// sendChunks would send it.
		chunk = chunk[:len(b.items)]
		for i := range chunk {
			chunk[i] = i
		}
		return b.results.settle(b.send(ctx, chunk))
	}
	var stop error
	chunk, stop = b.sendChunks(ctx, chunk, b.send, b.sendDelete)
	return b.results.settle(stop)
}

// sendChunks sends the encoded proposals of b with send, in requests of
// consecutive ones within the REST's limits, and each delete alone in its
// place with sendDelete, skipping the rejected ones, until one returns
// an error: it returns that error (nil when none did) and chunk, the
// memory it kept a request's indexes in.
func (b *batch) sendChunks(ctx context.Context, chunk []int, send func(context.Context, []int) error, sendDelete func(context.Context, int) error) ([]int, error) {
	r := b.r
	overhead := len(batchPrefix) + len("]") + len(r.suffix)
	size := overhead
	var stop error
	flush := func() {
		if len(chunk) > 0 && stop == nil {
			stop = send(ctx, chunk)
		}
		chunk, size = chunk[:0], overhead
	}
	for i := range b.results {
		if stop != nil {
			break
		}
		res := &b.results[i]
		if res.Status == Rejected {
			continue
		}
		if b.items[i].enc == nil { // a delete goes alone, in its place
			flush()
			if stop == nil {
				stop = sendDelete(ctx, i)
			}
			continue
		}
		add := len(b.items[i].enc)
		if len(chunk) > 0 {
			add++ // the comma
		}
		if len(chunk) == r.maxBatch || (len(chunk) > 0 && size+add > r.maxBytes) {
			flush()
			add = len(b.items[i].enc)
		}
		chunk = append(chunk, i)
		size += add
	}
	flush()
	return chunk, stop
}

// allInOne reports whether run sends every proposal of b in one request,
// as sendChunks decides it, without its loop: when there is a whole body
// of the encodings, in one slice (see wholeBody: not for an empty batch)
// or in parts (b.parts), and it holds
// every item, so that none is rejected or a delete, and the request of
// all of them is within the REST's limits (its body is as long as
// sendChunks counts it) or of one proposal, which sendChunks sends
// whatever its size. TestAllInOne and TestAllInOneParts hold it to
// sendChunks.
func (b *batch) allInOne() bool {
	if b.parts != nil { // as a whole body, in parts
		return len(b.items) <= b.r.maxBatch && b.partsLen <= b.r.maxBytes
	}
	return b.whole != nil && b.wholeN == len(b.items) && b.wholeN <= b.r.maxBatch && (len(b.whole) <= b.r.maxBytes || b.wholeN == 1)
}

// send posts the proposals idx (in order) in one request and records the
// outcome. A request refused for its content is split in halves and sent
// again. It returns the error that must stop the Emit call, nil to go on.
func (b *batch) send(ctx context.Context, idx []int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	req := b.request(idx)
	if b.holds != nil {
		req.Done = b.holds.hold()
	}
	req.DiscardBody = true // ingestProposal answers the URNs, which Emit does not use
	_, err := b.r.tc.Send(ctx, req)
	if err == nil {
		b.results.mark(idx, Written, nil)
		return nil
	}
	return b.r.refused(ctx, err, idx, b.send, b.results.mark)
}

// wholeBody ends the encodings of items an arena with a head wrote in
// *buf (the head, then each encoding followed by a comma, in the items'
// order) with the batch body's tail in place of the last comma, and
// returns the body of a request of all of them and how many they are:
// nil when none was encoded or the tail does not fit the buffer's
// capacity (the encodings stay where they are, and their requests send
// them in parts). A request's proposals are encoded ones, each once, in
// order (see batch.run), so a request of that many is of all of them:
// its body is this one. The comma written over follows the last
// encoding, which no request joins to another.
func (r *REST) wholeBody(buf *[]byte, items []encoded) ([]byte, int) {
	if buf == nil {
		return nil, 0
	}
	all := *buf
	last := len(all) - 1
	if last < len(batchPrefix) || all[last] != ',' || cap(all)-last < len(r.batchTail) {
		return nil, 0
	}
	n := 0
	for i := range items {
		if items[i].enc != nil {
			n++
		}
	}
	all = append(all[:last], r.batchTail...)
	*buf = all
	return all, n
}

// request returns the request of the proposals idx (encoded ones, in
// order), its body sent from the encodings' memory: the whole body of a
// request of all of them (see wholeBody), else consecutive ones as one
// slice (see joined).
func (b *batch) request(idx []int) transport.Request {
	req := transport.Request{Method: http.MethodPost, Path: pathIngest}
	for _, i := range idx {
		if b.items[i].unsafe {
			req.NoReplay = true
			break
		}
	}
	switch {
	case len(idx) == 1 && b.single != nil:
		req.Body = b.single
	case len(idx) == 1:
		req.Parts = [][]byte{singlePrefixBytes, b.items[idx[0]].enc, b.r.suffixBytes}
	case b.whole != nil && len(idx) == b.wholeN:
		req.Path, req.Body = pathIngestBatch, b.whole
	case b.parts != nil && len(idx) == len(b.items):
		req.Path, req.Parts = pathIngestBatch, b.parts
	default:
		req.Path = pathIngestBatch
		req.Parts = bodyParts(batchPrefixBytes, b.r.batchTail, idx, func(i int) []byte { return b.items[i].enc })
	}
	return req
}

// sendDelete sends the delete proposal i.
func (b *batch) sendDelete(ctx context.Context, i int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	err := b.r.deleteEntity(ctx, b.results[i].URN)
	if err == nil {
		b.results.mark([]int{i}, Written, nil)
		return nil
	}
	status := classify(err)
	b.results.mark([]int{i}, status, err)
	if status == Rejected && (itemRejection(err) || errors.Is(err, datahub.ErrNotFound)) {
		return nil
	}
	return err
}

// refused settles a batch request that failed with err: a refusal of a
// batch of several proposals is halved and each half sent again with send,
// to find the proposals at fault (when the emitter isolates them); otherwise
// mark records the outcome of every proposal of the batch. It returns nil
// when the next batch may go on, and err when the emit must stop.
func (r *REST) refused(ctx context.Context, err error, idx []int, send func(context.Context, []int) error, mark func([]int, Status, error)) error {
	if itemRejection(err) && len(idx) > 1 && r.isolate && !emitctx.AllOrNothing(ctx) {
		if r.log != nil {
			r.log.LogAttrs(ctx, slog.LevelInfo, "emitter: batch refused, splitting it to find the proposals at fault",
				slog.Int("proposals", len(idx)), slog.Int("first", idx[0]), slog.String("error", err.Error()))
		}
		mid := len(idx) / 2
		if stop := send(ctx, idx[:mid]); stop != nil {
			return stop
		}
		return send(ctx, idx[mid:])
	}
	mark(idx, classify(err), err)
	if itemRejection(err) {
		return nil
	}
	return err
}

// emitResults are the results of the proposals of one Emit call, by index,
// through either endpoint.
type emitResults []Result

// mark records the outcome of the proposals idx.
func (o emitResults) mark(idx []int, s Status, err error) {
	for _, i := range idx {
		o[i].Status, o[i].Err = s, err
	}
}

// settle ends an Emit call that stop (nil: none) ended early: the
// proposals it did not attempt, and that have no error of their own, get
// stop as their error. It returns nil when every proposal was written, else
// a *BatchError with every result.
func (o emitResults) settle(stop error) error {
	failed := false
	for i := range o {
		res := &o[i]
		if res.Status == NotAttempted && stop != nil && res.Err == nil {
			res.Err = stop
		}
		if res.Status != Written {
			failed = true
		}
	}
	if !failed {
		return nil
	}
	return &BatchError{Results: o}
}

// TestConnection checks that the server is a DataHub GMS that accepts the
// emitter's token, before any proposal is sent. It reads GET /config, which
// GMS serves without authentication, and expects "noCode": "true" in it, as
// DataHub's Python emitter does; then it checks the token with one read that
// changes nothing and that GMS authenticates (GET /aspects of the status of
// the corpuser urn:li:corpuser:datahub): any answer but 401, a 404 or a 403
// too, means the token was accepted.
//
// A server that answers /config otherwise (usually DataHub's front end,
// reached without /api/gms) gives an error wrapping ErrNotGMS; a refused or
// missing token (a 401 to either request) gives an error that says so and
// wraps the *datahub.Error (errors.Is(err, datahub.ErrUnauthorized)); other
// failures wrap the server's answer or the network error. A server that
// cannot be reached (connection refused, a name that does not resolve) is
// reported after one attempt, without the retry policy's waits; other
// failures are retried as the policy says.
func (r *REST) TestConnection(ctx context.Context) error {
	target := datahub.RedactURL(r.tc.BaseURL() + pathConfig)
	// FailFast: a server that does not listen is reported at once, not
	// after the retry policy's waits (which Emit keeps).
	resp, err := r.tc.Send(ctx, transport.Request{Method: http.MethodGet, Path: pathConfig, FailFast: true})
	if err != nil {
		if errors.Is(err, datahub.ErrUnauthorized) {
			return fmt.Errorf("emitter: cannot connect to %s: authentication failed: %w", target, err)
		}
		return fmt.Errorf("emitter: cannot connect to %s (is it DataHub GMS, usually port 8080, or a front end's /api/gms?): %w", target, err)
	}
	var cfg struct {
		NoCode any `json:"noCode"`
	}
	if json.Unmarshal(resp.Body, &cfg) != nil || cfg.NoCode != "true" {
		return fmt.Errorf("emitter: %s does not answer as DataHub GMS (no \"noCode\": \"true\"); it looks like DataHub's front end: use the GMS URL (usually port 8080) or the front end's /api/gms: %w", target, ErrNotGMS)
	}
	return r.testToken(ctx)
}

// testToken reads pathTokenCheck and reports a 401 as a refused token.
// Every other answer, a 404 (no such aspect) or a 403 (a token without the
// privilege to read) among them, means the server accepted the token.
func (r *REST) testToken(ctx context.Context) error {
	_, err := r.tc.Send(ctx, transport.Request{Method: http.MethodGet, Path: pathTokenCheck, FailFast: true})
	server := datahub.RedactURL(r.tc.BaseURL())
	var de *datahub.Error
	switch {
	case err == nil, errors.As(err, &de) && de.StatusCode != http.StatusUnauthorized:
		return nil
	case de != nil && r.token:
		return fmt.Errorf("emitter: %s refused the token (authentication failed): %w", server, err)
	case de != nil:
		return fmt.Errorf("emitter: %s refused a request without a token (authentication failed; give one with datahub.WithToken): %w", server, err)
	}
	return fmt.Errorf("emitter: cannot connect to %s: %w", server, err)
}

// hasAuthorization says whether headers set an Authorization header.
func hasAuthorization(headers map[string]string) bool {
	for k := range headers {
		if http.CanonicalHeaderKey(k) == "Authorization" {
			return true
		}
	}
	return false
}
