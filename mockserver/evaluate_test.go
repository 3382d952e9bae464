package mockserver

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// testProposal is a test entity's testInfo with the JSON definition def.
func testProposal(t testing.TB, id, def string) map[string]any {
	t.Helper()
	info := mustJSON(t, map[string]any{"name": id, "category": "quality",
		"definition": map[string]any{"type": "JSON", "json": def}})
	return mcp("test", "urn:li:test:"+id, "UPSERT", "testInfo", info)
}

const (
	defHasOwner = `{"on":{"types":["dataset"]},"rules":[{"property":"ownership.owners.owner","operator":"exists"}]}`
	defPII      = `{"on":{"types":["dataset"],"conditions":{"and":[{"property":"status.removed","operator":"equals","values":["false"]}]}},
		"rules":{"or":[{"property":"editableDatasetProperties.description","operator":"contains","values":["pii"]},
		               {"property":"globalTags.tags.tag","operator":"in","values":["urn:li:tag:pii"]}]},
		"actions":{"passing":[],"failing":[]}}`
	defNotRemoved = `{"on":{"types":["dataset","chart"]},"rules":{"not":{"property":"status.removed","operator":"equals","values":["true"]}}}`
	defCharts     = `{"on":{"types":["chart"]},"rules":[{"property":"status.removed","operator":"exists"}]}`
	defNameRegex  = `{"on":{"types":["dataset"]},"rules":{"and":[{"property":"urn","operator":"regex","values":["^urn:li:dataset:\\(urn:li:dataPlatform:hive,"]},
		{"property":"urn","operator":"starts_with","values":["urn:li:dataset:"]},
		{"query":"datasetProperties.customProperties.rows","operation":"greater_than","values":["10"],"negate":true}]}}`
)

// evaluateAnswer decodes /test?action=evaluate.
type evaluateAnswer struct {
	Value testResults `json:"value"`
}

func TestEvaluateTests(t *testing.T) {
	t.Parallel()
	setup := func(t *testing.T) *Server {
		s := Start(t)
		ingestHTTP(t, s,
			testProposal(t, "owner", defHasOwner), testProposal(t, "pii", defPII), testProposal(t, "notRemoved", defNotRemoved),
			testProposal(t, "charts", defCharts), testProposal(t, "name", defNameRegex),
			mcp("dataset", dsURN, "UPSERT", "status", `{"removed":false}`),
			mcp("dataset", dsURN, "UPSERT", "editableDatasetProperties", `{"description":"holds PII? yes: pii"}`),
			mcp("dataset", dsURN, "UPSERT", "datasetProperties", `{"customProperties":{"rows":"5"}}`))
		return s
	}
	pass := func(ids ...string) []testResult {
		out := []testResult{}
		for _, id := range ids {
			out = append(out, testResult{Test: "urn:li:test:" + id, Type: "SUCCESS"})
		}
		return out
	}
	fail := func(ids ...string) []testResult {
		out := []testResult{}
		for _, id := range ids {
			out = append(out, testResult{Test: "urn:li:test:" + id, Type: "FAILURE"})
		}
		return out
	}
	for _, tc := range []struct {
		name, body string
		want       testResults
		pushed     bool
	}{
		{"all applicable", `{"urn":"` + dsURN + `"}`, testResults{Passing: pass("pii", "name", "notRemoved"), Failing: fail("owner")}, false},
		{"testUrns", `{"urn":"` + dsURN + `","testUrns":["urn:li:test:owner","urn:li:test:pii"]}`, testResults{Passing: pass("pii"), Failing: fail("owner")}, false},
		{"tests (DataHub's name)", `{"urn":"` + dsURN + `","tests":["urn:li:test:pii"]}`, testResults{Passing: pass("pii"), Failing: fail()}, false},
		{"test of another type", `{"urn":"` + dsURN + `","testUrns":["urn:li:test:charts"]}`, testResults{Passing: pass(), Failing: fail()}, false},
		{"shouldPush", `{"urn":"` + dsURN + `","testUrns":["urn:li:test:owner","urn:li:test:pii"],"shouldPush":true}`, testResults{Passing: pass("pii"), Failing: fail("owner")}, true},
		{"push (DataHub's name)", `{"urn":"` + dsURN + `","tests":["urn:li:test:pii"],"push":true}`, testResults{Passing: pass("pii"), Failing: fail()}, true},
		{"push false", `{"urn":"` + dsURN + `","push":false}`, testResults{Passing: pass("pii", "name", "notRemoved"), Failing: fail("owner")}, false},
		{"entity without aspects", `{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,none,PROD)"}`, testResults{Passing: pass("name", "notRemoved"), Failing: fail("owner")}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := setup(t)
			var got evaluateAnswer
			if err := json.Unmarshal([]byte(postOK(t, s, "/api/gms/test?action=evaluate", tc.body)), &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got.Value); diff != "" {
				t.Errorf("results (-want +got):\n%s", diff)
			}
			var urn struct{ URN string }
			_ = json.Unmarshal([]byte(tc.body), &urn)
			stored, err := s.GetAspectJSON(urn.URN, "testResults", 0)
			if !tc.pushed {
				if err == nil {
					t.Errorf("testResults written without push: %s", stored)
				}
				return
			}
			if err != nil {
				t.Fatalf("testResults after push: %v", err)
			}
			var sr testResults
			if err := json.Unmarshal(stored, &sr); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, sr); diff != "" {
				t.Errorf("pushed testResults (-want +got):\n%s", diff)
			}
		})
	}
}

func TestEvaluateTestsErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, body string
		status     int
		msg        string
	}{
		{"no urn", `{}`, 400, "ERROR :: /urn :: field is required"},
		{"bad urn", `{"urn":"dataset"}`, 400, "Invalid urn"},
		{"both test lists", `{"urn":"` + dsURN + `","tests":[],"testUrns":[]}`, 400, msgTestsBoth},
		{"both push flags", `{"urn":"` + dsURN + `","push":true,"shouldPush":true}`, 400, msgTestPushBoth},
		{"unknown test", `{"urn":"` + dsURN + `","testUrns":["urn:li:test:nope"]}`, 404, "Test urn:li:test:nope does not exist"},
		{"tests not a list", `{"urn":"` + dsURN + `","tests":"urn:li:test:x"}`, 400, "ERROR :: /tests :: \"urn:li:test:x\" cannot be coerced to Array"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := Start(t)
			wantRestliError(t, post(t, s, "/test?action=evaluate", tc.body), tc.status, tc.msg)
		})
	}
	s := Start(t)
	if r := post(t, s, "/test?action=batchEvaluate", `{"urns":[]}`); r.Status != http.StatusOK || r.Body != `{"value":{"results":{}}}` {
		t.Errorf("batchEvaluate of no URNs = %d %s, want 200 with no results", r.Status, r.Body)
	}
}

