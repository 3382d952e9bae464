package mockserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/wire"
)

// compactIngestBodies are bodies whose aspect values have white space to
// leave out, accepted and refused for every reason the value can give: not
// JSON (the messages point into the text sent), white space that would
// join two tokens, a record that refuses it, a PATCH, a timeseries aspect,
// async, and values that repeat (the decode's memo) or have none.
func compactIngestBodies(t testing.TB) [][2]string {
	t.Helper()
	ds := func(changeType, aspect, value string) map[string]any {
		return mcp("dataset", dsURN, changeType, aspect, value)
	}
	one := func(p map[string]any, async string) [2]string { return [2]string{ingestBody(t, p, async), ""} }
	many := func(ps ...map[string]any) [2]string { return [2]string{batchBody(t, ps...), "batch"} }
	own := `{"owners": [{"owner": "urn:li:corpuser:fbar", "type": "DATAOWNER"}], "ownerTypes": {}, "lastModified": {"time": 7, "actor": "urn:li:corpuser:fbar"}}`
	return [][2]string{
		one(ds("UPSERT", "ownership", own), "false"),
		one(ds("UPSERT", "ownership", own), "true"),
		one(ds("UPSERT", "datasetProperties", `{"description": "a b", "customProperties": {"k": "v w"}}`), ""),
		one(ds("UPSERT", "datasetProperties", `{"description": `), ""),
		one(ds("UPSERT", "datasetProperties", `{"description": "x" "y"}`), ""),
		one(ds("UPSERT", "datasetProperties", "{\"description\":\n \"x\",\n \"name\": 5}"), ""),
		one(ds("UPSERT", "subTypes", `{"typeNames": ["a" , "b"], "x": 1}`), ""),
		one(ds("UPSERT", "datasetProfile", `{"timestampMillis": 1 2, "rowCount": 2}`), ""),
		one(ds("UPSERT", "datasetProfile", `{"timestampMillis": 12, "rowCount": 2 }`), ""),
		one(ds("UPSERT", "datasetProfile", `{"rowCount": 2}`), ""),
		one(ds("UPSERT", "status", `{"removed": tr ue}`), ""),
		one(ds("UPSERT", "status", ` {"removed" : true} `), ""),
		one(ds("UPSERT", "status", `  `), ""),
		one(ds("UPSERT", "status", `[true, false]`), ""),
		one(ds("PATCH", "datasetProperties", `[{"op": "add", "path": "/description", "value": "d e"}]`), ""),
		one(ds("PATCH", "datasetProperties", `[{"op": "frob", "path": "/description"}]`), ""),
		one(ds("PATCH", "datasetProperties", `[{"op": "add" "path": "/description"}]`), ""),
		one(ds("UPSERT", "globalTags", `{"tags": [{"tag": "urn:li:tag:a b"}]}`), ""),
		many(ds("UPSERT", "ownership", own), ds("UPSERT", "ownership", own), ds("UPSERT", "status", `{"removed": false}`),
			ds("UPSERT", "datasetProperties", `{"description": "\"q\" \\ z"}`)),
		many(ds("UPSERT", "status", `{"removed": false}`), ds("UPSERT", "datasetProperties", `{"description": 5 }`),
			ds("UPSERT", "status", `{"removed": true}`), ds("UPSERT", "status", `{"removed": 1 0}`)),
		many(ds("CREATE", "status", `{"removed": true}`), ds("UPSERT", "ownership", `{"owners": []}`)),
	}
}

// TestIngestCompact holds the compacted decode of aspect values to the
// whole decoding for compactIngestBodies (see checkIngestCompact).
func TestIngestCompact(t *testing.T) {
	t.Parallel()
	for _, b := range compactIngestBodies(t) {
		checkIngestCompact(t, b[0], b[1] == "batch")
	}
}

// FuzzIngestCompact is TestIngestCompact for any body.
func FuzzIngestCompact(f *testing.F) {
	addIngestDecodeSeeds(f)
	for _, b := range compactIngestBodies(f) {
		f.Add(b[0], b[1] == "batch")
	}
	f.Fuzz(func(t *testing.T, body string, batch bool) {
		checkIngestCompact(t, body, batch)
	})
}

