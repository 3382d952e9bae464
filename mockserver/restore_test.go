package mockserver

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// restoreFixture writes five datasets (t0..t4, one minute apart on the
// server clock, each with datasetKey, status and datasetProperties rows)
// and a chart with indexing paused, so that the index is empty. In
// DataHub's row order (by URN, then aspect, byte-wise) the rows are: the
// chart's chartKey and status, then per dataset datasetKey,
// datasetProperties, status.
func restoreFixture(t *testing.T) *Server {
	t.Helper()
	// Without the default aspects of new entities, so that the rows are
	// those written.
	s := Start(t, fixedClock(), WithIndexPaused(true), WithDefaultAspects(false))
	ingestHTTP(t, s, mcp("chart", "urn:li:chart:(looker,c1)", "UPSERT", "status", `{"removed":false}`))
	for i := range 5 {
		s.FastForward(time.Minute)
		urn := dsN(i)
		ingestHTTP(t, s, mcp("dataset", urn, "UPSERT", "status", `{"removed":false}`),
			mcp("dataset", urn, "UPSERT", "datasetProperties", fmt.Sprintf(`{"description":"t%d"}`, i)))
	}
	return s
}

func dsN(i int) string {
	return fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,db.t%d,PROD)", i)
}

// datasetRows are the dataset rows of restoreFixture in DataHub's order.
func datasetRows() []string {
	var out []string
	for i := range 5 {
		for _, a := range []string{"datasetKey", "datasetProperties", "status"} {
			out = append(out, fmt.Sprintf("t%d/%s", i, a))
		}
	}
	return out
}

// indexedRows lists which fixture rows the index holds, in DataHub's order.
func indexedRows(s *Server) []string {
	var out []string
	if got := s.IndexedAspects("urn:li:chart:(looker,c1)"); got != nil {
		for _, a := range []string{"chartKey", "status"} {
			if got[a] != nil {
				out = append(out, "c1/"+a)
			}
		}
	}
	for i := range 5 {
		got := s.IndexedAspects(dsN(i))
		for _, a := range []string{"datasetKey", "datasetProperties", "status"} {
			if got[a] != nil {
				out = append(out, fmt.Sprintf("t%d/%s", i, a))
			}
		}
	}
	return out
}

var rowsMigratedRE = regexp.MustCompile(`rowsMigrated=(\d+)`)

// migrated sums rowsMigrated over the results of a restoreIndices answer.
func migrated(answer string) (int, int) {
	n := 0
	ms := rowsMigratedRE.FindAllStringSubmatch(answer, -1)
	for _, m := range ms {
		k, _ := strconv.Atoi(m[1])
		n += k
	}
	return n, len(ms)
}

