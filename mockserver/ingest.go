package mockserver

import (
	"errors"
	"io"
	"net/http"
	"sync"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// readBody reads a request body within the size limit.
func readBody(r *http.Request) ([]byte, *restliError) {
	body, err := readAll(r.Body, r.ContentLength)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, errorf(http.StatusRequestEntityTooLarge, msgBodyTooLarge, mbe.Limit)
		}
		return nil, errorf(http.StatusBadRequest, msgBadBody, gms.JSONErrorText(err))
	}
	return body, nil
}

// readAll is io.ReadAll with the buffer sized for a body of n bytes (n < 0:
// unknown), up to preallocMax, so that a body of the announced length is
// read into one allocation. A larger announced length is not trusted: the
// buffer grows with what arrives, so that a client announcing 60 MB and
// sending nothing costs no 60 MB.
func readAll(r io.Reader, n int64) ([]byte, error) {
	if n < 0 {
		return io.ReadAll(r)
	}
	b := make([]byte, 0, min(n, preallocMax)+1) // +1: room to see EOF without growing
	for {
		m, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+m]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

// preallocMax is the largest buffer readAll allocates on the strength of a
// Content-Length alone.
const preallocMax = 1 << 20

// actionParams decodes the JSON object of an action's parameters.
func actionParams(body []byte) (rawMap, *restliError) {
	params, err := unmarshalObject(body)
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
func asyncParam(params rawMap, pe *paramErrors) bool {
	v, ok := params.get("async")
	if !ok || isNull(v) {
		return gms.RestliAsync(gms.AsyncUnset)
	}
	s, err := unmarshalString(v)
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
	body, rerr := readBody(r)
	if rerr != nil {
		writeRestliError(w, rerr, "")
		return
	}
	ps, async, rerr := decodeIngest(body, batch)
	if rerr != nil {
		s.recordIngest(ps, async, batch, rerr) // nothing when the body did not decode
		writeRestliError(w, rerr, "")
		return
	}
	err := s.core.Ingest(r.Context(), ps, gms.IngestOptions{Async: async, Batch: batch, SystemMetadataChecked: true})
	if err != nil {
		rerr := fromCore(err, rt.op)
		s.recordIngest(ps, async, batch, rerr)
		writeRestliError(w, rerr, "")
		return
	}
	s.recordIngest(ps, async, batch, nil)
	writeSuccess(w)
}

// decodeIngest decodes the body of ingestProposal (batch false) or
// ingestProposalBatch into its proposals for the core and its async flag.
// A body that is no JSON object is an error without proposals; a parameter
// that does not validate is an error with the proposals as far as they
// decoded.
func decodeIngest(body []byte, batch bool) ([]gms.Proposal, bool, *restliError) {
	o := outlines.Get().(*pdl.Outline)
	defer outlines.Put(o)
	return decodeIngestWith(o, body, batch)
}

// decodeIngestWith is decodeIngest parsing the body into o: one pass
// validates the body and splits it down to the members of a proposal's
// aspects (body, list, proposal, aspect). A nil o splits each level afresh.
func decodeIngestWith(o *pdl.Outline, body []byte, batch bool) ([]gms.Proposal, bool, *restliError) {
	d := wireDoc{o}
	params, ok := rawMap(nil), o != nil && o.Parse(body, 4)
	if ok {
		params, ok = o.AppendMembers(make(rawMap, 0, 2), o.Top())
	}
	if !ok {
		d = wireDoc{}
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
		v, ok := params.get("proposals")
		switch {
		case !ok || isNull(v):
			pe.add(msgParamRequired, "/proposals")
		default:
			var err error
			if raws, err = d.array(v); err != nil {
				pe.add(msgParamType, "/proposals", compact(v), "DataList")
			}
		}
	} else {
		if v, ok := params.get("proposal"); !ok || isNull(v) {
			pe.add(msgParamRequired, "/proposal")
		} else {
			raws = [][]byte{v}
		}
	}
	ps := make([]gms.Proposal, len(raws))
	for i, raw := range raws {
		if batch {
			path.index = i
		}
		decodeProposal(d, raw, path, &ps[i], &pe)
	}
	if len(pe) > 0 {
		return ps, async, errorf(http.StatusBadRequest, "%s", joinParamErrors(method, pe))
	}
	return ps, async, nil
}

// outlines are the outlines decodeIngest parses bodies into, kept for the
// next request: nothing decoded keeps one.
var outlines = sync.Pool{New: func() any { return new(pdl.Outline) }}

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
