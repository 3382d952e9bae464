package restli

import (
	"context"
	"encoding/json"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// aspectRowSummary is com.linkedin.metadata.run.AspectRowSummary.
type aspectRowSummary struct {
	RunID      string          `json:"runId"`
	AspectName string          `json:"aspectName"`
	URN        string          `json:"urn"`
	Timestamp  int64           `json:"timestamp"`
	Metadata   string          `json:"metadata"`
	Version    int64           `json:"version"`
	KeyAspect  bool            `json:"keyAspect"`
	Aspect     json.RawMessage `json:"aspect,omitempty"`
}

func rowSummaries(rows []gms.RunRow) []aspectRowSummary {
	out := make([]aspectRowSummary, 0, len(rows))
	for _, r := range rows {
		out = append(out, aspectRowSummary{RunID: r.RunID, AspectName: r.Aspect, URN: r.URN, Timestamp: r.Timestamp,
			Metadata: string(r.Value), KeyAspect: r.KeyAspect})
	}
	return out
}

// ingestionRunSummary is com.linkedin.metadata.run.IngestionRunSummary.
type ingestionRunSummary struct {
	RunID     string `json:"runId"`
	Timestamp int64  `json:"timestamp"`
	Rows      int64  `json:"rows"`
}

// listRuns serves runs?action=list: pageOffset 0 and pageSize 100 by
// default.
func listRuns(h *Handler, ctx context.Context, c *Call) (any, error) {
	include := false
	if b := c.boolean("includeSoft"); b != nil {
		include = *b
	}
	runs, err := h.core.Runs(ctx, c.integer("pageOffset", 0), c.integer("pageSize", 100), include)
	if err != nil {
		return nil, err
	}
	out := make([]ingestionRunSummary, 0, len(runs))
	for _, r := range runs {
		out = append(out, ingestionRunSummary{RunID: r.RunID, Timestamp: r.Timestamp, Rows: int64(r.Rows)})
	}
	return out, nil
}

// describeRun serves runs?action=describe: the rows the run wrote last,
// each with its aspect when includeAspect is set.
func describeRun(h *Handler, ctx context.Context, c *Call) (any, error) {
	include := false
	if b := c.boolean("includeSoft"); b != nil {
		include = *b
	}
	rows, err := h.core.RunRows(ctx, c.str("runId"), c.integer("start", 0), c.integer("count", 0), include)
	if err != nil {
		return nil, err
	}
	out := rowSummaries(rows)
	if b := c.boolean("includeAspect"); b != nil && *b {
		for i := range out {
			out[i].Aspect = rows[i].Value
		}
	}
	return out, nil
}

// rollbackResponse is com.linkedin.metadata.run.RollbackResponse.
type rollbackResponse struct {
	AspectRowSummaries  []aspectRowSummary `json:"aspectRowSummaries"`
	EntitiesAffected    int64              `json:"entitiesAffected"`
	AspectsAffected     int64              `json:"aspectsAffected"`
	EntitiesDeleted     int64              `json:"entitiesDeleted"`
	AspectsReverted     int64              `json:"aspectsReverted"`
	UnsafeEntitiesCount int64              `json:"unsafeEntitiesCount"`
	UnsafeEntities      []unsafeEntity     `json:"unsafeEntities"`
}

type unsafeEntity struct {
	URN string `json:"urn"`
}

// maxRowSummaries is how many rows a RollbackResponse lists.
const maxRowSummaries = 100

func toRollbackResponse(r gms.Rollback) rollbackResponse {
	rows := r.Rows
	if len(rows) > maxRowSummaries {
		rows = rows[:maxRowSummaries]
	}
	out := rollbackResponse{AspectRowSummaries: rowSummaries(rows), EntitiesAffected: int64(r.EntitiesAffected),
		AspectsAffected: int64(r.AspectsAffected), EntitiesDeleted: int64(r.EntitiesDeleted),
		AspectsReverted: int64(r.AspectsReverted), UnsafeEntitiesCount: int64(len(r.UnsafeEntities)),
		UnsafeEntities: []unsafeEntity{}}
	for _, u := range r.UnsafeEntities {
		out.UnsafeEntities = append(out.UnsafeEntities, unsafeEntity{URN: u})
	}
	return out
}

// rollback serves runs?action=rollback: safe (when given) decides, else
// the deprecated hardDelete, else a soft rollback.
func rollback(h *Handler, ctx context.Context, c *Call) (any, error) {
	hard := false
	if b := c.boolean("hardDelete"); b != nil {
		hard = *b
	}
	if b := c.boolean("safe"); b != nil {
		hard = !*b
	}
	dry := false
	if b := c.boolean("dryRun"); b != nil {
		dry = *b
	}
	r, err := h.core.Rollback(ctx, c.str("runId"), dry, hard)
	if err != nil {
		return nil, err
	}
	return toRollbackResponse(r), nil
}

// deleteAll serves entities?action=deleteAll: DataHub deletes the rows a
// model registry (a "name:version" registryId) wrote; the mock loads no
// registry plugins, so no row has one and nothing is deleted.
func deleteAll(h *Handler, ctx context.Context, c *Call) (any, error) {
	if id := c.strp("registryId"); id != nil {
		if name, version, ok := cutRegistry(*id); !ok || name == "" || version == "" {
			return nil, &Error{Status: 500, Message: sprintf(msgRegistryID, *id)}
		}
	}
	return toRollbackResponse(gms.Rollback{}), nil
}

func cutRegistry(id string) (string, string, bool) {
	for i := 0; i < len(id); i++ {
		if id[i] == ':' {
			return id[:i], id[i+1:], true
		}
	}
	return "", "", false
}
