package mockserver

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// The operations of GMS's /operations resource and of /test.
const (
	// OpRestoreIndices is POST /operations?action=restoreIndices.
	OpRestoreIndices Op = "restoreIndices"
	// OpGetIndexSizes is POST /operations?action=getIndexSizes.
	OpGetIndexSizes Op = "getIndexSizes"
	// OpTruncateTimeseries is POST /operations?action=truncateTimeseriesAspect.
	OpTruncateTimeseries Op = "truncateTimeseriesAspect"
	// OpGetEsTaskStatus is POST /operations?action=getEsTaskStatus.
	OpGetEsTaskStatus Op = "getEsTaskStatus"
	// OpEvaluateTests is POST /test?action=evaluate.
	OpEvaluateTests Op = "evaluate"
)

// DataHub's texts of the operations resource's answers
// (OperationsResource.java); its refusals are the core's.
const (
	msgTaskUnknown     = "Could not get task status for %s"
	msgTruncateFlags   = "please only set forceReindex OR forceDeleteByQuery flags"
	msgTruncateSummary = "Delete %d out of %d rows (%s%%). "
	msgTruncateReindex = "Reindexing the aspect without the deleted records. "
	msgTruncateDelete  = "Issuing a delete by query request. "
	msgTruncateDryRun  = "This was a dry run. Run with dryRun = false to execute."
)

// Refusals of the operations the core answers with, by their names in this
// package.
const (
	msgTaskNeither = gms.MsgTaskNeither
	msgTaskBoth    = gms.MsgTaskBoth
	msgBatchSize   = gms.MsgBatchSize
)

// handleRestoreIndices serves restoreIndices: it rebuilds the index
// documents of the selected rows and answers DataHub's string form,
// HashMap.toString of the args and the results.
func (s *Server) handleRestoreIndices(w http.ResponseWriter, r *http.Request, rt routed) {
	var (
		urn, aspect, urnLike    *string
		start, batchSize, limit *int32
		ge, le                  *int64
		createDefaultAspects    *bool
	)
	if rerr := decodeParams(r, "restoreIndices", []param{
		{"urn", "String", &urn, false}, {"aspect", "String", &aspect, false}, {"urnLike", "String", &urnLike, false},
		{"start", "Integer", &start, false}, {"batchSize", "Integer", &batchSize, false}, {"limit", "Integer", &limit, false},
		{"gePitEpochMs", "Long", &ge, false}, {"lePitEpochMs", "Long", &le, false},
		{"createDefaultAspects", "Boolean", &createDefaultAspects, false},
	}); rerr != nil {
		writeRestliError(w, rerr, "")
		return
	}
	args, err := s.core.RestoreArgs(gms.RestoreParams{URN: urn, Aspect: aspect, URNLike: urnLike, Start: start,
		BatchSize: batchSize, Limit: limit, GePitEpochMs: ge, LePitEpochMs: le, CreateDefaultAspects: createDefaultAspects})
	if err != nil {
		writeRestliError(w, fromCore(err, OpRestoreIndices), "")
		return
	}
	batches, err := s.core.Restore(r.Context(), args)
	if err != nil {
		writeRestliError(w, fromCore(err, OpRestoreIndices), "")
		return
	}
	writeValue(w, restoreString(args, urn, aspect, urnLike, batches))
}

// DefaultRestoreBatchSize is restoreIndices' batchSize when none is given:
// 10 in the mock (DataHub's server has 500; set batchSize when it matters).
const DefaultRestoreBatchSize = gms.DefaultRestoreBatchSize

