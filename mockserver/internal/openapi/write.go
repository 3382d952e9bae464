package openapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"sync"

	"github.com/catalogkit/datahub-go/internal/jsonx"
	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/wire"
)

// v3Write is what a write request asks for, decoded from its query.
type v3Write struct {
	async, withSM bool
	patch         bool
	traceID       string
	actor         string // the request's actor, of the answer's audit stamps
	// unchecked reports proposals whose values quickItems did not
	// validate (see writeBatch).
	unchecked bool
}

// writeQuery reads the async and systemMetadata parameters (async
// defaults to defAsync) and takes the request's trace id.
func writeQuery(r *http.Request, rt Request, defAsync bool) (v3Write, *openAPIError) {
	q := r.URL.Query()
	async, e := boolParam(q, "async", defAsync)
	if e != nil {
		return v3Write{}, e
	}
	withSM, e := boolParam(q, "systemMetadata", false)
	if e != nil {
		return v3Write{}, e
	}
	return v3Write{async: async, withSM: withSM, patch: r.Method == http.MethodPatch, traceID: rt.TraceID,
		actor: gms.ActorOf(r.Context())}, nil
}

// proposalEcho is what the answer to a decoded proposal echoes.
type proposalEcho struct {
	urn, aspect string
	value       json.RawMessage // the request's value (a PATCH: the patch)
	sm          json.RawMessage // the request's systemMetadata
	// plainURN reports that urn is its JSON string's text without the
	// quotes (see plainJSONString), as the decode found it.
	plainURN bool
	// urnHash is urn's gms.URNHash, which the decode made (in quickItems'
	// chunks, once for CheckTarget and the answer), or 0 (see
	// echoURNHash).
	urnHash uint64
}

// echoURNHash returns ec's URN's gms.URNHash: the one the decode found,
// else made here (a hash of 0 is made again, as the same 0).
func echoURNHash(ec *proposalEcho) uint64 {
	if ec.urnHash != 0 {
		return ec.urnHash
	}
	return gms.URNHash(ec.urn)
}

// itemProposals turns the items of a batch body into proposals: UPSERT for
// POST, PATCH for PATCH; members that name no aspect of the URN's entity
// are skipped, as DataHub does.
func itemProposals(items []v3Item, targets []gms.Target, wq v3Write, ps *[]gms.Proposal, echoes *[]proposalEcho) *openAPIError {
	for i, it := range items {
		t := targets[i]
		if t.URN == "" { // checkItemAspects found it does not check
			var e *openAPIError
			if t, e = v3URN(it.urn); e != nil {
				return e
			}
		}
		h := gms.URNHash(it.urn) // for the answer, as quickItems finds it
		e := eachAspect(t, it, func(name string, part aspectPart) *openAPIError {
			p := gms.Proposal{EntityType: t.Entity.Name, EntityURN: it.urn, ChangeType: "UPSERT", AspectName: name,
				Aspect: part.Value, ContentType: "application/json", SystemMetadata: part.SystemMetadata,
				Headers: part.Headers}
			if wq.patch {
				m, err := wire.UnmarshalObject(part.Value)
				if _, has := m.Get("patch"); err != nil || !has {
					return &openAPIError{status: http.StatusBadRequest, err: msgV3MissingPatch}
				}
				p.ChangeType, p.ContentType = "PATCH", gms.ContentTypeJSONPatch
			} else if part.Value != nil && !wire.IsObjectText(part.Value) {
				return v3Errorf(http.StatusBadRequest, msgV3NotObject, name)
			}
			*ps = append(*ps, p)
			*echoes = append(*echoes, proposalEcho{urn: it.urn, aspect: name, value: part.Value, sm: part.SystemMetadata,
				urnHash: h})
			return nil
		})
		if e != nil {
			return e
		}
	}
	return nil
}

