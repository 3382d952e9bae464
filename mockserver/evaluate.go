package mockserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/metatest"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// Texts of /test?action=evaluate (mock: DataHub's resource is SaaS-only).
const (
	msgTestsBoth      = "Give the tests to evaluate either as testUrns or as tests, not both (datahub-mock)"
	msgTestPushBoth   = "Give the push flag either as shouldPush or as push, not both (datahub-mock)"
	msgTestNotFound   = "Test %s does not exist or has no testInfo (datahub-mock)"
	msgTestDefinition = "cannot be evaluated by datahub-mock: %s"
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
	parsed, cerr := gms.CheckURN(*urn)
	if cerr != nil {
		writeRestliError(w, fromCore(cerr, rt.op), "")
		return
	}
	s.core.ApplyDue()
	var defs []store.Aspect
	if tests == nil {
		rows, err := s.store.Rows(store.RowQuery{URNPrefix: "urn:li:test:", Aspect: "testInfo"})
		if err != nil {
			writeRestliError(w, errorf(http.StatusInternalServerError, msgStore, err), "")
			return
		}
		defs = rows
	} else {
		for _, t := range *tests {
			a, err := s.store.Get(t, "testInfo", 0)
			if err != nil {
				writeRestliError(w, errorf(http.StatusNotFound, msgTestNotFound, abbreviate(t)), "")
				return
			}
			defs = append(defs, a)
		}
	}
	latest, err := s.store.Latest(*urn)
	if err != nil {
		writeRestliError(w, errorf(http.StatusInternalServerError, msgStore, err), "")
		return
	}
	aspects := make(map[string]json.RawMessage, len(latest))
	for _, a := range latest {
		aspects[a.Name] = a.Value
	}
	res := testResults{Failing: []testResult{}, Passing: []testResult{}}
	for _, d := range defs {
		pass, applies, err := evaluateTest(d, *urn, parsed.EntityType(), aspects)
		if err != nil {
			res.Invalid = append(res.Invalid, invalidTest{Test: d.URN, Error: fmt.Sprintf(msgTestDefinition, err)})
			continue
		}
		switch {
		case !applies:
		case pass:
			res.Passing = append(res.Passing, testResult{Test: d.URN, Type: "SUCCESS"})
		default:
			res.Failing = append(res.Failing, testResult{Test: d.URN, Type: "FAILURE"})
		}
	}
	if push {
		stored := res
		stored.Invalid = nil
		v, _ := json.Marshal(stored)
		if err := s.core.Put(r.Context(), *urn, "testResults", v); err != nil {
			writeRestliError(w, fromCore(err, rt.op), "")
			return
		}
	}
	writeValue(w, res)
}

// evaluateTest runs the definition in a testInfo row against an entity.
func evaluateTest(info store.Aspect, urn, entityType string, aspects map[string]json.RawMessage) (pass, applies bool, err error) {
	var ti struct {
		Definition struct {
			Type string  `json:"type"`
			JSON *string `json:"json"`
		} `json:"definition"`
	}
	if err := json.Unmarshal(info.Value, &ti); err != nil {
		return false, false, fmt.Errorf("testInfo: %s", gms.JSONErrorText(err))
	}
	if !strings.EqualFold(ti.Definition.Type, "JSON") || ti.Definition.JSON == nil {
		return false, false, &metatest.Error{Path: "testInfo.definition", Msg: "expected type JSON with a json definition"}
	}
	// Only a test that applies to the entity's type must be evaluable.
	if applies, known := metatest.AppliesTo(*ti.Definition.JSON, entityType); known && !applies {
		return false, false, nil
	}
	def, err := metatest.Parse(*ti.Definition.JSON)
	if err != nil {
		return false, false, err
	}
	r, err := def.Evaluate(urn, entityType, aspects)
	if err != nil {
		return false, false, err
	}
	return r.Passes, r.Applies, nil
}
