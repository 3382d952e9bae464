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