// ingestV3 hands proposals, those of a batch route or the one of a
// single-aspect route, to the core under the request's trace id and records
// them as received; it returns the core's outcome per proposal. The core
// gets each systemMetadata compact: the request body decoded as JSON, so
// that compacting it is all the core's promise takes (DataHub's OpenAPI
// does not check it against its schema, and neither does this).
func (s *Handler) ingestV3(r *http.Request, ps []gms.Proposal, batch bool, wq v3Write) ([]gms.Written, *openAPIError) {
	recorded := s.hooks.Receive(ps, wq.async, batch)
	var last, lastCompact []byte // a batch's proposals most often share one text
	for i := range ps {
		sm := ps[i].SystemMetadata
		switch {
		case len(sm) == 0:
		case len(sm) == len(last) && &sm[0] == &last[0]:
			ps[i].SystemMetadata = lastCompact
		default:
			ps[i].SystemMetadata = jsonx.CompactShared(sm)
			last, lastCompact = sm, ps[i].SystemMetadata
		}
	}
	res, err := s.core.Write(r.Context(), ps, gms.IngestOptions{Async: wq.async, Batch: len(ps) > 1,
		TraceID: wq.traceID, SystemMetadataCompact: true})
	if err != nil {
		if wq.unchecked && uncheckedInvalid(ps) { // the general path answers (writeBatch), nothing is recorded
			return nil, errUnchecked
		}
		e := fromCoreV3(err)
		recorded(e.err + ": " + e.message)
		return nil, e
	}
	recorded("")
	return res, nil
}

// echoObjects groups the echoes by URN in order of first appearance, a
// later write of the same aspect replacing an earlier one, as DataHub's
// answer does (its order is a hash map's).
func echoObjects(echoes []proposalEcho, res []gms.Written, wq v3Write, now int64) []v3Object {
	objs := make([]v3Object, 0, len(echoes))
	at := make(map[string]int, len(echoes))
	first := make([]v3Aspect, len(echoes)) // each object's first aspect, in one allocation
	for i, ec := range echoes {
		if i < len(res) && res[i].Skipped {
			continue
		}
		a := v3Aspect{name: ec.aspect, value: ec.value}
		if i < len(res) && !res[i].Pending && res[i].Value != nil {
			// A synchronous write answers the aspect as stored: a PATCH
			// the patched aspect, an UPSERT after GMS's mutation hooks.
			a.value = res[i].Value
		}
		if wq.withSM {
			a.systemMetadata = withTraceID(ec.sm, wq.traceID)
			if i < len(res) && !res[i].Pending && res[i].Version != "" {
				// A synchronous write answers the version the core gave the
				// aspect (the one it had, when the write changed nothing).
				a.systemMetadata = withVersion(a.systemMetadata, res[i].Version)
			}
			a.stamp = &wire.AuditStamp{Time: now, Actor: wq.actor}
		}
		k, ok := at[ec.urn]
		if !ok {
			at[ec.urn] = len(objs)
			first[i] = a
			objs = append(objs, v3Object{urn: ec.urn, aspects: first[i : i+1 : i+1]})
			k = len(objs) - 1
		} else {
			replaced := false
			for j := range objs[k].aspects {
				if objs[k].aspects[j].name == a.name {
					objs[k].aspects[j], replaced = a, true
				}
			}
			if !replaced {
				objs[k].aspects = append(objs[k].aspects, a)
			}
		}
		if i < len(res) {
			// The aspects GMS added because the write created the entity.
			for _, d := range res[i].Defaults {
				da := v3Aspect{name: d.Name, value: d.Value, stamp: a.stamp}
				if wq.withSM {
					da.systemMetadata = withTraceID(ec.sm, wq.traceID)
				}
				objs[k].aspects = append(objs[k].aspects, da)
			}
		}
	}
	return objs
}

// withVersion returns systemMetadata with its version set.
func withVersion(sm json.RawMessage, version string) json.RawMessage {
	m := map[string]json.RawMessage{}
	_ = json.Unmarshal(sm, &m)
	m["version"], _ = wire.MarshalJSON(version)
	out, _ := wire.MarshalJSON(m)
	return out
}

// withTraceID returns systemMetadata with properties.telemetryTraceId set,
// as DataHub reports it in a write's answer.
func withTraceID(sm json.RawMessage, traceID string) json.RawMessage {
	m := map[string]json.RawMessage{}
	if sm != nil {
		_ = json.Unmarshal(sm, &m)
	}
	props := map[string]string{}
	if raw, ok := m["properties"]; ok {
		_ = json.Unmarshal(raw, &props)
	}
	props["telemetryTraceId"] = traceID
	m["properties"], _ = wire.MarshalJSON(props)
	out, _ := wire.MarshalJSON(m)
	return out
}

// Write serves the batch writes: POST and PATCH
// /openapi/v3/entity/{entityName} (an array of entities) and
// /openapi/v3/entity/generic ({"<entityName>":[entities]}). async defaults
// to true: the answer is then 202 and a failure shows only in the trace.
func (s *Handler) Write(w http.ResponseWriter, r *http.Request, rt Request) {
	wq, e := writeQuery(r, rt, true)
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	// The body is read into memory kept for the next request: the
	// proposals' values get their own before the core sees them
	// (quickItems copies them in its chunks, wire.DetachBody any other); the
	// echoes, read by the answer, keep the body's.
	buf := batchBodies.Get()
	defer batchBodies.Put(buf, s.hooks.PoisonBodies)
	body, ok := readBatchBody(buf, w, r)
	if !ok {
		return
	}
	s.writeBatch(w, r, rt, wq, body, !s.general)
}

