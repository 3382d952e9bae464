package mockserver_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver"
)

// gqlSend runs a GraphQL document against s from any goroutine and returns
// its data, or an error for a failed request or any GraphQL error.
func gqlSend(s *mockserver.Server, doc string, vars map[string]any) (map[string]any, error) {
	body, err := json.Marshal(map[string]any{"query": doc, "variables": vars})
	if err != nil {
		return nil, err
	}
	resp, err := http.Post(s.URL()+"/api/graphql", "application/json", strings.NewReader(string(body)))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	var r struct {
		Data   map[string]any
		Errors []any
	}
	if err := json.Unmarshal(b, &r); err != nil || resp.StatusCode != http.StatusOK || len(r.Errors) > 0 {
		return nil, fmt.Errorf("status %d: %s", resp.StatusCode, b)
	}
	return r.Data, nil
}

// count16 fails t unless the JSON text got holds want times each of
// the 16 texts item(i).
func count16(t *testing.T, what, got string, item func(i int) string) {
	t.Helper()
	for i := range 16 {
		if !strings.Contains(got, item(i)) {
			t.Errorf("%s: change %d lost (%q not in %s)", what, i, item(i), got)
		}
	}
}

// TestGraphQLMutationFamiliesConcurrent sends, for each family of
// mutations, 16 mutations at once on one entity over HTTP and checks that
// every change is kept (the core's conditional read-modify-write).
func TestGraphQLMutationFamiliesConcurrent(t *testing.T) {
	t.Parallel()
	const term = "urn:li:glossaryTerm:Users"
	for _, fam := range []struct {
		name string
		// setup seeds what the mutations need (sequentially).
		setup func(t *testing.T, s *mockserver.Server)
		// mutate is the i-th mutation (0..15).
		mutate func(s *mockserver.Server, i int) error
		// check reads the effect back and fails t unless all 16 are kept.
		check func(t *testing.T, s *mockserver.Server)
	}{
		{
			name: "owners",
			setup: func(t *testing.T, s *mockserver.Server) {
				for i := range 16 {
					if err := s.PutAspectJSON(fmt.Sprintf("urn:li:corpuser:u%d", i), "corpUserKey", json.RawMessage(fmt.Sprintf(`{"username":"u%d"}`, i))); err != nil {
						t.Fatal(err)
					}
				}
			},
			mutate: func(s *mockserver.Server, i int) error {
				_, err := gqlSend(s, `mutation($o: String!, $u: String!) { addOwner(input: {ownerUrn: $o, ownerEntityType: CORP_USER, resourceUrn: $u,
					ownershipTypeUrn: "urn:li:ownershipType:__system__technical_owner"}) }`, map[string]any{"o": fmt.Sprintf("urn:li:corpuser:u%d", i), "u": gqlDataset})
				return err
			},
			check: func(t *testing.T, s *mockserver.Server) {
				count16(t, "ownership", restAspect(t, s, gqlDataset, "ownership"), func(i int) string { return fmt.Sprintf(`"urn:li:corpuser:u%d"`, i) })
			},
		},
		{
			name: "terms",
			setup: func(t *testing.T, s *mockserver.Server) {
				for i := range 16 {
					gqlData(t, s, fmt.Sprintf(`mutation { createGlossaryTerm(input: {id: "T%d", name: "T%d"}) }`, i, i), nil)
				}
			},
			mutate: func(s *mockserver.Server, i int) error {
				_, err := gqlSend(s, `mutation($t: String!, $u: String!) { addTerm(input: {termUrn: $t, resourceUrn: $u}) }`,
					map[string]any{"t": fmt.Sprintf("urn:li:glossaryTerm:T%d", i), "u": gqlDataset})
				return err
			},
			check: func(t *testing.T, s *mockserver.Server) {
				count16(t, "glossaryTerms", restAspect(t, s, gqlDataset, "glossaryTerms"), func(i int) string { return fmt.Sprintf(`"urn:li:glossaryTerm:T%d"`, i) })
			},
		},
		{
			name: "schema field terms",
			setup: func(t *testing.T, s *mockserver.Server) {
				for i := range 16 {
					gqlData(t, s, fmt.Sprintf(`mutation { createGlossaryTerm(input: {id: "T%d", name: "T%d"}) }`, i, i), nil)
				}
			},
			mutate: func(s *mockserver.Server, i int) error {
				_, err := gqlSend(s, `mutation($t: String!, $u: String!) { batchAddTerms(input: {termUrns: [$t], resources: [{resourceUrn: $u, subResourceType: DATASET_FIELD, subResource: "id"}]}) }`,
					map[string]any{"t": fmt.Sprintf("urn:li:glossaryTerm:T%d", i), "u": gqlDataset})
				return err
			},
			check: func(t *testing.T, s *mockserver.Server) {
				count16(t, "editableSchemaMetadata", restAspect(t, s, gqlDataset, "editableSchemaMetadata"), func(i int) string { return fmt.Sprintf(`"urn:li:glossaryTerm:T%d"`, i) })
			},
		},
		{
			name: "domains",
			setup: func(t *testing.T, s *mockserver.Server) {
				gqlData(t, s, `mutation { createDomain(input: {id: "top", name: "Top"}) }`, nil)
			},
			mutate: func(s *mockserver.Server, i int) error {
				_, err := gqlSend(s, fmt.Sprintf(`mutation { createDomain(input: {id: "d%d", name: "D%d", parentDomain: "urn:li:domain:top"}) }`, i, i), nil)
				return err
			},
			check: func(t *testing.T, s *mockserver.Server) {
				got := gqlData(t, s, `query { listDomains(input: {start: 0, count: 100, parentDomain: "urn:li:domain:top"}) { total domains { urn } } }`, nil)
				count16(t, "listDomains", asJSON(got), func(i int) string { return fmt.Sprintf(`"urn:li:domain:d%d"`, i) })
			},
		},
		{
			name: "deprecation of schema fields",
			mutate: func(s *mockserver.Server, i int) error {
				_, err := gqlSend(s, `mutation($u: String!, $n: String!) { batchUpdateDeprecation(input: {deprecated: true, note: $n,
					resources: [{resourceUrn: $u, subResourceType: DATASET_FIELD, subResource: "id"}]}) }`, map[string]any{"u": gqlDataset, "n": fmt.Sprintf("n%d", i)})
				return err
			},
			check: func(t *testing.T, s *mockserver.Server) {
				// One aspect, 16 writers: each write succeeds and the last is whole.
				got := restAspect(t, s, "urn:li:schemaField:("+gqlDataset+",id)", "deprecation")
				contains(t, "deprecation", got, `"deprecated":true`, `"note":"n`)
			},
		},
		{
			name: "structured property values",
			setup: func(t *testing.T, s *mockserver.Server) {
				for i := range 16 {
					gqlData(t, s, fmt.Sprintf(`mutation { createStructuredProperty(input: {qualifiedName: "io.p%d", valueType: "urn:li:dataType:datahub.string",
						entityTypes: ["urn:li:entityType:datahub.dataset"]}) { urn } }`, i), nil)
				}
			},
			mutate: func(s *mockserver.Server, i int) error {
				_, err := gqlSend(s, `mutation($u: String!, $p: String!) { upsertStructuredProperties(input: {assetUrn: $u, structuredPropertyInputParams: [
					{structuredPropertyUrn: $p, values: [{stringValue: "v"}]}]}) { properties { associatedUrn } } }`,
					map[string]any{"u": gqlDataset, "p": fmt.Sprintf("urn:li:structuredProperty:io.p%d", i)})
				return err
			},
			check: func(t *testing.T, s *mockserver.Server) {
				count16(t, "structuredProperties", restAspect(t, s, gqlDataset, "structuredProperties"), func(i int) string { return fmt.Sprintf(`"urn:li:structuredProperty:io.p%d"`, i) })
			},
		},
		{
			name: "data product assets",
			setup: func(t *testing.T, s *mockserver.Server) {
				gqlData(t, s, `mutation { createDomain(input: {id: "d", name: "D"}) }`, nil)
				gqlData(t, s, `mutation { createDataProduct(input: {id: "p", domainUrn: "urn:li:domain:d", properties: {name: "P"}}) { urn } }`, nil)
				for i := range 16 {
					if err := s.PutAspectJSON(concDataset(i), "status", json.RawMessage(`{"removed":false}`)); err != nil {
						t.Fatal(err)
					}
				}
			},
			mutate: func(s *mockserver.Server, i int) error {
				_, err := gqlSend(s, `mutation($u: String!) { batchSetDataProduct(input: {dataProductUrn: "urn:li:dataProduct:p", resourceUrns: [$u]}) }`,
					map[string]any{"u": concDataset(i)})
				return err
			},
			check: func(t *testing.T, s *mockserver.Server) {
				count16(t, "dataProductProperties", restAspect(t, s, "urn:li:dataProduct:p", "dataProductProperties"), func(i int) string { return `"` + concDataset(i) + `"` })
			},
		},
		{
			name: "incidents",
			mutate: func(s *mockserver.Server, i int) error {
				_, err := gqlSend(s, `mutation($u: String!, $t: String!) { raiseIncident(input: {type: OPERATIONAL, title: $t, resourceUrn: $u}) }`,
					map[string]any{"u": gqlDataset, "t": fmt.Sprintf("late %d", i)})
				return err
			},
			check: func(t *testing.T, s *mockserver.Server) {
				got := gqlData(t, s, `query { search(input: {type: INCIDENT, query: "*", start: 0, count: 100}) { total } }`, nil)
				if asJSON(got) != `{"search":{"total":16}}` {
					t.Errorf("incidents: %s, want 16", asJSON(got))
				}
			},
		},
		{
			name: "assertion results",
			setup: func(t *testing.T, s *mockserver.Server) {
				gqlData(t, s, `mutation($u: String!) { upsertCustomAssertion(urn: "urn:li:assertion:rows", input: {entityUrn: $u, type: "rows", description: "has rows", platform: {name: "dbt"}}) { urn } }`,
					map[string]any{"u": gqlDataset})
			},
			mutate: func(s *mockserver.Server, i int) error {
				_, err := gqlSend(s, fmt.Sprintf(`mutation { reportAssertionResult(urn: "urn:li:assertion:rows", result: {type: SUCCESS, timestampMillis: %d}) }`, 1000+i), nil)
				return err
			},
			check: func(t *testing.T, s *mockserver.Server) {
				count16(t, "assertionRunEvent", restTimeseries(t, s, "urn:li:assertion:rows", "assertion", "assertionRunEvent"), func(i int) string { return fmt.Sprintf(`\"timestampMillis\":%d`, 1000+i) })
			},
		},
		{
			name: "views posts and queries",
			mutate: func(s *mockserver.Server, i int) error {
				if _, err := gqlSend(s, fmt.Sprintf(`mutation { createView(input: {viewType: GLOBAL, name: "v%d", definition: {entityTypes: [DATASET], filter: {operator: AND, filters: []}}}) { urn } }`, i), nil); err != nil {
					return err
				}
				if _, err := gqlSend(s, fmt.Sprintf(`mutation { createPost(input: {postType: HOME_PAGE_ANNOUNCEMENT, content: {contentType: TEXT, title: "p%d"}}) }`, i), nil); err != nil {
					return err
				}
				_, err := gqlSend(s, `mutation($u: String!, $n: String!) { createQuery(input: {properties: {name: $n, statement: {value: "select 1", language: SQL}}, subjects: [{datasetUrn: $u}]}) { urn } }`,
					map[string]any{"u": gqlDataset, "n": fmt.Sprintf("q%d", i)})
				return err
			},
			check: func(t *testing.T, s *mockserver.Server) {
				views := gqlData(t, s, `query { listGlobalViews(input: {start: 0, count: 100}) { total views { name } } }`, nil)
				count16(t, "listGlobalViews", asJSON(views), func(i int) string { return fmt.Sprintf(`"name":"v%d"`, i) })
				posts := gqlData(t, s, `query { listPosts(input: {start: 0, count: 100}) { total posts { content { title } } } }`, nil)
				count16(t, "listPosts", asJSON(posts), func(i int) string { return fmt.Sprintf(`"title":"p%d"`, i) })
				queries := gqlData(t, s, `query($u: String!) { listQueries(input: {start: 0, count: 100, datasetUrn: $u}) { total queries { properties { name } } } }`, map[string]any{"u": gqlDataset})
				count16(t, "listQueries", asJSON(queries), func(i int) string { return fmt.Sprintf(`"name":"q%d"`, i) })
			},
		},
		{
			name: "glossary relations",
			setup: func(t *testing.T, s *mockserver.Server) {
				gqlData(t, s, `mutation { createGlossaryTerm(input: {id: "Users", name: "Users"}) }`, nil)
				for i := range 16 {
					gqlData(t, s, fmt.Sprintf(`mutation { createGlossaryTerm(input: {id: "T%d", name: "T%d"}) }`, i, i), nil)
				}
			},
			mutate: func(s *mockserver.Server, i int) error {
				_, err := gqlSend(s, `mutation($u: String!, $t: String!) { addRelatedTerms(input: {urn: $u, termUrns: [$t], relationshipType: isA}) }`,
					map[string]any{"u": term, "t": fmt.Sprintf("urn:li:glossaryTerm:T%d", i)})
				return err
			},
			check: func(t *testing.T, s *mockserver.Server) {
				count16(t, "glossaryRelatedTerms", restAspect(t, s, term, "glossaryRelatedTerms"), func(i int) string { return fmt.Sprintf(`"urn:li:glossaryTerm:T%d"`, i) })
			},
		},
		{
			name: "group membership",
			setup: func(t *testing.T, s *mockserver.Server) {
				for i := range 16 {
					gqlData(t, s, fmt.Sprintf(`mutation { createGroup(input: {id: "g%d", name: "G%d"}) }`, i, i), nil)
				}
			},
			mutate: func(s *mockserver.Server, i int) error {
				_, err := gqlSend(s, `mutation($g: String!, $u: String!) { addGroupMembers(input: {groupUrn: $g, userUrns: [$u]}) }`,
					map[string]any{"g": fmt.Sprintf("urn:li:corpGroup:g%d", i), "u": gqlUser})
				return err
			},
			check: func(t *testing.T, s *mockserver.Server) {
				count16(t, "nativeGroupMembership", restAspect(t, s, gqlUser, "nativeGroupMembership"), func(i int) string { return fmt.Sprintf(`"urn:li:corpGroup:g%d"`, i) })
			},
		},
		{
			name: "patchEntity",
			mutate: func(s *mockserver.Server, i int) error {
				got, err := gqlSend(s, `mutation($u: String!, $p: String!, $v: String!) { patchEntity(input: {urn: $u, aspectName: "globalTags",
					patch: [{op: ADD, path: $p, value: $v}]}) { success error } }`, map[string]any{"u": gqlDataset,
					"p": fmt.Sprintf("/tags/urn:li:tag:c%d", i), "v": fmt.Sprintf(`{"tag":"urn:li:tag:c%d"}`, i)})
				if err == nil && asJSON(got) != `{"patchEntity":{"error":null,"success":true}}` {
					err = errors.New(asJSON(got))
				}
				return err
			},
			check: func(t *testing.T, s *mockserver.Server) {
				count16(t, "globalTags", restAspect(t, s, gqlDataset, "globalTags"), func(i int) string { return fmt.Sprintf(`"urn:li:tag:c%d"`, i) })
			},
		},
		{
			name: "reportOperation",
			mutate: func(s *mockserver.Server, i int) error {
				_, err := gqlSend(s, fmt.Sprintf(`mutation($u: String!) { reportOperation(input: {urn: $u, operationType: INSERT, sourceType: DATA_PROCESS, timestampMillis: %d}) }`, 1000+i),
					map[string]any{"u": gqlDataset})
				return err
			},
			check: func(t *testing.T, s *mockserver.Server) {
				count16(t, "operation", restTimeseries(t, s, gqlDataset, "dataset", "operation"), func(i int) string { return fmt.Sprintf(`\"timestampMillis\":%d`, 1000+i) })
			},
		},
		{
			name: "ER model relationships",
			mutate: func(s *mockserver.Server, i int) error {
				_, err := gqlSend(s, `mutation($a: String!, $b: String!, $n: String!) { createERModelRelationship(input: {properties: {name: $n, source: $a, destination: $b,
					relationshipFieldmappings: [{sourceField: "id", destinationField: "id"}]}}) { urn } }`,
					map[string]any{"a": gqlDataset, "b": concDataset(0), "n": fmt.Sprintf("r%d", i)})
				return err
			},
			check: func(t *testing.T, s *mockserver.Server) {
				got := gqlData(t, s, `query { search(input: {type: ER_MODEL_RELATIONSHIP, query: "*", start: 0, count: 100}) { total } }`, nil)
				if asJSON(got) != `{"search":{"total":16}}` {
					t.Errorf("ER model relationships: %s, want 16", asJSON(got))
				}
			},
		},
		{
			name: "business attribute on schema fields",
			setup: func(t *testing.T, s *mockserver.Server) {
				gqlData(t, s, `mutation { createBusinessAttribute(input: {id: "email", name: "Email"}) { urn } }`, nil)
			},
			mutate: func(s *mockserver.Server, i int) error {
				_, err := gqlSend(s, `mutation($f: String!) { addBusinessAttribute(input: {businessAttributeUrn: "urn:li:businessAttribute:email", resourceUrn: [{resourceUrn: $f}]}) }`,
					map[string]any{"f": fmt.Sprintf("urn:li:schemaField:(%s,f%d)", gqlDataset, i)})
				return err
			},
			check: func(t *testing.T, s *mockserver.Server) {
				for i := range 16 {
					contains(t, "businessAttributes", restAspect(t, s, fmt.Sprintf("urn:li:schemaField:(%s,f%d)", gqlDataset, i), "businessAttributes"), "urn:li:businessAttribute:email")
				}
			},
		},
	} {
		t.Run(fam.name, func(t *testing.T) {
			t.Parallel()
			s := mutServer(t)
			if fam.setup != nil {
				fam.setup(t, s)
			}
			errs := make([]error, 16)
			var wg sync.WaitGroup
			for i := range 16 {
				wg.Go(func() { errs[i] = fam.mutate(s, i) })
			}
			wg.Wait()
			for i, err := range errs {
				if err != nil {
					t.Errorf("mutation %d: %v", i, err)
				}
			}
			fam.check(t, s)
		})
	}
}

// concDataset is the i-th dataset of the concurrent tests.
func concDataset(i int) string {
	return fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,c%d,PROD)", i)
}
