package client

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	datahub "github.com/catalogkit/datahub-go"
)

// RestoreIndicesRequest selects the rows of GMS's SQL store whose search
// documents RestoreIndices rebuilds. Only the fields set (non-zero) are
// sent; the server's defaults apply to the others (start 0; batchSize: DataHub's
// documentation (https://docs.datahub.com/docs/api/restli/restore-indices)
// says 10, its server uses 500 and the mock 10,
// so set it when the batch size matters; every row created up to now).
//
// Without Limit, servers differ: DataHub restores every selected row from
// Start on (limit 0 means no limit), the mock server restores one batch of
// BatchSize rows, as DataHub's operations documentation describes. Set Limit to get the same
// rows from both.
type RestoreIndicesRequest struct {
	// URN restores only this entity.
	URN string
	// Aspect restores only this aspect.
	Aspect string
	// URNLike restores only the URNs matching this SQL LIKE pattern
	// ("urn:li:dataset:%").
	URNLike string
	// Start skips that many selected rows, ordered by URN and then aspect
	// name (byte-wise, as DataHub's SQL query orders them).
	Start int
	// BatchSize is the number of rows per batch; without Limit, the mock
	// restores one batch, DataHub every selected row.
	BatchSize int
	// Limit is the number of rows to restore, in batches of BatchSize; 0
	// (unset) is no limit for DataHub and one batch for the mock.
	Limit int
	// CreatedAfter and CreatedBefore keep only rows created in that range
	// (gePitEpochMs, lePitEpochMs). The servers apply the range only when
	// CreatedAfter is set (after the epoch): CreatedBefore alone selects
	// every row.
	CreatedAfter, CreatedBefore time.Time
	// CreateDefaultAspects asks the server to create missing default aspects.
	CreateDefaultAspects bool
}

// RestoreIndicesResult is what restoreIndices reports.
type RestoreIndicesResult struct {
	// RowsMigrated is the number of rows restored, over all batches.
	RowsMigrated int
	// Ignored is the number of rows skipped, over all batches.
	Ignored int
	// LastURN and LastAspect name the last row restored ("" for none).
	LastURN, LastAspect string
	// Batches are the reports of each batch, in order.
	Batches []RestoreBatch
	// Raw is the server's text (the Java rendering of its arguments and
	// results).
	Raw string
}

// RestoreBatch is the report of one batch of a restore.
type RestoreBatch struct {
	RowsMigrated, Ignored int
	LastURN, LastAspect   string
}

// RestoreIndices rebuilds the search documents of the selected rows from
// GMS's SQL store: POST /operations?action=restoreIndices. The server
// answers in text (a Java map rendered by toString); the counts are parsed
// from it, and Raw keeps it whole. Without r.Limit, DataHub restores every
// selected row and the mock only r.BatchSize of them (see
// [RestoreIndicesRequest]); set Limit to work the same against both.
func (c *Client) RestoreIndices(ctx context.Context, r RestoreIndicesRequest) (*RestoreIndicesResult, error) {
	if r.Start < 0 || r.BatchSize < 0 || r.Limit < 0 {
		return nil, fmt.Errorf("client: restore indices: start, batchSize and limit must not be negative: %w", datahub.ErrValidation)
	}
	p := map[string]any{}
	setString := func(k, v string) {
		if v != "" {
			p[k] = v
		}
	}
	setString("urn", r.URN)
	setString("aspect", r.Aspect)
	setString("urnLike", r.URNLike)
	for k, v := range map[string]int{"start": r.Start, "batchSize": r.BatchSize, "limit": r.Limit} {
		if v != 0 {
			p[k] = v
		}
	}
	if !r.CreatedAfter.IsZero() {
		p["gePitEpochMs"] = r.CreatedAfter.UnixMilli()
	}
	if !r.CreatedBefore.IsZero() {
		p["lePitEpochMs"] = r.CreatedBefore.UnixMilli()
	}
	if r.CreateDefaultAspects {
		p["createDefaultAspects"] = true
	}
	v, err := c.postAction(ctx, pathRestoreIndices, p, false)
	if err != nil {
		return nil, err
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return nil, fmt.Errorf("client: restore indices: answer is not a string: %.200s", v)
	}
	return parseRestore(s)
}

