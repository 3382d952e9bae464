package restli

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/wire"
)

// ingest serves entities?action=ingest: one snapshot (an MCE's
// proposedSnapshot) turned into one UPSERT proposal per aspect, all with
// the given systemMetadata, written as one batch.
func ingest(h *Handler, ctx context.Context, c *Call) (any, error) {
	ps, err := gms.SnapshotProposals(c.raw("entity"), c.raw("systemMetadata"))
	if err != nil {
		return nil, err
	}
	if err := h.write(ctx, ps, false); err != nil {
		return nil, err
	}
	return Void{}, nil
}

// batchIngest serves entities?action=batchIngest: the snapshots, each with
// the systemMetadata at its index (the two lists' lengths must match when
// systemMetadata is given), written as one batch.
func batchIngest(h *Handler, ctx context.Context, c *Call) (any, error) {
	var entities, sms []json.RawMessage
	c.decode("entities", &entities)
	if c.has("systemMetadata") {
		c.decode("systemMetadata", &sms)
		if len(sms) != len(entities) {
			return nil, badRequest(msgLengthsDiffer)
		}
	}
	var all []gms.Proposal
	for i, e := range entities {
		var sm json.RawMessage
		if sms != nil && !wire.IsNull(sms[i]) {
			sm = sms[i]
		}
		ps, err := gms.SnapshotProposals(e, sm)
		if err != nil {
			return nil, err
		}
		all = append(all, ps...)
	}
	if err := h.write(ctx, all, len(entities) > 1); err != nil {
		return nil, err
	}
	return Void{}, nil
}

// exists serves entities?action=exists; includeSoftDelete defaults to true.
func exists(h *Handler, ctx context.Context, c *Call) (any, error) {
	include := true
	if b := c.boolean("includeSoftDelete"); b != nil {
		include = *b
	}
	return h.core.ExistsIncluding(ctx, c.str("urn"), include)
}

// filterExistingUrnsRequest is com.linkedin.entity.FilterExistingUrnsRequest.
type filterExistingUrnsRequest struct {
	URNs              []string `json:"urns"`
	IncludeSoftDelete *bool    `json:"includeSoftDelete"`
}

// filterExistingUrns serves entities?action=filterExistingUrns.
func filterExistingUrns(h *Handler, ctx context.Context, c *Call) (any, error) {
	var req filterExistingUrnsRequest
	if err := c.decodeRecord("request", &req); err != nil {
		return nil, err
	}
	if len(req.URNs) == 0 {
		return []string{}, nil
	}
	include := req.IncludeSoftDelete == nil || *req.IncludeSoftDelete
	return h.core.FilterExisting(ctx, req.URNs, include)
}

// getTotalEntityCount serves entities?action=getTotalEntityCount.
func getTotalEntityCount(h *Handler, ctx context.Context, c *Call) (any, error) {
	return h.core.EntityCount(ctx, c.str("entity"))
}

// batchGetTotalEntityCount serves entities?action=batchGetTotalEntityCount:
// a map of entity type to count.
func batchGetTotalEntityCount(h *Handler, ctx context.Context, c *Call) (any, error) {
	out := map[string]int64{}
	for _, e := range c.strs("entities") {
		n, err := h.core.EntityCount(ctx, e)
		if err != nil {
			return nil, err
		}
		out[e] = int64(n)
	}
	return out, nil
}

// listResult is com.linkedin.metadata.query.ListUrnsResult (and ListResult).
type listResult struct {
	Entities []string `json:"entities"`
	Start    int      `json:"start"`
	Count    int      `json:"count"`
	Total    int      `json:"total"`
}

// listUrns serves entities?action=listUrns.
func listUrns(h *Handler, ctx context.Context, c *Call) (any, error) {
	p, err := h.core.ListURNs(ctx, c.str("entity"), c.integer("start", 0), c.integer("count", 0))
	if err != nil {
		return nil, err
	}
	return listResult{Entities: p.URNs, Start: p.Start, Count: len(p.URNs), Total: p.Total}, nil
}

