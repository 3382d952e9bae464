package mockserver

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestApplyRetention checks that a dataHubRetention policy trims the
// history of the aspects past attemptWithVersion, and nothing else.
func TestApplyRetention(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	policy := "urn:li:dataHubRetention:(dataset,datasetProperties)"
	ingestRun(t, s, policy, "dataHubRetentionConfig", `{"retention":{"version":{"maxVersions":2}}}`, "r")
	for _, d := range []string{"1", "2", "3", "4"} {
		ingestRun(t, s, dsURN, "datasetProperties", `{"description":"`+d+`"}`, "r")
		ingestRun(t, s, dsURN, "globalTags", `{"tags":[{"tag":"urn:li:tag:t`+d+`"}]}`, "r")
	}
	r := serve(t, s, http.MethodPost, "/entities?action=applyRetention", `{"attemptWithVersion":2}`)
	if want := `{"value":"BulkApplyRetentionResult(argStart=0, argCount=100, argAttemptWithVersion=2, argUrn=null, argAspectName=null, rowsHandled=2, timeRetentionPolicyMapMs=0, timeRowMs=0, timeApplyRetentionMs=0)"}`; r.Body != want {
		t.Errorf("applyRetention = %d %s, want %s", r.Status, r.Body, want)
	}
	if _, err := s.core.LoadAspect(t.Context(), dsURN, "datasetProperties", 2); err == nil {
		t.Errorf("version 2 of datasetProperties survived its policy")
	}
	if _, err := s.core.LoadAspect(t.Context(), dsURN, "datasetProperties", 3); err != nil {
		t.Errorf("the newest history version went: %v", err)
	}
	if _, err := s.core.LoadAspect(t.Context(), dsURN, "globalTags", 1); err != nil {
		t.Errorf("globalTags, which no policy covers, lost its history: %v", err)
	}
}

// TestTimeseriesStatsGroups checks analytics' STRING grouping through an
// array: the users' counts summed per user across documents.
func TestTimeseriesStatsGroups(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	body := `{"buckets":[` +
		`{"bucket":1767225600000,"duration":"DAY","resource":"` + dsURN + `","metrics":{"users":[{"user":"urn:li:corpuser:a","count":3},{"user":"urn:li:corpuser:b","count":1}]}},` +
		`{"bucket":1767312000000,"duration":"DAY","resource":"` + dsURN + `","metrics":{"users":[{"user":"urn:li:corpuser:a","count":2}]}}]}`
	if r := serve(t, s, http.MethodPost, "/usageStats?action=batchIngest", body); r.Status != http.StatusOK {
		t.Fatalf("batchIngest = %d %s", r.Status, r.Body)
	}
	r := serve(t, s, http.MethodPost, "/analytics?action=getTimeseriesStats", `{"entityName":"dataset","aspectName":"datasetUsageStatistics",`+
		`"metrics":[{"aggregationType":"SUM","fieldPath":"userCounts.count"}],"buckets":[{"key":"userCounts.user","type":"STRING_GROUPING_BUCKET"}],`+
		`"filter":{"or":[{"and":[{"field":"urn","values":["`+dsURN+`"]}]}]}}`)
	var got struct {
		Value struct {
			Table struct {
				ColumnNames, ColumnTypes []string
				Rows                     [][]string
			}
		}
	}
	if err := json.Unmarshal([]byte(r.Body), &got); err != nil {
		t.Fatalf("getTimeseriesStats = %d %s", r.Status, r.Body)
	}
	tb := got.Value.Table
	if strings.Join(tb.ColumnNames, ",") != "userCounts.user,sum_userCounts.count" || strings.Join(tb.ColumnTypes, ",") != "string,double" ||
		len(tb.Rows) != 2 || strings.Join(tb.Rows[0], ",") != "urn:li:corpuser:a,5" || strings.Join(tb.Rows[1], ",") != "urn:li:corpuser:b,1" {
		t.Errorf("table = %+v", tb)
	}
}

// TestDeleteReferences checks that the references to a deleted entity go
// from the aspects that hold them, other items staying.
func TestDeleteReferences(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	ingestRun(t, s, dsURN, "ownership", `{"owners":[{"owner":"urn:li:corpuser:gone","type":"DATAOWNER"},`+
		`{"owner":"urn:li:corpuser:stays","type":"DATAOWNER"}],"lastModified":{"time":1700000000123,"actor":"urn:li:corpuser:x"}}`, "r")
	r := serve(t, s, http.MethodPost, "/entities?action=deleteReferences", `{"urn":"urn:li:corpuser:gone"}`)
	if want := `{"value":{"relatedAspects":[{"entity":"` + dsURN + `","aspect":"ownership","relationship":"OwnedBy"}],"total":1}}`; r.Body != want {
		t.Errorf("deleteReferences = %d %s, want %s", r.Status, r.Body, want)
	}
	got := aspectValue(t, s, dsURN, "ownership")
	if strings.Contains(got, "corpuser:gone") || !strings.Contains(got, "corpuser:stays") || !strings.Contains(got, "1700000000123") {
		t.Errorf("ownership after deleteReferences = %s", got)
	}
}
