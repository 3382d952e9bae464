package mockserver_test

import (
	"encoding/json"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver"
)

// TestGraphQLLineageVia checks that a lineage path lists the query an
// upstream was derived through between its two ends, in both directions,
// as DataHub's graph search does ([a, urn:li:query:..., b]).
func TestGraphQLLineageVia(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	const (
		a = "urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)"
		b = "urn:li:dataset:(urn:li:dataPlatform:hive,b,PROD)"
		c = "urn:li:dataset:(urn:li:dataPlatform:hive,c,PROD)"
		q = "urn:li:query:q1"
	)
	put := func(u, aspect, v string) {
		t.Helper()
		if err := s.PutAspectJSON(u, aspect, json.RawMessage(v)); err != nil {
			t.Fatal(err)
		}
	}
	put(q, "queryProperties", `{"statement":{"value":"insert into a select * from b","language":"SQL"},"source":"SYSTEM","created":{"time":0,"actor":"urn:li:corpuser:x"},"lastModified":{"time":0,"actor":"urn:li:corpuser:x"}}`)
	for _, u := range []string{b, c} {
		put(u, "status", `{"removed":false}`)
	}
	// a is derived from b through q, and from c directly.
	put(a, "upstreamLineage", `{"upstreams":[{"dataset":"`+b+`","type":"TRANSFORMED","query":"`+q+`","auditStamp":{"time":0,"actor":"urn:li:corpuser:x"}},`+
		`{"dataset":"`+c+`","type":"TRANSFORMED","auditStamp":{"time":0,"actor":"urn:li:corpuser:x"}}]}`)
	const doc = `query($u: String!, $d: LineageDirection!) { searchAcrossLineage(input: {urn: $u, direction: $d, query: "*"}) {
		searchResults { entity { urn } paths { path { urn } } } } }`
	up := gqlData(t, s, doc, map[string]any{"u": a, "d": "UPSTREAM"})
	want := `{"searchAcrossLineage":{"searchResults":[` +
		`{"entity":{"urn":"` + b + `"},"paths":[{"path":[{"urn":"` + a + `"},{"urn":"` + q + `"},{"urn":"` + b + `"}]}]},` +
		`{"entity":{"urn":"` + c + `"},"paths":[{"path":[{"urn":"` + a + `"},{"urn":"` + c + `"}]}]}]}}`
	if asJSON(up) != want {
		t.Errorf("upstream =\n%s\nwant\n%s", asJSON(up), want)
	}
	down := gqlData(t, s, doc, map[string]any{"u": b, "d": "DOWNSTREAM"})
	want = `{"searchAcrossLineage":{"searchResults":[{"entity":{"urn":"` + a + `"},"paths":[{"path":[{"urn":"` + b + `"},{"urn":"` + q + `"},{"urn":"` + a + `"}]}]}]}}`
	if asJSON(down) != want {
		t.Errorf("downstream =\n%s\nwant\n%s", asJSON(down), want)
	}
}
