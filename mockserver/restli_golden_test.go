package mockserver

import (
	"net/http"
	"net/url"
	"testing"
)

// restliGoldenSteps exercise every operation of the restli adapter on one
// server, in an order whose answers show the operations' effects.
func restliGoldenSteps() []v3Step {
	ds2 := "urn:li:dataset:(urn:li:dataPlatform:hive,db.down,PROD)"
	q := url.QueryEscape
	snapshot2 := `{"value":{"com.linkedin.metadata.snapshot.DatasetSnapshot":{"urn":"` + ds2 + `","aspects":[` +
		`{"com.linkedin.dataset.UpstreamLineage":{"upstreams":[{"dataset":"` + dsURN + `","type":"TRANSFORMED","auditStamp":{"time":0,"actor":"urn:li:corpuser:x"}}]}},` +
		`{"com.linkedin.common.BrowsePaths":{"paths":["/prod/hive/db"]}}]}}}`
	usage := `{"buckets":[{"bucket":1767225600000,"duration":"DAY","resource":"` + dsURN + `","metrics":{"uniqueUserCount":1,"totalSqlQueries":3,` +
		`"topSqlQueries":["select 1"],"users":[{"user":"urn:li:corpuser:a","count":3}],"fields":[{"fieldName":"id","count":2}]}}]}`
	get := func(path string) v3Step { return v3Step{method: http.MethodGet, path: path} }
	post := func(path, body string) v3Step { return v3Step{method: http.MethodPost, path: path, body: body} }
	return []v3Step{
		post("/entities?action=ingest", emitMCEBody),
		post("/entities?action=batchIngest", `{"entities":[`+snapshot2+`],"systemMetadata":[{"runId":"run-2","lastObserved":2}]}`),
		get("/entities/" + dsPath),
		get("/entities?ids=List(" + q(dsURN) + "," + q(ds2) + ")&aspects=List(browsePaths)"),
		get("/entitiesV2?ids=List(" + q(ds2) + "," + q("urn:li:dataset:(urn:li:dataPlatform:hive,db.none,PROD)") + ")&aspects=List(browsePaths)&alwaysIncludeKeyAspect=false"),
		get("/entitiesVersionedV2?ids=List((urn:" + q(q(dsURN)) + ",versionStamp:status%3A0))&entityType=dataset&aspects=List(status)"),
		post("/entities?action=exists", `{"urn":"`+ds2+`"}`),
		post("/entities?action=filterExistingUrns", `{"request":{"urns":["`+ds2+`"]}}`),
		post("/entities?action=getTotalEntityCount", `{"entity":"dataset"}`),
		post("/entities?action=batchGetTotalEntityCount", `{"entities":["dataset"]}`),
		post("/entities?action=listUrns", `{"entity":"dataset","start":0,"count":10}`),
		post("/entities?action=list", `{"entity":"dataset","start":0,"count":10}`),
		post("/entities?action=search", `{"entity":"dataset","input":"MCE","start":0,"count":10,"searchFlags":{"skipAggregates":true}}`),
		post("/entities?action=searchAcrossEntities", `{"input":"*","start":0,"count":1,"filter":{"or":[{"and":[{"field":"platform","values":["urn:li:dataPlatform:hive"]}]}]}}`),
		post("/entities?action=scrollAcrossEntities", `{"input":"*","keepAlive":"1m","count":1,"searchFlags":{"skipAggregates":true}}`),
		post("/entities?action=filter", `{"entity":"dataset","filter":{"criteria":[{"field":"urn","values":["`+ds2+`"]}]},"start":0,"count":10}`),
		post("/entities?action=autocomplete", `{"entity":"dataset","query":"MCE","limit":5}`),
		post("/entities?action=browse", `{"entity":"dataset","path":"/prod","start":0,"limit":10}`),
		post("/entities?action=browse", `{"entity":"dataset","path":"/prod/hive/db","start":0,"limit":10}`),
		post("/entities?action=getBrowsePaths", `{"urn":"`+ds2+`"}`),
		post("/entities?action=searchAcrossLineage", `{"urn":"`+dsURN+`","direction":"DOWNSTREAM","input":"*","start":0,"count":10,"searchFlags":{"skipAggregates":true}}`),
		post("/entities?action=scrollAcrossLineage", `{"urn":"`+ds2+`","direction":"UPSTREAM","keepAlive":"1m","count":10,"searchFlags":{"skipAggregates":true}}`),
		get("/relationships?urn=" + q(ds2) + "&types=List(DownstreamOf)&direction=OUTGOING"),
		get("/relationships?urn=" + q(dsURN) + "&types=List(DownstreamOf,OwnedBy)&direction=INCOMING"),
		post("/relationships?action=getLineage", `{"urn":"`+ds2+`","direction":"UPSTREAM"}`),
		post("/runs?action=list", `{}`),
		post("/runs?action=describe", `{"runId":"run-2","start":0,"count":10}`),
		post("/runs?action=rollback", `{"runId":"run-2","dryRun":true}`),
		post("/entities?action=deleteReferences", `{"urn":"`+dsURN+`","dryRun":true}`),
		post("/entities?action=deleteReferences", `{"urn":"`+dsURN+`"}`),
		get("/relationships?urn=" + q(dsURN) + "&types=List(DownstreamOf)&direction=INCOMING"),
		post("/entities?action=applyRetention", `{}`),
		post("/entities?action=deleteAll", `{"dryRun":true}`),
		post("/usageStats?action=batchIngest", usage),
		post("/usageStats?action=query", `{"resource":"`+dsURN+`","duration":"DAY","startTime":0}`),
		post("/usageStats?action=queryRange", `{"resource":"`+dsURN+`","duration":"DAY","rangeFromEnd":"WEEK"}`),
		post("/analytics?action=getTimeseriesStats", `{"entityName":"dataset","aspectName":"datasetUsageStatistics",`+
			`"metrics":[{"aggregationType":"SUM","fieldPath":"totalSqlQueries"},{"aggregationType":"LATEST","fieldPath":"uniqueUserCount"}],`+
			`"buckets":[{"key":"timestampMillis","type":"DATE_GROUPING_BUCKET","timeWindowSize":{"unit":"DAY","multiple":1}}]}`),
		post("/test?action=batchEvaluate", `{"urns":["`+dsURN+`"]}`),
		post("/platform?action=producePlatformEvent", `{"name":"entityChangeEvent","event":{"header":{"timestampMillis":1},"name":"entityChangeEvent","payload":{"value":"{}","contentType":"application/json"}}}`),
		post("/entities?action=setWritable", `{"value":true}`),
		post("/runs?action=rollback", `{"runId":"run-2","safe":false}`),
		post("/entities?action=exists", `{"urn":"`+ds2+`"}`),
		post("/entities?action=exists", `{}`),
		post("/entities?action=getTotalEntityCount", `{"entity":"nope"}`),
		post("/entities?action=search", `{"entity":"dataset","input":"*","start":0,"count":"ten"}`),
		get("/relationships?urn=" + q(dsURN) + "&types=List(OwnedBy)&direction=SIDEWAYS"),
	}
}

// TestRestliGolden pins the answers of the restli adapter's operations
// (testdata/restli_operations.txt), the same at the GMS address and under
// /api/gms.
func TestRestliGolden(t *testing.T) {
	t.Parallel()
	var got [2]string
	for i, prefix := range []string{"", frontPrefix} {
		clock := newFakeClock()
		s := newServer(t, WithClock(clock.Now), WithDefaultAspects(false)) // the aspects written only
		got[i] = v3Transcript(t, s, prefix, restliGoldenSteps())
	}
	if got[0] != got[1] {
		t.Errorf("the front address answers differently from the GMS address")
	}
	golden(t, "restli_operations.txt", []byte(got[0]))
}
