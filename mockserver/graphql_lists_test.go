package mockserver_test

import (
	"encoding/json"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver"
)

// TestGraphQLLists lists domains (root and children), users, groups,
// policies and root glossary terms and nodes through the index.
func TestGraphQLLists(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	put := func(u, aspect, value string) {
		t.Helper()
		if err := s.PutAspectJSON(u, aspect, json.RawMessage(value)); err != nil {
			t.Fatalf("%s %s: %v", u, aspect, err)
		}
	}
	put("urn:li:domain:root", "domainProperties", `{"name":"Root"}`)
	put("urn:li:domain:child", "domainProperties", `{"name":"Child","parentDomain":"urn:li:domain:root"}`)
	put("urn:li:corpuser:jo", "corpUserInfo", `{"active":true,"displayName":"Jo"}`)
	put("urn:li:corpGroup:eng", "corpGroupInfo", `{"admins":[],"members":[],"groups":[],"displayName":"Eng"}`)
	put("urn:li:dataHubPolicy:p1", "dataHubPolicyInfo", `{"displayName":"All","description":"d","type":"METADATA","state":"ACTIVE","privileges":["EDIT_ENTITY"],"actors":{"allUsers":true},"editable":true}`)
	put("urn:li:glossaryNode:n1", "glossaryNodeInfo", `{"definition":"node","name":"N1"}`)
	put("urn:li:glossaryTerm:t1", "glossaryTermInfo", `{"definition":"root term","termSource":"INTERNAL","name":"T1"}`)
	put("urn:li:glossaryTerm:t2", "glossaryTermInfo", `{"definition":"child term","termSource":"INTERNAL","name":"T2","parentNode":"urn:li:glossaryNode:n1"}`)
	q := `{
	  root: listDomains(input: {}) { start count total domains { urn properties { name } } }
	  children: listDomains(input: {parentDomain: "urn:li:domain:root"}) { total domains { urn } }
	  listUsers(input: {start: 0, count: 5}) { count total users { urn username properties { displayName } } }
	  listGroups(input: {}) { total groups { urn name } }
	  listPolicies(input: {}) { total policies { urn name type state privileges actors { allUsers } editable } }
	  getRootGlossaryTerms(input: {start: 0, count: 10}) { total terms { urn properties { name } } }
	  getRootGlossaryNodes(input: {start: 0, count: 10}) { total nodes { urn } }
	}`
	wantJSON(t, postGraphQL(t, s, "/api/graphql", gqlBody(t, q, nil)), `{"data":{
	  "root":{"start":0,"count":20,"total":1,"domains":[{"urn":"urn:li:domain:root","properties":{"name":"Root"}}]},
	  "children":{"total":1,"domains":[{"urn":"urn:li:domain:child"}]},
	  "listUsers":{"count":5,"total":1,"users":[{"urn":"urn:li:corpuser:jo","username":"jo","properties":{"displayName":"Jo"}}]},
	  "listGroups":{"total":1,"groups":[{"urn":"urn:li:corpGroup:eng","name":"eng"}]},
	  "listPolicies":{"total":1,"policies":[{"urn":"urn:li:dataHubPolicy:p1","name":"All","type":"METADATA","state":"ACTIVE","privileges":["EDIT_ENTITY"],"actors":{"allUsers":true},"editable":true}]},
	  "getRootGlossaryTerms":{"total":1,"terms":[{"urn":"urn:li:glossaryTerm:t1","properties":{"name":"T1"}}]},
	  "getRootGlossaryNodes":{"total":1,"nodes":[{"urn":"urn:li:glossaryNode:n1"}]}
	},"extensions":{}}`)
}

