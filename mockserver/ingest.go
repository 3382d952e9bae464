package mockserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
	"github.com/catalogkit/datahub-go/urn"
)

// item is one validated proposal, ready to apply.
type item struct {
	index int
	write store.Write // for every change type but DELETE
	// deleteURN is the entity to delete for a DELETE of its key aspect.
	deleteURN string
}

// readBody reads a request body within the size limit.
func readBody(r *http.Request) ([]byte, *restliError) {
	body, err := readAll(r.Body, r.ContentLength)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, errorf(http.StatusRequestEntityTooLarge, msgBodyTooLarge, mbe.Limit)
		}
		return nil, errorf(http.StatusBadRequest, msgBadBody, err)
	}
	return body, nil
}

// readAll is io.ReadAll with the buffer sized for a body of n bytes (n < 0:
// unknown), so that a body of the announced length is read into one
// allocation.
func readAll(r io.Reader, n int64) ([]byte, error) {
	if n < 0 || n >= 64<<20 {
		return io.ReadAll(r)
	}
	b := make([]byte, 0, n+1) // +1: room to see EOF without growing
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

// actionParams decodes the JSON object of an action's parameters.
func actionParams(body []byte) (rawMap, *restliError) {
	params, err := unmarshalObject(body)
	if err != nil || params == nil {
		detail := "not a JSON object"
		if err != nil {
			detail = err.Error()
		}
		return nil, errorf(http.StatusBadRequest, msgBadBody, detail)
	}
	return params, nil
}

// asyncParam resolves the "async" action parameter as GMS does: "unset" (the
// default) means false, else Boolean.parseBoolean.
func asyncParam(params rawMap, pe *paramErrors) bool {
	v, ok := params.get("async")
	if !ok || isNull(v) {
		return false
	}
	s, err := unmarshalString(v)
	if err != nil {
		pe.add(msgParamType, "/async", compact(v), "String")
		return false
	}
	return strings.EqualFold(s, "true")
}

// handleIngest serves ingestProposal and ingestProposalBatch.
func (s *Server) handleIngest(w http.ResponseWriter, r *http.Request, batch bool) {
	body, rerr := readBody(r)
	if rerr != nil {
		writeRestliError(w, rerr, "")
		return
	}
	params, rerr := actionParams(body)
	if rerr != nil {
		writeRestliError(w, rerr, "")
		return
	}
	method := "ingestProposal"
	if batch {
		method = "ingestProposalBatch"
	}
	var pe paramErrors
	async := asyncParam(params, &pe)
	var raws []json.RawMessage
	var paths []string
	if batch {
		v, ok := params.get("proposals")
		switch {
		case !ok || isNull(v):
			pe.add(msgParamRequired, "/proposals")
		default:
			var err error
			if raws, err = unmarshalArray(v); err != nil {
				pe.add(msgParamType, "/proposals", compact(v), "DataList")
			}
		}
		for i := range raws {
			paths = append(paths, "/proposals/"+strconv.Itoa(i))
		}
	} else {
		if v, ok := params.get("proposal"); !ok || isNull(v) {
			pe.add(msgParamRequired, "/proposal")
		} else {
			raws, paths = []json.RawMessage{v}, []string{"/proposal"}
		}
	}
	ps := make([]Proposal, len(raws))
	for i, raw := range raws {
		ps[i] = Proposal{Async: async, Batch: batch, Index: i}
		decodeProposal(raw, paths[i], &ps[i], &pe)
	}
	if len(pe) > 0 {
		e := errorf(http.StatusBadRequest, "%s", joinParamErrors(method, pe))
		s.record(ps, e)
		writeRestliError(w, e, "")
		return
	}
	items, rerr := s.prepareAll(ps, batch)
	if rerr != nil {
		s.record(ps, rerr)
		writeRestliError(w, rerr, "")
		return
	}
	if async {
		// GMS accepts an async proposal once it is valid; a condition that
		// fails when it is applied is only logged (see asyncQueue.flush).
		s.record(ps, nil)
		if s.cfg.asyncLag > 0 {
			s.async.add(items, batch)
		} else if rerr := s.apply(items, batch); rerr != nil {
			s.async.dropped(rerr)
		}
		writeSuccess(w)
		return
	}
	rerr = s.apply(items, batch)
	s.record(ps, rerr)
	if rerr != nil {
		writeRestliError(w, rerr, "")
		return
	}
	writeSuccess(w)
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

// prepareAll validates every proposal; a batch is refused as a whole, with
// every bad item named by its index. The status is the first bad item's.
func (s *Server) prepareAll(ps []Proposal, batch bool) ([]item, *restliError) {
	items := make([]item, 0, len(ps))
	var bad []string
	var first *restliError
	for i := range ps {
		it, rerr := prepare(&ps[i])
		if rerr != nil {
			if !batch {
				return nil, rerr
			}
			if first == nil {
				first = rerr
			}
			bad = append(bad, fmt.Sprintf("[%d] %s", i, rerr.message))
			continue
		}
		it.index = i
		items = append(items, it)
	}
	if first != nil {
		return nil, &restliError{
			status:  first.status,
			class:   first.class,
			message: fmt.Sprintf(msgBatchInvalid, len(bad), len(ps), strings.Join(bad, "; ")),
		}
	}
	return items, nil
}

// prepare validates a decoded proposal as GMS does and turns it into an
// item. It fills p.EntityURN when the proposal names its entity by key.
func prepare(p *Proposal) (item, *restliError) {
	switch p.ChangeType {
	case "UPSERT", "CREATE", "CREATE_ENTITY", "DELETE":
	case "PATCH":
		return item{}, errorf(http.StatusUnprocessableEntity, msgPatchUnsupported)
	default:
		return item{}, errorf(http.StatusUnprocessableEntity, msgChangeUnsupported, p.ChangeType)
	}
	// As ValidationApiUtils.validateMCP: the entity comes from the URN when
	// there is one, else from entityType and the URN from the key aspect.
	var entity pdl.Entity
	var u string
	facts, cached := urnFacts{}, false
	if p.EntityURN != "" {
		facts, cached = cachedURNFacts(p.EntityURN)
	}
	switch {
	case cached:
		entity, u = facts.entity, p.EntityURN
	case p.EntityURN != "":
		parsed, rerr := checkURN(p.EntityURN)
		if rerr != nil {
			return item{}, rerr
		}
		e, ok := lookupEntity(parsed.EntityType())
		if !ok {
			return item{}, errorf(http.StatusUnprocessableEntity, msgUnknownEntity, parsed.EntityType())
		}
		entity, u = e, p.EntityURN
	default:
		if p.EntityKeyAspect == nil {
			return item{}, errorf(http.StatusBadRequest, msgNoURN)
		}
		e, ok := lookupEntity(p.EntityType)
		if !ok {
			return item{}, errorf(http.StatusUnprocessableEntity, msgUnknownEntity, p.EntityType)
		}
		if !isObject(p.EntityKeyAspect) {
			return item{}, errorf(http.StatusBadRequest, msgAspectNotJSON, e.KeyAspect, e.Name, abbreviate(string(p.EntityKeyAspect)))
		}
		built, err := urnFromKey(e, p.EntityKeyAspect)
		if err != nil {
			return item{}, errorf(http.StatusBadRequest, msgAspectNotJSON, e.KeyAspect, e.Name, err)
		}
		if _, rerr := checkURN(built); rerr != nil {
			return item{}, rerr
		}
		entity, u = e, built
		p.EntityURN = u
	}
	// The MCP's entityType must name the URN's entity, in any case.
	if !strings.EqualFold(p.EntityType, entity.Name) {
		return item{}, errorf(http.StatusUnprocessableEntity, msgEntityTypeMismatch, entity.Name, p.EntityType)
	}
	keyValue := facts.key
	if !cached {
		var rerr *restliError
		if keyValue, rerr = checkKey(entity, u); rerr != nil {
			return item{}, rerr
		}
		if p.EntityURN == u && p.EntityKeyAspect == nil {
			cacheURNFacts(u, urnFacts{entity: entity, key: keyValue})
		}
	}
	if p.AspectName == "" {
		return item{}, errorf(http.StatusUnprocessableEntity, msgAspectNameMissing)
	}
	if !entity.Allows(p.AspectName) {
		return item{}, errorf(http.StatusUnprocessableEntity, msgUnknownAspect, p.AspectName, entity.Name)
	}
	info, ok := pdl.LookupAspect(p.AspectName)
	if !ok { // the registry names the aspect but has no facts for it
		return item{}, errorf(http.StatusUnprocessableEntity, msgUnknownAspect, p.AspectName, entity.Name)
	}
	if p.ChangeType == "DELETE" {
		if p.AspectName != entity.KeyAspect {
			return item{}, errorf(http.StatusUnprocessableEntity, msgDeleteNonKey, p.AspectName)
		}
		return item{deleteURN: u}, nil
	}
	if p.Aspect == nil {
		return item{}, errorf(http.StatusUnprocessableEntity, msgAspectMissing, p.ChangeType, p.AspectName)
	}
	if p.ContentType != "application/json" {
		return item{}, errorf(http.StatusBadRequest, msgContentType, p.ContentType)
	}
	value, rerr := checkAspect(info, entity.Name, p.Aspect)
	if rerr != nil {
		return item{}, rerr
	}
	w := store.Write{
		URN:            u,
		EntityType:     entity.Name,
		Aspect:         p.AspectName,
		Value:          value,
		SystemMetadata: p.SystemMetadata,
		ChangeType:     p.ChangeType,
		Timeseries:     info.Timeseries,
	}
	if p.AspectName != entity.KeyAspect && keyValue != nil { // nil: no key schema, no key row
		w.KeyAspect, w.KeyValue = entity.KeyAspect, keyValue
	}
	w.IfVersionMatch = header(p.Headers, store.HeaderIfVersionMatch)
	w.IfNoneMatch = header(p.Headers, "If-None-Match") == "*"
	return item{write: w}, nil
}

// header is the proposal header name: as written when present, else its
// first other spelling in key order (not map order, so that the answer is
// the same every time).
func header(h map[string]string, name string) string {
	if v, ok := h[name]; ok {
		return v
	}
	first, v := "", ""
	for k, kv := range h {
		if strings.EqualFold(k, name) && (first == "" || k < first) {
			first, v = k, kv
		}
	}
	return v
}

// checkURN validates a URN as GMS's UrnValidationUtil does (400 on failure):
// GMS's own checks and messages first, then the syntax.
func checkURN(u string) (urn.URN, *restliError) {
	if strings.TrimSpace(u) != u {
		return nil, errorf(http.StatusBadRequest, msgURNWhitespace)
	}
	if entityTypeOf(u) != "schemaField" && javaURLEncodedLen(u) > 512 {
		return nil, errorf(http.StatusBadRequest, msgURNTooLong)
	}
	if strings.Contains(u, "␟") {
		return nil, errorf(http.StatusBadRequest, msgURNDelimiter)
	}
	parsed, err := urn.Parse(u)
	if err != nil {
		return nil, errorf(http.StatusBadRequest, msgInvalidURN, u, parseReason(err))
	}
	return parsed, nil
}

func parseReason(err error) string {
	var pe *urn.ParseError
	if errors.As(err, &pe) && pe.Reason != "" {
		return pe.Reason
	}
	return err.Error()
}

// checkKey builds the entity's key aspect from the URN and validates it, as
// GMS does for every write (an invalid key, e.g. an unknown FabricType, is a
// 400 "Invalid urn").
func checkKey(e pdl.Entity, u string) (json.RawMessage, *restliError) {
	key, err := keyFromURN(e, u)
	if err != nil {
		return nil, errorf(http.StatusBadRequest, msgInvalidURN, u, err)
	}
	if key == nil {
		return nil, nil
	}
	info, ok := pdl.LookupAspect(e.KeyAspect)
	if !ok {
		return key, nil
	}
	if _, ok := pdl.Record(info.RecordName); !ok {
		return key, nil
	}
	v, err := decodeUseNumber(key)
	if err == nil {
		err = pdl.Validate(info.RecordName, v)
	}
	if err != nil {
		return nil, errorf(http.StatusBadRequest, msgInvalidURN, u, err)
	}
	return key, nil
}

// checkAspect checks an aspect's JSON: an object in valid UTF-8 (400), that
// matches its PDL record field by field for the aspects the SDK types, and
// has a timestampMillis if it is a timeseries aspect (422). It returns the
// compact JSON to store.
func checkAspect(info pdl.AspectInfo, entityType string, raw json.RawMessage) (json.RawMessage, *restliError) {
	if !utf8.Valid(raw) {
		return nil, errorf(http.StatusBadRequest, msgValueNotUTF8)
	}
	if aspectPasses(info, raw) { // raw is valid JSON
		return compactValidShared(raw), nil
	}
	v, err := decodeUseNumber(raw)
	if err != nil {
		return nil, errorf(http.StatusBadRequest, msgAspectNotJSON, info.Name, entityType, err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, errorf(http.StatusBadRequest, msgAspectNotJSON, info.Name, entityType, "found "+jsonKind(v))
	}
	if validated(info) {
		if err := pdl.Validate(info.RecordName, v); err != nil {
			return nil, errorf(http.StatusUnprocessableEntity, msgRecordInvalid, info.RecordName, "["+pegasusMessage(err)+"]")
		}
	}
	if info.Timeseries {
		n, ok := obj["timestampMillis"].(json.Number)
		if _, err := strconv.ParseInt(string(n), 10, 64); !ok || err != nil {
			return nil, errorf(http.StatusUnprocessableEntity, msgTimestampMissing, info.Name)
		}
	}
	return compactValidShared(raw), nil // it decoded
}

// aspectPasses is the quick form of checkAspect's checks: true means they
// all pass, for valid JSON without decoding it; false leaves the verdict and
// the message to checkAspect.
func aspectPasses(info pdl.AspectInfo, raw []byte) bool {
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		return false
	}
	if validated(info) {
		if !pdl.Conforms(info.RecordName, raw) {
			return false
		}
	} else if !pdl.Valid(raw) {
		return false
	}
	if !info.Timeseries {
		return true
	}
	ms, ok := pdl.ObjectMembers(raw)
	if !ok {
		return false
	}
	var ts []byte // the last timestampMillis wins, as in a decoded object
	for _, m := range ms {
		if m.Key == "timestampMillis" {
			ts = m.Value
		}
	}
	_, err := strconv.ParseInt(string(ts), 10, 64)
	return err == nil
}

func decodeUseNumber(raw []byte) (any, error) {
	if v, ok := pdl.DecodeJSON(raw); ok {
		return v, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("data after the JSON value")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the JSON value")
	}
	return v, nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	}
	return "a value"
}

// apply writes validated items. The writes between DELETEs are applied as
// one atomic store batch; a failed condition answers 412 and writes nothing
// of that batch.
func (s *Server) apply(items []item, batch bool) *restliError {
	for start := 0; start < len(items); {
		if u := items[start].deleteURN; u != "" {
			if _, _, err := s.store.DeleteEntity(u); err != nil {
				return storeError(err, nil, batch)
			}
			start++
			continue
		}
		end := start
		for end < len(items) && items[end].deleteURN == "" {
			end++
		}
		seg := items[start:end]
		ws := make([]store.Write, len(seg))
		for i := range seg {
			ws[i] = seg[i].write
		}
		if _, err := s.store.Apply(ws); err != nil {
			return storeError(err, seg, batch)
		}
		start = end
	}
	return nil
}

// storeError maps a store failure to GMS's answer: a failed condition gets
// DataHub's message (naming the batch item), anything else 500.
func storeError(err error, seg []item, batch bool) *restliError {
	var ce *store.ConditionError
	if !errors.As(err, &ce) {
		if errors.Is(err, store.ErrInvalidWrite) { // input the checks above let through
			return errorf(http.StatusBadRequest, "%v", err)
		}
		return errorf(http.StatusInternalServerError, msgStore, err)
	}
	// If-Version-Match is a precondition (412); a violated CREATE or
	// CREATE_ENTITY is a validation failure in DataHub (422).
	status := http.StatusPreconditionFailed
	if !ce.Precondition() {
		status = http.StatusUnprocessableEntity
	}
	msg := ce.Message()
	if batch {
		i := ce.Index
		if i >= 0 && i < len(seg) {
			i = seg[i].index
		}
		msg = fmt.Sprintf("[%d] %s", i, msg)
	}
	return errorf(status, "%s", msg)
}

// javaURLEncodedLen is the length of s encoded by Java's URLEncoder (form
// encoding: letters, digits and ".-*_" kept, space as "+", every other UTF-8
// byte as %XX), which GMS uses for its 512-byte URN limit.
func javaURLEncodedLen(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			c == '.', c == '-', c == '*', c == '_', c == ' ':
			n++
		default:
			n += 3
		}
	}
	return n
}