// snapshotEntity is com.linkedin.entity.Entity: the snapshot union.
type snapshotEntity struct {
	Value map[string]snapshotRecord `json:"value"`
}

// snapshotRecord is a *Snapshot record: its URN and aspect unions.
type snapshotRecord struct {
	URN     string                       `json:"urn"`
	Aspects []map[string]json.RawMessage `json:"aspects"`
}

func toEntity(s gms.Snapshot) snapshotEntity {
	rec := snapshotRecord{URN: s.URN, Aspects: make([]map[string]json.RawMessage, 0, len(s.Aspects))}
	for _, a := range s.Aspects {
		rec.Aspects = append(rec.Aspects, map[string]json.RawMessage{a.RecordName: a.Value})
	}
	return snapshotEntity{Value: map[string]snapshotRecord{s.Name: rec}}
}

// getSnapshot serves GET /entities/{urn}[?aspects=List(a,b)]: the entity as
// its snapshot.
func getSnapshot(h *Handler, ctx context.Context, c *Call) (any, error) {
	s, err := h.core.GetSnapshot(ctx, c.Key, c.listQuery("aspects"))
	if err != nil {
		return nil, err
	}
	return toEntity(s), nil
}

// batchResponse is Rest.li's BATCH_GET answer.
type batchResponse struct {
	Results  map[string]any         `json:"results"`
	Statuses map[string]int         `json:"statuses"`
	Errors   map[string]errorEntity `json:"errors"`
}

// errorEntity is an ErrorResponse in a batch answer's errors.
type errorEntity struct {
	Status         int    `json:"status"`
	ExceptionClass string `json:"exceptionClass"`
	Message        string `json:"message,omitempty"`
}

const classService = "com.linkedin.restli.server.RestLiServiceException"

func newBatch() batchResponse {
	return batchResponse{Results: map[string]any{}, Statuses: map[string]int{}, Errors: map[string]errorEntity{}}
}

// fail records key's failure: a core error by its status, a missing
// entity as 404.
func (b *batchResponse) fail(key string, err error) {
	e := gms.AsError(err)
	status := http.StatusInternalServerError
	switch e.Kind {
	case gms.NotFound:
		status = http.StatusNotFound
	case gms.BadArgument, gms.UnknownEntity, gms.UnknownAspect:
		status = http.StatusBadRequest
	}
	b.Errors[key] = errorEntity{Status: status, ExceptionClass: classService, Message: e.Message}
}

// batchGetSnapshots serves GET /entities?ids=List(...): each entity as its
// snapshot.
func batchGetSnapshots(h *Handler, ctx context.Context, c *Call) (any, error) {
	ids := c.batchIDs()
	if len(ids) == 0 {
		return nil, badRequest(msgNoIDs)
	}
	out := newBatch()
	for _, id := range ids {
		s, err := h.core.GetSnapshot(ctx, id, c.listQuery("aspects"))
		if err != nil {
			if e := gms.AsError(err); e.Kind != gms.NotFound {
				return nil, err
			}
			out.fail(id, err)
			continue
		}
		out.Results[id] = toEntity(s)
	}
	return out, nil
}

// EntityResponse is com.linkedin.entity.EntityResponse.
type EntityResponse struct {
	EntityName string                     `json:"entityName"`
	URN        string                     `json:"urn"`
	Aspects    map[string]EnvelopedAspect `json:"aspects"`
}

// EnvelopedAspect is com.linkedin.entity.EnvelopedAspect.
type EnvelopedAspect struct {
	Name           string          `json:"name"`
	Type           string          `json:"type"`
	Version        int64           `json:"version"`
	Value          json.RawMessage `json:"value"`
	Created        wire.AuditStamp `json:"created"`
	SystemMetadata json.RawMessage `json:"systemMetadata,omitempty"`
}

