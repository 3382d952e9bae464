package mockserver

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

// ControlPrefix is the path of the control API that [WithControl] enables,
// for tests that drive the standalone binary from another language.
const ControlPrefix = "/__datahub_mock"

// WithControl serves a small control API under [ControlPrefix] (default
// off), the HTTP form of the test helpers; it needs the same token as the
// other routes:
//
//	POST   /__datahub_mock/faults     {"op":"ingestProposal","times":2,"status":503,
//	                                   "retryAfterSeconds":1,"delayMillis":0,"drop":false}
//	DELETE /__datahub_mock/faults     remove every fault
//	POST   /__datahub_mock/reset      forget everything (Reset)
//	GET    /__datahub_mock/proposals  the received proposals (Proposals)
//	GET    /__datahub_mock/requests   request counts per operation
//
// Control requests are neither counted nor subject to faults.
func WithControl(on bool) Option {
	return func(c *config) { c.control = on }
}

// faultRequest is the JSON form of a Fault in the control API.
type faultRequest struct {
	Op                *Op     `json:"op"`
	Times             int     `json:"times"`
	Status            int     `json:"status"`
	RetryAfterSeconds float64 `json:"retryAfterSeconds"`
	DelayMillis       int64   `json:"delayMillis"`
	Drop              bool    `json:"drop"`
	CommitThenDrop    bool    `json:"commitThenDrop"`
}

// knownOps are the operations a fault may name.
var knownOps = []Op{OpIngestProposal, OpIngestProposalBatch, OpGetTimeseries, OpGetCount, OpGetAspect,
	OpGetEntity, OpDeleteEntity, OpConfig, OpUnknown, OpAny}

// serveControl answers a control API request; it reports false when path
// is not one.
func (s *Server) serveControl(w http.ResponseWriter, r *http.Request, path string) bool {
	if !s.cfg.control {
		return false
	}
	rest, ok := strings.CutPrefix(path, ControlPrefix)
	if !ok || (rest != "" && rest[0] != '/') {
		return false
	}
	if !s.authorized(r) {
		writeUnauthorized(w, path, s.cfg.clock())
		return true
	}
	switch {
	case rest == "/faults" && r.Method == http.MethodPost:
		body, rerr := readBody(r)
		if rerr != nil {
			writeRestliError(w, rerr, "")
			return true
		}
		var fr faultRequest
		if err := json.Unmarshal(body, &fr); err != nil {
			writeRestliError(w, errorf(http.StatusBadRequest, msgBadBody, err), "")
			return true
		}
		if fr.Op == nil || !opKnown(*fr.Op) {
			writeRestliError(w, errorf(http.StatusBadRequest, msgControlOp, knownOps), "")
			return true
		}
		if fr.Status != 0 && (fr.Status < 100 || fr.Status > 999) {
			writeRestliError(w, errorf(http.StatusBadRequest, msgControlStatus, fr.Status), "")
			return true
		}
		s.Inject(Fault{Op: *fr.Op, Times: fr.Times, Status: fr.Status, Drop: fr.Drop, CommitThenDrop: fr.CommitThenDrop,
			RetryAfter: time.Duration(fr.RetryAfterSeconds * float64(time.Second)),
			Delay:      time.Duration(fr.DelayMillis) * time.Millisecond})
		writeJSON(w, map[string]string{"value": "ok"})
	case rest == "/faults" && r.Method == http.MethodDelete:
		s.ClearFaults()
		writeJSON(w, map[string]string{"value": "ok"})
	case rest == "/reset" && r.Method == http.MethodPost:
		if err := s.Reset(); err != nil {
			writeRestliError(w, errorf(http.StatusInternalServerError, msgStore, err), "")
			return true
		}
		writeJSON(w, map[string]string{"value": "ok"})
	case rest == "/proposals" && r.Method == http.MethodGet:
		writeJSON(w, map[string][]Proposal{"value": s.Proposals()})
	case rest == "/requests" && r.Method == http.MethodGet:
		writeJSON(w, map[string]map[Op]int{"value": s.RequestCounts()})
	default:
		writeRestliError(w, errorf(http.StatusNotFound, msgControlRoute, r.Method, path), "")
	}
	return true
}

func opKnown(op Op) bool {
	for _, k := range knownOps {
		if k == op {
			return true
		}
	}
	return false
}
