package mockserver

import (
	"context"
	"net/http"

	"github.com/catalogkit/datahub-go/internal/par"
	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/wire"
)

// readBody reads a request body within the size limit.
func readBody(r *http.Request) ([]byte, *restliError) {
	return readBodyInto(nil, r)
}

// readBodyInto is readBody reading into buf's memory when it has room (see
// wire.ReadBody).
func readBodyInto(buf []byte, r *http.Request) ([]byte, *restliError) {
	body, e := wire.ReadBody(buf, r)
	if e != nil {
		return nil, &restliError{status: e.Status, message: e.Message, class: classServiceException}
	}
	return body, nil
}

// actionParams decodes the JSON object of an action's parameters.
func actionParams(body []byte) (wire.Map, *restliError) {
	params, err := wire.UnmarshalObject(body)
	if err != nil || params == nil {
		detail := "not a JSON object"
		if err != nil {
			detail = gms.JSONErrorText(err)
		}
		return nil, errorf(http.StatusBadRequest, msgBadBody, detail)
	}
	return params, nil
}

// asyncParam reads the "async" action parameter, which the core resolves.
func asyncParam(params wire.Map, pe *paramErrors) bool {
	v, ok := params.Get("async")
	if !ok || wire.IsNull(v) {
		return gms.RestliAsync(gms.AsyncUnset)
	}
	s, err := wire.UnmarshalString(v)
	if err != nil {
		pe.add(msgParamType, "/async", compact(v), "String")
		return false
	}
	return gms.RestliAsync(s)
}

// handleIngest serves ingestProposal and ingestProposalBatch: it decodes
// the Rest.li parameters and hands the proposals to the core.
func (s *Server) handleIngest(w http.ResponseWriter, r *http.Request, rt routed) {
	batch := rt.op == OpIngestProposalBatch
	buf := ingestBuffers.Get()
	body, rerr := readBodyInto(*buf, r)
	defer s.releaseBody(buf, body)
	if rerr != nil {
		writeRestliError(w, rerr, "")
		return
	}
	ps, async, rerr := s.ingestBody(r.Context(), body, batch, rt.op)
	s.recordIngest(ps, async, batch, rerr) // nothing when the body did not decode
	if rerr != nil {
		writeRestliError(w, rerr, "")
		return
	}
	writeSuccess(w)
}

// ingestBody decodes the body of an ingest request and hands its proposals
// to the core; it returns them (as far as they decoded) and the request's
// failure. The decode and the core split a batch on the cores that other
// requests in flight leave free (par.Enter).
func (s *Server) ingestBody(ctx context.Context, body []byte, batch bool, op Op) ([]gms.Proposal, bool, *restliError) {
	par.Enter()
	defer par.Leave()
	ps, async, rerr := decodeIngest(body, batch)
	wire.DetachBody(ps, body)
	if rerr != nil {
		return ps, async, rerr
	}
	if err := s.core.Ingest(ctx, ps, gms.IngestOptions{Async: async, Batch: batch, SystemMetadataCompact: true}); err != nil {
		return ps, async, fromCore(err, op)
	}
	return ps, async, nil
}

// decodeIngest decodes the body of ingestProposal (batch false) or
// ingestProposalBatch into its proposals for the core and its async flag.
// A body that is no JSON object is an error without proposals; a parameter
// that does not validate is an error with the proposals as far as they
// decoded. The bodies DataHub's emitters send are read by
// decodeIngestCompact, in one pass per proposal on all cores (an aspect
// value may then come compacted, with the literal it was sent in, which
// stays in body: see gms.Proposal.AspectLiteral); the rest (and every
// error) by decodeIngestWith.
func decodeIngest(body []byte, batch bool) ([]gms.Proposal, bool, *restliError) {
	if ps, async, ok := decodeIngestCompact(body, batch); ok {
		return ps, async, nil
	}
	o := wire.Outlines.Get().(*pdl.Outline)
	defer wire.Outlines.Put(o)
	return decodeIngestWith(o, body, batch)
}

