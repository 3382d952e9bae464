package mockserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/mockserver"
)

// The admin and governance mutations: each family's effect read back
// through GraphQL and through Rest.li, DataHub's errors on bad input, and
// 16 concurrent writers that lose nothing.

// put writes an aspect through the mock's validated write path.
func put(t testing.TB, s *mockserver.Server, urn, aspect, value string) {
	t.Helper()
	if err := s.PutAspectJSON(urn, aspect, json.RawMessage(value)); err != nil {
		t.Fatalf("PutAspectJSON %s %s: %v", urn, aspect, err)
	}
}

// wantError checks a document's first error's message and code.
func wantError(t testing.TB, s *mockserver.Server, doc string, vars map[string]any, msg string, code float64) {
	t.Helper()
	got, gotCode := gqlError(t, s, doc, vars)
	if got != msg || gotCode != code {
		t.Errorf("%s: error %q %v, want %q %v", doc, got, gotCode, msg, code)
	}
}

func TestGraphQLAdminMutations(t *testing.T) {
	t.Parallel()
	t.Run("policies", func(t *testing.T) {
		t.Parallel()
		s := mutServer(t)
		doc := `mutation { createPolicy(input: {type: METADATA, name: "Editors", state: ACTIVE, description: "edit all",
			privileges: ["EDIT_ENTITY"], actors: {users: ["urn:li:corpuser:alice"], allUsers: false, allGroups: false, resourceOwners: false},
			resources: {type: "dataset", allResources: true, filter: {criteria: [{field: "DOMAIN", values: ["urn:li:domain:d"], condition: EQUALS}]}}}) }`
		u, _ := gqlData(t, s, doc, nil)["createPolicy"].(string)
		if !strings.HasPrefix(u, "urn:li:dataHubPolicy:") {
			t.Fatalf("createPolicy = %q", u)
		}
		contains(t, "REST dataHubPolicyInfo", restAspect(t, s, u, "dataHubPolicyInfo"), `"displayName":"Editors"`, `"privileges":["EDIT_ENTITY"]`,
			`"users":["urn:li:corpuser:alice"]`, `"allResources":true`, `"condition":"EQUALS"`, `"lastUpdatedTimestamp":`)
		debug := gqlData(t, s, `query($u: String!) { debugAccess(userUrn: $u) { policies privileges } }`, map[string]any{"u": gqlUser})
		if got := asJSON(debug); got != `{"debugAccess":{"policies":["`+u+`"],"privileges":["EDIT_ENTITY"]}}` {
			t.Errorf("debugAccess = %s", got)
		}
		gqlData(t, s, `mutation($u: String!) { updatePolicy(urn: $u, input: {type: METADATA, name: "Readers", state: INACTIVE, description: "",
			privileges: ["VIEW_ENTITY_PAGE"], actors: {allUsers: true, allGroups: false, resourceOwners: false}}) }`, map[string]any{"u": u})
		read := gqlData(t, s, `{ listPolicies(input: {start: 0, count: 10}) { total policies { urn name state privileges actors { allUsers } } } }`, nil)
		contains(t, "GraphQL listPolicies", asJSON(read), `"total":1`, `"name":"Readers"`, `"state":"INACTIVE"`, `"VIEW_ENTITY_PAGE"`, `"allUsers":true`)
		if got := restAspect(t, s, u, "dataHubPolicyInfo"); strings.Contains(got, "resources") {
			t.Errorf("updatePolicy kept the old resources: %s", got)
		}
		if got := gqlData(t, s, `mutation($u: String!) { deletePolicy(urn: $u) }`, map[string]any{"u": u})["deletePolicy"]; got != u {
			t.Errorf("deletePolicy = %v", got)
		}
		if got := restAspect(t, s, u, "dataHubPolicyInfo"); got != "" {
			t.Errorf("deleted policy has info %s", got)
		}
		wantError(t, s, `mutation { deletePolicy(urn: "urn:li:dataHubPolicy:0") }`, nil,
			"Failed to perform delete against policy with urn urn:li:dataHubPolicy:0. Root cause: System policies can not be deleted.", 400)
		msg, code := gqlError(t, s, `mutation { updatePolicy(urn: "not-a-urn", input: {type: METADATA, name: "x", description: "", state: ACTIVE, privileges: [],
			actors: {allUsers: true, allGroups: false, resourceOwners: false}}) }`, nil)
		if code != 400 || !strings.Contains(msg, "not-a-urn") {
			t.Errorf("updatePolicy of a bad urn: %q %v", msg, code)
		}
	})

	t.Run("roles and invite tokens", func(t *testing.T) {
		t.Parallel()
		s := mutServer(t)
		role := "urn:li:dataHubRole:Editor"
		put(t, s, role, "dataHubRoleInfo", `{"name":"Editor","description":"edits","editable":false}`)
		gqlData(t, s, `mutation($r: String!) { batchAssignRole(input: {roleUrn: $r, actors: ["urn:li:corpuser:alice", "urn:li:corpuser:ghost"]}) }`, map[string]any{"r": role})
		contains(t, "REST roleMembership", restAspect(t, s, gqlUser, "roleMembership"), `"roles":["urn:li:dataHubRole:Editor"]`)
		if got := restAspect(t, s, "urn:li:corpuser:ghost", "roleMembership"); got != "" {
			t.Errorf("a missing actor got a role: %s", got)
		}
		debug := gqlData(t, s, `query($u: String!) { debugAccess(userUrn: $u) { roles allRoles policies privileges } }`, map[string]any{"u": gqlUser})
		contains(t, "GraphQL debugAccess", asJSON(debug), `"roles":["urn:li:dataHubRole:Editor"]`, `"allRoles":["urn:li:dataHubRole:Editor"]`)
		wantError(t, s, `mutation { batchAssignRole(input: {roleUrn: "urn:li:dataHubRole:Ghost", actors: ["urn:li:corpuser:alice"]}) }`, nil,
			"Failed to perform update against input {roleUrn=urn:li:dataHubRole:Ghost, actors=[urn:li:corpuser:alice]}. Root cause: Role urn:li:dataHubRole:Ghost does not exist. Skipping batch role assignment", 500)
		gqlData(t, s, `mutation { batchAssignRole(input: {actors: ["urn:li:corpuser:alice"]}) }`, nil)
		contains(t, "REST roleMembership after removal", restAspect(t, s, gqlUser, "roleMembership"), `"roles":[]`)

		tok := gqlData(t, s, `mutation($r: String!) { createInviteToken(input: {roleUrn: $r}) { inviteToken } }`, map[string]any{"r": role})
		token, _ := tok["createInviteToken"].(map[string]any)["inviteToken"].(string)
		if len(token) != 32 {
			t.Fatalf("invite token %q", token)
		}
		again := gqlData(t, s, `query($r: String!) { getInviteToken(input: {roleUrn: $r}) { inviteToken } }`, map[string]any{"r": role})
		contains(t, "GraphQL getInviteToken", asJSON(again), token)
		put(t, s, "urn:li:corpuser:datahub", "corpUserKey", `{"username":"datahub"}`)
		gqlData(t, s, `mutation($t: String!) { acceptRole(input: {inviteToken: $t}) }`, map[string]any{"t": token})
		contains(t, "REST roleMembership of the signed-in user", restAspect(t, s, "urn:li:corpuser:datahub", "roleMembership"), role)
		wantError(t, s, `mutation { acceptRole(input: {inviteToken: "nope"}) }`, nil,
			"Failed to accept role using invite token nope. Root cause: Invite token nope is invalid", 500)

		put(t, s, gqlUser, "corpUserCredentials", `{"salt":"s","hashedPassword":"h"}`)
		reset := gqlData(t, s, `mutation($u: String!) { createNativeUserResetToken(input: {userUrn: $u}) { resetToken } }`, map[string]any{"u": gqlUser})
		rt, _ := reset["createNativeUserResetToken"].(map[string]any)["resetToken"].(string)
		contains(t, "REST corpUserCredentials", restAspect(t, s, gqlUser, "corpUserCredentials"), `"passwordResetToken":"`+rt+`"`, `"passwordResetTokenExpirationTimeMillis":`, `"salt":"s"`)
		wantError(t, s, `mutation { createNativeUserResetToken(input: {userUrn: "urn:li:corpuser:ghost"}) { resetToken } }`, nil,
			"Failed to generate password reset token for user: urn:li:corpuser:ghost", 500)
	})

	t.Run("access tokens", func(t *testing.T) {
		t.Parallel()
		s := mutServer(t)
		made := gqlData(t, s, `mutation($u: String!) { createAccessToken(input: {type: PERSONAL, actorUrn: $u, duration: ONE_DAY, name: "ci", description: "for CI"}) {
			accessToken metadata { urn id name actorUrn ownerUrn expiresAt createdAt } } }`, map[string]any{"u": gqlUser})["createAccessToken"].(map[string]any)
		token, _ := made["accessToken"].(string)
		if strings.Count(token, ".") != 2 {
			t.Fatalf("token %q is not a JWT", token)
		}
		md, _ := made["metadata"].(map[string]any)
		tu, _ := md["urn"].(string)
		contains(t, "GraphQL metadata", asJSON(md), `"name":"ci"`, `"actorUrn":"urn:li:corpuser:alice"`, `"ownerUrn":"urn:li:corpuser:datahub"`)
		if e, c := md["expiresAt"].(float64), md["createdAt"].(float64); e-c != 86400000 {
			t.Errorf("expiresAt-createdAt = %v", e-c)
		}
		contains(t, "REST dataHubAccessTokenInfo", restAspect(t, s, tu, "dataHubAccessTokenInfo"), `"name":"ci"`, `"description":"for CI"`)
		list := gqlData(t, s, `{ listAccessTokens(input: {start: 0, count: 10}) { total tokens { urn name } } }`, nil)
		contains(t, "GraphQL listAccessTokens", asJSON(list), `"total":1`, tu)
		meta := gqlData(t, s, `query($t: String!) { getAccessTokenMetadata(token: $t) { urn name } }`, map[string]any{"t": token})
		contains(t, "GraphQL getAccessTokenMetadata", asJSON(meta), tu)
		gqlData(t, s, `mutation($id: String!) { revokeAccessToken(tokenId: $id) }`, map[string]any{"id": md["id"]})
		if got := restAspect(t, s, tu, "dataHubAccessTokenInfo"); got != "" {
			t.Errorf("revoked token still there: %s", got)
		}
		wantError(t, s, `mutation($id: String!) { revokeAccessToken(tokenId: $id) }`, map[string]any{"id": md["id"]},
			"Failed to revoke access token. Root cause: Access token no longer exists", 500)
		wantError(t, s, `mutation($u: String!) { createAccessToken(input: {type: SERVICE_ACCOUNT, actorUrn: $u, duration: ONE_DAY, name: "x"}) { accessToken } }`,
			map[string]any{"u": gqlUser}, "The specified URN is not a service account: urn:li:corpuser:alice", 400)
		msg, code := gqlError(t, s, `mutation { createAccessToken(input: {type: PERSONAL, actorUrn: "bad", duration: ONE_DAY, name: "x"}) { accessToken } }`, nil)
		if code != 400 || !strings.Contains(msg, "bad") {
			t.Errorf("createAccessToken of a bad urn: %q %v", msg, code)
		}
		get := gqlData(t, s, `query($u: String!) { getAccessToken(input: {type: PERSONAL, actorUrn: $u, duration: NO_EXPIRY}) { accessToken } }`, map[string]any{"u": gqlUser})
		if tok, _ := get["getAccessToken"].(map[string]any)["accessToken"].(string); strings.Count(tok, ".") != 2 {
			t.Errorf("getAccessToken = %v", get)
		}
	})

	t.Run("access tokens authenticate", func(t *testing.T) {
		t.Parallel()
		s := mockserver.Start(t, mockserver.WithToken("admin"))
		post := func(token, doc string) gqlResponse {
			return postGraphQL(t, s, "/api/graphql", gqlBody(t, doc, nil), "Authorization", "Bearer "+token)
		}
		made := post("admin", `mutation { createAccessToken(input: {type: PERSONAL, actorUrn: "urn:li:corpuser:datahub", duration: ONE_HOUR, name: "t"}) {
			accessToken metadata { id } } }`)
		var r struct {
			Data struct {
				CreateAccessToken struct {
					AccessToken string
					Metadata    struct{ ID string }
				}
			}
		}
		if err := json.Unmarshal(made.body, &r); err != nil || r.Data.CreateAccessToken.AccessToken == "" {
			t.Fatalf("createAccessToken: %d %s", made.status, made.body)
		}
		token := r.Data.CreateAccessToken.AccessToken
		if got := post(token, `{ me { corpUser { urn } } }`); got.status != http.StatusOK {
			t.Errorf("a stored token is refused: %d %s", got.status, got.body)
		}
		if got := post("not-a-token", `{ me { corpUser { urn } } }`); got.status != http.StatusUnauthorized {
			t.Errorf("an unknown token: %d", got.status)
		}
		post(token, `mutation { revokeAccessToken(tokenId: "`+r.Data.CreateAccessToken.Metadata.ID+`") }`)
		if got := post(token, `{ me { corpUser { urn } } }`); got.status != http.StatusUnauthorized {
			t.Errorf("a revoked token: %d %s", got.status, got.body)
		}
		s.FastForward(2 * time.Hour)
		expired := post("admin", `mutation { createAccessToken(input: {type: PERSONAL, actorUrn: "urn:li:corpuser:datahub", duration: ONE_HOUR, name: "e"}) { accessToken } }`)
		_ = json.Unmarshal(expired.body, &r)
		s.FastForward(2 * time.Hour)
		if got := post(r.Data.CreateAccessToken.AccessToken, `{ me { corpUser { urn } } }`); got.status != http.StatusUnauthorized {
			t.Errorf("an expired token: %d %s", got.status, got.body)
		}
	})

	t.Run("service accounts", func(t *testing.T) {
		t.Parallel()
		s := mutServer(t)
		sa := gqlData(t, s, `mutation { createServiceAccount(input: {displayName: "Loader", description: "loads"}) { urn name displayName description createdBy } }`, nil)["createServiceAccount"].(map[string]any)
		u, _ := sa["urn"].(string)
		if !strings.HasPrefix(u, "urn:li:corpuser:service_") || sa["displayName"] != "Loader" || sa["createdBy"] != "urn:li:corpuser:datahub" {
			t.Fatalf("createServiceAccount = %v", sa)
		}
		contains(t, "REST subTypes", restAspect(t, s, u, "subTypes"), `"typeNames":["SERVICE_ACCOUNT"]`)
		contains(t, "REST corpUserInfo", restAspect(t, s, u, "corpUserInfo"), `"displayName":"Loader"`, `"title":"loads"`, `"active":true`)
		view := gqlData(t, s, `mutation { createView(input: {viewType: GLOBAL, name: "All", definition: {entityTypes: [DATASET], filter: {operator: AND, filters: []}}}) { urn } }`, nil)
		vu, _ := view["createView"].(map[string]any)["urn"].(string)
		gqlData(t, s, `mutation($u: String!, $v: String!) { updateServiceAccountDefaultView(input: {urn: $u, defaultView: $v}) }`, map[string]any{"u": u, "v": vu})
		contains(t, "REST corpUserSettings", restAspect(t, s, u, "corpUserSettings"), `"defaultView":"`+vu+`"`)
		got := gqlData(t, s, `query($u: String!) { getServiceAccount(urn: $u) { name description defaultView { urn } } }`, map[string]any{"u": u})
		contains(t, "GraphQL getServiceAccount", asJSON(got), `"description":"loads"`, vu, `"name":"`+strings.TrimPrefix(u, "urn:li:corpuser:service_")+`"`)
		list := gqlData(t, s, `{ listServiceAccounts(input: {}) { total serviceAccounts { urn } } }`, nil)
		contains(t, "GraphQL listServiceAccounts", asJSON(list), `"total":1`, u)
		wantError(t, s, `mutation($u: String!) { deleteServiceAccount(urn: $u) }`, map[string]any{"u": gqlUser},
			"The specified URN is not a service account: urn:li:corpuser:alice", 400)
		wantError(t, s, `mutation { deleteServiceAccount(urn: "urn:li:corpuser:ghost") }`, nil,
			"Service account not found: urn:li:corpuser:ghost", 400)
		wantError(t, s, `mutation($u: String!) { updateServiceAccountDefaultView(input: {urn: $u, defaultView: "urn:li:dataHubView:ghost"}) }`, map[string]any{"u": u},
			"View urn:li:dataHubView:ghost does not exist.", 400)
		gqlData(t, s, `mutation($u: String!) { deleteServiceAccount(urn: $u) }`, map[string]any{"u": u})
		if got := gqlData(t, s, `query($u: String!) { getServiceAccount(urn: $u) { urn } }`, map[string]any{"u": u}); got["getServiceAccount"] != nil {
			t.Errorf("deleted service account = %v", got)
		}
	})

	t.Run("settings", func(t *testing.T) {
		t.Parallel()
		s := mutServer(t)
		view := gqlData(t, s, `mutation { createView(input: {viewType: GLOBAL, name: "All", definition: {entityTypes: [DATASET], filter: {operator: AND, filters: []}}}) { urn } }`, nil)
		vu, _ := view["createView"].(map[string]any)["urn"].(string)
		gqlData(t, s, `mutation($v: String!) { updateCorpUserViewsSettings(input: {defaultView: $v}) }`, map[string]any{"v": vu})
		gqlData(t, s, `mutation { updateUserHomePageSettings(input: {newDismissedAnnouncements: ["urn:li:post:a"]}) }`, nil)
		gqlData(t, s, `mutation { updateCorpUserLocaleSettings(input: {language: "fr"}) }`, nil)
		gqlData(t, s, `mutation { updateUserSetting(input: {name: SHOW_THEME_V2, value: true}) }`, nil)
		me := gqlData(t, s, `{ me { corpUser { settings { appearance { showSimplifiedHomepage showThemeV2 } views { defaultView { urn } }
			homePage { dismissedAnnouncementUrns } locale { language } } } } }`, nil)
		contains(t, "GraphQL me settings", asJSON(me), `"showSimplifiedHomepage":false`, `"showThemeV2":true`, vu,
			`"dismissedAnnouncementUrns":["urn:li:post:a"]`, `"language":"fr"`)
		contains(t, "REST corpUserSettings", restAspect(t, s, "urn:li:corpuser:datahub", "corpUserSettings"), `"language":"fr"`)
		wantError(t, s, `mutation { updateUserHomePageSettings(input: {pageTemplate: "urn:li:dataHubPageTemplate:x", removePageTemplate: true}) }`, nil,
			"Invalid inputs: Cannot specify both pageTemplate and removePageTemplate.", 400)

		before := gqlData(t, s, `{ globalViewsSettings { defaultView } docPropagationSettings { docColumnPropagation } }`, nil)
		contains(t, "GraphQL fresh global settings", asJSON(before), `"defaultView":null`, `"docColumnPropagation":true`)
		gqlData(t, s, `mutation($v: String!) { updateGlobalViewsSettings(input: {defaultView: $v}) }`, map[string]any{"v": vu})
		gqlData(t, s, `mutation { updateDocPropagationSettings(input: {docColumnPropagation: false}) }`, nil)
		gqlData(t, s, `mutation { updateApplicationsSettings(input: {enabled: true}) }`, nil)
		after := gqlData(t, s, `{ globalViewsSettings { defaultView } docPropagationSettings { docColumnPropagation } }`, nil)
		contains(t, "GraphQL global settings", asJSON(after), `"defaultView":"`+vu+`"`, `"docColumnPropagation":false`)
		contains(t, "REST globalSettingsInfo", restAspect(t, s, "urn:li:globalSettings:0", "globalSettingsInfo"),
			`"applications":{"enabled":true}`, `"columnPropagationEnabled":false`, `"enabled":true`, `"defaultView":"`+vu+`"`)

		asset := gqlData(t, s, `mutation($u: String!) { updateAssetSettings(input: {urn: $u, summary: {template: "urn:li:dataHubPageTemplate:t"}}) {
			assetSummary { templates { template { urn } } } } }`, map[string]any{"u": gqlDataset})
		contains(t, "GraphQL updateAssetSettings", asJSON(asset), "urn:li:dataHubPageTemplate:t")
		contains(t, "REST assetSettings", restAspect(t, s, gqlDataset, "assetSettings"), `"template":"urn:li:dataHubPageTemplate:t"`)
	})

	t.Run("secrets", func(t *testing.T) {
		t.Parallel()
		s := mutServer(t)
		u := gqlData(t, s, `mutation { createSecret(input: {name: "DB_PASS", value: "hunter2", description: "db"}) }`, nil)["createSecret"]
		if u != "urn:li:dataHubSecret:DB_PASS" {
			t.Fatalf("createSecret = %v", u)
		}
		contains(t, "REST dataHubSecretValue", restAspect(t, s, "urn:li:dataHubSecret:DB_PASS", "dataHubSecretValue"), `"name":"DB_PASS"`, `"value":"hunter2"`, `"created":`)
		wantError(t, s, `mutation { createSecret(input: {name: "DB_PASS", value: "x"}) }`, nil, "This Secret already exists!", 400)
		gqlData(t, s, `mutation { updateSecret(input: {urn: "urn:li:dataHubSecret:DB_PASS", name: "DB_PASS", value: "s3cret", description: "new"}) }`, nil)
		list := gqlData(t, s, `{ listSecrets(input: {}) { total secrets { urn name description } } }`, nil)
		contains(t, "GraphQL listSecrets", asJSON(list), `"total":1`, `"description":"new"`)
		if strings.Contains(asJSON(list), "s3cret") {
			t.Errorf("listSecrets answers the value: %s", asJSON(list))
		}
		values := gqlData(t, s, `{ getSecretValues(input: {secrets: ["DB_PASS", "ghost"]}) { name value } }`, nil)
		if got := asJSON(values); got != `{"getSecretValues":[{"name":"DB_PASS","value":"s3cret"}]}` {
			t.Errorf("getSecretValues = %s", got)
		}
		wantError(t, s, `mutation { updateSecret(input: {urn: "urn:li:dataHubSecret:ghost", name: "g", value: "x"}) }`, nil,
			"Secret for urn urn:li:dataHubSecret:ghost doesn't exists!", 400)
		gqlData(t, s, `mutation { deleteSecret(urn: "urn:li:dataHubSecret:DB_PASS") }`, nil)
		if got := restAspect(t, s, "urn:li:dataHubSecret:DB_PASS", "dataHubSecretValue"); got != "" {
			t.Errorf("deleted secret still there: %s", got)
		}
	})

	t.Run("ingestion sources and execution requests", func(t *testing.T) {
		t.Parallel()
		s := mutServer(t)
		src, _ := gqlData(t, s, `mutation { createIngestionSource(input: {name: "hive", type: "hive", schedule: {interval: "0 5 * * *", timezone: "UTC"},
			config: {recipe: "{\"source\":{\"type\":\"hive\"}}", executorId: "default", debugMode: true, extraArgs: [{key: "k", value: "v"}]}}) }`, nil)["createIngestionSource"].(string)
		if !strings.HasPrefix(src, "urn:li:dataHubIngestionSource:") {
			t.Fatalf("createIngestionSource = %q", src)
		}
		contains(t, "REST dataHubIngestionSourceInfo", restAspect(t, s, src, "dataHubIngestionSourceInfo"), `"interval":"0 5 * * *"`, `"executorId":"default"`, `"extraArgs":{"k":"v"}`)
		wantError(t, s, `mutation { createIngestionSource(input: {name: "x", type: "x", schedule: {interval: "every day", timezone: "UTC"}, config: {recipe: "{}", executorId: "default"}}) }`, nil,
			"Invalid cron schedule `every day`: Cron expression must consist of 6 fields (found 2 in \"every day\")", 400)
		wantError(t, s, `mutation { createIngestionSource(input: {name: "x", type: "x", schedule: {interval: "0 5 * * *", timezone: "Mars/Base"}, config: {recipe: "{}", executorId: "default"}}) }`, nil,
			"Invalid timezone `Mars/Base`: Unknown time-zone ID: Mars/Base", 400)
		gqlData(t, s, `mutation($u: String!) { updateIngestionSource(urn: $u, input: {name: "hive2", type: "hive",
			config: {recipe: "{\"source\":{\"type\":\"hive\"}}", executorId: "default"}}) }`, map[string]any{"u": src})

		req, _ := gqlData(t, s, `mutation($u: String!) { createIngestionExecutionRequest(input: {ingestionSourceUrn: $u}) }`, map[string]any{"u": src})["createIngestionExecutionRequest"].(string)
		contains(t, "REST dataHubExecutionRequestInput", restAspect(t, s, req, "dataHubExecutionRequestInput"), `"task":"RUN_INGEST"`,
			`"type":"MANUAL_INGESTION_SOURCE"`, `"ingestionSource":"`+src+`"`, `run_id`, `"debug_mode":"false"`)
		read := gqlData(t, s, `query($u: String!) { ingestionSource(urn: $u) { name config { recipe executorId } executions { total executionRequests { urn input { task source { type } } } } } }`,
			map[string]any{"u": src})
		contains(t, "GraphQL ingestionSource", asJSON(read), `"name":"hive2"`, `"executorId":"default"`, `"total":1`, req, `"task":"RUN_INGEST"`)
		list := gqlData(t, s, `{ listIngestionSources(input: {}) { total ingestionSources { urn } } listExecutionRequests(input: {}) { total } }`, nil)
		contains(t, "GraphQL lists", asJSON(list), `"ingestionSources":[{"urn":"`+src+`"}]`, `"listExecutionRequests":{"total":1}`)
		gqlData(t, s, `mutation($u: String!, $r: String!) { cancelIngestionExecutionRequest(input: {ingestionSourceUrn: $u, executionRequestUrn: $r}) }`, map[string]any{"u": src, "r": req})
		contains(t, "REST dataHubExecutionRequestSignal", restAspect(t, s, req, "dataHubExecutionRequestSignal"), `"signal":"KILL"`, `"executorId":"default"`)
		wantError(t, s, `mutation { createIngestionExecutionRequest(input: {ingestionSourceUrn: "urn:li:dataHubIngestionSource:ghost"}) }`, nil,
			"Failed to find ingestion source with urn urn:li:dataHubIngestionSource:ghost", 400)

		byURN := gqlData(t, s, `query($r: String!) { executionRequest(urn: $r) { id input { task arguments { key } } source { urn } } }`, map[string]any{"r": req})
		contains(t, "GraphQL executionRequest", asJSON(byURN), `"task":"RUN_INGEST"`, `{"key":"debug_mode"}`, `"source":{"urn":"`+src+`"}`)
		test, _ := gqlData(t, s, `mutation { createTestConnectionRequest(input: {recipe: "{\"source\":{\"type\":\"mysql\"}}", version: "1.2.0"}) }`, nil)["createTestConnectionRequest"].(string)
		contains(t, "REST test connection", restAspect(t, s, test, "dataHubExecutionRequestInput"), `"task":"TEST_CONNECTION"`, `"version":"1.2.0"`)
		wantError(t, s, `mutation { createTestConnectionRequest(input: {recipe: "not json"}) }`, nil,
			"Failed to create execution request: Invalid recipe json provided.", 400)

		gqlData(t, s, `mutation($u: String!) { deleteIngestionSource(urn: $u) }`, map[string]any{"u": src})
		if got := gqlData(t, s, `query($u: String!) { ingestionSource(urn: $u) { urn } }`, map[string]any{"u": src}); got["ingestionSource"] != nil {
			t.Errorf("deleted source = %v", got)
		}
	})

	t.Run("connections", func(t *testing.T) {
		t.Parallel()
		s := mutServer(t)
		c := gqlData(t, s, `mutation { upsertConnection(input: {id: "snow", type: JSON, platformUrn: "urn:li:dataPlatform:snowflake", json: {blob: "{\"user\":\"u\"}"}}) {
			urn details { type name json { blob } } platform { urn } } }`, nil)
		contains(t, "GraphQL upsertConnection", asJSON(c), `"urn":"urn:li:dataHubConnection:snow"`, `"name":"snow"`, `"blob":"{\"user\":\"u\"}"`, "urn:li:dataPlatform:snowflake")
		contains(t, "REST dataHubConnectionDetails", restAspect(t, s, "urn:li:dataHubConnection:snow", "dataHubConnectionDetails"), `"encryptedBlob":`)
		read := gqlData(t, s, `{ connection(urn: "urn:li:dataHubConnection:snow") { details { name } } }`, nil)
		contains(t, "GraphQL connection", asJSON(read), `"name":"snow"`)
		wantError(t, s, `mutation { upsertConnection(input: {type: JSON, platformUrn: "urn:li:dataPlatform:x"}) { urn } }`, nil,
			"Connections with type JSON must provide the field 'json'.", 400)
	})

	t.Run("metadata tests", func(t *testing.T) {
		t.Parallel()
		s := mutServer(t)
		def := `{\"on\":{\"types\":[\"dataset\"]},\"rules\":{\"and\":[]}}`
		u := gqlData(t, s, `mutation { createTest(input: {id: "t1", name: "Has owner", category: "quality", description: "d", definition: {json: "`+def+`"}}) }`, nil)["createTest"]
		if u != "urn:li:test:t1" {
			t.Fatalf("createTest = %v", u)
		}
		contains(t, "REST testInfo", restAspect(t, s, "urn:li:test:t1", "testInfo"), `"name":"Has owner"`, `"type":"JSON"`, `"category":"quality"`)
		wantError(t, s, `mutation { createTest(input: {id: "t1", name: "x", category: "c", definition: {}}) }`, nil, "This Test already exists!", 400)
		gqlData(t, s, `mutation { updateTest(urn: "urn:li:test:t1", input: {name: "Has owners", category: "quality", definition: {json: "`+def+`"}}) }`, nil)
		read := gqlData(t, s, `{ listTests(input: {start: 0, count: 10}) { total tests { urn name category } } }`, nil)
		contains(t, "GraphQL listTests", asJSON(read), `"total":1`, `"name":"Has owners"`)
		gqlData(t, s, `mutation { deleteTest(urn: "urn:li:test:t1") }`, nil)
		if got := restAspect(t, s, "urn:li:test:t1", "testInfo"); got != "" {
			t.Errorf("deleted test still there: %s", got)
		}
	})

	t.Run("rollback and privileges", func(t *testing.T) {
		t.Parallel()
		s := mutServer(t)
		ds := "urn:li:dataset:(urn:li:dataPlatform:hive,db.run,PROD)"
		body := `{"proposal":{"entityType":"dataset","entityUrn":"` + ds + `","changeType":"UPSERT","aspectName":"datasetProperties",
			"aspect":{"contentType":"application/json","value":"{\"description\":\"by run\"}"},"systemMetadata":{"runId":"run-1","lastObserved":1}}}`
		req, _ := http.NewRequest(http.MethodPost, s.URL()+"/aspects?action=ingestProposal", strings.NewReader(body))
		req.Header.Set("X-RestLi-Protocol-Version", "2.0.0")
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("ingest: %v %v", err, resp)
		}
		resp.Body.Close()
		gqlData(t, s, `mutation { rollbackIngestion(input: {runId: "run-1"}) }`, nil)
		if got := restAspect(t, s, ds, "datasetProperties"); got != "" {
			t.Errorf("rolled back aspect still there: %s", got)
		}
		cfg := `{ appConfig { appVersion authConfig { tokenAuthEnabled } analyticsConfig { enabled } managedIngestionConfig { enabled }
			lineageConfig { supportsImpactAnalysis } policiesConfig { enabled platformPrivileges { type displayName }
			resourcePrivileges { resourceType entityType privileges { type } } } visualConfig { appTitle application { showApplicationInNavigation } }
			testsConfig { enabled } viewsConfig { enabled } searchBarConfig { apiVariant } homePageConfig { firstInPersonalSidebar }
			featureFlags { showBrowseV2 entityVersioningEnabled nestedDomainsEnabled } chromeExtensionConfig { enabled } semanticSearchConfig { enabled } } }`
		contains(t, "GraphQL appConfig", asJSON(gqlData(t, s, cfg, nil)), `"appVersion":"v1.6.0"`, `"tokenAuthEnabled":false`,
			`"supportsImpactAnalysis":false`, `{"displayName":"Manage Policies","type":"MANAGE_POLICIES"}`, `"entityType":"DATASET","privileges":[{"type":"VIEW_ENTITY_PAGE"}`,
			`"showApplicationInNavigation":false`, `"showBrowseV2":true`, `"entityVersioningEnabled":false`, `"apiVariant":"SEARCH_ACROSS_ENTITIES"`)
		gqlData(t, s, `mutation { updateApplicationsSettings(input: {enabled: true}) }`, nil)
		contains(t, "GraphQL appConfig after updateApplicationsSettings", asJSON(gqlData(t, s, cfg, nil)), `"showApplicationInNavigation":true`)
		p := gqlData(t, s, `query($u: String!) { getGrantedPrivileges(input: {actorUrn: $u}) { privileges } }`, map[string]any{"u": gqlUser})
		contains(t, "GraphQL getGrantedPrivileges", asJSON(p), `"MANAGE_POLICIES"`, `"EDIT_ENTITY"`, `"MANAGE_INGESTION"`)
	})
}

