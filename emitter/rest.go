package emitter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/internal/transport"
)

// The Rest.li actions the emitter calls.
const (
	pathIngest      = "/aspects?action=ingestProposal"
	pathIngestBatch = "/aspects?action=ingestProposalBatch"
	pathDelete      = "/entities?action=delete"
	pathConfig      = "/config"
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
	// now is the clock of systemMetadata.lastObserved.
	now func() time.Time
}

// Fixed parts of the request bodies.
const (
	singlePrefix = `{"proposal":`
	batchPrefix  = `{"proposals":[`
)

// NewREST returns an emitter for the GMS at serverURL: a GMS root
// (http://localhost:8080) or a front end's GMS proxy path
// (https://datahub.example.com/api/gms); trailing slashes are dropped. It
// fails, wrapping datahub.ErrValidation, when serverURL is not an absolute
// http or https URL. NewREST sends nothing; see TestConnection.
func NewREST(serverURL string, opts ...datahub.Option) (*REST, error) {
	s, err := transport.Settings("emitter", opts)
	if err != nil {
		return nil, err
	}
	tc, err := transport.New(serverURL, s)
	if err != nil {
		return nil, err
	}
	async := "false"
	if s.Emitter.ServerAsync {
		async = "true"
	}
	r := &REST{
		tc:       tc,
		log:      s.Logger,
		maxBatch: s.Emitter.MaxBatchSize,
		maxBytes: s.Emitter.MaxBatchBytes,
		isolate:  s.Emitter.IsolateRejected == nil || *s.Emitter.IsolateRejected,
		suffix:   `,"async":"` + async + `"}`,
		now:      time.Now,
	}
	if r.maxBatch <= 0 {
		r.maxBatch = DefaultMaxBatchSize
	}
	if r.maxBytes <= 0 {
		r.maxBytes = DefaultMaxBatchBytes
	}
	return r, nil
}

// ServerURL returns the normalised server URL requests are sent under.
func (r *REST) ServerURL() string { return r.tc.BaseURL() }

// Emit sends proposals to the server and returns once it has acknowledged
// them, or failed.
//
// One proposal goes as POST /aspects?action=ingestProposal; the error is
// the server's answer (a *datahub.Error), the network or context error, a
// *TooLargeError, or an error wrapping datahub.ErrValidation for a proposal
// that cannot be sent. Several go as POST
// /aspects?action=ingestProposalBatch, in order, in requests of at most
// WithMaxBatchSize proposals and WithMaxBatchBytes bytes (a request left
// with a single proposal uses ingestProposal); a Delete goes alone, as POST
// /entities?action=delete. When any of them is not written,
// the error is a *BatchError that gives the outcome of each: written,
// rejected (and why), failed without a definite answer, or not attempted.
//
// Invalid and oversized proposals are reported without being sent, and the
// others are still sent. A request refused for its content (400, 412, 413,
// 422) is split to find the proposals at fault (see WithIsolateRejected)
// and Emit goes on; any other failure (5xx or network errors after every
// retry, 401, 403, the context done) stops the call, and the proposals
// after it are not attempted. Requests are retried as datahub.WithRetry says; once
// ctx is done, no request is started or retried.
func (r *REST) Emit(ctx context.Context, ps ...Proposal) error {
	switch len(ps) {
	case 0:
		return nil
	case 1:
		return r.emitOne(ctx, &ps[0])
	}
	return r.emitMany(ctx, ps)
}