// decodeIngestWith is decodeIngest parsing the body into o: one pass
// validates the body and splits it down to the members of a proposal's
// aspects (body, list, proposal, aspect). A nil o splits each level afresh.
func decodeIngestWith(o *pdl.Outline, body []byte, batch bool) ([]gms.Proposal, bool, *restliError) {
	d := wire.Doc{O: o, Memo: &wire.Memo{Chunk: min(len(body), wire.MaxValueChunk)}}
	params, ok := wire.Map(nil), o != nil && o.Parse(body, 4)
	if ok {
		params, ok = o.AppendMembers(make(wire.Map, 0, 2), o.Top())
	}
	if !ok {
		d = wire.Doc{}
		var rerr *restliError
		if params, rerr = actionParams(body); rerr != nil {
			return nil, false, rerr
		}
	}
	method := "ingestProposal"
	if batch {
		method = "ingestProposalBatch"
	}
	var pe paramErrors
	async := asyncParam(params, &pe)
	var raws [][]byte
	path := itemPath{list: "/proposal", index: -1}
	if batch {
		path.list = "/proposals"
		v, ok := params.Get("proposals")
		switch {
		case !ok || wire.IsNull(v):
			pe.add(msgParamRequired, "/proposals")
		default:
			var err error
			if raws, err = d.Array(v); err != nil {
				pe.add(msgParamType, "/proposals", compact(v), "DataList")
			}
		}
	} else {
		if v, ok := params.Get("proposal"); !ok || wire.IsNull(v) {
			pe.add(msgParamRequired, "/proposal")
		} else {
			raws = [][]byte{v}
		}
	}
	ps := make([]gms.Proposal, len(raws))
	if !batch {
		for i, raw := range raws {
			decodeProposal(d, raw, path, &ps[i], &pe)
		}
	} else {
		decodeBatch(d, len(body), raws, path, ps, &pe)
	}
	if len(pe) > 0 {
		return ps, async, errorf(http.StatusBadRequest, "%s", joinParamErrors(method, pe))
	}
	return ps, async, nil
}

// decodeBatch decodes the proposals raws of a batch (values of d, a
// document of bodyLen bytes) into ps, in chunks on the machine's cores,
// each with a reader of d's outline and memory of its own; the errors are
// added to pe in the proposals' order.
func decodeBatch(d wire.Doc, bodyLen int, raws [][]byte, path itemPath, ps []gms.Proposal, pe *paramErrors) {
	k := par.Count(len(raws), par.MinChunk)
	docs := make([]wire.Doc, k)         // the first chunk's is d
	chunkErrs := make([]paramErrors, k) // the first chunk's errors go to pe
	docs[0] = d
	if d.O != nil && k > 1 {
		// Each chunk's values take memory in pieces of about a quarter of
		// its text (an aspect's value is a part of its proposal's).
		chunk := min(max(bodyLen/k/4, 1<<10), wire.MaxValueChunk)
		if d.Memo != nil {
			d.Memo.Chunk = chunk
		}
		for c := 1; c < k; c++ {
			docs[c] = wire.Doc{O: d.O.Reader(), Memo: &wire.Memo{Chunk: chunk}}
		}
	}
	par.Chunks(len(raws), par.MinChunk, func(c, lo, hi int) {
		d, pe := docs[c], pe
		if c > 0 {
			pe = &chunkErrs[c]
		}
		path := path
		for i := lo; i < hi; i++ {
			path.index = i
			decodeProposal(d, raws[i], path, &ps[i], pe)
		}
	})
	for _, e := range chunkErrs[1:] {
		*pe = append(*pe, e...)
	}
}

// ingestBuffers are the buffers handleIngest reads bodies into, kept for
// the next request: nothing decoded from a body keeps its memory once
// wire.DetachBody has run, so that an ingest request costs no body-sized allocation.
var ingestBuffers wire.BodyPool

// releaseBody gives body's memory (read into *buf) back to ingestBuffers;
// with poisonBodies set it is overwritten first, so that a value still
// sharing it shows.
func (s *Server) releaseBody(buf *[]byte, body []byte) {
	if cap(body) > cap(*buf) {
		*buf = body[:0]
	}
	ingestBuffers.Put(buf, s.cfg.poisonBodies)
}

// recordIngest records the proposals of an ingest request as the core
// received them (see record).
func (s *Server) recordIngest(ps []gms.Proposal, async, batch bool, e *restliError) {
	if !s.cfg.record || len(ps) == 0 {
		return
	}
	out := make([]Proposal, len(ps))
	for i := range ps {
		out[i] = proposalOf(&ps[i], async, batch, i)
	}
	s.record(out, e)
}

// receive records proposals as the core receives them, when the server
// records (see record); the function it returns records the write's
// outcome ("" accepted, else the refusal). It is the OpenAPI adapter's
// hook.
func (s *Server) receive(ps []gms.Proposal, async, batch bool) func(refusal string) {
	if !s.cfg.record {
		return ignoreOutcome
	}
	received := make([]Proposal, len(ps))
	for i := range ps {
		received[i] = proposalOf(&ps[i], async, batch, i)
	}
	return func(refusal string) {
		var e *restliError
		if refusal != "" {
			e = &restliError{message: refusal}
		}
		s.record(received, e)
	}
}

// ignoreOutcome is receive's answer when the server does not record.
func ignoreOutcome(string) {}

// record keeps copies of received proposals for Proposals.
func (s *Server) record(ps []Proposal, e *restliError) {
	if !s.cfg.record {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range ps {
		if e != nil {
			p.Err = e.message
		}
		s.proposals = append(s.proposals, p.clone())
	}
}