// TestGraphQLAdminMutationsConcurrent runs 16 writers at once on one
// entity of each family (the signed-in user's settings, the global
// settings) and 16 creations of policies, secrets, service accounts and
// access tokens, and checks that every change is kept.
func TestGraphQLAdminMutationsConcurrent(t *testing.T) {
	t.Parallel()
	s := mutServer(t)
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			gqlData(t, s, `mutation($a: String!) { updateUserHomePageSettings(input: {newDismissedAnnouncements: [$a]}) }`,
				map[string]any{"a": fmt.Sprintf("urn:li:post:p%d", i)})
			switch i % 3 {
			case 0:
				gqlData(t, s, `mutation { updateDocPropagationSettings(input: {docColumnPropagation: false}) }`, nil)
			case 1:
				gqlData(t, s, `mutation { updateApplicationsSettings(input: {enabled: true}) }`, nil)
			default:
				gqlData(t, s, `mutation { updateGlobalViewsSettings(input: {defaultView: "urn:li:dataHubView:v"}) }`, nil)
			}
			gqlData(t, s, fmt.Sprintf(`mutation { createPolicy(input: {type: PLATFORM, name: "p%d", description: "", state: ACTIVE, privileges: ["MANAGE_TESTS"],
				actors: {allUsers: true, allGroups: false, resourceOwners: false}}) }`, i), nil)
			gqlData(t, s, fmt.Sprintf(`mutation { createSecret(input: {name: "s%d", value: "v"}) }`, i), nil)
			gqlData(t, s, fmt.Sprintf(`mutation { createServiceAccount(input: {displayName: "sa%d"}) { urn } }`, i), nil)
			gqlData(t, s, fmt.Sprintf(`mutation { createAccessToken(input: {type: PERSONAL, actorUrn: "urn:li:corpuser:alice", duration: ONE_DAY, name: "t%d"}) { accessToken } }`, i), nil)
		})
	}
	wg.Wait()
	var settings struct {
		HomePage struct{ DismissedAnnouncements []string }
	}
	_ = json.Unmarshal([]byte(restAspect(t, s, "urn:li:corpuser:datahub", "corpUserSettings")), &settings)
	if n := len(settings.HomePage.DismissedAnnouncements); n != 16 {
		t.Errorf("%d dismissed announcements kept, want 16", n)
	}
	contains(t, "REST globalSettingsInfo", restAspect(t, s, "urn:li:globalSettings:0", "globalSettingsInfo"),
		`"columnPropagationEnabled":false`, `"applications":{"enabled":true}`, `"defaultView":"urn:li:dataHubView:v"`)
	counts := gqlData(t, s, `{ listPolicies(input: {count: 100}) { total } listSecrets(input: {count: 100}) { total } listServiceAccounts(input: {count: 100}) { total }
		listAccessTokens(input: {count: 100}) { total } }`, nil)
	contains(t, "GraphQL lists", asJSON(counts), `"listPolicies":{"total":16}`, `"listSecrets":{"total":16}`, `"listServiceAccounts":{"total":16}`,
		`"listAccessTokens":{"total":16}`)
}