func toResponse(e gms.Entity) EntityResponse {
	out := EntityResponse{EntityName: e.Name, URN: e.URN, Aspects: make(map[string]EnvelopedAspect, len(e.Aspects))}
	for _, a := range e.Aspects {
		ea := EnvelopedAspect{Name: a.Name, Type: "VERSIONED", Version: a.Version, Value: a.Value,
			Created: wire.AuditStamp{Actor: a.CreatedBy}, SystemMetadata: a.SystemMetadata}
		if !a.CreatedOn.IsZero() {
			ea.Created.Time = a.CreatedOn.UnixMilli()
		}
		out.Aspects[a.Name] = ea
	}
	return out
}

// batchGetEntities serves GET /entitiesV2?ids=List(...): each entity as an
// EntityResponse, as GET /entitiesV2/{urn} answers it; an entity without
// any aspect is a 404 in errors.
func batchGetEntities(h *Handler, ctx context.Context, c *Call) (any, error) {
	ids := c.batchIDs()
	if len(ids) == 0 {
		return nil, badRequest(msgNoIDs)
	}
	includeKey := !strings.EqualFold(c.Query.Get("alwaysIncludeKeyAspect"), "false")
	out := newBatch()
	for _, id := range ids {
		e, err := h.core.GetEntity(ctx, id, c.listQuery("aspects"), includeKey)
		if err != nil {
			if ge := gms.AsError(err); ge.Kind != gms.NotFound {
				return nil, err
			}
			out.fail(id, err)
			continue
		}
		out.Results[id] = toResponse(e)
	}
	return out, nil
}

// batchGetVersioned serves GET /entitiesVersionedV2?ids=List((urn:...,
// versionStamp:...))&entityType=...: each entity with the aspect versions
// its versionStamp names ("aspect:version;aspect:version", version 0 the
// latest), the other aspects at their latest.
func batchGetVersioned(h *Handler, ctx context.Context, c *Call) (any, error) {
	ids := c.batchIDs()
	if len(ids) == 0 {
		return nil, badRequest(msgNoIDs)
	}
	out := newBatch()
	for _, id := range ids {
		u, stamp, ok := versionedKey(id)
		if !ok {
			return nil, badRequest(msgBadKey, id)
		}
		e, err := h.core.GetEntityVersions(ctx, u, c.listQuery("aspects"), stamp)
		if err != nil {
			if ge := gms.AsError(err); ge.Kind != gms.NotFound {
				return nil, err
			}
			out.fail(id, err)
			continue
		}
		out.Results[id] = toResponse(e)
	}
	return out, nil
}

// versionedKey parses a VersionedUrn key: "(urn:<urn>,versionStamp:<stamp>)",
// each value escaped; versionStamp may be absent.
func versionedKey(k string) (urn string, stamp map[string]int64, ok bool) {
	inner, found := strings.CutPrefix(k, "(")
	if !found || !strings.HasSuffix(inner, ")") {
		return "", nil, false
	}
	inner = strings.TrimSuffix(inner, ")")
	for _, part := range splitTop(inner) {
		name, v, _ := strings.Cut(part, ":")
		v, err := url.QueryUnescape(v)
		if err != nil {
			return "", nil, false
		}
		switch name {
		case "urn":
			urn = v
		case "versionStamp":
			stamp = map[string]int64{}
			for _, av := range strings.Split(v, ";") {
				a, ver, _ := strings.Cut(av, ":")
				n, err := strconv.ParseInt(ver, 10, 64)
				if a == "" || err != nil {
					return "", nil, false
				}
				stamp[a] = n
			}
		}
	}
	return urn, stamp, urn != ""
}

// setWritable serves entities?action=setWritable (value defaults to true).
func setWritable(h *Handler, ctx context.Context, c *Call) (any, error) {
	v := true
	if b := c.boolean("value"); b != nil {
		v = *b
	}
	h.core.SetWritable(v)
	return Void{}, nil
}
