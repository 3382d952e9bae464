package mockserver

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestDueAsyncWriteAppliedBeforeWrites: a due async write lands before any
// later write, whatever the path of that write (REVIEW.md defect 1).
func TestDueAsyncWriteAppliedBeforeWrites(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		write func(t *testing.T, s *Server)
		want  string // the latest datasetProperties, "" for none
	}{
		{"sync ingest", func(t *testing.T, s *Server) {
			ingest(t, s, mcp("dataset", dsURN, "UPSERT", "datasetProperties", `{"description":"sync"}`))
		}, `{"description":"sync"}`},
		{"PutAspectJSON", func(t *testing.T, s *Server) {
			if err := s.PutAspectJSON(dsURN, "datasetProperties", []byte(`{"description":"sync"}`)); err != nil {
				t.Fatal(err)
			}
		}, `{"description":"sync"}`},
		{"delete", func(t *testing.T, s *Server) {
			r := serve(t, s, http.MethodPost, "/entities?action=delete", `{"urn":"`+dsURN+`"}`)
			if r.Status != 200 {
				t.Fatalf("delete = %d %s", r.Status, r.Body)
			}
		}, ""},
		{"reset", func(t *testing.T, s *Server) {
			if err := s.Reset(); err != nil {
				t.Fatal(err)
			}
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			clock := newFakeClock()
			s := newServer(t, WithClock(clock.Now), WithAsyncLag(time.Minute))
			r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposal",
				ingestBody(t, mcp("dataset", dsURN, "UPSERT", "datasetProperties", `{"description":"async"}`), "true"))
			if r.Status != 200 {
				t.Fatalf("async ingest = %d %s", r.Status, r.Body)
			}
			clock.Advance(time.Minute) // due now, applied by nobody yet
			tt.write(t, s)
			got, status := aspectJSON(t, s, dsPath, "datasetProperties", 0)
			if tt.want == "" {
				if status != 404 {
					t.Errorf("after %s: %d %s, want 404", tt.name, status, got)
				}
				return
			}
			if got != tt.want {
				t.Errorf("after %s: latest = %s, want %s", tt.name, got, tt.want)
			}
		})
	}
}

// TestBatchWithDeleteIsAtomic: a batch with a DELETE that fails on a later
// item changes nothing (REVIEW.md defect 2).
func TestBatchWithDeleteIsAtomic(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	a := "urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)"
	b := "urn:li:dataset:(urn:li:dataPlatform:hive,db.b,PROD)"
	c := "urn:li:dataset:(urn:li:dataPlatform:hive,db.c,PROD)"
	ingest(t, s, mcp("dataset", b, "UPSERT", "status", `{"removed":false}`))
	cond := mcp("dataset", c, "UPSERT", "status", `{"removed":true}`)
	cond["headers"] = map[string]string{"If-Version-Match": "5"}
	r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposalBatch", batchBody(t,
		mcp("dataset", a, "UPSERT", "status", `{"removed":true}`),
		mcp("dataset", b, "DELETE", "datasetKey", ""),
		cond))
	wantRestliError(t, r, http.StatusPreconditionFailed, "[2] Expected version 5, actual version -1")
	if _, err := s.GetAspectJSON(a, "status", 0); err == nil {
		t.Error("item 0 written although the batch failed")
	}
	if _, err := s.GetAspectJSON(b, "status", 0); err != nil {
		t.Errorf("item 1 deleted although the batch failed: %v", err)
	}
	// The same batch without the failing condition applies in order.
	delete(cond, "headers")
	r = serve(t, s, http.MethodPost, "/aspects?action=ingestProposalBatch", batchBody(t,
		mcp("dataset", a, "UPSERT", "status", `{"removed":true}`),
		mcp("dataset", b, "DELETE", "datasetKey", ""),
		cond))
	if r.Status != 200 {
		t.Fatalf("= %d %s", r.Status, r.Body)
	}
	if _, err := s.GetAspectJSON(b, "status", 0); err == nil {
		t.Error("item 1 not deleted")
	}
	for _, u := range []string{a, c} {
		if _, err := s.GetAspectJSON(u, "status", 0); err != nil {
			t.Errorf("%s: %v", u, err)
		}
	}
}