// errUnchecked is ingestV3's answer when the core refused a request whose
// values quickItems read without validating them, and one of them is not
// JSON: writeBatch then answers as the general path does.
var errUnchecked = &openAPIError{status: http.StatusBadRequest, err: "unchecked value"}

// writeBatch is Write once the body is read: it decodes the body, hands
// its proposals to the core and answers. With quick, a list in the
// emitters' shape is read by quickItems, its values not validated (the
// core's check is); a request refused with a value that is not JSON is
// then decoded again by the general path alone, which answers it as
// before: the values' check never changes an answer.
//
// The body is text (see readV3Body), its bytes not checked yet: every
// byte that is not valid UTF-8 becomes U+FFFD before it is decoded. A
// list route's body that quickItems takes is checked by quickItems, item
// by item in its chunks (each one's share on a core, not in a serial pass
// before them), and is valid; any other body is checked whole first.
func (s *Handler) writeBatch(w http.ResponseWriter, r *http.Request, rt Request, wq v3Write, body []byte, quick bool) {
	wq.unchecked = false // until quickItems takes a list
	quickList := quick && !wq.patch && rt.Path.Shape != ShapeGeneric
	if !quickList {
		body = validText(body)
	}
	type group struct {
		name   string
		echoes []proposalEcho
		from   int
	}
	var groups []group
	// The proposals are read by the core within the call (it keeps
	// what it queues in lists of its own) and by the recorder, which
	// copies them: their list is kept for the next request.
	pl := proposalLists.Get().(*[]gms.Proposal)
	ps := (*pl)[:0]
	defer func() { putProposals(pl, ps) }()
	// The echoes are read only by the answer, written before Write
	// returns: their memory is kept for the next request.
	echoes := echoLists.Get().(*[]proposalEcho)
	all := (*echoes)[:0]
	defer func() { putEchoes(echoes, all) }()
	o := wire.Outlines.Get().(*pdl.Outline) // each list's, until its proposals are made
	defer wire.Outlines.Put(o)
	add := func(name string, list []byte) *openAPIError {
		if _, e := v3Entity(name); e != nil {
			return e
		}
		if quick && !wq.patch {
			from := len(all)
			if quickItems(list, &ps, &all) {
				groups = append(groups, group{name: name, from: from, echoes: all[from:]})
				wq.unchecked = true
				return nil
			}
			if quickList { // the list is the body, not checked yet
				body = validText(body)
				list = body
			}
		}
		items, e := decodeItems(o, list)
		if e != nil {
			return e
		}
		n := 0 // at most a proposal per member
		for i := range items {
			n += len(items[i].members)
		}
		ps, all = slices.Grow(ps, n), slices.Grow(all, n)
		g := group{name: name, from: len(all)}
		targets, e := s.checkItemAspects(items)
		if e != nil {
			return e
		}
		if e := itemProposals(items, targets, wq, &ps, &all); e != nil {
			return e
		}
		g.echoes = all[g.from:]
		groups = append(groups, g)
		return nil
	}
	if rt.Path.Shape == ShapeGeneric {
		gs, e := genericGroups(body)
		if e == nil {
			for _, g := range gs {
				if e = add(g.name, g.list); e != nil {
					break
				}
			}
		}
		if e != nil {
			if wq.unchecked && uncheckedInvalid(ps) {
				s.writeBatch(w, r, rt, wq, body, false)
				return
			}
			writeOpenAPIError(w, e, "")
			return
		}
	} else if e := add(rt.Path.entity, body); e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	var res []gms.Written
	if len(ps) > 0 {
		wire.DetachBody(ps, body)
		var e *openAPIError
		if res, e = s.ingestV3(r, ps, true, wq); e == errUnchecked {
			s.writeBatch(w, r, rt, wq, body, false)
			return
		} else if e != nil {
			writeOpenAPIError(w, e, "")
			return
		}
	}
	status := http.StatusOK
	if wq.async {
		status = http.StatusAccepted
	}
	now := s.clock().UnixMilli()
	if rt.Path.Shape != ShapeGeneric {
		if wq.async && wq.patch { // DataHub's async batch PATCH answers 202 without a body
			w.WriteHeader(status)
			return
		}
		b := answers.Get().(*bytes.Buffer)
		defer putAnswer(b)
		appendAnswer(b, all, res, wq, now)
		writeV3JSON(w, status, b.Bytes())
		return
	}
	b := answers.Get().(*bytes.Buffer)
	defer putAnswer(b)
	b.WriteByte('{')
	for i, g := range groups {
		writeMember(b, i, g.name)
		if wq.async && wq.patch {
			b.WriteString("[]")
			continue
		}
		var gres []gms.Written
		if res != nil {
			gres = res[g.from : g.from+len(g.echoes)]
		}
		appendAnswer(b, g.echoes, gres, wq, now)
	}
	b.WriteByte('}')
	writeV3JSON(w, status, b.Bytes())
}

