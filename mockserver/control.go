package mockserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"net/http"
	"slices"
	"strconv"
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
//	                                   "retryAfterSeconds":1}
//	GET    /__datahub_mock/faults     the pending faults (Faults), each with the
//	                                  requests it has left as "times"
//	DELETE /__datahub_mock/faults     remove every fault
//	POST   /__datahub_mock/reset      forget everything (Reset)
//	GET    /__datahub_mock/proposals  the received proposals (Proposals); 409 when
//	                                  the server does not record them ([WithRecording])
//	GET    /__datahub_mock/requests   request counts per operation (RequestCounts)
//	GET    /__datahub_mock/requests/graphql
//	                                  GraphQL request counts per operation name
//	                                  (GraphQLRequestCounts)
//	GET    /__datahub_mock/clock      the server's time (RFC 3339)
//	POST   /__datahub_mock/clock      {"fastForwardMillis":60000} or {"time":"2026-01-02T03:04:05Z"}:
//	                                  FastForward or SetTime; answers the new time (400 for a
//	                                  move of more than 292 years from the base clock)
//	GET    /__datahub_mock/index      {"paused":bool}: whether the search index follows the store
//	POST   /__datahub_mock/index      {"paused":true} or {"paused":false}: PauseIndexing or ResumeIndexing
//
// A fault's members are those of [Fault]: "op" (required), "times"
// (required: a positive count or "forever"), "status" (400 to 599),
// "retryAfterSeconds", "delayMillis" (each at most [MaxFaultDelay]),
// "drop", "commitThenDrop", "graphQLOperation" and "graphQLError" (strings,
// see [Fault]). A fault with an unknown member, a member of the wrong type,
// a member given twice or an invalid value is refused with 400 and a
// message naming the member; nothing is installed.
//
// Control requests are neither counted nor subject to faults.
func WithControl(on bool) Option {
	return Option{func(c *config) { c.control = on }}
}

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
		f, rerr := decodeFault(r)
		if rerr == nil {
			if err := s.Inject(f); err != nil { // not reached: decodeFault validated f
				rerr = errorf(http.StatusBadRequest, "%v", err)
			}
		}
		if rerr != nil {
			writeRestliError(w, rerr, "")
			return true
		}
		writeJSON(w, map[string]string{"value": "ok"})
	case rest == "/faults" && r.Method == http.MethodGet:
		faults := s.Faults()
		out := make([]map[string]any, len(faults))
		for i, f := range faults {
			out[i] = faultJSON(f)
		}
		writeJSON(w, map[string][]map[string]any{"value": out})
	case rest == "/faults" && r.Method == http.MethodDelete:
		s.ClearFaults()
		writeJSON(w, map[string]string{"value": "ok"})
	case rest == "/index":
		s.controlIndex(w, r)
	case rest == "/reset" && r.Method == http.MethodPost:
		if err := s.Reset(); err != nil {
			writeRestliError(w, errorf(http.StatusInternalServerError, msgStore, err), "")
			return true
		}
		writeJSON(w, map[string]string{"value": "ok"})
	case rest == "/proposals" && r.Method == http.MethodGet:
		if !s.cfg.record {
			writeRestliError(w, errorf(http.StatusConflict, msgNotRecording), "")
			return true
		}
		writeJSON(w, map[string][]Proposal{"value": s.Proposals()})
	case rest == "/requests" && r.Method == http.MethodGet:
		writeJSON(w, map[string]map[Op]int{"value": s.RequestCounts()})
	case rest == "/requests/graphql" && r.Method == http.MethodGet:
		writeJSON(w, map[string]map[string]int{"value": s.GraphQLRequestCounts()})
	case rest == "/clock" && r.Method == http.MethodGet:
		writeJSON(w, map[string]string{"value": s.Now().UTC().Format(time.RFC3339Nano)})
	case rest == "/clock" && r.Method == http.MethodPost:
		if rerr := s.moveClock(r); rerr != nil {
			writeRestliError(w, rerr, "")
			return true
		}
		writeJSON(w, map[string]string{"value": s.Now().UTC().Format(time.RFC3339Nano)})
	default:
		writeRestliError(w, errorf(http.StatusNotFound, msgControlRoute, abbreviate(r.Method), abbreviate(path)), "")
	}
	return true
}