// TestConditionalWriteRules follows DataHub's ConditionalWriteValidator: the
// version compared as a string (an empty value included, REVIEW.md defect
// 6), CREATE against -1, and the time preconditions against the aspect's
// last-modified time.
func TestConditionalWriteRules(t *testing.T) {
	t.Parallel()
	// The aspect "status" exists at version 1, written at 2024-01-01T00:00:00Z;
	// "datasetProperties" does not exist.
	tests := []struct {
		name       string
		changeType string
		aspect     string
		headers    map[string]string
		status     int
		msg        string
	}{
		{"version matches", "UPSERT", "status", map[string]string{"If-Version-Match": "1"}, 200, ""},
		{"version differs", "UPSERT", "status", map[string]string{"If-Version-Match": "2"}, 412, "Expected version 2, actual version 1"},
		{"version compared as a string", "UPSERT", "status", map[string]string{"If-Version-Match": "01"}, 412, "Expected version 01, actual version 1"},
		{"empty version on an existing aspect", "UPSERT", "status", map[string]string{"If-Version-Match": ""}, 412, "Expected version , actual version 1"},
		{"empty version on a missing aspect", "UPSERT", "datasetProperties", map[string]string{"If-Version-Match": ""}, 412, "Expected version , actual version -1"},
		{"-1 on a missing aspect", "UPSERT", "datasetProperties", map[string]string{"If-Version-Match": "-1"}, 200, ""},
		{"-1 on an existing aspect", "UPSERT", "status", map[string]string{"If-Version-Match": "-1"}, 412, "Expected version -1, actual version 1"},
		{"header name in another case", "UPSERT", "status", map[string]string{"if-version-match": "7"}, 412, "Expected version 7, actual version 1"},
		{"CREATE compares with -1", "CREATE", "datasetProperties", map[string]string{"If-Version-Match": "-1"}, 200, ""},
		{"CREATE with a version", "CREATE", "datasetProperties", map[string]string{"If-Version-Match": "1"}, 412, "Expected version 1, actual version -1"},
		{"CREATE_ENTITY of an existing entity", "CREATE_ENTITY", "datasetProperties", map[string]string{"If-Version-Match": "-1"}, 422, "Cannot perform CREATE_ENTITY if not exists since the entity key already exists."},
		{"modified since before", "UPSERT", "status", map[string]string{"If-Modified-Since": "2023-12-31T23:59:59Z"}, 200, ""},
		{"modified since at", "UPSERT", "status", map[string]string{"If-Modified-Since": "2024-01-01T00:00:00Z"}, 412, "Item last modified 1704067200000 <= 1704067200000 (epoch ms)"},
		{"modified since, offset form", "UPSERT", "status", map[string]string{"If-Modified-Since": "2024-01-01T00:59:59.999+01:00"}, 200, ""},
		{"modified since on a missing aspect", "UPSERT", "datasetProperties", map[string]string{"If-Modified-Since": "2000-01-01T00:00:00Z"}, 412, "Item last modified -9223372036854775808 <= 946684800000 (epoch ms)"},
		{"unmodified since at", "UPSERT", "status", map[string]string{"If-Unmodified-Since": "2024-01-01T00:00:00Z"}, 200, ""},
		{"unmodified since before", "UPSERT", "status", map[string]string{"If-Unmodified-Since": "2023-12-31T23:59:59.999Z"}, 412, "Item last modified 1704067200000 > 1704067199999 (epoch ms)"},
		{"unmodified since on a missing aspect", "UPSERT", "datasetProperties", map[string]string{"If-Unmodified-Since": "2000-01-01T00:00:00Z"}, 200, ""},
		{"modified since not ISO-8601", "UPSERT", "status", map[string]string{"If-Modified-Since": "Mon, 01 Jan 2024 00:00:00 GMT"}, 400, "Invalid If-Modified-Since header value"},
		{"unmodified since empty", "UPSERT", "status", map[string]string{"If-Unmodified-Since": ""}, 400, "Invalid If-Unmodified-Since header value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			clock := &fakeClock{now: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
			s := newServer(t, WithClock(clock.Now))
			ingest(t, s, mcp("dataset", dsURN, "UPSERT", "status", `{"removed":false}`))
			clock.Advance(time.Hour)
			value := `{"removed":true}`
			if tt.aspect == "datasetProperties" {
				value = `{"description":"new"}`
			}
			p := mcp("dataset", dsURN, tt.changeType, tt.aspect, value)
			p["headers"] = tt.headers
			r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposal", ingestBody(t, p, ""))
			got, _ := aspectJSON(t, s, dsPath, tt.aspect, 0)
			if tt.status == 200 {
				if r.Status != 200 {
					t.Fatalf("= %d %s, want 200", r.Status, r.Body)
				}
				if got != value {
					t.Errorf("latest = %s, want %s", got, value)
				}
				return
			}
			wantRestliError(t, r, tt.status, tt.msg)
			if got == value {
				t.Errorf("refused write stored: %s", got)
			}
		})
	}
}