// emitOne sends one proposal as ingestProposal (or a delete).
func (r *REST) emitOne(ctx context.Context, p *Proposal) error {
	if err := p.check(); err != nil {
		return err
	}
	if p.changeType() == Delete {
		return r.deleteEntity(ctx, p.urnString())
	}
	body := make([]byte, 0, 1024)
	body = append(body, singlePrefix...)
	body, err := appendProposal(body, p, r.now().UnixMilli())
	if err != nil {
		return err
	}
	body = append(body, r.suffix...)
	if len(body) > r.maxBytes {
		return &TooLargeError{Index: 0, URN: p.urnString(), Aspect: p.aspectName(), Size: len(body), Limit: r.maxBytes}
	}
	_, err = r.tc.Do(ctx, http.MethodPost, pathIngest, body)
	return err
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

// batch is the state of one Emit of several proposals.
type batch struct {
	r       *REST
	ps      []Proposal
	enc     [][]byte // encoded proposal objects; nil for deletes and rejects
	results []Result
}

func (r *REST) emitMany(ctx context.Context, ps []Proposal) error {
	b := &batch{r: r, ps: ps, enc: make([][]byte, len(ps)), results: make([]Result, len(ps))}
	b.encode()

	overhead := len(batchPrefix) + len("]") + len(r.suffix)
	var chunk []int
	size := overhead
	var stop error
	flush := func() {
		if len(chunk) > 0 && stop == nil {
			stop = b.send(ctx, chunk)
		}
		chunk, size = chunk[:0:0], overhead
	}
	for i := range ps {
		if stop != nil {
			break
		}
		res := &b.results[i]
		if res.Status == Rejected {
			continue
		}
		if b.enc[i] == nil { // a delete goes alone, in its place
			flush()
			if stop == nil {
				stop = b.sendDelete(ctx, i)
			}
			continue
		}
		add := len(b.enc[i])
		if len(chunk) > 0 {
			add++ // the comma
		}
		if len(chunk) == r.maxBatch || (len(chunk) > 0 && size+add > r.maxBytes) {
			flush()
			add = len(b.enc[i])
		}
		chunk = append(chunk, i)
		size += add
	}
	flush()

	failed := false
	for i := range b.results {
		res := &b.results[i]
		if res.Status == NotAttempted && stop != nil {
			res.Err = stop
		}
		if res.Status != Written {
			failed = true
		}
	}
	if !failed {
		return nil
	}
	return &BatchError{Results: b.results}
}

// encode checks and encodes every proposal, marking those that cannot be
// sent Rejected.
func (b *batch) encode() {
	now := b.r.now().UnixMilli()
	single := len(singlePrefix) + len(b.r.suffix)
	offsets := make([][2]int, len(b.ps))
	arena := make([]byte, 0, 1024*len(b.ps))
	for i := range b.ps {
		p := &b.ps[i]
		res := &b.results[i]
		*res = Result{Index: i, URN: p.urnString(), Aspect: p.aspectName()}
		if err := p.check(); err != nil {
			res.Status, res.Err = Rejected, err
			continue
		}
		if p.changeType() == Delete {
			continue
		}
		start := len(arena)
		var err error
		arena, err = appendProposal(arena, p, now)
		if err != nil {
			arena = arena[:start]
			res.Status, res.Err = Rejected, err
			continue
		}
		if size := len(arena) - start + single; size > b.r.maxBytes {
			arena = arena[:start]
			res.Status, res.Err = Rejected, &TooLargeError{Index: i, URN: res.URN, Aspect: res.Aspect, Size: size, Limit: b.r.maxBytes}
			continue
		}
		offsets[i] = [2]int{start, len(arena)}
	}
	for i, o := range offsets {
		if o[1] > o[0] {
			b.enc[i] = arena[o[0]:o[1]:o[1]]
		}
	}
}

// send posts the proposals idx (in order) in one request and records the
// outcome. A request refused for its content is split in halves and sent
// again. It returns the error that must stop the Emit call, nil to go on.
func (b *batch) send(ctx context.Context, idx []int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var err error
	if len(idx) == 1 {
		body := make([]byte, 0, len(singlePrefix)+len(b.enc[idx[0]])+len(b.r.suffix))
		body = append(body, singlePrefix...)
		body = append(body, b.enc[idx[0]]...)
		body = append(body, b.r.suffix...)
		_, err = b.r.tc.Do(ctx, http.MethodPost, pathIngest, body)
	} else {
		size := len(batchPrefix) + len(idx) + len(b.r.suffix)
		for _, i := range idx {
			size += len(b.enc[i])
		}
		body := make([]byte, 0, size)
		body = append(body, batchPrefix...)
		for k, i := range idx {
			if k > 0 {
				body = append(body, ',')
			}
			body = append(body, b.enc[i]...)
		}
		body = append(body, ']')
		body = append(body, b.r.suffix...)
		_, err = b.r.tc.Do(ctx, http.MethodPost, pathIngestBatch, body)
	}
	if err == nil {
		b.mark(idx, Written, nil)
		return nil
	}
	if itemRejection(err) && len(idx) > 1 && b.r.isolate {
		if b.r.log != nil {
			b.r.log.LogAttrs(ctx, slog.LevelInfo, "emitter: batch refused, splitting it to find the proposals at fault",
				slog.Int("proposals", len(idx)), slog.Int("first", idx[0]), slog.String("error", err.Error()))
		}
		mid := len(idx) / 2
		if stop := b.send(ctx, idx[:mid]); stop != nil {
			return stop
		}
		return b.send(ctx, idx[mid:])
	}
	status := Failed
	if definite(err) {
		status = Rejected
	}
	b.mark(idx, status, err)
	if itemRejection(err) {
		return nil
	}
	return err
}

// sendDelete sends the delete proposal i.
func (b *batch) sendDelete(ctx context.Context, i int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	err := b.r.deleteEntity(ctx, b.results[i].URN)
	switch {
	case err == nil:
		b.mark([]int{i}, Written, nil)
		return nil
	case definite(err):
		b.mark([]int{i}, Rejected, err)
		if itemRejection(err) || errors.Is(err, datahub.ErrNotFound) {
			return nil
		}
	default:
		b.mark([]int{i}, Failed, err)
	}
	return err
}

func (b *batch) mark(idx []int, s Status, err error) {
	for _, i := range idx {
		b.results[i].Status, b.results[i].Err = s, err
	}
}

// TestConnection checks that the server is a DataHub GMS, as DataHub's
// Python emitter does: it reads GET /config, which GMS serves without
// authentication, and expects "noCode": "true" in it. A server that answers
// otherwise (usually DataHub's front end, reached without /api/gms) gives
// an error wrapping ErrNotGMS; a 401 gives an error wrapping the
// *datahub.Error (errors.Is(err, datahub.ErrUnauthorized)); other failures
// wrap the server's answer or the network error.
func (r *REST) TestConnection(ctx context.Context) error {
	target := datahub.RedactURL(r.tc.BaseURL() + pathConfig)
	resp, err := r.tc.Do(ctx, http.MethodGet, pathConfig, nil)
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
	return nil
}