// restoreString renders restoreIndices' answer as GMS does: a Java
// HashMap.toString of {args=RestoreIndicesArgs(...), result=...} with the
// Lombok toString of each RestoreIndicesResult joined by new lines.
func restoreString(a gms.RestoreArgs, urn, aspect, urnLike *string, batches []gms.RestoreBatch) string {
	var b strings.Builder
	fmt.Fprintf(&b, "{args=RestoreIndicesArgs(start=%d, batchSize=%d, limit=%d, numThreads=1, batchDelayMs=1000, gePitEpochMs=%d, lePitEpochMs=%d, createDefaultAspects=%t, aspectName=%s, aspectNames=[], urn=%s, urnLike=%s, urnBasedPagination=false, lastUrn=, lastAspect=), result=",
		a.Start, a.BatchSize, a.Limit, a.GePitEpochMs, a.LePitEpochMs, a.CreateDefaultAspects, javaString(aspect), javaString(urn), javaString(urnLike))
	for i, r := range batches {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "RestoreIndicesResult(ignored=0, rowsMigrated=%d, timeSqlQueryMs=0, timeGetRowMs=0, timeUrnMs=0, timeEntityRegistryCheckMs=0, aspectCheckMs=0, createRecordMs=0, sendMessageMs=0, defaultAspectsCreated=0, lastUrn=%s, lastAspect=%s)",
			r.RowsMigrated, r.LastURN, r.LastAspect)
	}
	b.WriteString("}")
	return b.String()
}

func javaString(p *string) string {
	if p == nil {
		return "null"
	}
	return *p
}

// indexSize is com.linkedin.timeseries.TimeseriesIndexSizeResult.
type indexSize struct {
	IndexName  string  `json:"indexName"`
	EntityName string  `json:"entityName"`
	AspectName string  `json:"aspectName"`
	SizeMb     float64 `json:"sizeMb"`
	SizeInMb   float64 `json:"sizeInMb"`
}

// handleGetIndexSizes serves getIndexSizes: the timeseries indices with
// their sizes, in DataHub's {"value":{"indexSizes":[...]}} shape with both
// size fields filled (sizeInMb, and the deprecated sizeMb).
func (s *Server) handleGetIndexSizes(w http.ResponseWriter, r *http.Request, rt routed) {
	if rerr := decodeParams(r, "getIndexSizes", nil); rerr != nil {
		writeRestliError(w, rerr, "")
		return
	}
	sizes := []indexSize{}
	for _, info := range s.core.IndexSizes() {
		mb := float64(info.SizeBytes) / 1e6
		sizes = append(sizes, indexSize{IndexName: info.Name, EntityName: strings.ToLower(info.EntityName),
			AspectName: strings.ToLower(info.AspectName), SizeMb: mb, SizeInMb: mb})
	}
	writeValue(w, map[string][]indexSize{"indexSizes": sizes})
}

// handleTruncate serves truncateTimeseriesAspect as
// OperationsResource.executeTruncateTimeseriesAspect: a dry run (the
// default) reports the counts; a real run starts a task and answers its id.
func (s *Server) handleTruncate(w http.ResponseWriter, r *http.Request, rt routed) {
	var (
		entityType, aspect        *string
		endTime, timeout          *int64
		batchSize                 *int32
		dryRun, forceDBQ, forceRe *bool
	)
	if rerr := decodeParams(r, "truncateTimeseriesAspect", []param{
		{"entityType", "String", &entityType, true}, {"aspect", "String", &aspect, true},
		{"endTimeMillis", "Long", &endTime, true}, {"dryRun", "Boolean", &dryRun, false},
		{"batchSize", "Integer", &batchSize, false}, {"timeoutSeconds", "Long", &timeout, false},
		{"forceDeleteByQuery", "Boolean", &forceDBQ, false}, {"forceReindex", "Boolean", &forceRe, false},
	}); rerr != nil {
		writeRestliError(w, rerr, "")
		return
	}
	t, err := gms.TruncationOf(gms.TruncateParams{EntityType: *entityType, Aspect: *aspect, EndTimeMillis: *endTime,
		DryRun: dryRun, BatchSize: batchSize, TimeoutSeconds: timeout, ForceDeleteByQuery: forceDBQ, ForceReindex: forceRe})
	if err != nil {
		writeRestliError(w, fromCore(err, OpTruncateTimeseries), "")
		return
	}
	if t.FlagsConflict {
		writeValue(w, msgTruncateFlags)
		return
	}
	res := s.core.Truncate(r.Context(), t)
	msg := fmt.Sprintf(msgTruncateSummary, res.ToDelete, res.Total, javaPercent(res.ToDelete, res.Total))
	if res.ByReindex {
		msg += msgTruncateReindex
	} else {
		msg += msgTruncateDelete
	}
	if t.DryRun {
		writeValue(w, msg+msgTruncateDryRun)
		return
	}
	writeValue(w, res.TaskID)
}