var (
	restoreResultRE = regexp.MustCompile(`RestoreIndicesResult\(`)
	intFieldRE      = func(name string) *regexp.Regexp { return regexp.MustCompile(`\b` + name + `=(-?\d+)`) }
	rowsMigratedRE  = intFieldRE("rowsMigrated")
	ignoredRE       = intFieldRE("ignored")
)

// parseRestore reads the results of a restoreIndices answer:
// "{args=RestoreIndicesArgs(...), result=RestoreIndicesResult(ignored=0,
// rowsMigrated=3, ..., lastUrn=..., lastAspect=...)}" with one
// RestoreIndicesResult per batch, separated by new lines.
func parseRestore(s string) (*RestoreIndicesResult, error) {
	res := &RestoreIndicesResult{Raw: s}
	locs := restoreResultRE.FindAllStringIndex(s, -1)
	if len(locs) == 0 {
		return nil, fmt.Errorf("client: restore indices: answer has no RestoreIndicesResult: %.200s", s)
	}
	for i, loc := range locs {
		end := len(s)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		chunk := strings.TrimRight(s[loc[1]:end], "\n}")
		chunk = strings.TrimSuffix(chunk, ")")
		var b RestoreBatch
		m := rowsMigratedRE.FindStringSubmatch(chunk)
		if m == nil {
			return nil, fmt.Errorf("client: restore indices: result without rowsMigrated: %.200s", chunk)
		}
		b.RowsMigrated, _ = strconv.Atoi(m[1])
		if m := ignoredRE.FindStringSubmatch(chunk); m != nil {
			b.Ignored, _ = strconv.Atoi(m[1])
		}
		if _, rest, ok := strings.Cut(chunk, ", lastUrn="); ok {
			b.LastURN, b.LastAspect, _ = strings.Cut(rest, ", lastAspect=")
		}
		res.Batches = append(res.Batches, b)
		res.RowsMigrated += b.RowsMigrated
		res.Ignored += b.Ignored
		if b.LastURN != "" {
			res.LastURN, res.LastAspect = b.LastURN, b.LastAspect
		}
	}
	return res, nil
}

// IndexSize is the size of one timeseries index, as getIndexSizes reports
// it.
type IndexSize struct {
	// IndexName is the index ("dataset_datasetprofileaspect_v1").
	IndexName string
	// EntityName and AspectName are the entity type and aspect, lower-cased
	// as parsed from the index name ("dataset", "datasetprofile"); they are
	// what TruncateTimeseriesAspect takes.
	EntityName, AspectName string
	// SizeMB is the index's size in megabytes (10^6 bytes).
	SizeMB float64
}

// GetIndexSizes returns the sizes of the timeseries indices (the ones that
// grow without bound): POST /operations?action=getIndexSizes. It reads
// DataHub's {"value":{"indexSizes":[...]}} and the same object rendered to
// a JSON string ({"value":"{\"indexSizes\":[...]}"}), with the size in
// sizeInMb or the older sizeMb.
func (c *Client) GetIndexSizes(ctx context.Context) ([]IndexSize, error) {
	v, err := c.postAction(ctx, pathIndexSizes, map[string]any{}, false)
	if err != nil {
		return nil, err
	}
	obj, ok := stringOrObject(v)
	if !ok {
		return nil, fmt.Errorf("client: index sizes: answer is not a JSON object: %.200s", v)
	}
	var a struct {
		IndexSizes []struct {
			IndexName  string   `json:"indexName"`
			EntityName string   `json:"entityName"`
			AspectName string   `json:"aspectName"`
			SizeMb     *float64 `json:"sizeMb"`
			SizeInMb   *float64 `json:"sizeInMb"`
		} `json:"indexSizes"`
	}
	if err := json.Unmarshal(obj, &a); err != nil {
		return nil, fmt.Errorf("client: index sizes: %w", err)
	}
	out := make([]IndexSize, 0, len(a.IndexSizes))
	for _, x := range a.IndexSizes {
		s := IndexSize{IndexName: x.IndexName, EntityName: x.EntityName, AspectName: x.AspectName}
		switch {
		case x.SizeInMb != nil:
			s.SizeMB = *x.SizeInMb
		case x.SizeMb != nil:
			s.SizeMB = *x.SizeMb
		}
		out = append(out, s)
	}
	return out, nil
}