// echoLists are the lists of echoes Write decodes into, kept for the next
// request.
var echoLists = sync.Pool{New: func() any { return new([]proposalEcho) }}

// maxKeptEchoes is the length past which a list of echoes is not kept.
const maxKeptEchoes = 4096

// putEchoes gives all, the list Write grew from *l, back to echoLists,
// cleared (no request's values stay with the pool), unless it grew past
// maxKeptEchoes.
func putEchoes(l *[]proposalEcho, all []proposalEcho) {
	if cap(all) > maxKeptEchoes {
		return
	}
	clear(all)
	*l = all[:0]
	echoLists.Put(l)
}

// proposalLists are the lists of proposals Write decodes into, kept for
// the next request.
var proposalLists = sync.Pool{New: func() any { return new([]gms.Proposal) }}

// putProposals gives ps, the list Write grew from *l, back to
// proposalLists, cleared (no request's values stay with the pool), unless
// it grew past maxKeptEchoes.
func putProposals(l *[]gms.Proposal, ps []gms.Proposal) {
	if cap(ps) > maxKeptEchoes {
		return
	}
	clear(ps)
	*l = ps[:0]
	proposalLists.Put(l)
}

// answers are the buffers Write encodes its answers into, kept for
// the next request: the answer is written out before the buffer goes back.
var answers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// putAnswer gives b back to answers, unless it grew past wire.MaxKeptBody.
func putAnswer(b *bytes.Buffer) {
	if b.Cap() > wire.MaxKeptBody {
		return
	}
	b.Reset()
	answers.Put(b)
}

// WriteAspect serves POST and PATCH
// /openapi/v3/entity/{entityName}/{urn}/{aspectName}. A POST is a CREATE
// unless createIfNotExists=false (then UPSERT) or createIfEntityNotExists
// (CREATE_ENTITY); its body is {"value":…,"systemMetadata":…,"headers":…}.
// A PATCH body is the patch document {"patch":[…],…}. async defaults to
// false.
func (s *Handler) WriteAspect(w http.ResponseWriter, r *http.Request, rt Request) {
	wq, e := writeQuery(r, rt, false)
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	q := r.URL.Query()
	createEntity, e := boolParam(q, "createIfEntityNotExists", false)
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	create, e := boolParam(q, "createIfNotExists", true)
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	ent, e := v3Entity(rt.Path.entity)
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	if _, e := v3URN(rt.Path.urn); e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	name, ok := gms.ResolveAspect(ent, rt.Path.aspect)
	if !ok {
		writeOpenAPIError(w, v3Errorf(http.StatusBadRequest, msgV3UnknownAspect, rt.Path.aspect, ent.Name), "")
		return
	}
	read := readV3Body
	if wq.patch { // a GenericJsonPatch, bound by Jackson
		read = readV3TypedBody
	}
	body, ok := read(w, r)
	if !ok {
		return
	}
	p := gms.Proposal{EntityType: ent.Name, EntityURN: rt.Path.urn, AspectName: name}
	echo := proposalEcho{urn: rt.Path.urn, aspect: name}
	if wq.patch {
		m, err := wire.UnmarshalObject(body)
		if err != nil || m == nil {
			writeOpenAPIError(w, &openAPIError{status: http.StatusBadRequest, err: msgV3Malformed}, "")
			return
		}
		if _, has := m.Get("patch"); !has {
			writeOpenAPIError(w, &openAPIError{status: http.StatusBadRequest, err: msgV3MissingPatch}, "")
			return
		}
		p.ChangeType, p.ContentType, p.Aspect = "PATCH", gms.ContentTypeJSONPatch, body
		echo.value = body
	} else {
		part, e := decodePart(body)
		if e != nil {
			writeOpenAPIError(w, e, "")
			return
		}
		if part.Value == nil {
			writeOpenAPIError(w, &openAPIError{status: http.StatusBadRequest, err: msgV3MissingValue}, "")
			return
		}
		if !wire.IsObjectText(part.Value) {
			writeOpenAPIError(w, v3Errorf(http.StatusBadRequest, msgV3NotObject, name), "")
			return
		}
		p.ChangeType = gms.AspectChangeType(create, createEntity)
		p.ContentType, p.Aspect, p.SystemMetadata, p.Headers = "application/json", part.Value, part.SystemMetadata, part.Headers
		echo.value, echo.sm = part.Value, part.SystemMetadata
	}
	res, e := s.ingestV3(r, []gms.Proposal{p}, false, wq)
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	if res[0].Skipped { // If-None-Match: * dropped the CREATE: no result
		w.WriteHeader(http.StatusNotFound)
		return
	}
	if wq.patch && res[0].Value != nil { // a synchronous PATCH answers the aspect it wrote
		echo.value = res[0].Value
	}
	status := http.StatusOK
	if wq.async && !wq.patch { // DataHub's single-aspect PATCH answers 200 even when async
		status = http.StatusAccepted
	}
	if len(res) > 0 { // the single-aspect route answers its aspect only, not the defaults of a new entity
		res[0].Defaults = nil
	}
	objs := echoObjects([]proposalEcho{echo}, res, wq, s.clock().UnixMilli())
	var b bytes.Buffer
	objs[0].appendJSON(&b)
	writeV3JSON(w, status, b.Bytes())
}