// checkIngestCompact holds decodeIngestCompact, the decode the handler
// uses, to decodeIngestQuick, which writes each aspect value's whole
// decoding: the same bodies read, the same proposals but for a value
// compacted, which comes with the literal of the text sent, and is that
// text's compaction when either is valid JSON; and the ingest of either
// decode's proposals gives the same answer (status and message), recorded
// proposals (Server.Proposals), stored rows and platform events, which are
// those of the handler too.
func checkIngestCompact(t *testing.T, body string, batch bool) {
	t.Helper()
	got, gotAsync, ok := decodeIngestCompact([]byte(body), batch)
	want, wantAsync, wantOK := decodeIngestQuick([]byte(body), batch)
	if ok != wantOK || gotAsync != wantAsync || len(got) != len(want) {
		t.Fatalf("compact decode of %q: %v, %d proposals, async %v; the whole decode %v, %d, %v", body, ok, len(got), gotAsync, wantOK, len(want), wantAsync)
	}
	if !ok {
		return
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.AspectLiteral != nil {
			if json.Valid(g.Aspect) != json.Valid(w.Aspect) {
				t.Fatalf("proposal %d of %q: compacted %q valid %v; sent %q valid %v", i, body, g.Aspect, json.Valid(g.Aspect), w.Aspect, json.Valid(w.Aspect))
			}
			var c bytes.Buffer
			if json.Compact(&c, w.Aspect) == nil && !bytes.Equal(c.Bytes(), g.Aspect) {
				t.Fatalf("proposal %d of %q: compacted %q; the compaction of %q is %q", i, body, g.Aspect, w.Aspect, c.Bytes())
			}
			g.Aspect, g.AspectLiteral = g.SentAspect(), nil
		}
		if diff := cmp.Diff(w, g); diff != "" {
			t.Fatalf("proposal %d of %q (-whole +compact):\n%s", i, body, diff)
		}
	}
	type outcome struct {
		Status    int
		Answer    string
		Proposals []Proposal
		Rows      any
		Events    []PlatformEvent
	}
	run := func(decode func([]byte, bool) ([]gms.Proposal, bool, bool)) outcome {
		clock := newFakeClock()
		s := New(WithClock(clock.Now))
		defer s.Close()
		status, answer := ingestVia(s, []byte(body), batch, decode)
		return outcome{Status: status, Answer: answer, Proposals: s.Proposals(), Rows: storeRows(t, s), Events: s.PlatformEvents()}
	}
	compact, whole := run(decodeIngestCompact), run(decodeIngestQuick)
	if diff := cmp.Diff(whole, compact); diff != "" {
		t.Fatalf("ingest of %q (-whole +compact):\n%s", body, diff)
	}
	clock := newFakeClock()
	s := New(WithClock(clock.Now))
	defer s.Close()
	target := "/aspects?action=ingestProposal"
	if batch {
		target = "/aspects?action=ingestProposalBatch"
	}
	r := serve(t, s, http.MethodPost, target, body)
	handler := outcome{Status: r.Status, Answer: r.Body, Proposals: s.Proposals(), Rows: storeRows(t, s), Events: s.PlatformEvents()}
	if diff := cmp.Diff(whole, handler); diff != "" {
		t.Fatalf("ingest of %q (-whole decode +handler):\n%s", body, diff)
	}
}

// ingestVia is handleIngest with decode as its quick decode, for a body
// decode reads: its answer's status and text.
func ingestVia(s *Server, body []byte, batch bool, decode func([]byte, bool) ([]gms.Proposal, bool, bool)) (int, string) {
	ps, async, _ := decode(body, batch)
	wire.DetachBody(ps, body)
	op := OpIngestProposal
	if batch {
		op = OpIngestProposalBatch
	}
	var rerr *restliError
	if err := s.core.Ingest(context.Background(), ps, gms.IngestOptions{Async: async, Batch: batch, SystemMetadataCompact: true}); err != nil {
		rerr = fromCore(err, op)
	}
	s.recordIngest(ps, async, batch, rerr)
	rec := httptest.NewRecorder()
	if rerr != nil {
		writeRestliError(rec, rerr, "")
	} else {
		writeSuccess(rec)
	}
	b, _ := io.ReadAll(rec.Result().Body)
	return rec.Code, string(b)
}