// TruncateRequest says which timeseries documents TruncateTimeseriesAspect
// deletes: those of EntityType's Aspect with timestampMillis <= End.
type TruncateRequest struct {
	// EntityType and Aspect name the index ("dataset", "datasetProfile" or
	// the lower-cased names GetIndexSizes reports).
	EntityType, Aspect string
	// End is the newest time deleted (required).
	End time.Time
	// Execute runs the truncation; false (the default) asks for a dry run,
	// which only counts. The request always says which (dryRun).
	Execute bool
	// BatchSize is the delete's batch size (0: the server's, 10,000).
	BatchSize int
	// Timeout bounds the delete (0: none); sent in whole seconds.
	Timeout time.Duration
	// ForceDeleteByQuery and ForceReindex choose how the server deletes (at
	// most one may be set; by default it reindexes when more than half the
	// documents go).
	ForceDeleteByQuery, ForceReindex bool
}

// TruncateResult is what truncateTimeseriesAspect answers.
type TruncateResult struct {
	// Task is the deletion started by an executed run (nil for a dry run).
	Task *Task
	// ToDelete and Total are a dry run's counts: the documents up to End,
	// and all of them.
	ToDelete, Total int64
	// Reindex reports a dry run's plan: reindex without the old documents
	// (true) or delete them by query.
	Reindex bool
	// Message is the server's text.
	Message string
}

var truncateSummaryRE = regexp.MustCompile(`^Delete (\d+) out of (\d+) rows`)

// TruncateTimeseriesAspect deletes the documents of a timeseries aspect up
// to req.End, or with req.Execute false counts them: POST
// /operations?action=truncateTimeseriesAspect. An executed run returns the
// task doing the deletion (see WaitForTask). It is not retried after a lost
// answer, which could start a second task.
func (c *Client) TruncateTimeseriesAspect(ctx context.Context, req TruncateRequest) (*TruncateResult, error) {
	switch {
	case req.EntityType == "" || req.Aspect == "" || req.End.IsZero():
		return nil, fmt.Errorf("client: truncate: entity type, aspect and end time are required: %w", datahub.ErrValidation)
	case req.ForceDeleteByQuery && req.ForceReindex:
		return nil, fmt.Errorf("client: truncate: set at most one of ForceDeleteByQuery and ForceReindex: %w", datahub.ErrValidation)
	case req.BatchSize < 0 || req.Timeout < 0:
		return nil, fmt.Errorf("client: truncate: batch size and timeout must not be negative: %w", datahub.ErrValidation)
	}
	p := map[string]any{"entityType": req.EntityType, "aspect": req.Aspect, "endTimeMillis": req.End.UnixMilli(), "dryRun": !req.Execute}
	if req.BatchSize > 0 {
		p["batchSize"] = req.BatchSize
	}
	if req.Timeout > 0 {
		p["timeoutSeconds"] = int64((req.Timeout + time.Second - 1) / time.Second)
	}
	if req.ForceDeleteByQuery {
		p["forceDeleteByQuery"] = true
	}
	if req.ForceReindex {
		p["forceReindex"] = true
	}
	v, err := c.postAction(ctx, pathTruncate, p, req.Execute)
	if err != nil {
		return nil, err
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return nil, fmt.Errorf("client: truncate: answer is not a string: %.200s", v)
	}
	res := &TruncateResult{Message: s}
	if m := truncateSummaryRE.FindStringSubmatch(s); m != nil {
		res.ToDelete, _ = strconv.ParseInt(m[1], 10, 64)
		res.Total, _ = strconv.ParseInt(m[2], 10, 64)
		res.Reindex = strings.Contains(s, "Reindexing")
		if req.Execute {
			return nil, fmt.Errorf("client: truncate: asked to execute, the server answered a dry run: %s", s)
		}
		return res, nil
	}
	if req.Execute {
		if t, err := ParseTask(s); err == nil {
			res.Task = &t
			return res, nil
		}
	}
	// "please only set forceReindex OR forceDeleteByQuery flags", or text
	// this client does not know.
	return nil, fmt.Errorf("client: truncate: server answered %q: %w", s, datahub.ErrValidation)
}