// Delete serves DELETE /openapi/v3/entity/{entityName}/{urn}
// (without aspects, or naming the key aspect: the whole entity; with
// clear=true every aspect but the key) and DELETE
// /openapi/v3/entity/{entityName}/{urn}/{aspectName} (an unknown aspect is
// a no-op). Both answer 200 without a body. {entityName} is not looked
// at: the URN's own type names the entity.
func (s *Handler) Delete(w http.ResponseWriter, r *http.Request, rt Request) {
	t, e := v3URN(rt.Path.urn)
	if e != nil {
		writeOpenAPIError(w, e, "")
		return
	}
	ent := t.Entity
	var aspects []string
	if rt.Path.Shape == ShapeAspect {
		name, ok := gms.ResolveAspect(ent, rt.Path.aspect)
		if !ok {
			w.WriteHeader(http.StatusOK)
			return
		}
		if gms.IsTimeseries(name) {
			if _, err := s.core.DeleteLatestTimeseries(r.Context(), rt.Path.urn, name); err != nil {
				writeOpenAPIError(w, fromCoreV3(err), "")
				return
			}
			w.Header().Set("Content-Length", strconv.Itoa(0))
			w.WriteHeader(http.StatusOK)
			return
		}
		aspects = []string{name}
	} else {
		q := r.URL.Query()
		clear, e := boolParam(q, "clear", false)
		if e != nil {
			writeOpenAPIError(w, e, "")
			return
		}
		var named []string
		if !clear {
			for _, n := range setParam(q, "aspects") {
				name, ok := gms.ResolveAspect(ent, n)
				if !ok {
					writeOpenAPIError(w, v3Errorf(http.StatusBadRequest, msgV3UnknownAspect, n, ent.Name), "")
					return
				}
				named = append(named, name)
			}
		}
		aspects = gms.DeletedAspects(ent, named, clear)
	}
	if err := s.core.DeleteAspects(r.Context(), rt.Path.urn, aspects); err != nil {
		writeOpenAPIError(w, fromCoreV3(err), "")
		return
	}
	w.Header().Set("Content-Length", strconv.Itoa(0))
	w.WriteHeader(http.StatusOK)
}

// checkItemAspects asks the core about the members of a write's items that
// name no aspect of their entity (gms.Core.CheckItemAspect).
//
// It also returns the items' targets, for itemProposals (a zero Target for
// a URN that does not check: itemProposals answers it, in the items'
// order), so that each URN is checked once.
func (s *Handler) checkItemAspects(items []v3Item) ([]gms.Target, *openAPIError) {
	targets := make([]gms.Target, len(items))
	for i, it := range items {
		t, e := v3URN(it.urn)
		if e != nil {
			continue
		}
		targets[i] = t
		for _, mb := range it.members {
			if err := s.core.CheckItemAspect(t, mb.Key); err != nil {
				return nil, fromCoreV3(err)
			}
		}
	}
	return targets, nil
}