func TestRestoreIndices(t *testing.T) {
	t.Parallel()
	all := append([]string{"c1/chartKey", "c1/status"}, datasetRows()...)
	min2 := opsBase.Add(2 * time.Minute).UnixMilli()
	min3 := opsBase.Add(3 * time.Minute).UnixMilli()
	for _, tc := range []struct {
		name, body string
		want       []string
		batches    int
	}{
		{"defaults: first 10 rows", `{}`, all[:10], 1},
		{"aspects resource", `{"urn":"` + dsN(3) + `"}`, []string{"t3/datasetKey", "t3/datasetProperties", "t3/status"}, 1},
		{"urn", `{"urn":"` + dsN(1) + `"}`, []string{"t1/datasetKey", "t1/datasetProperties", "t1/status"}, 1},
		{"urn and aspect", `{"urn":"` + dsN(1) + `","aspect":"datasetProperties"}`, []string{"t1/datasetProperties"}, 1},
		{"aspect", `{"aspect":"status","batchSize":100}`, []string{"c1/status", "t0/status", "t1/status", "t2/status", "t3/status", "t4/status"}, 1},
		{"urnLike one", `{"urnLike":"urn:li:dataset:%t2%"}`, []string{"t2/datasetKey", "t2/datasetProperties", "t2/status"}, 1},
		{"urnLike underscore", `{"urnLike":"urn:li:dataset:(urn:li:dataPlatform:hive,db.t_,PROD)","aspect":"datasetKey"}`,
			[]string{"t0/datasetKey", "t1/datasetKey", "t2/datasetKey", "t3/datasetKey", "t4/datasetKey"}, 1},
		{"urnLike start batchSize", `{"urnLike":"urn:li:dataset:%","start":4,"batchSize":2}`, datasetRows()[4:6], 1},
		{"start past the end", `{"urnLike":"urn:li:dataset:%","start":40}`, nil, 1},
		{"limit in batches", `{"urnLike":"urn:li:dataset:%","start":1,"limit":7,"batchSize":3}`, datasetRows()[1:8], 3},
		{"pit range", `{"gePitEpochMs":` + strconv.FormatInt(min2, 10) + `,"lePitEpochMs":` + strconv.FormatInt(min3, 10) + `,"batchSize":100}`,
			[]string{"t1/datasetKey", "t1/datasetProperties", "t1/status", "t2/datasetKey", "t2/datasetProperties", "t2/status"}, 1},
		{"pit lower bound", `{"gePitEpochMs":` + strconv.FormatInt(opsBase.Add(5*time.Minute).UnixMilli(), 10) + `}`, datasetRows()[12:], 1},
		{"createDefaultAspects accepted", `{"urn":"urn:li:chart:(looker,c1)","createDefaultAspects":true}`, []string{"c1/chartKey", "c1/status"}, 1},
		{"urn not matching urnLike", `{"urn":"` + dsN(1) + `","urnLike":"%t2%"}`, nil, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := restoreFixture(t)
			path := "/api/gms/operations?action=restoreIndices"
			if tc.name == "aspects resource" {
				path = "/aspects?action=restoreIndices" // AspectResource's copy of the action
			}
			answer := stringValue(t, postOK(t, s, path, tc.body))
			n, batches := migrated(answer)
			if n != len(tc.want) || batches != tc.batches {
				t.Errorf("rowsMigrated %d in %d results, want %d in %d: %s", n, batches, len(tc.want), tc.batches, answer)
			}
			if diff := cmp.Diff(tc.want, indexedRows(s)); diff != "" {
				t.Errorf("indexed rows (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRestoreIndicesAnswer(t *testing.T) {
	t.Parallel()
	s := restoreFixture(t)
	got := stringValue(t, postOK(t, s, "/operations?action=restoreIndices", `{"urn":"`+dsN(0)+`","aspect":"status"}`))
	want := "{args=RestoreIndicesArgs(start=0, batchSize=10, limit=0, numThreads=1, batchDelayMs=1000, gePitEpochMs=0, lePitEpochMs=" +
		strconv.FormatInt(opsBase.Add(5*time.Minute).UnixMilli(), 10) +
		", createDefaultAspects=false, aspectName=status, aspectNames=[], urn=" + dsN(0) + ", urnLike=null, urnBasedPagination=false, lastUrn=, lastAspect=), " +
		"result=RestoreIndicesResult(ignored=0, rowsMigrated=1, timeSqlQueryMs=0, timeGetRowMs=0, timeUrnMs=0, timeEntityRegistryCheckMs=0, aspectCheckMs=0, createRecordMs=0, sendMessageMs=0, defaultAspectsCreated=0, lastUrn=" + dsN(0) + ", lastAspect=status)}"
	if got != want {
		t.Errorf("answer\n got %s\nwant %s", got, want)
	}
	for _, tc := range []struct{ body, msg string }{
		{`{"batchSize":0}`, msgBatchSize},
		{`{"start":-1}`, "must not be negative"},
		{`{"start":"x"}`, `ERROR :: /start :: "x" cannot be coerced to Integer`},
		{`{"batchSize":1.5}`, `ERROR :: /batchSize :: 1.5 cannot be coerced to Integer`},
		{`{"urns":["a"]}`, "ERROR :: /urns :: unrecognized field found but not allowed"},
		{`[1]`, "Error parsing entity body"},
	} {
		wantRestliError(t, post(t, s, "/operations?action=restoreIndices", tc.body), 400, tc.msg)
	}
}

// TestRestoreAfterDrift: with indexing paused, writes reach the store but
// not the index; a restore with urnLike, start and batchSize indexes
// exactly the selected rows, and the others keep their old documents.
func TestRestoreAfterDrift(t *testing.T) {
	t.Parallel()
	s := Start(t, fixedClock(), WithDefaultAspects(false)) // the rows written only
	ingestHTTP(t, s, mcp("dataset", dsN(0), "UPSERT", "datasetProperties", `{"description":"old"}`))
	s.PauseIndexing()
	for i := range 4 {
		ingestHTTP(t, s, mcp("dataset", dsN(i), "UPSERT", "datasetProperties", `{"description":"new"}`))
	}
	ingestHTTP(t, s, mcp("chart", "urn:li:chart:(looker,c1)", "UPSERT", "status", `{"removed":false}`))
	if got := string(s.IndexedAspects(dsN(0))["datasetProperties"]); got != `{"description":"old"}` {
		t.Fatalf("drifted document = %s", got)
	}
	// Dataset rows in store order: t0/datasetKey, t0/datasetProperties, t1/datasetKey, ...
	// start 1, batchSize 3: t0/datasetProperties, t1/datasetKey, t1/datasetProperties.
	answer := stringValue(t, postOK(t, s, "/operations?action=restoreIndices", `{"urnLike":"urn:li:dataset:%","start":1,"batchSize":3}`))
	if n, _ := migrated(answer); n != 3 || !strings.Contains(answer, "lastUrn="+dsN(1)+", lastAspect=datasetProperties)") {
		t.Errorf("answer = %s", answer)
	}
	got := map[string][]string{}
	for i := range 4 {
		for a, v := range s.IndexedAspects(dsN(i)) {
			got[dsN(i)] = append(got[dsN(i)], a+"="+string(v))
		}
		slices.Sort(got[dsN(i)])
	}
	want := map[string][]string{
		dsN(0): {`datasetKey={"platform":"urn:li:dataPlatform:hive","name":"db.t0","origin":"PROD"}`, `datasetProperties={"description":"new"}`},
		dsN(1): {`datasetKey={"platform":"urn:li:dataPlatform:hive","name":"db.t1","origin":"PROD"}`, `datasetProperties={"description":"new"}`},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("index after restore (-want +got):\n%s", diff)
	}
	if s.IndexedAspects("urn:li:chart:(looker,c1)") != nil {
		t.Errorf("the chart, not selected, was indexed")
	}
	// Resumed, new writes are indexed again.
	s.ResumeIndexing()
	ingestHTTP(t, s, mcp("dataset", dsN(3), "UPSERT", "status", `{"removed":true}`))
	if got := s.IndexedAspects(dsN(3)); string(got["status"]) != `{"removed":true}` || got["datasetProperties"] != nil {
		t.Errorf("after resume: %s", got)
	}
}

// TestRestoreIndicesHugePattern: a 3 MB urnLike of % (which once compiled
// into a regular expression) matches every URN.
func TestRestoreIndicesHugePattern(t *testing.T) {
	t.Parallel()
	s := restoreFixture(t)
	answer := stringValue(t, postOK(t, s, "/operations?action=restoreIndices", `{"urnLike":"`+strings.Repeat("%", 3_000_000)+`","batchSize":100}`))
	if n, _ := migrated(answer); n != len(datasetRows())+2 {
		t.Errorf("rowsMigrated %d, want %d", n, len(datasetRows())+2)
	}
}

// TestRestoreIndicesRowOrder checks that start counts rows in DataHub's
// order (EbeanAspectDao: ORDER BY urn, aspect, byte-wise), not in the
// store's key order, which puts shorter URNs first.
func TestRestoreIndicesRowOrder(t *testing.T) {
	t.Parallel()
	s := Start(t, fixedClock(), WithIndexPaused(true), WithDefaultAspects(false)) // the rows written only
	for _, u := range []string{"urn:li:corpuser:u10", "urn:li:corpuser:u9"} {
		ingestHTTP(t, s, mcp("corpuser", u, "UPSERT", "status", `{"removed":false}`))
	}
	last := regexp.MustCompile(`lastUrn=(\S*), lastAspect=(\w*)\)`)
	var got []string
	for n := range 5 {
		answer := stringValue(t, postOK(t, s, "/operations?action=restoreIndices",
			fmt.Sprintf(`{"urnLike":"urn:li:corpuser:u%%","batchSize":1,"start":%d}`, n)))
		ms := last.FindAllStringSubmatch(answer, -1) // the args' own, then the result's
		if len(ms) != 2 {
			t.Fatalf("start %d: want the args' and one result's lastUrn in %s", n, answer)
		}
		got = append(got, ms[1][1]+"/"+ms[1][2])
	}
	want := []string{"urn:li:corpuser:u10/corpUserKey", "urn:li:corpuser:u10/status",
		"urn:li:corpuser:u9/corpUserKey", "urn:li:corpuser:u9/status", "/"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rows by start (-want +got):\n%s", diff)
	}
}

// TestRestoreIndicesPitWindow checks that the point-in-time window applies
// only when gePitEpochMs > 0, as in DataHub: lePitEpochMs alone filters
// nothing out.
func TestRestoreIndicesPitWindow(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		{"le alone", `{"urn":"` + dsN(1) + `","lePitEpochMs":1}`, []string{"t1/datasetKey", "t1/datasetProperties", "t1/status"}},
		{"ge and le before the rows", `{"urn":"` + dsN(1) + `","gePitEpochMs":1,"lePitEpochMs":2}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := restoreFixture(t)
			postOK(t, s, "/operations?action=restoreIndices", tc.body)
			if diff := cmp.Diff(tc.want, indexedRows(s)); diff != "" {
				t.Errorf("indexed rows (-want +got):\n%s", diff)
			}
		})
	}
}