// Control API messages.
const (
	msgControlBody      = "A fault must be a JSON object with the members %s (datahub-mock)"
	msgControlMember    = "Unknown fault member %q; the members are %s (datahub-mock)"
	msgControlType      = "Fault member %q must be %s, not %s (datahub-mock)"
	msgControlMissing   = "Fault member %q is required: %s (datahub-mock)"
	msgControlInvalid   = "Invalid fault member %q: %s %s (datahub-mock)"
	msgControlDuplicate = "Member %q is given more than once (datahub-mock)"
	msgClockBody        = "A clock change must be a JSON object with one of the members %s (datahub-mock)"
	msgClockMember      = "Unknown clock member %q; the members are %s (datahub-mock)"
	msgClockType        = "Clock member %q must be %s, not %s (datahub-mock)"
	msgNotRecording     = "Proposals are not recorded: start the server with -record (WithRecording) (datahub-mock)"
	msgClockRange       = "Clock member %q: %s moves the clock more than 292 years from its base clock (datahub-mock)"
)

// readControlObject reads the body of a control request, a JSON object of
// at most maxControlBody bytes (413 beyond) naming each member once: its
// members, or nil (and no error) when the body is not a JSON object, for
// the caller to say what it takes.
func readControlObject(r *http.Request) (map[string]json.RawMessage, *restliError) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxControlBody+1))
	if err != nil {
		return nil, errorf(http.StatusBadRequest, msgBadBody, err)
	}
	if len(body) > maxControlBody {
		return nil, errorf(http.StatusRequestEntityTooLarge, msgBodyTooLarge, maxControlBody)
	}
	trimmed := bytes.TrimSpace(body)
	var m map[string]json.RawMessage
	if len(trimmed) == 0 || trimmed[0] != '{' || json.Unmarshal(trimmed, &m) != nil || m == nil {
		return nil, nil
	}
	if name, ok := duplicateMember(trimmed); ok {
		return nil, errorf(http.StatusBadRequest, msgControlDuplicate, abbreviate(name))
	}
	return m, nil
}

// duplicateMember returns the first member that the JSON object text obj
// names twice (encoding/json would keep the last one silently).
func duplicateMember(obj []byte) (string, bool) {
	m, err := unmarshalObject(obj)
	if err != nil {
		return "", false
	}
	seen := make(map[string]bool, len(m))
	for _, mb := range m {
		if seen[mb.Key] {
			return mb.Key, true
		}
		seen[mb.Key] = true
	}
	return "", false
}

// faultJSON is f in the control API's form, the members decodeFault takes
// (zero members left out).
func faultJSON(f Fault) map[string]any {
	m := map[string]any{"op": f.Op, "times": f.Times}
	if f.Times == Forever {
		m["times"] = "forever"
	}
	if f.Status != 0 {
		m["status"] = f.Status
	}
	if f.RetryAfter > 0 {
		m["retryAfterSeconds"] = f.RetryAfter.Seconds()
	}
	if f.Delay > 0 {
		m["delayMillis"] = float64(f.Delay) / float64(time.Millisecond)
	}
	if f.Drop {
		m["drop"] = true
	}
	if f.CommitThenDrop {
		m["commitThenDrop"] = true
	}
	if f.GraphQLOperation != "" {
		m["graphQLOperation"] = f.GraphQLOperation
	}
	if f.GraphQLError != "" {
		m["graphQLError"] = f.GraphQLError
	}
	return m
}

// maxControlBody bounds a control request body.
const maxControlBody = 64 << 10

// faultMemberList is the members of a fault in the control API, in
// documentation order.
const faultMemberList = "op, times, status, retryAfterSeconds, delayMillis, drop, commitThenDrop, graphQLOperation, graphQLError"