// TestMessagesForClients: no Go type names, depth limits named, echoed
// input shortened.
func TestMessagesForClients(t *testing.T) {
	t.Parallel()
	huge := strings.Repeat("x", 5<<20)
	deep := strings.Repeat(`{"a":`, 20000) + "1" + strings.Repeat("}", 20000)
	tests := []struct {
		name, target, body string
		status             int
		msg                string
	}{
		{"array body", "/aspects?action=ingestProposal", `[]`, 400, "Error parsing entity body: expected a JSON object, found an array"},
		{"number for a string", "/aspects?action=getCount", `{"aspect": 5}`, 400, "expected a JSON string at aspect, found a number"},
		{"deep body", "/aspects?action=ingestProposal", strings.Repeat("[", 20000) + strings.Repeat("]", 20000), 400, "nested too deeply: JSON nesting exceeds the limit of 10000 levels"},
		{"deep aspect", "/aspects?action=ingestProposal",
			ingestBody(t, mcp("dataset", dsURN, "UPSERT", "status", deep), ""), 400,
			"Aspect status of dataset is nested too deeply: JSON nesting exceeds the limit of 10000 levels"},
		{"huge aspect name", "/aspects?action=ingestProposal",
			ingestBody(t, mcp("dataset", dsURN, "UPSERT", huge, `{}`), ""), 422, "Unknown aspect xxxx"},
		{"huge entity type", "/aspects?action=ingestProposal",
			ingestBody(t, mcp(huge, dsURN, "UPSERT", "status", `{}`), ""), 422, "URN entity type does not match MCP entity type. dataset != xxx"},
		{"huge URN", "/aspects?action=ingestProposal",
			ingestBody(t, mcp("dataset", "urn:li:dataset:"+huge, "UPSERT", "status", `{}`), ""), 400, "Error: cannot provide an URN longer than 512 bytes"},
		{"huge change type", "/aspects?action=ingestProposal",
			ingestBody(t, mcp("dataset", dsURN, huge, "status", `{}`), ""), 400, "is not an enum symbol"},
		{"huge unknown member", "/aspects?action=ingestProposal",
			`{"proposal":{"` + huge + `":1}}`, 400, "unrecognized field found but not allowed"},
		{"huge action", "/aspects?action=" + huge, `{}`, 400, "not supported on resource"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newServer(t, WithMaxBodyBytes(0))
			r := serve(t, s, http.MethodPost, tt.target, tt.body)
			e := wantRestliError(t, r, tt.status, tt.msg)
			if strings.Contains(e.Message, "Go value") || strings.Contains(e.Message, "json.RawMessage") {
				t.Errorf("message names Go types: %s", e.Message)
			}
			if len(r.Body) > 8<<10 {
				t.Errorf("answer is %d bytes for a %d-byte request", len(r.Body), len(tt.body))
			}
		})
	}
}
