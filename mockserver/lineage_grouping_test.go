package mockserver_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver"
)

// TestLineageGroupingSpec checks schema-field lineage, which DataHub derives
// from the fineGrainedLineages of upstreamLineage and dataJobInputOutput,
// and searchFlags.groupingSpec in GraphQL's searchAcrossLineage and
// scrollAcrossLineage and Rest.li's searchAcrossLineage: by default (and
// with SCHEMA_FIELD grouped by DATASET) each schema field reached is its
// dataset, one hit with the paths of all its fields; a groupingSpec without
// that criterion returns the schema fields themselves.
func TestLineageGroupingSpec(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	ds := func(n string) string { return "urn:li:dataset:(urn:li:dataPlatform:hive," + n + ",PROD)" }
	a, b, c, d := ds("a"), ds("b"), ds("c"), ds("d")
	sf := func(parent, f string) string { return "urn:li:schemaField:(" + parent + "," + f + ")" }
	const (
		q     = "urn:li:query:q1"
		job   = "urn:li:dataJob:(urn:li:dataFlow:(airflow,f,PROD),j)"
		stamp = `"auditStamp":{"time":0,"actor":"urn:li:corpuser:x"}`
	)
	put := func(u, aspect, v string) {
		t.Helper()
		if err := s.PutAspectJSON(u, aspect, json.RawMessage(v)); err != nil {
			t.Fatal(err)
		}
	}
	for _, u := range []string{b, c, d} {
		put(u, "status", `{"removed":false}`)
	}
	put(q, "queryProperties", `{"statement":{"value":"insert into a select x from b","language":"SQL"},"source":"SYSTEM","created":{"time":0,"actor":"urn:li:corpuser:x"},"lastModified":{"time":0,"actor":"urn:li:corpuser:x"}}`)
	fg := func(ups []string, down, query string) string {
		u, _ := json.Marshal(ups)
		out := `{"upstreamType":"FIELD_SET","upstreams":` + string(u) + `,"downstreamType":"FIELD","downstreams":["` + down + `"]`
		if query != "" {
			out += `,"query":"` + query + `"`
		}
		return out + `}`
	}
	// a.x ← b.x through q; a.y ← b.x, b.y, c.z; d.w ← a.x through job.
	put(a, "upstreamLineage", `{"upstreams":[{"dataset":"`+b+`","type":"TRANSFORMED",`+stamp+`},{"dataset":"`+c+`","type":"TRANSFORMED",`+stamp+`}],`+
		`"fineGrainedLineages":[`+fg([]string{sf(b, "x")}, sf(a, "x"), q)+`,`+fg([]string{sf(b, "x"), sf(b, "y"), sf(c, "z")}, sf(a, "y"), "")+`]}`)
	put(job, "dataJobInputOutput", `{"inputDatasets":[],"outputDatasets":[],"fineGrainedLineages":[`+fg([]string{sf(a, "x")}, sf(d, "w"), "")+`]}`)
	// b.y has a document of its own (a schemaField entity's aspect).
	put(sf(b, "y"), "status", `{"removed":false}`)

	const doc = `query($u: String!, $d: LineageDirection!, $f: SearchFlags) {
		searchAcrossLineage(input: {urn: $u, direction: $d, query: "*", searchFlags: $f}) {
		total searchResults { entity { urn } degree paths { path { urn } } } } }`
	type hit struct {
		urn    string
		degree int
		paths  [][]string
	}
	want := func(total int, hits ...hit) string {
		var rs []string
		for _, h := range hits {
			var ps []string
			for _, p := range h.paths {
				var us []string
				for _, u := range p {
					us = append(us, `{"urn":"`+u+`"}`)
				}
				ps = append(ps, `{"path":[`+strings.Join(us, ",")+`]}`)
			}
			rs = append(rs, `{"degree":`+strconv.Itoa(h.degree)+`,"entity":{"urn":"`+h.urn+`"},"paths":[`+strings.Join(ps, ",")+`]}`)
		}
		return `{"searchAcrossLineage":{"searchResults":[` + strings.Join(rs, ",") + `],"total":` + strconv.Itoa(total) + `}}`
	}
	check := func(name, start, dir string, flags map[string]any, w string) {
		t.Helper()
		vars := map[string]any{"u": start, "d": dir}
		if flags != nil {
			vars["f"] = flags
		}
		if got := asJSON(gqlData(t, s, doc, vars)); got != w {
			t.Errorf("%s =\n%s\nwant\n%s", name, got, w)
		}
	}
	grouped := want(2,
		hit{b, 1, [][]string{{sf(a, "y"), sf(b, "x")}, {sf(a, "y"), sf(b, "y")}}},
		hit{c, 1, [][]string{{sf(a, "y"), sf(c, "z")}}})
	check("default", sf(a, "y"), "UPSTREAM", nil, grouped)
	check("grouped", sf(a, "y"), "UPSTREAM", map[string]any{"groupingSpec": map[string]any{
		"groupingCriteria": []any{map[string]any{"baseEntityType": "SCHEMA_FIELD", "groupingEntityType": "DATASET"}}}}, grouped)
	check("no criteria field", sf(a, "y"), "UPSTREAM", map[string]any{"groupingSpec": map[string]any{}}, grouped)
	// No grouping: the schema fields themselves, those with a document.
	check("ungrouped", sf(a, "y"), "UPSTREAM", map[string]any{"groupingSpec": map[string]any{"groupingCriteria": []any{}}},
		want(1, hit{sf(b, "y"), 1, [][]string{{sf(a, "y"), sf(b, "y")}}}))
	// Downstream across a query and a data job, the via entities in the paths.
	check("downstream", sf(b, "x"), "DOWNSTREAM", nil, want(2,
		hit{a, 1, [][]string{{sf(b, "x"), q, sf(a, "x")}, {sf(b, "x"), sf(a, "y")}}},
		hit{d, 2, [][]string{{sf(b, "x"), q, sf(a, "x"), job, sf(d, "w")}}}))
	// A dataset's own lineage has no schema fields.
	check("dataset", a, "UPSTREAM", nil, want(2, hit{b, 1, [][]string{{a, b}}}, hit{c, 1, [][]string{{a, c}}}))

	scroll := gqlData(t, s, `query($u: String!) { scrollAcrossLineage(input: {urn: $u, direction: UPSTREAM, query: "*"}) { total searchResults { entity { urn } } } }`,
		map[string]any{"u": sf(a, "y")})
	if got, w := asJSON(scroll), `{"scrollAcrossLineage":{"searchResults":[{"entity":{"urn":"`+b+`"}},{"entity":{"urn":"`+c+`"}}],"total":2}}`; got != w {
		t.Errorf("scroll =\n%s\nwant\n%s", got, w)
	}

	// An entity's lineage field reads one hop of the graph: schema fields.
	one := gqlData(t, s, `query($u: String!) { entity(urn: $u) { ... on SchemaFieldEntity { lineage(input: {direction: UPSTREAM}) { total relationships { entity { urn } } } } } }`,
		map[string]any{"u": sf(a, "y")})
	if got, w := asJSON(one), `{"entity":{"lineage":{"relationships":[{"entity":{"urn":"`+sf(b, "y")+`"}}],"total":1}}}`; got != w {
		t.Errorf("lineage field =\n%s\nwant\n%s", got, w)
	}

	rest := func(flags string) string {
		t.Helper()
		body := `{"urn":"` + sf(a, "y") + `","direction":"UPSTREAM","input":"*","start":0,"count":10,"searchFlags":{"skipAggregates":true` + flags + `}}`
		resp, err := http.Post(s.URL()+"/entities?action=searchAcrossLineage", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		var out struct {
			Value struct {
				NumEntities int
				Entities    []struct{ Entity string }
			}
		}
		if err := json.Unmarshal(raw, &out); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("searchAcrossLineage: %d %s", resp.StatusCode, raw)
		}
		var us []string
		for _, e := range out.Value.Entities {
			us = append(us, e.Entity)
		}
		return strings.Join(us, " ")
	}
	if got := rest(""); got != b+" "+c {
		t.Errorf("Rest.li default = %s", got)
	}
	if got := rest(`,"groupingSpec":{"groupingCriteria":[{"baseEntityType":"schemaField","groupingEntityType":"dataset"}]}`); got != b+" "+c {
		t.Errorf("Rest.li grouped = %s", got)
	}
	if got := rest(`,"groupingSpec":{"groupingCriteria":[]}`); got != sf(b, "y") {
		t.Errorf("Rest.li ungrouped = %s", got)
	}
}