// decodeFault reads the JSON form of a Fault strictly: every member known
// and of its type, op and times present, and the fault valid. A refusal is
// a 400 naming the member.
func decodeFault(r *http.Request) (Fault, *restliError) {
	members, rerr := readControlObject(r)
	if rerr != nil {
		return Fault{}, rerr
	}
	if members == nil {
		return Fault{}, errorf(http.StatusBadRequest, msgControlBody, faultMemberList)
	}
	names := slices.Sorted(maps.Keys(members))
	for _, name := range names {
		if !strings.Contains(", "+faultMemberList+",", ", "+name+",") {
			return Fault{}, errorf(http.StatusBadRequest, msgControlMember, abbreviate(name), faultMemberList)
		}
	}
	typeErr := func(name, want string) *restliError {
		return errorf(http.StatusBadRequest, msgControlType, name, want, abbreviate(string(members[name])))
	}
	var f Fault
	for _, name := range names {
		raw := string(members[name])
		switch name {
		case "op":
			var op string
			if json.Unmarshal(members[name], &op) != nil {
				return Fault{}, typeErr(name, "a string")
			}
			f.Op = Op(op)
		case "times":
			if raw == `"forever"` {
				f.Times = Forever
				break
			}
			n, err := strconv.Atoi(raw)
			if err != nil {
				return Fault{}, typeErr(name, `an integer or "forever"`)
			}
			f.Times = n
		case "status":
			n, err := strconv.Atoi(raw)
			if err != nil {
				return Fault{}, typeErr(name, "an integer")
			}
			f.Status = n
		case "retryAfterSeconds", "delayMillis":
			unit := time.Second
			if name == "delayMillis" {
				unit = time.Millisecond
			}
			v, err := strconv.ParseFloat(raw, 64)
			if err != nil || raw == "" || raw[0] == '"' {
				return Fault{}, typeErr(name, "a number")
			}
			limit := float64(MaxFaultDelay) / float64(unit)
			if v < 0 || v > limit {
				return Fault{}, errorf(http.StatusBadRequest, msgControlInvalid, name,
					"must be between 0 and", fmt.Sprintf("%g (%v), not %s", limit, MaxFaultDelay, abbreviate(raw)))
			}
			d := time.Duration(v * float64(unit))
			if name == "delayMillis" {
				f.Delay = d
			} else {
				f.RetryAfter = d
			}
		case "graphQLOperation", "graphQLError":
			var v string
			if json.Unmarshal(members[name], &v) != nil {
				return Fault{}, typeErr(name, "a string")
			}
			if name == "graphQLOperation" {
				f.GraphQLOperation = v
			} else {
				f.GraphQLError = v
			}
		case "drop", "commitThenDrop":
			var b bool
			if json.Unmarshal(members[name], &b) != nil {
				return Fault{}, typeErr(name, "true or false")
			}
			if name == "drop" {
				f.Drop = b
			} else {
				f.CommitThenDrop = b
			}
		}
	}
	if _, ok := members["op"]; !ok {
		return Fault{}, errorf(http.StatusBadRequest, msgControlMissing, "op", fmt.Sprintf("one of %v", knownOps))
	}
	if !slices.Contains(knownOps, f.Op) {
		p := f.problem(true)
		return Fault{}, errorf(http.StatusBadRequest, msgControlInvalid, p.field, p.field, p.text)
	}
	if _, ok := members["times"]; !ok {
		return Fault{}, errorf(http.StatusBadRequest, msgControlMissing, "times", `a positive count or "forever"`)
	}
	if p := f.problem(true); p != nil {
		return Fault{}, errorf(http.StatusBadRequest, msgControlInvalid, p.field, p.field, p.text)
	}
	return f, nil
}

// moveClock carries out POST /clock: exactly one of fastForwardMillis (a
// non-negative number) and time (RFC 3339).
func (s *Server) moveClock(r *http.Request) *restliError {
	const members = "fastForwardMillis, time"
	m, rerr := readControlObject(r)
	if rerr != nil {
		return rerr
	}
	if m == nil {
		return errorf(http.StatusBadRequest, msgClockBody, members)
	}
	for name := range m {
		if name != "fastForwardMillis" && name != "time" {
			return errorf(http.StatusBadRequest, msgClockMember, abbreviate(name), members)
		}
	}
	if len(m) != 1 {
		return errorf(http.StatusBadRequest, msgClockBody, members)
	}
	if raw, ok := m["fastForwardMillis"]; ok {
		v, err := strconv.ParseFloat(string(raw), 64)
		if err != nil || v < 0 || v > float64(math.MaxInt64/int64(time.Millisecond)) {
			return errorf(http.StatusBadRequest, msgClockType, "fastForwardMillis", "a non-negative number of milliseconds", abbreviate(string(raw)))
		}
		if !s.advance(time.Duration(v*float64(time.Millisecond)), false) {
			return errorf(http.StatusBadRequest, msgClockRange, "fastForwardMillis", abbreviate(string(raw)))
		}
		s.core.ApplyDue()
		return nil
	}
	var text string
	if json.Unmarshal(m["time"], &text) != nil {
		return errorf(http.StatusBadRequest, msgClockType, "time", "an RFC 3339 string", abbreviate(string(m["time"])))
	}
	t, err := time.Parse(time.RFC3339Nano, text)
	if err != nil {
		return errorf(http.StatusBadRequest, msgClockType, "time", "an RFC 3339 string", abbreviate(string(m["time"])))
	}
	if s.SetTime(t) != nil {
		return errorf(http.StatusBadRequest, msgClockRange, "time", abbreviate(string(m["time"])))
	}
	return nil
}