// TestGraphQLCountsAndAutoComplete counts entities by type, autocompletes a
// name, and reads the signed-in user and the settings of a fresh DataHub.
func TestGraphQLCountsAndAutoComplete(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	for _, name := range []string{"orders", "order_items"} {
		if err := s.PutAspectJSON("urn:li:dataset:(urn:li:dataPlatform:hive,"+name+",PROD)", "datasetProperties", json.RawMessage(`{"name":"`+name+`"}`)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.PutAspectJSON("urn:li:container:c1", "containerProperties", json.RawMessage(`{"name":"c"}`)); err != nil {
		t.Fatal(err)
	}
	q := `{
	  getEntityCounts(input: {types: [DATASET, CONTAINER, CHART]}) { counts { entityType count } }
	  autoComplete(input: {type: DATASET, query: "order_items"}) { query suggestions entities { urn } }
	  autoCompleteForMultiple(input: {types: [DATASET, CHART], query: "order_items"}) { query suggestions { type entities { urn } } }
	  me { corpUser { urn username } platformPrivileges { managePolicies viewAnalytics } }
	  globalViewsSettings { defaultView }
	}`
	wantJSON(t, postGraphQL(t, s, "/api/graphql", gqlBody(t, q, nil)), `{"data":{
	  "getEntityCounts":{"counts":[{"entityType":"DATASET","count":2},{"entityType":"CONTAINER","count":1},{"entityType":"CHART","count":0}]},
	  "autoComplete":{"query":"order_items","suggestions":["order_items"],"entities":[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,order_items,PROD)"}]},
	  "autoCompleteForMultiple":{"query":"order_items","suggestions":[{"type":"DATASET","entities":[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,order_items,PROD)"}]},{"type":"CHART","entities":[]}]},
	  "me":{"corpUser":{"urn":"urn:li:corpuser:datahub","username":"datahub"},"platformPrivileges":{"managePolicies":true,"viewAnalytics":true}},
	  "globalViewsSettings":{"defaultView":null}
	},"extensions":{}}`)
}

// TestGraphQLBrowse browses folders of browsePathsV2 (browseV2) and of the
// legacy browsePaths (browse: the entities whose path is the path and the
// segments below; browsePaths).
func TestGraphQLBrowse(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	put := func(u, aspect, value string) {
		t.Helper()
		if err := s.PutAspectJSON(u, aspect, json.RawMessage(value)); err != nil {
			t.Fatalf("%s %s: %v", u, aspect, err)
		}
	}
	ds := func(n string) string { return "urn:li:dataset:(urn:li:dataPlatform:hive," + n + ",PROD)" }
	put(ds("a"), "browsePathsV2", `{"path":[{"id":"prod"},{"id":"urn:li:container:db","urn":"urn:li:container:db"}]}`)
	put(ds("b"), "browsePathsV2", `{"path":[{"id":"prod"},{"id":"urn:li:container:db","urn":"urn:li:container:db"},{"id":"sub"}]}`)
	put(ds("c"), "browsePathsV2", `{"path":[{"id":"dev"}]}`)
	put(ds("a"), "browsePaths", `{"paths":["/prod/hive"]}`)
	put(ds("b"), "browsePaths", `{"paths":["/prod/hive/db"]}`)
	put("urn:li:container:db", "containerProperties", `{"name":"db"}`)
	q := `{
	  top: browseV2(input: {type: DATASET, path: []}) { total count groups { name count hasSubGroups entity { urn } } metadata { path totalNumEntities } }
	  prod: browseV2(input: {type: DATASET, path: ["prod"]}) { total groups { name count hasSubGroups entity { urn ... on Container { properties { name } } } } metadata { path totalNumEntities } }
	  browse(input: {type: DATASET, path: ["prod", "hive"]}) { total entities { urn } groups { name count } metadata { totalNumEntities } }
	  browsePaths(input: {type: DATASET, urn: "` + ds("a") + `"}) { path }
	}`
	wantJSON(t, postGraphQL(t, s, "/api/graphql", gqlBody(t, q, nil)), `{"data":{
	  "top":{"total":2,"count":2,"groups":[{"name":"dev","count":1,"hasSubGroups":false,"entity":null},{"name":"prod","count":2,"hasSubGroups":true,"entity":null}],"metadata":{"path":[],"totalNumEntities":3}},
	  "prod":{"total":1,"groups":[{"name":"urn:li:container:db","count":2,"hasSubGroups":true,"entity":{"urn":"urn:li:container:db","properties":{"name":"db"}}}],"metadata":{"path":["prod"],"totalNumEntities":2}},
	  "browse":{"total":1,"entities":[{"urn":"`+ds("a")+`"}],"groups":[{"name":"db","count":1}],"metadata":{"totalNumEntities":2}},
	  "browsePaths":[{"path":["prod","hive"]}]
	},"extensions":{}}`)
}

// TestGraphQLStepStates reads step states by id: those stored, with their
// properties as entries; an id without one is left out.
func TestGraphQLStepStates(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	if err := s.PutAspectJSON("urn:li:dataHubStepState:urn:li:corpuser:jo-onboarding", "dataHubStepStateProperties",
		json.RawMessage(`{"properties":{"b":"2","a":"1"},"lastModified":{"time":1,"actor":"urn:li:corpuser:jo"}}`)); err != nil {
		t.Fatal(err)
	}
	wantJSON(t, postGraphQL(t, s, "/api/graphql", gqlBody(t,
		`{ batchGetStepStates(input: {ids: ["urn:li:corpuser:jo-onboarding", "none"]}) { results { id properties { key value } } } }`, nil)),
		`{"data":{"batchGetStepStates":{"results":[{"id":"urn:li:corpuser:jo-onboarding","properties":[{"key":"a","value":"1"},{"key":"b","value":"2"}]}]}},"extensions":{}}`)
}

// TestGraphQLSearchDocuments searches documents: all, root ones only, and
// the children of one.
func TestGraphQLSearchDocuments(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	doc := func(id, parent string) {
		t.Helper()
		p := ""
		if parent != "" {
			p = `,"parentDocument":{"document":"` + parent + `"}`
		}
		if err := s.PutAspectJSON("urn:li:document:"+id, "documentInfo", json.RawMessage(`{"title":"`+id+`","status":{"state":"PUBLISHED"},"contents":{"text":"about `+id+`"},
			"created":{"time":1,"actor":"urn:li:corpuser:jo"},"lastModified":{"time":1,"actor":"urn:li:corpuser:jo"}`+p+`}`)); err != nil {
			t.Fatal(err)
		}
	}
	doc("guide", "")
	doc("chapter", "urn:li:document:guide")
	q := `{ all: searchDocuments(input: {}) { start count total }
	  root: searchDocuments(input: {rootOnly: true}) { total documents { urn } }
	  children: searchDocuments(input: {parentDocuments: ["urn:li:document:guide"]}) { total documents { urn } } }`
	wantJSON(t, postGraphQL(t, s, "/api/graphql", gqlBody(t, q, nil)), `{"data":{
	  "all":{"start":0,"count":20,"total":2},
	  "root":{"total":1,"documents":[{"urn":"urn:li:document:guide"}]},
	  "children":{"total":1,"documents":[{"urn":"urn:li:document:chapter"}]}},"extensions":{}}`)
}