// javaPercent is String.format("%.2f", n*100.0/total) as Java computes it:
// the double's decimal digits (Go's shortest representation, as Java's
// FloatingDecimal gives them) rounded HALF_UP at two places, so 1 of 800
// (0.125) reads "0.13" where Go's strconv, rounding the binary value to
// even, writes "0.12"; NaN for 0/0, Infinity for n/0.
func javaPercent(n, total int) string {
	f := float64(n) * 100 / float64(total)
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 0):
		if f < 0 {
			return "-Infinity"
		}
		return "Infinity"
	}
	return halfUp2(strconv.FormatFloat(f, 'f', -1, 64))
}

// halfUp2 rounds a decimal string ("-12.345") HALF_UP to two decimal places
// by decimal arithmetic on its digits.
func halfUp2(d string) string {
	neg := strings.HasPrefix(d, "-")
	d = strings.TrimPrefix(d, "-")
	ip, fp, _ := strings.Cut(d, ".")
	fp += "000"
	digits := []byte(ip + fp[:2]) // the value in hundredths
	if fp[2] >= '5' {
		i := len(digits) - 1
		for ; i >= 0 && digits[i] == '9'; i-- {
			digits[i] = '0'
		}
		if i < 0 {
			digits = append([]byte{'1'}, digits...)
		} else {
			digits[i]++
		}
	}
	out := string(digits[:len(digits)-2]) + "." + string(digits[len(digits)-2:])
	if neg && strings.Trim(out, "0.") != "" {
		out = "-" + out
	}
	return out
}

// handleTaskStatus serves getEsTaskStatus with DataHub's validation: the
// task as "node:id" or as nodeId and taskId.
func (s *Server) handleTaskStatus(w http.ResponseWriter, r *http.Request, rt routed) {
	var (
		nodeID, task *string
		taskID       *int64
	)
	if rerr := decodeParams(r, "getEsTaskStatus", []param{
		{"nodeId", "String", &nodeID, false}, {"taskId", "Long", &taskID, false}, {"task", "String", &task, false},
	}); rerr != nil {
		writeRestliError(w, rerr, "")
		return
	}
	ref, err := gms.TaskOf(nodeID, taskID, task)
	if err != nil {
		writeRestliError(w, fromCore(err, OpGetEsTaskStatus), "")
		return
	}
	st, found := s.core.Task(ref)
	if !found {
		b, _ := json.Marshal(map[string]string{"error": fmt.Sprintf(msgTaskUnknown, abbreviate(ref.ID))})
		writeValue(w, string(b))
		return
	}
	tid, _ := json.Marshal(ref.ID)
	writeValue(w, fmt.Sprintf(`{"completed":%t,"taskId":%s,"runTimeNanos":%d,"status":{"total":%d,"updated":%d,"created":%d,"deleted":%d,"batches":%d,"version_conflicts":%d,"noops":%d,"retries":{"bulk":0,"search":0},"throttled_millis":0,"requests_per_second":-1.0,"throttled_until_millis":0}}`,
		st.Completed, tid, st.RunTimeNanos, st.Total, st.Updated, st.Created, st.Deleted, st.Batches, st.VersionConflicts, st.Noops))
}