// TestEvaluateTestsInvalidDefinitions checks that a definition the mock
// cannot evaluate spoils no other test: the entity's other tests are
// evaluated, and the bad one is in neither list but named, with the part
// at fault, in "invalid" (and not pushed).
func TestEvaluateTestsInvalidDefinitions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, def, body string
		status          int
		msg             string
	}{
		{"unknown operator", `{"on":{"types":["dataset"]},"rules":{"or":[{"property":"status.removed","operator":"exists"},{"property":"status.removed","operator":"fuzzy","values":["x"]}]}}`,
			`{"urn":"` + dsURN + `"}`, 200, "cannot be evaluated by datahub-mock: rules.or[1].operator: unsupported operator \"fuzzy\""},
		{"bad regex", `{"on":{"types":["dataset"]},"rules":[{"property":"urn","operator":"regex","values":["("]}]}`,
			`{"urn":"` + dsURN + `"}`, 200, "rules[0].values[0]: invalid regular expression"},
		{"missing rules", `{"on":{"types":["dataset"]}}`, `{"urn":"` + dsURN + `"}`, 200, "rules: required"},
		{"missing types", `{"on":{},"rules":[]}`, `{"urn":"` + dsURN + `"}`, 200, "on.types: required"},
		{"unknown member", `{"on":{"types":["dataset"]},"rules":[{"property":"urn","operator":"exists","match":"x"}]}`,
			`{"urn":"` + dsURN + `"}`, 200, "rules[0].match: unsupported member"},
		{"broken condition of the type", `{"on":{"types":["dataset"],"conditions":{"xor":[]}},"rules":[]}`,
			`{"urn":"` + dsURN + `"}`, 200, "on.conditions.xor: unsupported member"},
		{"nested too deeply", `{"on":{"types":["dataset"]},"rules":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`,
			`{"urn":"` + dsURN + `"}`, 200, "definition: nested too deeply: JSON nesting exceeds the limit of 10000 levels"},
		{"not a number", `{"on":{"types":["dataset"]},"rules":[{"property":"x.y","operator":"less_than","values":["ten"]}]}`,
			`{"urn":"` + dsURN + `"}`, 200, `rules[0].values[0]: "ten" is not a number`},
		{"definition not JSON", `{`, `{"urn":"` + dsURN + `"}`, 200, "definition: not a JSON object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := Start(t)
			ingestHTTP(t, s, testProposal(t, "x", tc.def), testProposal(t, "owner", defHasOwner),
				mcp("dataset", dsURN, "UPSERT", "status", `{"removed":false}`))
			r := post(t, s, "/test?action=evaluate", `{"urn":"`+dsURN+`","shouldPush":true}`)
			if r.Status != tc.status {
				t.Fatalf("evaluate = %d %s, want %d", r.Status, r.Body, tc.status)
			}
			var got evaluateAnswer
			if err := json.Unmarshal([]byte(r.Body), &got); err != nil {
				t.Fatal(err)
			}
			if len(got.Value.Invalid) != 1 || got.Value.Invalid[0].Test != "urn:li:test:x" || !strings.Contains(got.Value.Invalid[0].Error, tc.msg) {
				t.Errorf("invalid = %+v, want urn:li:test:x with %q", got.Value.Invalid, tc.msg)
			}
			want := testResults{Passing: []testResult{}, Failing: []testResult{{Test: "urn:li:test:owner", Type: "FAILURE"}}}
			got.Value.Invalid = nil
			if diff := cmp.Diff(want, got.Value); diff != "" {
				t.Errorf("the other test's results (-want +got):\n%s", diff)
			}
			stored, err := s.GetAspectJSON(dsURN, "testResults", 0)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(stored), "invalid") {
				t.Errorf("pushed testResults name the invalid test: %s", stored)
			}
		})
	}
}

// TestEvaluateTestsOtherTypes checks that a test for other entity types is
// skipped unread: its definition need not be evaluable by the mock, while
// the entities it applies to get it named in "invalid".
func TestEvaluateTestsOtherTypes(t *testing.T) {
	t.Parallel()
	const broken = `{"on":{"types":["chart"]},"rules":[{"property":"status.removed","operator":"fuzzy","values":["x"]}]}`
	const chart = "urn:li:chart:(looker,c1)"
	s := Start(t)
	ingestHTTP(t, s, testProposal(t, "broken", broken), testProposal(t, "owner", defHasOwner),
		mcp("dataset", dsURN, "UPSERT", "status", `{"removed":false}`),
		mcp("chart", chart, "UPSERT", "status", `{"removed":false}`))
	var got evaluateAnswer
	if err := json.Unmarshal([]byte(postOK(t, s, "/test?action=evaluate", `{"urn":"`+dsURN+`"}`)), &got); err != nil {
		t.Fatal(err)
	}
	want := testResults{Passing: []testResult{}, Failing: []testResult{{Test: "urn:li:test:owner", Type: "FAILURE"}}}
	if diff := cmp.Diff(want, got.Value); diff != "" {
		t.Errorf("dataset results (-want +got):\n%s", diff)
	}
	got = evaluateAnswer{}
	if err := json.Unmarshal([]byte(postOK(t, s, "/test?action=evaluate", `{"urn":"`+chart+`"}`)), &got); err != nil {
		t.Fatal(err)
	}
	want = testResults{Passing: []testResult{}, Failing: []testResult{}, Invalid: []invalidTest{{Test: "urn:li:test:broken",
		Error: "cannot be evaluated by datahub-mock: rules[0].operator: unsupported operator \"fuzzy\" (datahub-mock supports exists, equals, in, contains, starts_with, regex, greater_than, less_than)"}}}
	if diff := cmp.Diff(want, got.Value); diff != "" {
		t.Errorf("chart results (-want +got):\n%s", diff)
	}
}
