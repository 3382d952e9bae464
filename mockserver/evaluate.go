package mockserver

import (
	"net/http"
)

// Texts of /test?action=evaluate (mock: DataHub's resource is SaaS-only).
const (
	msgTestsBoth    = "Give the tests to evaluate either as testUrns or as tests, not both (datahub-mock)"
	msgTestPushBoth = "Give the push flag either as shouldPush or as push, not both (datahub-mock)"
)

// testResult is com.linkedin.test.TestResult.
type testResult struct {
	Test string `json:"test"`
	Type string `json:"type"`
}

// testResults is com.linkedin.test.TestResults, and in the answer of
// evaluate (not in the stored aspect) the mock's invalid list.
type testResults struct {
	Failing []testResult `json:"failing"`
	Passing []testResult `json:"passing"`
	// Invalid names the tests that apply to the entity and whose
	// definitions cannot be evaluated (mock only: DataHub leaves them out
	// of both lists and logs them).
	Invalid []invalidTest `json:"invalid,omitempty"`
}

// invalidTest is a test whose definition cannot be evaluated, and why.
type invalidTest struct {
	Test  string `json:"test"`
	Error string `json:"error"`
}

// handleEvaluate serves POST /test?action=evaluate: the metadata tests
// (urn:li:test:* entities with a testInfo whose definition is JSON) that
// apply to the entity, split into passing and failing; with push (or
// shouldPush) true the results are written as the entity's testResults
// aspect. DataHub's documented testUrns/shouldPush and its resource's
// tests/push are both accepted. Without a list, every test is evaluated, in the store's row
// order; with one, the listed tests in their order (an unknown one is a
// 404). A test whose types or conditions do not match the entity is in
// neither list. A test whose on.types leave out the entity's type is
// skipped before the rest of its definition is read. A test that applies
// and whose definition cannot be evaluated (malformed, an unknown operator;
// see package internal/metatest) is left out of both lists, as DataHub's
// test engine leaves out a definition that does not parse or validate, and
// named with the reason in the answer's extra member "invalid" (mock only,
// never in the pushed testResults); the other tests are evaluated.
func (s *Server) handleEvaluate(w http.ResponseWriter, r *http.Request, rt routed) {
	var (
		urn                *string
		testURNs, tests    *[]string
		shouldPush, pushed *bool
	)
	if rerr := decodeParams(r, "evaluate", []param{
		{"urn", "String", &urn, true}, {"testUrns", "Array", &testURNs, false}, {"tests", "Array", &tests, false},
		{"shouldPush", "Boolean", &shouldPush, false}, {"push", "Boolean", &pushed, false},
	}); rerr != nil {
		writeRestliError(w, rerr, "")
		return
	}
	if testURNs != nil && tests != nil {
		writeRestliError(w, errorf(http.StatusBadRequest, msgTestsBoth), "")
		return
	}
	if shouldPush != nil && pushed != nil {
		writeRestliError(w, errorf(http.StatusBadRequest, msgTestPushBoth), "")
		return
	}
	if tests == nil {
		tests = testURNs
	}
	push := (shouldPush != nil && *shouldPush) || (pushed != nil && *pushed)
	var listed []string
	if tests != nil {
		listed = *tests
		if listed == nil {
			listed = []string{}
		}
	}
	ev, err := s.core.EvaluateTests(r.Context(), *urn, listed, push)
	if err != nil {
		writeRestliError(w, fromCore(err, rt.op), "")
		return
	}
	res := testResults{Failing: []testResult{}, Passing: []testResult{}}
	for _, u := range ev.Passing {
		res.Passing = append(res.Passing, testResult{Test: u, Type: "SUCCESS"})
	}
	for _, u := range ev.Failing {
		res.Failing = append(res.Failing, testResult{Test: u, Type: "FAILURE"})
	}
	for _, t := range ev.Invalid {
		res.Invalid = append(res.Invalid, invalidTest{Test: t.Test, Error: t.Reason})
	}
	writeValue(w, res)
}
