package mockserver

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// followBacklog writes n new datasets in one batch straight to the core,
// leaving the search index's catch-up of them to whoever follows next
// (enough of them that one is due), and returns the body of one more
// write.
func followBacklog(t *testing.T, s *Server, n int) string {
	t.Helper()
	ps := make([]gms.Proposal, n)
	for i := range ps {
		ps[i] = gms.Proposal{EntityType: "dataset", EntityURN: fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,db.t%05d,PROD)", i),
			ChangeType: "UPSERT", AspectName: "datasetProperties", ContentType: "application/json",
			Aspect: json.RawMessage(`{"description":"backlog","customProperties":{}}`)}
	}
	if err := s.core.Ingest(t.Context(), ps, gms.IngestOptions{Batch: true, FollowLater: true}); err != nil {
		t.Fatalf("batch of %d: %v", n, err)
	}
	if !s.core.FollowDue() {
		t.Fatalf("after a batch of %d: no catch-up due", n)
	}
	return batchBody(t, mcp("dataset", "urn:li:dataset:(urn:li:dataPlatform:hive,db.last,PROD)", "UPSERT",
		"datasetProperties", `{"description":"lastone","customProperties":{}}`))
}

// flushWriter is a ResponseRecorder that notes, when the handler flushes,
// whether the search index still had its catch-up due.
type flushWriter struct {
	*httptest.ResponseRecorder
	s                *Server
	flushed, dueThen bool
}

func (w *flushWriter) Flush() {
	if !w.flushed {
		w.flushed, w.dueThen = true, w.s.core.FollowDue()
	}
	w.ResponseRecorder.Flush()
}

// TestIngestAnswersBeforeFollow: an ingest that finds the search index's
// catch-up due sends its answer first (flushed while the catch-up is still
// due) and catches the index up before the handler returns; a search then
// sees every write.
func TestIngestAnswersBeforeFollow(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	body := followBacklog(t, s, 2500)
	w := &flushWriter{ResponseRecorder: httptest.NewRecorder(), s: s}
	req := httptest.NewRequest(http.MethodPost, "/aspects?action=ingestProposalBatch", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-RestLi-Protocol-Version", "2.0.0")
	s.ServeHTTP(w, req)
	if w.Code != http.StatusOK || w.Body.String() != string(success) {
		t.Fatalf("ingest = %d %s", w.Code, w.Body)
	}
	if !w.flushed || !w.dueThen {
		t.Errorf("answer flushed %v, with the catch-up still due %v; want both", w.flushed, w.dueThen)
	}
	if s.core.FollowDue() {
		t.Error("the handler returned with the index's catch-up still due")
	}
	r := serve(t, s, http.MethodPost, "/entities?action=search",
		`{"entity":"dataset","input":"lastone","start":0,"count":10}`)
	if r.Status != http.StatusOK || !strings.Contains(r.Body, `"numEntities":1`) {
		t.Errorf("search for the last write = %d %s", r.Status, r.Body)
	}
}

// TestIngestEarlyAnswerOnTheWire: the answer sent before the catch-up is
// the usual one on the wire: status, Content-Length, body, not chunked.
func TestIngestEarlyAnswerOnTheWire(t *testing.T) {
	t.Parallel()
	s := Start(t)
	for _, follow := range []bool{true, false} {
		body := batchBody(t, mcp("dataset", "urn:li:dataset:(urn:li:dataPlatform:hive,db.one,PROD)", "UPSERT",
			"status", `{"removed":false}`))
		if follow {
			body = followBacklog(t, s, 2500)
		}
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, s.URL()+"/aspects?action=ingestProposalBatch", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-RestLi-Protocol-Version", "2.0.0")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || string(got) != string(success) || resp.ContentLength != int64(len(success)) ||
			len(resp.TransferEncoding) != 0 || resp.Header.Get("Content-Type") != "application/json" ||
			resp.Header.Get("X-Restli-Protocol-Version") != "2.0.0" {
			t.Errorf("follow %v: answer %d %q, Content-Length %d, Transfer-Encoding %v, header %v", follow,
				resp.StatusCode, got, resp.ContentLength, resp.TransferEncoding, resp.Header)
		}
	}
}
